/// Generates the code of a `@Model` type from its ``ModelDeclaration``.
///
/// Structs get everything in an extension (their memberwise initializer survives); classes get
/// initializers and overridable members in their body (a subclass overrides them) and the
/// conformances in an extension.
struct ModelExpansion {
    let model: ModelDeclaration
    /// How generated code names the type: qualified in an extension of a nested type
    /// (`Outer.Inner`), where the bare name would not resolve.
    let typeName: String

    init(model: ModelDeclaration, typeName: String? = nil) {
        self.model = model
        self.typeName = typeName ?? model.name
    }

    /// `Core.` prefix for runtime names, so user types never shadow them.
    let core = "ModelKitCore."

    var name: String { model.name }
    var access: String { model.access }
    var properties: [StoredProperty] { model.properties }

    /// The first schema index of this type's own properties, as an expression.
    var base: String {
        model.isSubclass ? staticReference("__modelKitBase", "\(model.superclassName ?? "").modelSchema.properties.count") : "0"
    }

    /// The index expression of an own property.
    func index(_ position: Int) -> String {
        model.isSubclass ? "\(base) + \(position)" : "\(position)"
    }

    /// `text` with each non-empty line indented by `levels` steps of four spaces.
    ///
    /// The plugin hands its expansions to the compiler unformatted (`ModelMacro.formatMode`), so
    /// generated code is indented as it is assembled: a block placed inside braces goes through
    /// here. Shifting every line alike keeps a user's multi-line string literal (in a default
    /// value) the same string, as its closing delimiter moves with it.
    func indented(_ text: String, _ levels: Int = 1) -> String {
        GeneratedSyntax.indented(text, levels)
    }

    /// Where generated code reads a property to write, compare or hash it: an observable
    /// class's tracked property by its storage (`_name`), so these reads neither register with
    /// an observation nor pay for it; any other property by its name.
    func storage(_ property: StoredProperty) -> String {
        model.isObservable && TrackedProperty.isTrackable(property.declaration) ? "_\(property.name)" : property.name
    }

    /// The static constant holding a property's transformer.
    func transformerName(_ property: StoredProperty) -> String {
        "__modelKitTransformer_\(property.name)"
    }

    // MARK: Declarations, grouped by where they go

    /// Members for the type's body (classes) or its extension (structs).
    func members() -> [String] {
        var members = [schema(), fieldsStruct(), initFromFields(), initFromReader(), encodeField(), decodeModelField()]
            + omitsField() + unknownMembersEncoder()
        members += transformers()
        members += constraints()
        members += relationships()
        members += hasInversesMember()
        members += editRelationshipMember()
        members += hookStubs()
        if let identifier = properties.first(where: \.isIdentifier), !model.isSubclass {
            members.append(
                """
                \(access)static func decodeModelIdentifier<R: \(core)ModelReader>(from reader: inout R) throws -> AnyHashable {
                    AnyHashable(\(readExpression(identifier)))
                }
                """)
        }
        if model.isSubclass && !model.isGeneric {
            members.append("static let __modelKitBase = \(model.superclassName ?? "").modelSchema.properties.count")
        }
        if model.isObservable && !model.isSubclass {
            members.append(
                """
                /// Where reads and writes of the observable properties are reported (not a property of the schema).
                \(access)let _modelKitRegistrar = \(core)ModelObservationRegistrar()
                """)
            members.append(
                """
                /// The relationships the store left to load on first access (not a property of the schema).
                \(access)var _modelKitFaults: \(core)ModelFaults?
                """)
            members.append(
                """
                \(model.overridableAccess)func loadPendingRelationships() throws {
                    try _modelKitLoadPending()
                }
                """)
        }
        if model.isClass {
            members += classEquality()
            if model.generatesCodable { members += codable() }
            if model.kind != .structure && !model.isSubclass && !model.declaresInitializer { members += memberwiseInit() }
        }
        return members
    }

    /// Members for the conformance extension.
    func extensionMembers() -> [String] {
        var members: [String] = []
        if !model.isClass {
            members += self.members()
            if model.generatesEquality { members.append(structEquals()) }
            if model.generatesHash { members.append(hash(override: false)) }
            if model.generatesCodable { members += codable() }
        } else if model.generatesEquality {
            members.append(
                """
                \(access)static func == (lhs: \(typeName), rhs: \(typeName)) -> Bool {
                    lhs === rhs || (type(of: lhs) == type(of: rhs) && lhs.isModelEqual(to: rhs))
                }
                """)
        }
        if model.generatesDescription && !model.isSubclass {
            members.append("\(access)var description: String { modelDescription }")
        }
        return members
    }

    /// The protocols the extension adds; isolated conformances for a global-actor type.
    func conformances() -> [String] {
        var list: [String] = []
        if model.missingConformances.contains("Model") { list.append(isolated("\(core)Model")) }
        if model.isObservable && !model.isSubclass && model.missingConformances.contains("ObservableModel") {
            list.append(isolated("\(core)ObservableModel"))
        }
        var names = ["Hashable", "CustomStringConvertible"]
        if model.storesDescription { names.removeLast() }
        for name in names where model.missingConformances.contains(name) {
            list.append(isolated(name))
        }
        return list
    }

    /// `@MainActor P` for a type isolated to the main actor, else `P`.
    func isolated(_ conformance: String) -> String {
        model.globalActor.map { "\($0) \(conformance)" } ?? conformance
    }

    // MARK: Schema

    func schema() -> String {
        // A generic model's name is its specialisation's: `Page<User>`.
        let modelName = model.displayName ?? (model.isGeneric ? "String(describing: \(typeName).self)" : "\"\(name)\"")
        var arguments = ["name: \(modelName)", "type: \(typeName).self"]
        if model.isSubclass, let superclass = model.superclassName {
            arguments.append("inheriting: \(superclass).modelSchema")
        }
        if let keys = model.keyStrategy { arguments.append("keyStrategy: \(keys)") }
        if model.nullsUseDefaults { arguments.append("nullsUseDefaults: true") }
        if let unknownKeys = model.unknownKeys { arguments.append("unknownKeys: \(unknownKeys)") }
        if let version = model.version { arguments.append("version: \(version)") }
        if let table = model.table { arguments.append("tableName: \(table)") }
        if !model.hooks.isEmpty { arguments.append("hooks: [\(model.hooks.joined(separator: ", "))]") }
        if !model.indexes.isEmpty {
            let literals = model.indexes.map { index in
                "\(core)ModelIndex([\(index.names.map(stringLiteral).joined(separator: ", "))]"
                    + (index.unique ? ", unique: true)" : ")")
            }
            arguments.append("indexes: [\(literals.joined(separator: ", "))]")
        }
        if !model.search.isEmpty {
            arguments.append("searchable: [\(model.search.map { stringLiteral($0.name) }.joined(separator: ", "))]")
        }
        let list = properties.map(propertyLiteral).joined(separator: ",\n")
        arguments.append("properties: [\n\(indented(list))\n]")
        let value = "\(core)ModelSchema(\n\(indented(arguments.joined(separator: ",\n")))\n)"
        if model.isGeneric {
            return """
                \(access)static var modelSchema: \(core)ModelSchema {
                    \(core)modelStatic(\(typeName).self, "modelSchema") {
                \(indented(value, 2))
                    }
                }
                """
        }
        if model.kind == .structure || (model.kind == .finalClass && !model.isSubclass) {
            return "\(access)static let modelSchema: \(core)ModelSchema = \(value)"
        }
        let modifier = model.isSubclass ? "override " : ""
        return """
            \(modifier)\(model.overridableAccess)class var modelSchema: \(core)ModelSchema { __modelKitSchema_\(name) }
            private static let __modelKitSchema_\(name): \(core)ModelSchema = \(value)
            """
    }

    func propertyLiteral(_ property: StoredProperty) -> String {
        var arguments = ["\"\(property.name)\"", "keyPath: \\\(typeName).\(property.name)"]
        if let typeText = property.typeText { arguments.append("typeName: \(stringLiteral(typeText))") }
        arguments.append("declaredIn: \"\(name)\"")
        if let paths = property.remoteKeyPaths {
            let literal = paths.map { "[" + $0.map(stringLiteral).joined(separator: ", ") + "]" }
            arguments.append("remote: [\(literal.joined(separator: ", "))]")
        }
        if let path = property.encodeKeyPath {
            arguments.append("encode: [" + path.map(stringLiteral).joined(separator: ", ") + "]")
        }
        arguments.append("flags: \(property.flagsLiteral)")
        if let initializer = property.initializer {
            arguments.append("defaultExpression: \(stringLiteral(initializer))")
        }
        if let transformer = property.mappedTransformer {
            arguments.append("transformer: \(transformerReference(property, erasing: true))")
            arguments.append("transformerDescription: \(stringLiteral(transformer))")
        }
        if let behavior = property.archiveBehavior { arguments.append("archive: \(behavior)") }
        if property.relationship != nil && !property.isTransient {
            arguments.append("relationship: \(staticReference(relationshipName(property), relationshipValue(property)))")
        }
        if !property.constraints.isEmpty {
            arguments.append("constraints: \(constraintsReference(property, erasing: true))")
        }
        return "\(core)ModelProperty(\(arguments.joined(separator: ", ")))"
    }

    func transformers() -> [String] {
        staticConstants { property in transformerValue(property).map { (transformerName(property), $0) } }
    }

    /// For each property `constant` names one for (its name, with a type if it needs one, and its
    /// value), a static constant placed on the property's line, so that a type error in it shows
    /// there. None in a generic type, which has no stored statics: ``staticReference(_:_:erasing:)``
    /// makes the value where it is used.
    func staticConstants(_ constant: (StoredProperty) -> (name: String, value: String)?) -> [String] {
        guard !model.isGeneric else { return [] }
        return properties.compactMap { property in
            constant(property).map { located(property, "static let \($0.name) = \($0.value)") }
        }
    }

    /// The expression that makes a property's transformer, if it has one.
    func transformerValue(_ property: StoredProperty) -> String? {
        property.mappedTransformer.map { "\(core)modelTransformer(for: (\(property.typeText ?? "_")).self, \($0))" }
    }

    /// Where generated code finds a property's transformer.
    func transformerReference(_ property: StoredProperty, erasing: Bool = false) -> String {
        staticReference(transformerName(property), transformerValue(property) ?? "", erasing: erasing)
    }

    /// `@_specialize(where <requirement>)`, for a non-generic type (a generic type's
    /// specialisation would have to name its own parameters too).
    func specializeForRuntimeTypes(_ requirement: String) -> String {
        model.isGeneric ? "" : "@_specialize(where \(requirement))"
    }

    /// Where generated code finds a static value the type keeps: a constant of the type, or, in
    /// a generic type (which has no stored statics), the value ModelKit keeps per specialisation.
    /// `erasing`: for a parameter of an existential type, which would otherwise decide the
    /// type the value is kept as (all uses must agree on it).
    func staticReference(_ name: String, _ value: String, erasing: Bool = false) -> String {
        guard model.isGeneric else { return "\(typeName).\(name)" }
        // The closure in parentheses: a trailing one in an `if` condition would be confusable with its body.
        return "\(core)modelStatic(\(erasing ? "erasing: " : "")\(typeName).self, \(stringLiteral(name)), { \(value) })"
    }

    /// Each `@Validate`'s constraints as one constant, placed on the property's line so that a
    /// constraint that does not apply to its type is reported there.
    func constraints() -> [String] {
        staticConstants { property in
            property.constraints.isEmpty ? nil : (constraintsName(property), constraintsValue(property))
        }
    }

    /// The expression that makes a property's constraints.
    func constraintsValue(_ property: StoredProperty) -> String {
        "\(core)modelConstraints(for: (\(property.typeText ?? "_")).self, \(property.constraints.joined(separator: ", ")))"
    }

    /// Where generated code finds a property's constraints.
    func constraintsReference(_ property: StoredProperty, erasing: Bool = false) -> String {
        staticReference(constraintsName(property), constraintsValue(property), erasing: erasing)
    }

    /// The static constant holding a property's constraints.
    func constraintsName(_ property: StoredProperty) -> String {
        "__modelKitConstraints_\(property.name)"
    }

    /// Each `@Relationship` as a call the type checker accepts only for a declaration that can
    /// work (`modelRelationship`), placed on the property's line so its error shows there.
    func relationships() -> [String] {
        staticConstants { property in
            guard property.relationship != nil, !property.isTransient else { return nil }
            return ("\(relationshipName(property)): \(core)ModelRelationship", relationshipValue(property))
        }
    }

    /// The expression that makes a property's `@Relationship`: a call the type checker accepts
    /// only for a declaration that can work.
    func relationshipValue(_ property: StoredProperty) -> String {
        guard let relationship = property.relationship else { return "" }
        let keyPath = "\\\(typeName).\(property.name)"
        let call: String
        switch (relationship.inverse, relationship.deleteRule) {
        case (nil, let rule):
            call = "\(core)modelRelationship(\(keyPath), deleteRule: .\(rule))"
        case (let inverse?, "nullify"):
            call = "\(core)modelRelationship(nullifying: \(keyPath), inverse: \(inverse.expression), named: \(stringLiteral(inverse.name)))"
        case (let inverse?, let rule):
            call = "\(core)modelRelationship(\(keyPath), deleteRule: .\(rule), inverse: \(inverse.expression), named: \(stringLiteral(inverse.name)))"
        }
        return relationship.writesIdentifiers ? "\(call).representing(.identifiers)" : call
    }

    func relationshipName(_ property: StoredProperty) -> String {
        "__modelKitRelationship_\(property.name)"
    }

    /// A Swift string literal for `text`.
    func stringLiteral(_ text: String) -> String {
        GeneratedSyntax.stringLiteral(text)
    }
}
