// Reading: the fields struct a reader fills, and the initializers that turn it into a model.

extension ModelExpansion {
    /// Own properties with their position among this type's own properties.
    var ownProperties: [(position: Int, property: StoredProperty)] {
        Array(properties.enumerated()).map { ($0.offset, $0.element) }
    }

    /// `try reader.decodeValue(...)` for a property, with its transformer.
    func readExpression(_ property: StoredProperty) -> String {
        let type = property.typeText ?? "_"
        if property.mappedTransformer != nil {
            return "try reader.decodeValue((\(type)).self, transformer: \(transformerReference(property)))"
        }
        return "try reader.decodeValue((\(type)).self)"
    }

    /// Statements that read a property's value into `self.<name>` (of the model, or of the
    /// fields struct), validating it when the type declares `validate<Name>(_:)`, attributed to
    /// the property's line.
    /// `then` runs once the value is in place (not when it is taken as the default).
    func readStatements(_ property: StoredProperty, into target: String? = nil, then: String? = nil) -> String {
        let target = target ?? "self.\(property.name)"
        let then = then.map { "; \($0)" } ?? ""
        if property.typeText == nil { return located(property, "try reader.decodeValue(into: &\(target))\(then)") }
        let checks = checkStatements(property)
        if property.invalidUsesDefault {
            // A value that does not map, or fails its checks, leaves the slot empty, so the
            // default applies; the reader has moved past it and reports the error.
            let read = (["let value = \(readExpression(property))"] + checks + ["return value"]).joined(separator: "; ")
            return located(
                property,
                """
                switch try reader.recover({ reader in \(read) }) {
                case .success(let value):
                    \(target) = value\(then)
                case .failure(let error):
                    reader.useDefault(after: error)
                }
                """)
        }
        guard !checks.isEmpty else { return located(property, "\(target) = \(readExpression(property))\(then)") }
        // One line: everything attributed to the property's line (a second line would be the next one's).
        return located(
            property,
            (["let value = \(readExpression(property))"] + checks + ["\(target) = value"]).joined(separator: "; ") + then)
    }

    /// What a property's value is checked by once read: its `validate<Name>(_:)` method, then its
    /// `@Validate` constraints.
    func checkStatements(_ property: StoredProperty) -> [String] {
        var checks: [String] = []
        if property.hasValidationMethod {
            checks.append("try reader.validateField(value, \(typeName).validate\(property.capitalizedName))")
        }
        if !property.constraints.isEmpty {
            checks.append("try reader.checkConstraints(value, \(constraintsReference(property)))")
        }
        return checks
    }

    /// `code` attributed to the property's declaration in the user's source (see
    /// ``StoredProperty/sourceLocation``), so that a type error in it is reported on that line.
    func located(_ property: StoredProperty, _ code: String) -> String {
        guard let directive = property.sourceLocation else { return code }
        return "\(directive)\n\(code)\n#sourceLocation()"
    }

    /// The own properties a reader fills, with their position among own properties.
    var mappedProperties: [(position: Int, property: StoredProperty)] {
        ownProperties.filter { $0.property.isMappedIn }
    }

    /// Where the fields struct keeps the `slot`th mapped property's value: an element of one
    /// tuple, not a stored property of its own, which would cost a getter, a setter and an
    /// initializer expression apiece in the compiled code of every model.
    func slot(_ slot: Int) -> String { "values.\(slot)" }

    /// The fields struct's one stored tuple of optionals, a slot per mapped property (and an
    /// empty tuple after a lone one, so that `.0` stays a tuple element); nil with none.
    func slotsDeclaration() -> String? {
        let mapped = mappedProperties
        guard !mapped.isEmpty else { return nil }
        var types = mapped.map { "Optional<\($0.property.typeText ?? "_")>" }
        var nils = Array(repeating: "nil", count: types.count)
        if types.count == 1 {
            types.append("Void")
            nils.append("()")
        }
        return "fileprivate var values: (\(types.joined(separator: ", "))) = (\(nils.joined(separator: ", ")))"
    }

    func fieldsStruct() -> String {
        var slots = slotsDeclaration().map { [$0] } ?? []
        if model.isSubclass, let superclass = model.superclassName {
            slots.append("var _super = \(superclass).__ModelKitFields()")
        }
        let presence = presenceProperty
        if presence != nil { slots.append("var __presence = \(core)ModelPresence()") }
        let cases = mappedProperties.enumerated().map { index, mapped in
            let note = presence.map { _ in
                "self.__presence.record(\(stringLiteral(mapped.property.name)), slot: self.\(slot(index)))"
            }
            return "case \(mapped.position):\n\(indented(readStatements(mapped.property, into: "self.\(slot(index))", then: note)))"
        }
        let body = ownSwitch(cases, inherited: "try _super.decodeField(index, from: &reader)", fallback: "break")
        // `init(reading:)` makes the fields a value `init(modelFields:)` consumes (a local
        // passed on was copied: a retain of every value, then the local destroyed; `consume`
        // warns on fields of trivial types); it uses the conformance, so it runs where the
        // model is isolated. `@_specialize`: see `encodeField()`.
        return """
            \(access)struct __ModelKitFields: \(isolated("\(core)ModelFieldDecoder")) {
            \(indented(slots.joined(separator: "\n")))
                \(access)init() {}
                \(model.globalActor.map { "\($0) " } ?? "")\(access)init<R: \(core)ModelReader>(reading reader: inout R) throws {
                    try reader.decodeFields(of: \(typeName).modelSchema, into: &self)
                }
                \(specializeForRuntimeTypes("R == ModelKit.ModelRuntimeTypeReader"))
                \(access)mutating func decodeField<R: \(core)ModelReader>(_ index: Int, from reader: inout R) throws {
            \(indented(body, 2))
                }\(unknownKeysDecoder())
            }
            """
    }

    /// The `@Presence` property, which the fields struct fills as it reads.
    var presenceProperty: StoredProperty? {
        properties.first(where: \.tracksPresence)
    }

    /// `decodeUnknownKey(_:from:)` of the fields struct, for a model with an `@UnknownKeys`
    /// property: each key no other property reads joins its slot.
    func unknownKeysDecoder() -> String {
        guard let slotIndex = mappedProperties.firstIndex(where: { $0.property.keepsUnknownKeys }) else { return "" }
        let target = "self.\(slot(slotIndex))"
        return """

                \(access)mutating func decodeUnknownKey<R: \(core)ModelReader>(_ key: String, from reader: inout R) throws {
                    var members = \(target) ?? [:]
                    members[key] = try reader.decodeValue(\(core)JSONValue.self)
                    \(target) = members
                }
            """
    }

    func initFromFields() -> String {
        // Each mapped property with the local its value is taken into: the tuple is taken apart
        // once (an element read from `fields.values` in place would copy the whole tuple).
        let mapped = mappedProperties.enumerated().map { index, mapped in
            (position: mapped.position, property: mapped.property, field: "__modelKitSlot\(index)")
        }
        let required = mapped.filter { !$0.property.hasDefault }
        var lines: [String] = []
        if !mapped.isEmpty {
            let names = mapped.map(\.field) + (mapped.count == 1 ? ["_"] : [])
            lines.append("let (\(names.joined(separator: ", "))) = fields.values")
        }
        if !required.isEmpty {
            let checks = required.map { position, _, field in
                "if \(field) == nil { missing.append(\(index(position))) }"
            }
            // Bound under a prefix: a property may be named like a local here (`fields`, `mapping`).
            let bindings = required.map { "let __\($0.property.name) = \($0.field)" }
            lines.append(
                """
                guard \(bindings.joined(separator: ", ")) else {
                    var missing: [Int] = []
                \(indented(checks.joined(separator: "\n")))
                    throw \(core)ModelError.missingValues(missing, in: \(typeName).modelSchema, mapping: mapping)
                }
                """)
        }
        // A default as a statement of its own, not `??`: no closure around it, and the type
        // checker meets the default alone, against the property's type.
        for (_, property, field) in mapped {
            if !property.hasDefault {
                lines.append("self.\(storageName(property)) = __\(property.name)")
            } else {
                lines.append(
                    """
                    if let __value = \(field) { self.\(storageName(property)) = __value } \
                    else { self.\(storageName(property)) = \(property.initializer.map { "(\($0))" } ?? "nil") }
                    """)
            }
        }
        if let presence = presenceProperty { lines.append("self.\(storageName(presence)) = fields.__presence") }
        if model.isSubclass { lines.append("try super.init(modelFields: fields._super, mapping: mapping)") }
        // A payload's nested models: each one a relationship refers to gains this model in its
        // inverse (a post's comments get their post), as a write would give; a store's rows hold
        // both sides already.
        let inverses = inverseCandidates.filter(\.isMappedIn)
        if !inverses.isEmpty {
            let calls = inverses.map { "\(core)modelInverseInitialized(self, \\.\($0.name), self.\($0.name))" }
            lines.append(
                """
                if mapping == .remote && \(staticReference(hasInversesName, hasInversesValue)) {
                \(indented(calls.joined(separator: "\n")))
                }
                """)
        }
        return """
            \(access)init(modelFields fields: consuming __ModelKitFields, mapping: \(core)ModelSchema.Mapping) throws {
            \(indented(lines.joined(separator: "\n")))
            }
            """
    }

    /// The fields are read into a temporary that `init(modelFields:)` consumes, not copied
    /// (json.decode.users: 324.0 -> 308.0 M instructions, archive.roundtrip.graph 794.3 -> 783.8).
    func initFromReader() -> String {
        let modifiers = model.isClass ? "required convenience " : ""
        return """
            \(access)\(modifiers)init<R: \(core)ModelReader>(modelReader reader: inout R) throws {
                try self.init(modelFields: __ModelKitFields(reading: &reader), mapping: reader.mapping)
            }
            """
    }
}

extension ModelExpansion {
    /// The own properties whose type may be a relationship, whose inverse generated code keeps:
    /// the tracked ones (`var`s of an observable class, not `weak`).
    var inverseCandidates: [StoredProperty] {
        guard model.isObservable else { return [] }
        return properties.filter { property in
            !property.isWeak && !property.isTransient && RelationshipCandidate.mayBeRelationship(property.typeText ?? "")
        }
    }

    /// What an initializer assigns for `property`: the storage of a tracked property (its
    /// setter would announce a change nobody can observe yet, and keep inverses for values a
    /// store's row already holds both sides of), the property itself otherwise.
    func storageName(_ property: StoredProperty) -> String {
        model.isObservable && TrackedProperty.isTrackable(property.declaration) ? "_\(property.name)" : property.name
    }

    /// The static that says once whether any of the type's relationships has an inverse.
    var hasInversesName: String { "__modelKitHasInverses_\(name)" }
    /// What it says.
    var hasInversesValue: String { "\(core)modelHasInverses(\(typeName).self)" }

    /// `static let __modelKitHasInverses_<Type>`, for a class with properties that may be
    /// relationships: mapping a payload asks it before keeping inverses.
    func hasInversesMember() -> [String] {
        guard !inverseCandidates.isEmpty, !model.isGeneric else { return [] }
        return ["static let \(hasInversesName) = \(hasInversesValue)"]
    }

    /// `_modelKitEditRelationship(_:adding:_:)`, for a class with properties that may be
    /// relationships: the other side of an inverse writes them through it, directly, where a
    /// key path applied at run time costs thousands of instructions per read and per write. A
    /// subclass inherits its root's (its own properties are written through their key paths).
    func editRelationshipMember() -> [String] {
        let writable = Set(inverseCandidates.filter { !$0.isLet }.map(\.name))
        guard !writable.isEmpty, !model.isGeneric, !model.isSubclass else { return [] }
        let cases = ownProperties.filter { writable.contains($0.property.name) }.map { position, property in
            let name = property.name
            return "case \(position):\n    return \(core)modelEditRelationship(self.\(name), adding: adding, object) { self.\(name) = $0 }"
        }
        let body = "switch index {\n\((cases + ["default:\n    return false"]).joined(separator: "\n"))\n}"
        return [
            """
            \(memberAccess)func _modelKitEditRelationship(_ index: Int, adding: Bool, _ object: AnyObject) -> Bool {
            \(indented(body))
            }
            """
        ] + setRelationshipMember(writable: writable)
    }

    /// `_modelKitSetRelationship(_:to:)`, beside the writer above, for the properties of those
    /// that are written arrays: a store filling a to-many sets it through it, where a key path
    /// applied at run time costs thousands of instructions per owner. The declared type names
    /// the elements (a property without one is written through its key path).
    func setRelationshipMember(writable: Set<String>) -> [String] {
        let cases = ownProperties.filter { writable.contains($0.property.name) }.compactMap { position, property -> String? in
            guard let type = property.typeText, type.hasPrefix("["), type.hasSuffix("]"), !type.contains(":") else { return nil }
            let name = property.name
            return "case \(position):\n    return \(core)modelSetRelationship(objects, as: \(type).self) { self.\(name) = $0 }"
        }
        guard !cases.isEmpty else { return [] }
        let body = "switch index {\n\((cases + ["default:\n    return false"]).joined(separator: "\n"))\n}"
        return [
            """
            \(memberAccess)func _modelKitSetRelationship(_ index: Int, to objects: [AnyObject]) -> Bool {
            \(indented(body))
            }
            """
        ]
    }
}
