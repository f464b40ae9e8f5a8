import MacroTesting
import Testing

/// What `@Model` generates, role by role, expanded in process by swift-syntax's macro system
/// (`assertMacro`): a struct gets nothing in its body and everything in an extension (so that its
/// memberwise initializer survives); a class gets its required initializers and overridable
/// members in its body. Markers (`@Key`, `@Identifier`, ...) expand to nothing: `@Model` reads them.
@Suite(.macros(ModelKitMacros.specs(tracking: false)))
struct ModelMacroExpansionTests {
    @Test func aStructGetsItsSchemaAndFunctionsInAnExtension() {
        assertMacro {
            """
            @Model(keys: .snakeCase)
            struct Tag {
                @Identifier var id: Int
                @Key("meta.label", "label") var label: String
                @Transform(.iso8601) var createdAt: Date?
                var count: Int = 0
                @Transient var cache: String? = nil
            }
            """
        } expansion: {
            #"""
            struct Tag {
                var id: Int
                var label: String
                var createdAt: Date?
                var count: Int = 0
                var cache: String? = nil
            }

            extension Tag: ModelKitCore.Model, Hashable, CustomStringConvertible {
                static let modelSchema: ModelKitCore.ModelSchema = ModelKitCore.ModelSchema(
                    name: "Tag",
                    type: Tag.self,
                    keyStrategy: .snakeCase,
                    properties: [
                        ModelKitCore.ModelProperty("id", keyPath: \Tag.id, typeName: "Int", declaredIn: "Tag", flags: [.identifier]),
                        ModelKitCore.ModelProperty("label", keyPath: \Tag.label, typeName: "String", declaredIn: "Tag", remote: [["meta", "label"], ["label"]], flags: []),
                        ModelKitCore.ModelProperty("createdAt", keyPath: \Tag.createdAt, typeName: "Date?", declaredIn: "Tag", flags: [.optional], transformer: Tag.__modelKitTransformer_createdAt, transformerDescription: ".iso8601"),
                        ModelKitCore.ModelProperty("count", keyPath: \Tag.count, typeName: "Int", declaredIn: "Tag", flags: [.hasDefault], defaultExpression: "0"),
                        ModelKitCore.ModelProperty("cache", keyPath: \Tag.cache, typeName: "String?", declaredIn: "Tag", flags: [.optional, .transient, .hasDefault], defaultExpression: "nil")
                    ]
                )

                struct __ModelKitFields: ModelKitCore.ModelFieldDecoder {
                    fileprivate var values: (Optional<Int>, Optional<String>, Optional<Date?>, Optional<Int>) = (nil, nil, nil, nil)
                    init() {}
                    init<R: ModelKitCore.ModelReader>(reading reader: inout R) throws {
                        try reader.decodeFields(of: Tag.modelSchema, into: &self)
                    }
                    @_specialize(where R == ModelKit.ModelRuntimeTypeReader)
                    mutating func decodeField<R: ModelKitCore.ModelReader>(_ index: Int, from reader: inout R) throws {
                        switch index {
                        case 0:
                            #sourceLocation(file: "Test.swift", line: 3)
                            self.values.0 = try reader.decodeValue((Int).self)
                            #sourceLocation()
                        case 1:
                            #sourceLocation(file: "Test.swift", line: 4)
                            self.values.1 = try reader.decodeValue((String).self)
                            #sourceLocation()
                        case 2:
                            #sourceLocation(file: "Test.swift", line: 5)
                            self.values.2 = try reader.decodeValue((Date?).self, transformer: Tag.__modelKitTransformer_createdAt)
                            #sourceLocation()
                        case 3:
                            #sourceLocation(file: "Test.swift", line: 6)
                            self.values.3 = try reader.decodeValue((Int).self)
                            #sourceLocation()
                        default:
                            break
                        }
                    }
                }

                init(modelFields fields: consuming __ModelKitFields, mapping: ModelKitCore.ModelSchema.Mapping) throws {
                    let (__modelKitSlot0, __modelKitSlot1, __modelKitSlot2, __modelKitSlot3) = fields.values
                    guard let __id = __modelKitSlot0, let __label = __modelKitSlot1 else {
                        var missing: [Int] = []
                        if __modelKitSlot0 == nil { missing.append(0) }
                        if __modelKitSlot1 == nil { missing.append(1) }
                        throw ModelKitCore.ModelError.missingValues(missing, in: Tag.modelSchema, mapping: mapping)
                    }
                    self.id = __id
                    self.label = __label
                    if let __value = __modelKitSlot2 { self.createdAt = __value } else { self.createdAt = nil }
                    if let __value = __modelKitSlot3 { self.count = __value } else { self.count = (0) }
                }

                init<R: ModelKitCore.ModelReader>(modelReader reader: inout R) throws {
                    try self.init(modelFields: __ModelKitFields(reading: &reader), mapping: reader.mapping)
                }

                @_specialize(where W == ModelKit.ModelRuntimeTypeWriter)
                func encodeModelField<W: ModelKitCore.ModelWriter>(_ index: Int, to writer: inout W) throws {
                    switch index {
                    case 0:
                        #sourceLocation(file: "Test.swift", line: 3)
                        try writer.encodeValue(self.id)
                        #sourceLocation()
                    case 1:
                        #sourceLocation(file: "Test.swift", line: 4)
                        try writer.encodeValue(self.label)
                        #sourceLocation()
                    case 2:
                        #sourceLocation(file: "Test.swift", line: 5)
                        try writer.encodeValue(self.createdAt, transformer: Tag.__modelKitTransformer_createdAt)
                        #sourceLocation()
                    case 3:
                        #sourceLocation(file: "Test.swift", line: 6)
                        try writer.encodeValue(self.count)
                        #sourceLocation()
                    default:
                        break
                    }
                }

                mutating func decodeModelField<R: ModelKitCore.ModelReader>(_ index: Int, from reader: inout R) throws {
                    switch index {
                    case 0:
                        #sourceLocation(file: "Test.swift", line: 3)
                        self.id = try reader.decodeValue((Int).self)
                        #sourceLocation()
                    case 1:
                        #sourceLocation(file: "Test.swift", line: 4)
                        self.label = try reader.decodeValue((String).self)
                        #sourceLocation()
                    case 2:
                        #sourceLocation(file: "Test.swift", line: 5)
                        self.createdAt = try reader.decodeValue((Date?).self, transformer: Tag.__modelKitTransformer_createdAt)
                        #sourceLocation()
                    case 3:
                        #sourceLocation(file: "Test.swift", line: 6)
                        self.count = try reader.decodeValue((Int).self)
                        #sourceLocation()
                    case 4:
                        #sourceLocation(file: "Test.swift", line: 7)
                        self.cache = try reader.decodeValue((String?).self)
                        #sourceLocation()
                    default:
                        throw ModelKitCore.ModelError.readOnly(index, in: Tag.modelSchema)
                    }
                }

                #sourceLocation(file: "Test.swift", line: 5)
                static let __modelKitTransformer_createdAt = ModelKitCore.modelTransformer(for: (Date?).self, .iso8601)
                #sourceLocation()

                // '@Model' found no 'rewriteJSON(_:)' in the body of 'Tag': hooks are declared in the type's body.
                static func rewriteJSON(_ json: inout ModelKitCore.JSONValue) throws {}

                // '@Model' found no 'modelType(for:)' in the body of 'Tag': hooks are declared in the type's body.
                static func modelType(for json: ModelKitCore.JSONValue) throws -> (any ModelKitCore.Model.Type)? { nil }

                // '@Model' found no 'validate()' in the body of 'Tag': hooks are declared in the type's body.
                func validate() throws {}

                static func decodeModelIdentifier<R: ModelKitCore.ModelReader>(from reader: inout R) throws -> AnyHashable {
                    AnyHashable(try reader.decodeValue((Int).self))
                }

                static func == (lhs: Tag, rhs: Tag) -> Bool {
                    guard ModelKitCore.modelValuesEqual(lhs.id, rhs.id) else { return false }
                    guard ModelKitCore.modelValuesEqual(lhs.label, rhs.label) else { return false }
                    guard ModelKitCore.modelValuesEqual(lhs.createdAt, rhs.createdAt) else { return false }
                    guard ModelKitCore.modelValuesEqual(lhs.count, rhs.count) else { return false }
                    return true
                }

                func hash(into hasher: inout Hasher) {
                    ModelKitCore.modelHashValue(self.id, into: &hasher)
                    ModelKitCore.modelHashValue(self.label, into: &hasher)
                    ModelKitCore.modelHashValue(self.createdAt, into: &hasher)
                    ModelKitCore.modelHashValue(self.count, into: &hasher)
                }

                init(from decoder: any Decoder) throws {
                    var reader = ModelKitCore.CodableReader(decoder: decoder)
                    do {
                        try self.init(modelReader: &reader)
                    } catch {
                        try reader.throwProblems(after: error)
                    }
                    try reader.validateModel(self)
                    try reader.throwCollectedProblems(model: nil)
                }

                func encode(to encoder: any Encoder) throws {
                    var writer = ModelKitCore.CodableWriter(encoder: encoder)
                    try writer.encodeModel(self)
                }

                var description: String { modelDescription }
            }
            """#
        }
    }

    @Test func aNestedTypeIsNamedQualifiedWhereTheBareNameWouldNotResolve() {
        assertMacro {
            """
            enum Outer {
                @Model
                struct Inner {
                    @Transform(.iso8601) var at: Date
                }
            }
            """
        } expansion: {
            #"""
            enum Outer {
                struct Inner {
                    var at: Date
                }
            }

            extension Outer.Inner: ModelKitCore.Model, Hashable, CustomStringConvertible {
                static let modelSchema: ModelKitCore.ModelSchema = ModelKitCore.ModelSchema(
                    name: "Inner",
                    type: Outer.Inner.self,
                    properties: [
                        ModelKitCore.ModelProperty("at", keyPath: \Outer.Inner.at, typeName: "Date", declaredIn: "Inner", flags: [], transformer: Outer.Inner.__modelKitTransformer_at, transformerDescription: ".iso8601")
                    ]
                )

                struct __ModelKitFields: ModelKitCore.ModelFieldDecoder {
                    fileprivate var values: (Optional<Date>, Void) = (nil, ())
                    init() {}
                    init<R: ModelKitCore.ModelReader>(reading reader: inout R) throws {
                        try reader.decodeFields(of: Outer.Inner.modelSchema, into: &self)
                    }
                    @_specialize(where R == ModelKit.ModelRuntimeTypeReader)
                    mutating func decodeField<R: ModelKitCore.ModelReader>(_ index: Int, from reader: inout R) throws {
                        switch index {
                        case 0:
                            #sourceLocation(file: "Test.swift", line: 4)
                            self.values.0 = try reader.decodeValue((Date).self, transformer: Outer.Inner.__modelKitTransformer_at)
                            #sourceLocation()
                        default:
                            break
                        }
                    }
                }

                init(modelFields fields: consuming __ModelKitFields, mapping: ModelKitCore.ModelSchema.Mapping) throws {
                    let (__modelKitSlot0, _) = fields.values
                    guard let __at = __modelKitSlot0 else {
                        var missing: [Int] = []
                        if __modelKitSlot0 == nil { missing.append(0) }
                        throw ModelKitCore.ModelError.missingValues(missing, in: Outer.Inner.modelSchema, mapping: mapping)
                    }
                    self.at = __at
                }

                init<R: ModelKitCore.ModelReader>(modelReader reader: inout R) throws {
                    try self.init(modelFields: __ModelKitFields(reading: &reader), mapping: reader.mapping)
                }

                @_specialize(where W == ModelKit.ModelRuntimeTypeWriter)
                func encodeModelField<W: ModelKitCore.ModelWriter>(_ index: Int, to writer: inout W) throws {
                    switch index {
                    case 0:
                        #sourceLocation(file: "Test.swift", line: 4)
                        try writer.encodeValue(self.at, transformer: Outer.Inner.__modelKitTransformer_at)
                        #sourceLocation()
                    default:
                        break
                    }
                }

                mutating func decodeModelField<R: ModelKitCore.ModelReader>(_ index: Int, from reader: inout R) throws {
                    switch index {
                    case 0:
                        #sourceLocation(file: "Test.swift", line: 4)
                        self.at = try reader.decodeValue((Date).self, transformer: Outer.Inner.__modelKitTransformer_at)
                        #sourceLocation()
                    default:
                        throw ModelKitCore.ModelError.readOnly(index, in: Outer.Inner.modelSchema)
                    }
                }

                #sourceLocation(file: "Test.swift", line: 4)
                static let __modelKitTransformer_at = ModelKitCore.modelTransformer(for: (Date).self, .iso8601)
                #sourceLocation()

                // '@Model' found no 'rewriteJSON(_:)' in the body of 'Inner': hooks are declared in the type's body.
                static func rewriteJSON(_ json: inout ModelKitCore.JSONValue) throws {}

                // '@Model' found no 'modelType(for:)' in the body of 'Inner': hooks are declared in the type's body.
                static func modelType(for json: ModelKitCore.JSONValue) throws -> (any ModelKitCore.Model.Type)? { nil }

                // '@Model' found no 'validate()' in the body of 'Inner': hooks are declared in the type's body.
                func validate() throws {}

                static func == (lhs: Outer.Inner, rhs: Outer.Inner) -> Bool {
                    guard ModelKitCore.modelValuesEqual(lhs.at, rhs.at) else { return false }
                    return true
                }

                func hash(into hasher: inout Hasher) {
                    ModelKitCore.modelHashValue(self.at, into: &hasher)
                }

                init(from decoder: any Decoder) throws {
                    var reader = ModelKitCore.CodableReader(decoder: decoder)
                    do {
                        try self.init(modelReader: &reader)
                    } catch {
                        try reader.throwProblems(after: error)
                    }
                    try reader.validateModel(self)
                    try reader.throwCollectedProblems(model: nil)
                }

                func encode(to encoder: any Encoder) throws {
                    var writer = ModelKitCore.CodableWriter(encoder: encoder)
                    try writer.encodeModel(self)
                }

                var description: String { modelDescription }
            }
            """#
        }
    }

    /// The class's stored `var`s get `@_ModelTracked` (observation; expanded in
    /// ObservationExpansionTests), and its body the members subclasses override.
    @Test func aClassGetsRequiredInitializersInItsBody() {
        assertMacro {
            """
            @Model
            class Shape {
                var name: String
                weak var parent: Shape?
            }
            """
        } expansion: {
            #"""
            class Shape {
                @_ModelTracked
                var name: String
                weak var parent: Shape?

                class var modelSchema: ModelKitCore.ModelSchema { __modelKitSchema_Shape }
                private static let __modelKitSchema_Shape: ModelKitCore.ModelSchema = ModelKitCore.ModelSchema(
                    name: "Shape",
                    type: Shape.self,
                    properties: [
                        ModelKitCore.ModelProperty("name", keyPath: \Shape.name, typeName: "String", declaredIn: "Shape", flags: []),
                        ModelKitCore.ModelProperty("parent", keyPath: \Shape.parent, typeName: "Shape?", declaredIn: "Shape", flags: [.optional, .weak])
                    ]
                )

                struct __ModelKitFields: ModelKitCore.ModelFieldDecoder {
                    fileprivate var values: (Optional<String>, Optional<Shape?>) = (nil, nil)
                    init() {}
                    init<R: ModelKitCore.ModelReader>(reading reader: inout R) throws {
                        try reader.decodeFields(of: Shape.modelSchema, into: &self)
                    }
                    @_specialize(where R == ModelKit.ModelRuntimeTypeReader)
                    mutating func decodeField<R: ModelKitCore.ModelReader>(_ index: Int, from reader: inout R) throws {
                        switch index {
                        case 0:
                            #sourceLocation(file: "Test.swift", line: 3)
                            self.values.0 = try reader.decodeValue((String).self)
                            #sourceLocation()
                        case 1:
                            #sourceLocation(file: "Test.swift", line: 4)
                            self.values.1 = try reader.decodeValue((Shape?).self)
                            #sourceLocation()
                        default:
                            break
                        }
                    }
                }

                init(modelFields fields: consuming __ModelKitFields, mapping: ModelKitCore.ModelSchema.Mapping) throws {
                    let (__modelKitSlot0, __modelKitSlot1) = fields.values
                    guard let __name = __modelKitSlot0 else {
                        var missing: [Int] = []
                        if __modelKitSlot0 == nil { missing.append(0) }
                        throw ModelKitCore.ModelError.missingValues(missing, in: Shape.modelSchema, mapping: mapping)
                    }
                    self._name = __name
                    if let __value = __modelKitSlot1 { self.parent = __value } else { self.parent = nil }
                }

                required convenience init<R: ModelKitCore.ModelReader>(modelReader reader: inout R) throws {
                    try self.init(modelFields: __ModelKitFields(reading: &reader), mapping: reader.mapping)
                }

                @_specialize(where W == ModelKit.ModelRuntimeTypeWriter)
                func encodeModelField<W: ModelKitCore.ModelWriter>(_ index: Int, to writer: inout W) throws {
                    switch index {
                    case 0:
                        #sourceLocation(file: "Test.swift", line: 3)
                        try writer.encodeValue(self._name)
                        #sourceLocation()
                    case 1:
                        #sourceLocation(file: "Test.swift", line: 4)
                        try writer.encodeValue(self.parent)
                        #sourceLocation()
                    default:
                        break
                    }
                }

                func decodeModelField<R: ModelKitCore.ModelReader>(_ index: Int, from reader: inout R) throws {
                    switch index {
                    case 0:
                        #sourceLocation(file: "Test.swift", line: 3)
                        self.name = try reader.decodeValue((String).self)
                        #sourceLocation()
                    case 1:
                        #sourceLocation(file: "Test.swift", line: 4)
                        self.parent = try reader.decodeValue((Shape?).self)
                        #sourceLocation()
                    default:
                        throw ModelKitCore.ModelError.readOnly(index, in: Shape.modelSchema)
                    }
                }

                // '@Model' found no 'rewriteJSON(_:)' in the body of 'Shape': hooks are declared in the type's body.
                class func rewriteJSON(_ json: inout ModelKitCore.JSONValue) throws {}

                // '@Model' found no 'modelType(for:)' in the body of 'Shape': hooks are declared in the type's body.
                class func modelType(for json: ModelKitCore.JSONValue) throws -> (any ModelKitCore.Model.Type)? { nil }

                // '@Model' found no 'validate()' in the body of 'Shape': hooks are declared in the type's body.
                func validate() throws {}

                /// Where reads and writes of the observable properties are reported (not a property of the schema).
                let _modelKitRegistrar = ModelKitCore.ModelObservationRegistrar()

                /// The relationships the store left to load on first access (not a property of the schema).
                var _modelKitFaults: ModelKitCore.ModelFaults?

                func loadPendingRelationships() throws {
                    try _modelKitLoadPending()
                }

                func isModelEqual(to other: AnyObject) -> Bool {
                    guard let other = other as? Shape else { return false }
                    guard ModelKitCore.modelValuesEqual(self._name, other._name) else { return false }
                    guard ModelKitCore.modelReferencesIdentical(self.parent, other.parent) else { return false }
                    return true
                }

                func hash(into hasher: inout Hasher) {
                    ModelKitCore.modelHashValue(self._name, into: &hasher)
                }

                required convenience init(from decoder: any Decoder) throws {
                    var reader = ModelKitCore.CodableReader(decoder: decoder)
                    do {
                        try self.init(modelReader: &reader)
                    } catch {
                        try reader.throwProblems(after: error)
                    }
                    try reader.validateModel(self)
                    try reader.throwCollectedProblems(model: nil)
                }

                func encode(to encoder: any Encoder) throws {
                    var writer = ModelKitCore.CodableWriter(encoder: encoder)
                    try writer.encodeModel(self)
                }

                init(name: String, parent: Shape? = nil) {
                    self._name = name
                    self.parent = parent
                }
            }

            extension Shape: ModelKitCore.Model, ModelKitCore.ObservableModel, Hashable, CustomStringConvertible {
                static func == (lhs: Shape, rhs: Shape) -> Bool {
                    lhs === rhs || (type(of: lhs) == type(of: rhs) && lhs.isModelEqual(to: rhs))
                }

                var description: String { modelDescription }
            }
            """#
        }
    }

    /// A subclass of a `@Model` class: swiftc asks only for the conformance its parent lacks.
    @Test func aSubclassExtendsItsParentsSchema() {
        assertMacro(ModelKitMacros.specs(conformances: ["ObservableModel"], tracking: false)) {
            """
            @Model
            final class Circle: Shape {
                var radius: Double
            }
            """
        } expansion: {
            #"""
            final class Circle: Shape {
                @_ModelTracked
                var radius: Double

                override class var modelSchema: ModelKitCore.ModelSchema { __modelKitSchema_Circle }
                private static let __modelKitSchema_Circle: ModelKitCore.ModelSchema = ModelKitCore.ModelSchema(
                    name: "Circle",
                    type: Circle.self,
                    inheriting: Shape.modelSchema,
                    properties: [
                        ModelKitCore.ModelProperty("radius", keyPath: \Circle.radius, typeName: "Double", declaredIn: "Circle", flags: [])
                    ]
                )

                struct __ModelKitFields: ModelKitCore.ModelFieldDecoder {
                    fileprivate var values: (Optional<Double>, Void) = (nil, ())
                    var _super = Shape.__ModelKitFields()
                    init() {}
                    init<R: ModelKitCore.ModelReader>(reading reader: inout R) throws {
                        try reader.decodeFields(of: Circle.modelSchema, into: &self)
                    }
                    @_specialize(where R == ModelKit.ModelRuntimeTypeReader)
                    mutating func decodeField<R: ModelKitCore.ModelReader>(_ index: Int, from reader: inout R) throws {
                        let own = index - Circle.__modelKitBase
                        guard own >= 0 else {
                            try _super.decodeField(index, from: &reader)
                            return
                        }
                        switch own {
                        case 0:
                            #sourceLocation(file: "Test.swift", line: 3)
                            self.values.0 = try reader.decodeValue((Double).self)
                            #sourceLocation()
                        default:
                            break
                        }
                    }
                }

                init(modelFields fields: consuming __ModelKitFields, mapping: ModelKitCore.ModelSchema.Mapping) throws {
                    let (__modelKitSlot0, _) = fields.values
                    guard let __radius = __modelKitSlot0 else {
                        var missing: [Int] = []
                        if __modelKitSlot0 == nil { missing.append(Circle.__modelKitBase + 0) }
                        throw ModelKitCore.ModelError.missingValues(missing, in: Circle.modelSchema, mapping: mapping)
                    }
                    self._radius = __radius
                    try super.init(modelFields: fields._super, mapping: mapping)
                }

                required convenience init<R: ModelKitCore.ModelReader>(modelReader reader: inout R) throws {
                    try self.init(modelFields: __ModelKitFields(reading: &reader), mapping: reader.mapping)
                }

                @_specialize(where W == ModelKit.ModelRuntimeTypeWriter)
                override func encodeModelField<W: ModelKitCore.ModelWriter>(_ index: Int, to writer: inout W) throws {
                    let own = index - Circle.__modelKitBase
                    guard own >= 0 else {
                        try super.encodeModelField(index, to: &writer)
                        return
                    }
                    switch own {
                    case 0:
                        #sourceLocation(file: "Test.swift", line: 3)
                        try writer.encodeValue(self._radius)
                        #sourceLocation()
                    default:
                        break
                    }
                }

                override func decodeModelField<R: ModelKitCore.ModelReader>(_ index: Int, from reader: inout R) throws {
                    let own = index - Circle.__modelKitBase
                    guard own >= 0 else {
                        try super.decodeModelField(index, from: &reader)
                        return
                    }
                    switch own {
                    case 0:
                        #sourceLocation(file: "Test.swift", line: 3)
                        self.radius = try reader.decodeValue((Double).self)
                        #sourceLocation()
                    default:
                        throw ModelKitCore.ModelError.readOnly(index, in: Circle.modelSchema)
                    }
                }

                static let __modelKitBase = Shape.modelSchema.properties.count

                override func isModelEqual(to other: AnyObject) -> Bool {
                    guard let other = other as? Circle, super.isModelEqual(to: other) else { return false }
                    guard ModelKitCore.modelValuesEqual(self._radius, other._radius) else { return false }
                    return true
                }

                override func hash(into hasher: inout Hasher) {
                    super.hash(into: &hasher)
                    ModelKitCore.modelHashValue(self._radius, into: &hasher)
                }

                required convenience init(from decoder: any Decoder) throws {
                    var reader = ModelKitCore.CodableReader(decoder: decoder)
                    do {
                        try self.init(modelReader: &reader)
                    } catch {
                        try reader.throwProblems(after: error)
                    }
                    try reader.validateModel(self)
                    try reader.throwCollectedProblems(model: nil)
                }
            }
            """#
        }
    }

    /// `@Archive` sets a property's archive behaviour; `@Key(null:)` and
    /// `@Model(unknownKeys:)` go to the schema.
    @Test func archiveNullAndUnknownKeyPoliciesGoToTheSchema() {
        assertMacro {
            """
            @Model(unknownKeys: .reject)
            struct Note {
                @Archive(.conditional) var link: String?
                @Key("vol", null: .useDefault) var volume: Double = 1
                @Key(null: .useDefault) var title: String = ""
            }
            """
        } expansion: {
            #"""
            struct Note {
                var link: String?
                var volume: Double = 1
                var title: String = ""
            }

            extension Note: ModelKitCore.Model, Hashable, CustomStringConvertible {
                static let modelSchema: ModelKitCore.ModelSchema = ModelKitCore.ModelSchema(
                    name: "Note",
                    type: Note.self,
                    unknownKeys: .reject,
                    properties: [
                        ModelKitCore.ModelProperty("link", keyPath: \Note.link, typeName: "String?", declaredIn: "Note", flags: [.optional], archive: .conditional),
                        ModelKitCore.ModelProperty("volume", keyPath: \Note.volume, typeName: "Double", declaredIn: "Note", remote: [["vol"]], flags: [.hasDefault, .nullUsesDefault], defaultExpression: "1"),
                        ModelKitCore.ModelProperty("title", keyPath: \Note.title, typeName: "String", declaredIn: "Note", flags: [.hasDefault, .nullUsesDefault], defaultExpression: "\"\"")
                    ]
                )

                struct __ModelKitFields: ModelKitCore.ModelFieldDecoder {
                    fileprivate var values: (Optional<String?>, Optional<Double>, Optional<String>) = (nil, nil, nil)
                    init() {}
                    init<R: ModelKitCore.ModelReader>(reading reader: inout R) throws {
                        try reader.decodeFields(of: Note.modelSchema, into: &self)
                    }
                    @_specialize(where R == ModelKit.ModelRuntimeTypeReader)
                    mutating func decodeField<R: ModelKitCore.ModelReader>(_ index: Int, from reader: inout R) throws {
                        switch index {
                        case 0:
                            #sourceLocation(file: "Test.swift", line: 3)
                            self.values.0 = try reader.decodeValue((String?).self)
                            #sourceLocation()
                        case 1:
                            #sourceLocation(file: "Test.swift", line: 4)
                            self.values.1 = try reader.decodeValue((Double).self)
                            #sourceLocation()
                        case 2:
                            #sourceLocation(file: "Test.swift", line: 5)
                            self.values.2 = try reader.decodeValue((String).self)
                            #sourceLocation()
                        default:
                            break
                        }
                    }
                }

                init(modelFields fields: consuming __ModelKitFields, mapping: ModelKitCore.ModelSchema.Mapping) throws {
                    let (__modelKitSlot0, __modelKitSlot1, __modelKitSlot2) = fields.values
                    if let __value = __modelKitSlot0 { self.link = __value } else { self.link = nil }
                    if let __value = __modelKitSlot1 { self.volume = __value } else { self.volume = (1) }
                    if let __value = __modelKitSlot2 { self.title = __value } else { self.title = ("") }
                }

                init<R: ModelKitCore.ModelReader>(modelReader reader: inout R) throws {
                    try self.init(modelFields: __ModelKitFields(reading: &reader), mapping: reader.mapping)
                }

                @_specialize(where W == ModelKit.ModelRuntimeTypeWriter)
                func encodeModelField<W: ModelKitCore.ModelWriter>(_ index: Int, to writer: inout W) throws {
                    switch index {
                    case 0:
                        #sourceLocation(file: "Test.swift", line: 3)
                        try writer.encodeValue(self.link)
                        #sourceLocation()
                    case 1:
                        #sourceLocation(file: "Test.swift", line: 4)
                        try writer.encodeValue(self.volume)
                        #sourceLocation()
                    case 2:
                        #sourceLocation(file: "Test.swift", line: 5)
                        try writer.encodeValue(self.title)
                        #sourceLocation()
                    default:
                        break
                    }
                }

                mutating func decodeModelField<R: ModelKitCore.ModelReader>(_ index: Int, from reader: inout R) throws {
                    switch index {
                    case 0:
                        #sourceLocation(file: "Test.swift", line: 3)
                        self.link = try reader.decodeValue((String?).self)
                        #sourceLocation()
                    case 1:
                        #sourceLocation(file: "Test.swift", line: 4)
                        self.volume = try reader.decodeValue((Double).self)
                        #sourceLocation()
                    case 2:
                        #sourceLocation(file: "Test.swift", line: 5)
                        self.title = try reader.decodeValue((String).self)
                        #sourceLocation()
                    default:
                        throw ModelKitCore.ModelError.readOnly(index, in: Note.modelSchema)
                    }
                }

                // '@Model' found no 'rewriteJSON(_:)' in the body of 'Note': hooks are declared in the type's body.
                static func rewriteJSON(_ json: inout ModelKitCore.JSONValue) throws {}

                // '@Model' found no 'modelType(for:)' in the body of 'Note': hooks are declared in the type's body.
                static func modelType(for json: ModelKitCore.JSONValue) throws -> (any ModelKitCore.Model.Type)? { nil }

                // '@Model' found no 'validate()' in the body of 'Note': hooks are declared in the type's body.
                func validate() throws {}

                static func == (lhs: Note, rhs: Note) -> Bool {
                    guard ModelKitCore.modelValuesEqual(lhs.link, rhs.link) else { return false }
                    guard ModelKitCore.modelValuesEqual(lhs.volume, rhs.volume) else { return false }
                    guard ModelKitCore.modelValuesEqual(lhs.title, rhs.title) else { return false }
                    return true
                }

                func hash(into hasher: inout Hasher) {
                    ModelKitCore.modelHashValue(self.link, into: &hasher)
                    ModelKitCore.modelHashValue(self.volume, into: &hasher)
                    ModelKitCore.modelHashValue(self.title, into: &hasher)
                }

                init(from decoder: any Decoder) throws {
                    var reader = ModelKitCore.CodableReader(decoder: decoder)
                    do {
                        try self.init(modelReader: &reader)
                    } catch {
                        try reader.throwProblems(after: error)
                    }
                    try reader.validateModel(self)
                    try reader.throwCollectedProblems(model: nil)
                }

                func encode(to encoder: any Encoder) throws {
                    var writer = ModelKitCore.CodableWriter(encoder: encoder)
                    try writer.encodeModel(self)
                }

                var description: String { modelDescription }
            }
            """#
        }
    }

    /// The macro sees hooks only in the type's body, so it gives the type empty ones for the
    /// rest: a hook declared in an extension is then swiftc's "invalid redeclaration" error on
    /// that line instead of a hook that is never called. `validate()`, declared here, is not
    /// generated again, and the schema says the model validates.
    @Test func hooksNotInTheBodyGetEmptyOnesSoAnExtensionsHookIsAnError() {
        assertMacro {
            """
            @Model
            struct Checked {
                var value: Int
                func validate() throws {}
            }
            """
        } expansion: {
            #"""
            struct Checked {
                var value: Int
                func validate() throws {}
            }

            extension Checked: ModelKitCore.Model, Hashable, CustomStringConvertible {
                static let modelSchema: ModelKitCore.ModelSchema = ModelKitCore.ModelSchema(
                    name: "Checked",
                    type: Checked.self,
                    hooks: [.validates],
                    properties: [
                        ModelKitCore.ModelProperty("value", keyPath: \Checked.value, typeName: "Int", declaredIn: "Checked", flags: [])
                    ]
                )

                struct __ModelKitFields: ModelKitCore.ModelFieldDecoder {
                    fileprivate var values: (Optional<Int>, Void) = (nil, ())
                    init() {}
                    init<R: ModelKitCore.ModelReader>(reading reader: inout R) throws {
                        try reader.decodeFields(of: Checked.modelSchema, into: &self)
                    }
                    @_specialize(where R == ModelKit.ModelRuntimeTypeReader)
                    mutating func decodeField<R: ModelKitCore.ModelReader>(_ index: Int, from reader: inout R) throws {
                        switch index {
                        case 0:
                            #sourceLocation(file: "Test.swift", line: 3)
                            self.values.0 = try reader.decodeValue((Int).self)
                            #sourceLocation()
                        default:
                            break
                        }
                    }
                }

                init(modelFields fields: consuming __ModelKitFields, mapping: ModelKitCore.ModelSchema.Mapping) throws {
                    let (__modelKitSlot0, _) = fields.values
                    guard let __value = __modelKitSlot0 else {
                        var missing: [Int] = []
                        if __modelKitSlot0 == nil { missing.append(0) }
                        throw ModelKitCore.ModelError.missingValues(missing, in: Checked.modelSchema, mapping: mapping)
                    }
                    self.value = __value
                }

                init<R: ModelKitCore.ModelReader>(modelReader reader: inout R) throws {
                    try self.init(modelFields: __ModelKitFields(reading: &reader), mapping: reader.mapping)
                }

                @_specialize(where W == ModelKit.ModelRuntimeTypeWriter)
                func encodeModelField<W: ModelKitCore.ModelWriter>(_ index: Int, to writer: inout W) throws {
                    switch index {
                    case 0:
                        #sourceLocation(file: "Test.swift", line: 3)
                        try writer.encodeValue(self.value)
                        #sourceLocation()
                    default:
                        break
                    }
                }

                mutating func decodeModelField<R: ModelKitCore.ModelReader>(_ index: Int, from reader: inout R) throws {
                    switch index {
                    case 0:
                        #sourceLocation(file: "Test.swift", line: 3)
                        self.value = try reader.decodeValue((Int).self)
                        #sourceLocation()
                    default:
                        throw ModelKitCore.ModelError.readOnly(index, in: Checked.modelSchema)
                    }
                }

                // '@Model' found no 'rewriteJSON(_:)' in the body of 'Checked': hooks are declared in the type's body.
                static func rewriteJSON(_ json: inout ModelKitCore.JSONValue) throws {}

                // '@Model' found no 'modelType(for:)' in the body of 'Checked': hooks are declared in the type's body.
                static func modelType(for json: ModelKitCore.JSONValue) throws -> (any ModelKitCore.Model.Type)? { nil }

                static func == (lhs: Checked, rhs: Checked) -> Bool {
                    guard ModelKitCore.modelValuesEqual(lhs.value, rhs.value) else { return false }
                    return true
                }

                func hash(into hasher: inout Hasher) {
                    ModelKitCore.modelHashValue(self.value, into: &hasher)
                }

                init(from decoder: any Decoder) throws {
                    var reader = ModelKitCore.CodableReader(decoder: decoder)
                    do {
                        try self.init(modelReader: &reader)
                    } catch {
                        try reader.throwProblems(after: error)
                    }
                    try reader.validateModel(self)
                    try reader.throwCollectedProblems(model: nil)
                }

                func encode(to encoder: any Encoder) throws {
                    var writer = ModelKitCore.CodableWriter(encoder: encoder)
                    try writer.encodeModel(self)
                }

                var description: String { modelDescription }
            }
            """#
        }
    }
}
