// Writing a property, and setting one in place (key-value coding, identity updates).

extension ModelExpansion {
    /// `override ` where a subclass replaces its parent's version.
    var overrideModifier: String { model.isSubclass ? "override " : "" }

    /// The access of members subclasses override.
    var memberAccess: String { model.isClass ? model.overridableAccess : access }

    /// `switch` over this type's own properties, deferring inherited indexes to `super`.
    ///
    /// The switch is there even with no cases (a subclass that only adds methods), so that a
    /// `break` fallback always has a statement to leave.
    func ownSwitch(_ cases: [String], inherited: String, fallback: String) -> String {
        let subject = model.isSubclass ? "own" : "index"
        let switchBody = "switch \(subject) {\n\((cases + ["default:\n\(indented(fallback))"]).joined(separator: "\n"))\n}"
        guard model.isSubclass else { return switchBody }
        return """
            let own = index - \(base)
            guard own >= 0 else {
                \(inherited)
                return
            }
            \(switchBody)
            """
    }

    func encodeField() -> String {
        let cases = ownProperties.filter { !$0.property.isTransient }.map { position, property -> String in
            if property.mappedTransformer != nil {
                let call = "try writer.encodeValue(self.\(storage(property)), transformer: \(transformerReference(property)))"
                return "case \(position):\n\(indented(located(property, call)))"
            }
            if property.relationship?.writesIdentifiers == true {
                return "case \(position):\n\(indented(located(property, "try writer.encodeIdentifiers(self.\(storage(property)))")))"
            }
            return "case \(position):\n\(indented(located(property, "try writer.encodeValue(self.\(storage(property)))")))"
        }
        let body = ownSwitch(
            cases, inherited: "try super.encodeModelField(index, to: &writer)", fallback: "break")
        // Formats that reach a model's fields through its type found at run time (archives) run
        // the generic function unspecialised (every value through the writer's witnesses, type
        // metadata looked up per call): a copy compiled for their writer, which the generic
        // entry jumps to, spares them that. The umbrella module says which writer that is
        // (`ModelKit.ModelRuntimeTypeWriter`); the generated code names no format. JSON and the
        // store call fields from code generic over the model, which the caller's module
        // specialises anyway. Release builds only.
        return """
            \(specializeForRuntimeTypes("W == ModelKit.ModelRuntimeTypeWriter"))
            \(overrideModifier)\(memberAccess)func encodeModelField<W: \(core)ModelWriter>(_ index: Int, to writer: inout W) throws {
            \(indented(body))
            }
            """
    }

    /// `omitsModelField(_:)`, for a model with `@Key(omit:)` properties: whether each is left
    /// out of payloads now (nil, or equal to its initial value).
    func omitsField() -> [String] {
        let cases = ownProperties.compactMap { position, property -> String? in
            switch property.omitPolicy {
            case .ifNil?: return "case \(position): return self.\(storage(property)) == nil"
            case .ifDefault?:
                guard let initializer = property.initializer else { return nil }
                let type = property.typeText.map { " as \($0)" } ?? ""
                return "case \(position):\n\(indented(located(property, "return self.\(storage(property)) == (\(initializer))\(type)")))"
            case nil: return nil
            }
        }
        guard !cases.isEmpty else { return [] }
        return [
            """
            \(memberAccess)func omitsModelField(_ index: Int) -> Bool {
                switch index {
            \(indented(cases.joined(separator: "\n")))
                default: return false
                }
            }
            """
        ]
    }

    /// `encodeUnknownMembers(to:)`, for a model with an `@UnknownKeys` property: writes back
    /// the keys it kept.
    func unknownMembersEncoder() -> [String] {
        guard let kept = ownProperties.first(where: { $0.property.keepsUnknownKeys })?.property else { return [] }
        return [
            """
            \(memberAccess)func encodeUnknownMembers<W: \(core)ModelWriter>(to writer: inout W) throws {
                try writer.encodeUnknownMembers(self.\(storage(kept)), of: \(typeName).modelSchema)
            }
            """
        ]
    }

    func decodeModelField() -> String {
        let cases = ownProperties.map { position, property -> String in
            // What a payload gave is the reader's to say, never set by key.
            if property.isLet || property.tracksPresence {
                return "case \(position):\n    throw \(core)ModelError.readOnly(\(index(position)), in: \(typeName).modelSchema)"
            }
            return "case \(position):\n\(indented(readStatements(property)))"
        }
        let body = ownSwitch(
            cases, inherited: "try super.decodeModelField(index, from: &reader)",
            fallback: "throw \(core)ModelError.readOnly(index, in: \(typeName).modelSchema)")
        let mutating = model.isClass ? "" : "mutating "
        return """
            \(overrideModifier)\(memberAccess)\(mutating)func decodeModelField<R: \(core)ModelReader>(_ index: Int, from reader: inout R) throws {
            \(indented(body))
            }
            """
    }
}
