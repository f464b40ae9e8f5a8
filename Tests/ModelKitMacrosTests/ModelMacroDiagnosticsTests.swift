import MacroTesting
import Testing

/// Misuse of `@Model` is a compiler diagnostic, with a fix-it where one is obvious. Erroneous
/// declarations expand to nothing (no members, no extension), so the only errors are these.
@Suite(.macros(ModelKitMacros.specs(tracking: false)))
struct ModelMacroDiagnosticsTests {
    @Test func twoIdentifiers() {
        assertMacro {
            """
            @Model
            struct User {
                @Identifier var id: Int
                @Identifier var uuid: String
            }
            """
        } diagnostics: {
            """
            @Model
            struct User {
                @Identifier var id: Int
                @Identifier var uuid: String
                ┬──────────
                ╰─ 🛑 a model has one '@Identifier': 'uuid' is a second one after 'id'
                   ✏️ remove '@Identifier'
            }
            """
        } fixes: {
            """
            @Model
            struct User {
                @Identifier var id: Int
                var uuid: String
            }
            """
        } expansion: {
            #"""
            struct User {
                var id: Int
                var uuid: String
            }

            extension User: ModelKitCore.Model, Hashable, CustomStringConvertible {
                static let modelSchema: ModelKitCore.ModelSchema = ModelKitCore.ModelSchema(
                    name: "User",
                    type: User.self,
                    properties: [
                        ModelKitCore.ModelProperty("id", keyPath: \User.id, typeName: "Int", declaredIn: "User", flags: [.identifier]),
                        ModelKitCore.ModelProperty("uuid", keyPath: \User.uuid, typeName: "String", declaredIn: "User", flags: [])
                    ]
                )

                struct __ModelKitFields: ModelKitCore.ModelFieldDecoder {
                    fileprivate var values: (Optional<Int>, Optional<String>) = (nil, nil)
                    init() {}
                    init<R: ModelKitCore.ModelReader>(reading reader: inout R) throws {
                        try reader.decodeFields(of: User.modelSchema, into: &self)
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
                        default:
                            break
                        }
                    }
                }

                init(modelFields fields: consuming __ModelKitFields, mapping: ModelKitCore.ModelSchema.Mapping) throws {
                    let (__modelKitSlot0, __modelKitSlot1) = fields.values
                    guard let __id = __modelKitSlot0, let __uuid = __modelKitSlot1 else {
                        var missing: [Int] = []
                        if __modelKitSlot0 == nil { missing.append(0) }
                        if __modelKitSlot1 == nil { missing.append(1) }
                        throw ModelKitCore.ModelError.missingValues(missing, in: User.modelSchema, mapping: mapping)
                    }
                    self.id = __id
                    self.uuid = __uuid
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
                        try writer.encodeValue(self.uuid)
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
                        self.uuid = try reader.decodeValue((String).self)
                        #sourceLocation()
                    default:
                        throw ModelKitCore.ModelError.readOnly(index, in: User.modelSchema)
                    }
                }

                // '@Model' found no 'rewriteJSON(_:)' in the body of 'User': hooks are declared in the type's body.
                static func rewriteJSON(_ json: inout ModelKitCore.JSONValue) throws {}

                // '@Model' found no 'modelType(for:)' in the body of 'User': hooks are declared in the type's body.
                static func modelType(for json: ModelKitCore.JSONValue) throws -> (any ModelKitCore.Model.Type)? { nil }

                // '@Model' found no 'validate()' in the body of 'User': hooks are declared in the type's body.
                func validate() throws {}

                static func decodeModelIdentifier<R: ModelKitCore.ModelReader>(from reader: inout R) throws -> AnyHashable {
                    AnyHashable(try reader.decodeValue((Int).self))
                }

                static func == (lhs: User, rhs: User) -> Bool {
                    guard ModelKitCore.modelValuesEqual(lhs.id, rhs.id) else { return false }
                    guard ModelKitCore.modelValuesEqual(lhs.uuid, rhs.uuid) else { return false }
                    return true
                }

                func hash(into hasher: inout Hasher) {
                    ModelKitCore.modelHashValue(self.id, into: &hasher)
                    ModelKitCore.modelHashValue(self.uuid, into: &hasher)
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

    @Test func aKeyOnAComputedProperty() {
        assertMacro {
            """
            @Model
            struct User {
                var name: String
                @Key("display_name") var displayName: String { name }
            }
            """
        } diagnostics: {
            """
            @Model
            struct User {
                var name: String
                @Key("display_name") var displayName: String { name }
                ┬───────────────────
                ╰─ 🛑 '@Key' applies to stored properties; 'displayName' is computed
                   ✏️ remove '@Key'
            }
            """
        } fixes: {
            """
            @Model
            struct User {
                var name: String
                var displayName: String { name }
            }
            """
        } expansion: {
            #"""
            struct User {
                var name: String
                var displayName: String { name }
            }

            extension User: ModelKitCore.Model, Hashable, CustomStringConvertible {
                static let modelSchema: ModelKitCore.ModelSchema = ModelKitCore.ModelSchema(
                    name: "User",
                    type: User.self,
                    properties: [
                        ModelKitCore.ModelProperty("name", keyPath: \User.name, typeName: "String", declaredIn: "User", flags: [])
                    ]
                )

                struct __ModelKitFields: ModelKitCore.ModelFieldDecoder {
                    fileprivate var values: (Optional<String>, Void) = (nil, ())
                    init() {}
                    init<R: ModelKitCore.ModelReader>(reading reader: inout R) throws {
                        try reader.decodeFields(of: User.modelSchema, into: &self)
                    }
                    @_specialize(where R == ModelKit.ModelRuntimeTypeReader)
                    mutating func decodeField<R: ModelKitCore.ModelReader>(_ index: Int, from reader: inout R) throws {
                        switch index {
                        case 0:
                            #sourceLocation(file: "Test.swift", line: 3)
                            self.values.0 = try reader.decodeValue((String).self)
                            #sourceLocation()
                        default:
                            break
                        }
                    }
                }

                init(modelFields fields: consuming __ModelKitFields, mapping: ModelKitCore.ModelSchema.Mapping) throws {
                    let (__modelKitSlot0, _) = fields.values
                    guard let __name = __modelKitSlot0 else {
                        var missing: [Int] = []
                        if __modelKitSlot0 == nil { missing.append(0) }
                        throw ModelKitCore.ModelError.missingValues(missing, in: User.modelSchema, mapping: mapping)
                    }
                    self.name = __name
                }

                init<R: ModelKitCore.ModelReader>(modelReader reader: inout R) throws {
                    try self.init(modelFields: __ModelKitFields(reading: &reader), mapping: reader.mapping)
                }

                @_specialize(where W == ModelKit.ModelRuntimeTypeWriter)
                func encodeModelField<W: ModelKitCore.ModelWriter>(_ index: Int, to writer: inout W) throws {
                    switch index {
                    case 0:
                        #sourceLocation(file: "Test.swift", line: 3)
                        try writer.encodeValue(self.name)
                        #sourceLocation()
                    default:
                        break
                    }
                }

                mutating func decodeModelField<R: ModelKitCore.ModelReader>(_ index: Int, from reader: inout R) throws {
                    switch index {
                    case 0:
                        #sourceLocation(file: "Test.swift", line: 3)
                        self.name = try reader.decodeValue((String).self)
                        #sourceLocation()
                    default:
                        throw ModelKitCore.ModelError.readOnly(index, in: User.modelSchema)
                    }
                }

                // '@Model' found no 'rewriteJSON(_:)' in the body of 'User': hooks are declared in the type's body.
                static func rewriteJSON(_ json: inout ModelKitCore.JSONValue) throws {}

                // '@Model' found no 'modelType(for:)' in the body of 'User': hooks are declared in the type's body.
                static func modelType(for json: ModelKitCore.JSONValue) throws -> (any ModelKitCore.Model.Type)? { nil }

                // '@Model' found no 'validate()' in the body of 'User': hooks are declared in the type's body.
                func validate() throws {}

                static func == (lhs: User, rhs: User) -> Bool {
                    guard ModelKitCore.modelValuesEqual(lhs.name, rhs.name) else { return false }
                    return true
                }

                func hash(into hasher: inout Hasher) {
                    ModelKitCore.modelHashValue(self.name, into: &hasher)
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

    @Test func aPropertyNoInitializerCanFill() {
        assertMacro {
            """
            @Model
            final class Session {
                var token: String
                @Transient var cache: Data
            }
            """
        } diagnostics: {
            """
            @Model
            final class Session {
                var token: String
                @Transient var cache: Data
                               ┬────
                               ╰─ 🛑 'cache' is not mapped, so no generated initializer can set it: give it a default value or make it optional
                                  ✏️ make 'cache' optional
            }
            """
        } fixes: {
            """
            @Model
            final class Session {
                var token: String
                @Transient var cache: Data?
            }
            """
        } expansion: {
            #"""
            final class Session {
                @_ModelTracked
                var token: String
                @_ModelTracked var cache: Data?

                static let modelSchema: ModelKitCore.ModelSchema = ModelKitCore.ModelSchema(
                    name: "Session",
                    type: Session.self,
                    properties: [
                        ModelKitCore.ModelProperty("token", keyPath: \Session.token, typeName: "String", declaredIn: "Session", flags: []),
                        ModelKitCore.ModelProperty("cache", keyPath: \Session.cache, typeName: "Data?", declaredIn: "Session", flags: [.optional, .transient])
                    ]
                )

                struct __ModelKitFields: ModelKitCore.ModelFieldDecoder {
                    fileprivate var values: (Optional<String>, Void) = (nil, ())
                    init() {}
                    init<R: ModelKitCore.ModelReader>(reading reader: inout R) throws {
                        try reader.decodeFields(of: Session.modelSchema, into: &self)
                    }
                    @_specialize(where R == ModelKit.ModelRuntimeTypeReader)
                    mutating func decodeField<R: ModelKitCore.ModelReader>(_ index: Int, from reader: inout R) throws {
                        switch index {
                        case 0:
                            #sourceLocation(file: "Test.swift", line: 3)
                            self.values.0 = try reader.decodeValue((String).self)
                            #sourceLocation()
                        default:
                            break
                        }
                    }
                }

                init(modelFields fields: consuming __ModelKitFields, mapping: ModelKitCore.ModelSchema.Mapping) throws {
                    let (__modelKitSlot0, _) = fields.values
                    guard let __token = __modelKitSlot0 else {
                        var missing: [Int] = []
                        if __modelKitSlot0 == nil { missing.append(0) }
                        throw ModelKitCore.ModelError.missingValues(missing, in: Session.modelSchema, mapping: mapping)
                    }
                    self._token = __token
                }

                required convenience init<R: ModelKitCore.ModelReader>(modelReader reader: inout R) throws {
                    try self.init(modelFields: __ModelKitFields(reading: &reader), mapping: reader.mapping)
                }

                @_specialize(where W == ModelKit.ModelRuntimeTypeWriter)
                func encodeModelField<W: ModelKitCore.ModelWriter>(_ index: Int, to writer: inout W) throws {
                    switch index {
                    case 0:
                        #sourceLocation(file: "Test.swift", line: 3)
                        try writer.encodeValue(self._token)
                        #sourceLocation()
                    default:
                        break
                    }
                }

                func decodeModelField<R: ModelKitCore.ModelReader>(_ index: Int, from reader: inout R) throws {
                    switch index {
                    case 0:
                        #sourceLocation(file: "Test.swift", line: 3)
                        self.token = try reader.decodeValue((String).self)
                        #sourceLocation()
                    case 1:
                        #sourceLocation(file: "Test.swift", line: 4)
                        self.cache = try reader.decodeValue((Data?).self)
                        #sourceLocation()
                    default:
                        throw ModelKitCore.ModelError.readOnly(index, in: Session.modelSchema)
                    }
                }

                // '@Model' found no 'rewriteJSON(_:)' in the body of 'Session': hooks are declared in the type's body.
                static func rewriteJSON(_ json: inout ModelKitCore.JSONValue) throws {}

                // '@Model' found no 'modelType(for:)' in the body of 'Session': hooks are declared in the type's body.
                static func modelType(for json: ModelKitCore.JSONValue) throws -> (any ModelKitCore.Model.Type)? { nil }

                // '@Model' found no 'validate()' in the body of 'Session': hooks are declared in the type's body.
                func validate() throws {}

                /// Where reads and writes of the observable properties are reported (not a property of the schema).
                let _modelKitRegistrar = ModelKitCore.ModelObservationRegistrar()

                /// The relationships the store left to load on first access (not a property of the schema).
                var _modelKitFaults: ModelKitCore.ModelFaults?

                func loadPendingRelationships() throws {
                    try _modelKitLoadPending()
                }

                func isModelEqual(to other: AnyObject) -> Bool {
                    guard let other = other as? Session else { return false }
                    guard ModelKitCore.modelValuesEqual(self._token, other._token) else { return false }
                    return true
                }

                func hash(into hasher: inout Hasher) {
                    ModelKitCore.modelHashValue(self._token, into: &hasher)
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

                init(token: String, cache: Data? = nil) {
                    self._token = token
                    self._cache = cache
                }
            }

            extension Session: ModelKitCore.Model, ModelKitCore.ObservableModel, Hashable, CustomStringConvertible {
                static func == (lhs: Session, rhs: Session) -> Bool {
                    lhs === rhs || (type(of: lhs) == type(of: rhs) && lhs.isModelEqual(to: rhs))
                }

                var description: String { modelDescription }
            }
            """#
        }
    }

    @Test func aConstantInAnIdentifiedClass() {
        assertMacro {
            """
            @Model
            final class Account {
                @Identifier let id: String
                let owner: String
            }
            """
        } diagnostics: {
            """
            @Model
            final class Account {
                @Identifier let id: String
                let owner: String
                ┬──
                ╰─ 🛑 'owner' must be a 'var': 'Account' has an '@Identifier', so its live instance is updated in place
                   ✏️ make 'owner' a 'var'
            }
            """
        } fixes: {
            """
            @Model
            final class Account {
                @Identifier let id: String
                var owner: String
            }
            """
        } expansion: {
            #"""
            final class Account {
                let id: String
                @_ModelTracked
                var owner: String

                static let modelSchema: ModelKitCore.ModelSchema = ModelKitCore.ModelSchema(
                    name: "Account",
                    type: Account.self,
                    properties: [
                        ModelKitCore.ModelProperty("id", keyPath: \Account.id, typeName: "String", declaredIn: "Account", flags: [.identifier, .constant]),
                        ModelKitCore.ModelProperty("owner", keyPath: \Account.owner, typeName: "String", declaredIn: "Account", flags: [])
                    ]
                )

                struct __ModelKitFields: ModelKitCore.ModelFieldDecoder {
                    fileprivate var values: (Optional<String>, Optional<String>) = (nil, nil)
                    init() {}
                    init<R: ModelKitCore.ModelReader>(reading reader: inout R) throws {
                        try reader.decodeFields(of: Account.modelSchema, into: &self)
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
                            self.values.1 = try reader.decodeValue((String).self)
                            #sourceLocation()
                        default:
                            break
                        }
                    }
                }

                init(modelFields fields: consuming __ModelKitFields, mapping: ModelKitCore.ModelSchema.Mapping) throws {
                    let (__modelKitSlot0, __modelKitSlot1) = fields.values
                    guard let __id = __modelKitSlot0, let __owner = __modelKitSlot1 else {
                        var missing: [Int] = []
                        if __modelKitSlot0 == nil { missing.append(0) }
                        if __modelKitSlot1 == nil { missing.append(1) }
                        throw ModelKitCore.ModelError.missingValues(missing, in: Account.modelSchema, mapping: mapping)
                    }
                    self.id = __id
                    self._owner = __owner
                }

                required convenience init<R: ModelKitCore.ModelReader>(modelReader reader: inout R) throws {
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
                        try writer.encodeValue(self._owner)
                        #sourceLocation()
                    default:
                        break
                    }
                }

                func decodeModelField<R: ModelKitCore.ModelReader>(_ index: Int, from reader: inout R) throws {
                    switch index {
                    case 0:
                        throw ModelKitCore.ModelError.readOnly(0, in: Account.modelSchema)
                    case 1:
                        #sourceLocation(file: "Test.swift", line: 4)
                        self.owner = try reader.decodeValue((String).self)
                        #sourceLocation()
                    default:
                        throw ModelKitCore.ModelError.readOnly(index, in: Account.modelSchema)
                    }
                }

                // '@Model' found no 'rewriteJSON(_:)' in the body of 'Account': hooks are declared in the type's body.
                static func rewriteJSON(_ json: inout ModelKitCore.JSONValue) throws {}

                // '@Model' found no 'modelType(for:)' in the body of 'Account': hooks are declared in the type's body.
                static func modelType(for json: ModelKitCore.JSONValue) throws -> (any ModelKitCore.Model.Type)? { nil }

                // '@Model' found no 'validate()' in the body of 'Account': hooks are declared in the type's body.
                func validate() throws {}

                static func decodeModelIdentifier<R: ModelKitCore.ModelReader>(from reader: inout R) throws -> AnyHashable {
                    AnyHashable(try reader.decodeValue((String).self))
                }

                /// Where reads and writes of the observable properties are reported (not a property of the schema).
                let _modelKitRegistrar = ModelKitCore.ModelObservationRegistrar()

                /// The relationships the store left to load on first access (not a property of the schema).
                var _modelKitFaults: ModelKitCore.ModelFaults?

                func loadPendingRelationships() throws {
                    try _modelKitLoadPending()
                }

                func isModelEqual(to other: AnyObject) -> Bool {
                    guard let other = other as? Account else { return false }
                    guard ModelKitCore.modelValuesEqual(self.id, other.id) else { return false }
                    guard ModelKitCore.modelValuesEqual(self._owner, other._owner) else { return false }
                    return true
                }

                func hash(into hasher: inout Hasher) {
                    ModelKitCore.modelHashValue(self.id, into: &hasher)
                    ModelKitCore.modelHashValue(self._owner, into: &hasher)
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

                init(id: String, owner: String) {
                    self.id = id
                    self._owner = owner
                }
            }

            extension Account: ModelKitCore.Model, ModelKitCore.ObservableModel, Hashable, CustomStringConvertible {
                static func == (lhs: Account, rhs: Account) -> Bool {
                    lhs === rhs || (type(of: lhs) == type(of: rhs) && lhs.isModelEqual(to: rhs))
                }

                var description: String { modelDescription }
            }
            """#
        }
    }

    @Test func aLazyProperty() {
        assertMacro {
            """
            @Model
            struct Page {
                lazy var words: [String] = []
            }
            """
        } diagnostics: {
            """
            @Model
            struct Page {
                lazy var words: [String] = []
                ┬────────────────────────────
                ╰─ 🛑 lazy property 'words' cannot be mapped; mark it '@Transient'
                   ✏️ mark 'words' '@Transient'
            }
            """
        } fixes: {
            """
            @Model
            struct Page {
                @Transient lazy var words: [String] = []
            }
            """
        } expansion: {
            #"""
            struct Page {
                lazy var words: [String] = []
            }

            extension Page: ModelKitCore.Model, Hashable, CustomStringConvertible {
                static let modelSchema: ModelKitCore.ModelSchema = ModelKitCore.ModelSchema(
                    name: "Page",
                    type: Page.self,
                    properties: [
                        ModelKitCore.ModelProperty("words", keyPath: \Page.words, typeName: "[String]", declaredIn: "Page", flags: [.transient, .hasDefault], defaultExpression: "[]")
                    ]
                )

                struct __ModelKitFields: ModelKitCore.ModelFieldDecoder {

                    init() {}
                    init<R: ModelKitCore.ModelReader>(reading reader: inout R) throws {
                        try reader.decodeFields(of: Page.modelSchema, into: &self)
                    }
                    @_specialize(where R == ModelKit.ModelRuntimeTypeReader)
                    mutating func decodeField<R: ModelKitCore.ModelReader>(_ index: Int, from reader: inout R) throws {
                        switch index {
                        default:
                            break
                        }
                    }
                }

                init(modelFields fields: consuming __ModelKitFields, mapping: ModelKitCore.ModelSchema.Mapping) throws {

                }

                init<R: ModelKitCore.ModelReader>(modelReader reader: inout R) throws {
                    try self.init(modelFields: __ModelKitFields(reading: &reader), mapping: reader.mapping)
                }

                @_specialize(where W == ModelKit.ModelRuntimeTypeWriter)
                func encodeModelField<W: ModelKitCore.ModelWriter>(_ index: Int, to writer: inout W) throws {
                    switch index {
                    default:
                        break
                    }
                }

                mutating func decodeModelField<R: ModelKitCore.ModelReader>(_ index: Int, from reader: inout R) throws {
                    switch index {
                    case 0:
                        #sourceLocation(file: "Test.swift", line: 3)
                        self.words = try reader.decodeValue(([String]).self)
                        #sourceLocation()
                    default:
                        throw ModelKitCore.ModelError.readOnly(index, in: Page.modelSchema)
                    }
                }

                // '@Model' found no 'rewriteJSON(_:)' in the body of 'Page': hooks are declared in the type's body.
                static func rewriteJSON(_ json: inout ModelKitCore.JSONValue) throws {}

                // '@Model' found no 'modelType(for:)' in the body of 'Page': hooks are declared in the type's body.
                static func modelType(for json: ModelKitCore.JSONValue) throws -> (any ModelKitCore.Model.Type)? { nil }

                // '@Model' found no 'validate()' in the body of 'Page': hooks are declared in the type's body.
                func validate() throws {}

                static func == (lhs: Page, rhs: Page) -> Bool {
                    return true
                }

                func hash(into hasher: inout Hasher) {

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

    @Test func malformedKeysAndAMissingType() {
        assertMacro {
            """
            @Model
            struct Row {
                @Key("a..b") var a: Int
                var b = makeB()
                @Key(name) var c: Int
            }
            """
        } diagnostics: {
            """
            @Model
            struct Row {
                @Key("a..b") var a: Int
                     ┬─────
                     ╰─ 🛑 invalid remote key path 'a..b': a segment is empty
                var b = makeB()
                    ┬
                    ╰─ 🛑 'b' needs an explicit type for '@Model' to map it
                @Key(name) var c: Int
                     ┬───
                     ╰─ 🛑 invalid remote key path 'name': write it as a string literal
            }
            """
        }
    }

    @Test func aMalformedEncodeKey() {
        assertMacro {
            """
            @Model
            struct Row {
                @Key(decode: "a", "b", encode: "c..d") var a: Int
                @Key(decode: "e", encode: name) var e: Int
            }
            """
        } diagnostics: {
            """
            @Model
            struct Row {
                @Key(decode: "a", "b", encode: "c..d") var a: Int
                                               ┬─────
                                               ╰─ 🛑 invalid remote key path 'c..d': a segment is empty
                @Key(decode: "e", encode: name) var e: Int
                                          ┬───
                                          ╰─ 🛑 invalid remote key path 'name': write it as a string literal
            }
            """
        }
    }

    @Test func aDefaultToFallBackToIsNeeded() {
        assertMacro {
            """
            @Model
            struct Row {
                @Key(onError: .useDefault) var count: Int
                @Key("n", onError: .useDefault) var note: String?
                @Key(onError: .useDefault) var size: Int = 3
            }
            """
        } diagnostics: {
            """
            @Model
            struct Row {
                @Key(onError: .useDefault) var count: Int
                     ┬───────────────────
                     ╰─ 🛑 'count' needs an initial value (or an optional type) for '@Key(onError: .useDefault)' to fall back to
                @Key("n", onError: .useDefault) var note: String?
                @Key(onError: .useDefault) var size: Int = 3
            }
            """
        }
    }

    @Test func anOmitPolicyNeedsWhatItCompares() {
        assertMacro {
            """
            @Model
            struct Row {
                @Key(omit: .ifNil) var count: Int = 0
                @Key("s", omit: .ifDefault) var size: Int
                @Key(omit: .ifDefault) var kept: Int = 3
            }
            """
        } diagnostics: {
            """
            @Model
            struct Row {
                @Key(omit: .ifNil) var count: Int = 0
                     ┬───────────
                     ╰─ 🛑 '@Key(omit:)' does not fit 'count': '.ifNil' needs an optional type
                @Key("s", omit: .ifDefault) var size: Int
                          ┬───────────────
                          ╰─ 🛑 '@Key(omit:)' does not fit 'size': '.ifDefault' needs an initial value
                @Key(omit: .ifDefault) var kept: Int = 3
            }
            """
        }
    }

    @Test func unknownKeysNeedOneDictionaryOfJSONValues() {
        assertMacro {
            """
            @Model
            struct Row {
                @UnknownKeys var extra: [String: Any] = [:]
                @UnknownKeys var kept: [String: JSONValue] = [:]
                @UnknownKeys var more: [String: JSONValue] = [:]
            }
            """
        } diagnostics: {
            """
            @Model
            struct Row {
                @UnknownKeys var extra: [String: Any] = [:]
                ┬───────────
                ╰─ 🛑 '@UnknownKeys' cannot keep a payload's other keys in 'extra': declare it 'var extra: [String: JSONValue] = [:]'
                @UnknownKeys var kept: [String: JSONValue] = [:]
                @UnknownKeys var more: [String: JSONValue] = [:]
                ┬───────────
                ╰─ 🛑 '@UnknownKeys' cannot keep a payload's other keys in 'more': 'kept' keeps them already
            }
            """
        }
    }

    /// `@Key(decode:..., encode:)` gives the schema its decode keys and the key it writes.
    @Test func separateDecodeAndEncodeKeys() {
        let (expanded, diagnostics) = ModelKitMacros.expand(
            """
            @Model
            struct Contact {
                @Key(decode: "full_name", "name", encode: "profile.name") var name: String
                @Key("plain") var plain: Int
            }
            """)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        #expect(expanded.contains(#"remote: [["full_name"], ["name"]], encode: ["profile", "name"]"#), "\(expanded)")
        #expect(expanded.contains(#"remote: [["plain"]], flags:"#), "\(expanded)")
    }

    /// A generic class a subclass could extend would need one schema for every specialisation
    /// of every subclass: only final generic classes (and generic structs) are models.
    @Test func aGenericClassThatIsNotFinal() {
        let (_, diagnostics) = ModelKitMacros.expand(
            """
            @Model
            class Node<Value> {
                var value: Value
            }
            """)
        #expect(
            diagnostics == [
                "'@Model' applies to generic structs and final classes: a subclass of 'Node' would extend one schema for every specialisation; make 'Node' final"
            ], "\(diagnostics)")
    }

    @Test func anEnum() {
        assertMacro {
            """
            @Model
            enum Kind {
                case a
            }
            """
        } diagnostics: {
            """
            @Model
            ┬─────
            ╰─ 🛑 '@Model' cannot map the enum 'Kind': say how its cases appear in payloads: '@Model(.external)', '@Model(tag: "type")', '@Model(tag: "type", content: "data")' or '@Model(.untagged)'
            enum Kind {
                case a
            }
            """
        }
    }

    @Test func anActor() {
        assertMacro {
            """
            @Model
            actor Cache {
                var a: Int = 0
            }
            """
        } diagnostics: {
            """
            @Model
            ┬─────
            ╰─ 🛑 '@Model' applies to structs, classes and enums, not to actor declarations
            actor Cache {
                var a: Int = 0
            }
            """
        }
    }

    @Test func aProtocol() {
        assertMacro {
            """
            @Model
            protocol Named {
                var name: String { get }
            }
            """
        } diagnostics: {
            """
            @Model
            ┬─────
            ╰─ 🛑 '@Model' applies to structs, classes and enums, not to protocol declarations
            protocol Named {
                var name: String { get }
            }
            """
        }
    }

    /// A warning does not stop the expansion: the property stays transient, its transform unused
    /// (the schema names no transformer for it).
    @Test func aTransformOnATransientPropertyIsAWarning() {
        assertMacro {
            """
            @Model
            struct Visit {
                var place: String
                @Transient @Transform(.iso8601) var seen: Date? = nil
            }
            """
        } diagnostics: {
            """
            @Model
            struct Visit {
                var place: String
                @Transient @Transform(.iso8601) var seen: Date? = nil
                           ┬───────────────────
                           ╰─ ⚠️ '@Transform' has no effect on 'seen': transient properties are not mapped
                              ✏️ remove '@Transform'
            }
            """
        } fixes: {
            """
            @Model
            struct Visit {
                var place: String
                @Transient var seen: Date? = nil
            }
            """
        } expansion: {
            #"""
            struct Visit {
                var place: String
                var seen: Date? = nil
            }

            extension Visit: ModelKitCore.Model, Hashable, CustomStringConvertible {
                static let modelSchema: ModelKitCore.ModelSchema = ModelKitCore.ModelSchema(
                    name: "Visit",
                    type: Visit.self,
                    properties: [
                        ModelKitCore.ModelProperty("place", keyPath: \Visit.place, typeName: "String", declaredIn: "Visit", flags: []),
                        ModelKitCore.ModelProperty("seen", keyPath: \Visit.seen, typeName: "Date?", declaredIn: "Visit", flags: [.optional, .transient, .hasDefault], defaultExpression: "nil")
                    ]
                )

                struct __ModelKitFields: ModelKitCore.ModelFieldDecoder {
                    fileprivate var values: (Optional<String>, Void) = (nil, ())
                    init() {}
                    init<R: ModelKitCore.ModelReader>(reading reader: inout R) throws {
                        try reader.decodeFields(of: Visit.modelSchema, into: &self)
                    }
                    @_specialize(where R == ModelKit.ModelRuntimeTypeReader)
                    mutating func decodeField<R: ModelKitCore.ModelReader>(_ index: Int, from reader: inout R) throws {
                        switch index {
                        case 0:
                            #sourceLocation(file: "Test.swift", line: 3)
                            self.values.0 = try reader.decodeValue((String).self)
                            #sourceLocation()
                        default:
                            break
                        }
                    }
                }

                init(modelFields fields: consuming __ModelKitFields, mapping: ModelKitCore.ModelSchema.Mapping) throws {
                    let (__modelKitSlot0, _) = fields.values
                    guard let __place = __modelKitSlot0 else {
                        var missing: [Int] = []
                        if __modelKitSlot0 == nil { missing.append(0) }
                        throw ModelKitCore.ModelError.missingValues(missing, in: Visit.modelSchema, mapping: mapping)
                    }
                    self.place = __place
                }

                init<R: ModelKitCore.ModelReader>(modelReader reader: inout R) throws {
                    try self.init(modelFields: __ModelKitFields(reading: &reader), mapping: reader.mapping)
                }

                @_specialize(where W == ModelKit.ModelRuntimeTypeWriter)
                func encodeModelField<W: ModelKitCore.ModelWriter>(_ index: Int, to writer: inout W) throws {
                    switch index {
                    case 0:
                        #sourceLocation(file: "Test.swift", line: 3)
                        try writer.encodeValue(self.place)
                        #sourceLocation()
                    default:
                        break
                    }
                }

                mutating func decodeModelField<R: ModelKitCore.ModelReader>(_ index: Int, from reader: inout R) throws {
                    switch index {
                    case 0:
                        #sourceLocation(file: "Test.swift", line: 3)
                        self.place = try reader.decodeValue((String).self)
                        #sourceLocation()
                    case 1:
                        #sourceLocation(file: "Test.swift", line: 4)
                        self.seen = try reader.decodeValue((Date?).self)
                        #sourceLocation()
                    default:
                        throw ModelKitCore.ModelError.readOnly(index, in: Visit.modelSchema)
                    }
                }

                // '@Model' found no 'rewriteJSON(_:)' in the body of 'Visit': hooks are declared in the type's body.
                static func rewriteJSON(_ json: inout ModelKitCore.JSONValue) throws {}

                // '@Model' found no 'modelType(for:)' in the body of 'Visit': hooks are declared in the type's body.
                static func modelType(for json: ModelKitCore.JSONValue) throws -> (any ModelKitCore.Model.Type)? { nil }

                // '@Model' found no 'validate()' in the body of 'Visit': hooks are declared in the type's body.
                func validate() throws {}

                static func == (lhs: Visit, rhs: Visit) -> Bool {
                    guard ModelKitCore.modelValuesEqual(lhs.place, rhs.place) else { return false }
                    return true
                }

                func hash(into hasher: inout Hasher) {
                    ModelKitCore.modelHashValue(self.place, into: &hasher)
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

    /// swiftc refuses extension macros on a local type ("local type cannot have attached
    /// extension macro", on the type's name); `@Model` says why and what to do, on the attribute.
    @Test func aLocalTypeInAFunction() {
        assertMacro {
            """
            struct Screen {
                func makeNote() {
                    @Model struct Note {
                        var text: String
                    }
                }
            }
            """
        } diagnostics: {
            """
            struct Screen {
                func makeNote() {
                    @Model struct Note {
                    ┬─────
                    ╰─ 🛑 '@Model' cannot apply to 'Note', a type declared inside 'makeNote()': Swift gives local types no extension macros; declare 'Note' at file scope or inside another type
                        var text: String
                    }
                }
            }
            """
        }
    }

    @Test func aLocalTypeInAFunctionWithLabels() {
        assertMacro {
            """
            struct Screen {
                func render(_ title: String, into lines: inout [String]) {
                    @Model struct Note {
                        var text: String
                    }
                }
            }
            """
        } diagnostics: {
            """
            struct Screen {
                func render(_ title: String, into lines: inout [String]) {
                    @Model struct Note {
                    ┬─────
                    ╰─ 🛑 '@Model' cannot apply to 'Note', a type declared inside 'render(_:into:)': Swift gives local types no extension macros; declare 'Note' at file scope or inside another type
                        var text: String
                    }
                }
            }
            """
        }
    }

    @Test func aLocalTypeInAnInitializer() {
        assertMacro {
            """
            struct Screen {
                init() {
                    @Model struct Note {
                        var text: String
                    }
                }
            }
            """
        } diagnostics: {
            """
            struct Screen {
                init() {
                    @Model struct Note {
                    ┬─────
                    ╰─ 🛑 '@Model' cannot apply to 'Note', a type declared inside an initializer: Swift gives local types no extension macros; declare 'Note' at file scope or inside another type
                        var text: String
                    }
                }
            }
            """
        }
    }
}

/// An erroneous declaration expands to nothing, so the compiler shows only its diagnostics: no
/// members, no extension (the expansions above show each misuse once its fix-its are applied).
@Suite struct ErroneousDeclarationTests {
    @Test(arguments: [
        "@Model\nstruct User {\n    @Identifier var id: Int\n    @Identifier var uuid: String\n}",
        "@Model\nstruct User {\n    var name: String\n    @Key(\"display_name\") var displayName: String { name }\n}",
        "@Model\nfinal class Session {\n    var token: String\n    @Transient var cache: Data\n}",
        "@Model\nfinal class Account {\n    @Identifier let id: String\n    let owner: String\n}",
        "@Model\nstruct Page {\n    lazy var words: [String] = []\n}",
        "@Model\nstruct Row {\n    @Key(\"a..b\") var a: Int\n    var b = makeB()\n}",
        "@Model\nclass Node<Value> {\n    var value: Value\n}",
    ])
    func expandsToNothing(_ source: String) {
        let (expanded, diagnostics) = ModelKitMacros.expand(source)
        #expect(!diagnostics.isEmpty)
        #expect(!expanded.contains("extension") && !expanded.contains("modelSchema"), "\(expanded)")
    }
}
