// Equality, hashing, Codable and the memberwise initializer of classes.

extension ModelExpansion {
    /// The non-transient properties equality and hashing use.
    var comparedProperties: [StoredProperty] { properties.filter { !$0.isTransient } }

    func comparison(_ property: StoredProperty, _ lhs: String, _ rhs: String) -> String {
        let function = property.isWeak ? "modelReferencesIdentical" : "modelValuesEqual"
        return "\(core)\(function)(\(lhs).\(storage(property)), \(rhs).\(storage(property)))"
    }

    /// The comparisons of `lhs` and `rhs`, a `guard` each, then `return true`. Statements, not
    /// one `&&` chain: the type checker takes a statement at a time, and `&&` would make a
    /// closure of every comparison after the first.
    func comparisons(_ lhs: String, _ rhs: String) -> String {
        let guards = comparedProperties.map { "guard \(comparison($0, lhs, rhs)) else { return false }" }
        return (guards + ["return true"]).joined(separator: "\n")
    }

    func structEquals() -> String {
        """
        \(access)static func == (lhs: \(typeName), rhs: \(typeName)) -> Bool {
        \(indented(comparisons("lhs", "rhs")))
        }
        """
    }

    func hash(override: Bool) -> String {
        var lines = comparedProperties.filter { !$0.isWeak }.map {
            "\(core)modelHashValue(self.\(storage($0)), into: &hasher)"
        }
        if override { lines.insert("super.hash(into: &hasher)", at: 0) }
        return """
            \(override ? "override " : "")\(memberAccess)func hash(into hasher: inout Hasher) {
            \(indented(lines.joined(separator: "\n")))
            }
            """
    }

    /// `isModelEqual(to:)`, which `==` on classes calls (a subclass also asks its parent), and
    /// the hashing that goes with it.
    func classEquality() -> [String] {
        guard model.isSubclass || model.generatesEquality else { return [] }
        let condition = model.isSubclass
            ? "let other = other as? \(typeName), super.isModelEqual(to: other)" : "let other = other as? \(typeName)"
        var members = [
            """
            \(overrideModifier)\(memberAccess)func isModelEqual(to other: AnyObject) -> Bool {
                guard \(condition) else { return false }
            \(indented(comparisons("self", "other")))
            }
            """
        ]
        if model.generatesHash { members.append(hash(override: model.isSubclass)) }
        return members
    }

    func codable() -> [String] {
        let initModifiers = model.isClass ? "required convenience " : ""
        var members = [
            """
            \(access)\(initModifiers)init(from decoder: any Decoder) throws {
                var reader = \(core)CodableReader(decoder: decoder)
                do {
                    try self.init(modelReader: &reader)
                } catch {
                    try reader.throwProblems(after: error)
                }
                try reader.validateModel(self)
                try reader.throwCollectedProblems(model: nil)
            }
            """
        ]
        if !model.isSubclass && !model.declaresEncode {
            members.append(
                """
                \(memberAccess)func encode(to encoder: any Encoder) throws {
                    var writer = \(core)CodableWriter(encoder: encoder)
                    try writer.encodeModel(self)
                }
                """)
        }
        return members
    }

    /// `init(a:b:...)` for a root class that declares no initializer, like a struct's.
    func memberwiseInit() -> [String] {
        let settable = properties.filter { !$0.isReadOnly && ($0.typeText != nil || $0.initializer == nil) }
        let parameters = settable.map { property -> String in
            let defaultValue = property.initializer ?? (property.isOptional ? "nil" : nil)
            return "\(property.name): \(property.typeText ?? "_")" + (defaultValue.map { " = \($0)" } ?? "")
        }
        var assignments = settable.map { "self.\(storageName($0)) = \($0.name)" }
        // The models a relationship refers to gain this one in their inverse, as a write would give.
        let candidates = Set(inverseCandidates.map(\.name))
        assignments += settable.filter { candidates.contains($0.name) }.map {
            "\(core)modelInverseInitialized(self, \\.\($0.name), self.\($0.name))"
        }
        return [
            """
            \(access)init(\(parameters.joined(separator: ", "))) {
            \(indented(assignments.joined(separator: "\n")))
            }
            """
        ]
    }
}

extension ModelExpansion {
    /// Empty hooks for those the type's body does not declare, as the type's own witnesses.
    ///
    /// The macro sees only the body: a hook declared in an extension would never be called
    /// (the schema says the type has none). With these in place it is an "invalid
    /// redeclaration" error on the user's line instead. A class that subclasses may extend gets
    /// them as `class` members, so a subclass overrides a hook (`override class func`); a
    /// subclass inherits its parent's.
    func hookStubs() -> [String] {
        guard !model.isSubclass else { return [] }
        let overridable = model.kind == .openableClass
        let typeMember = overridable ? "\(memberAccess)class func" : "\(access)static func"
        let instanceMember = overridable ? "\(memberAccess)func" : "\(access)func"
        // Each hook: its schema flag (as `ModelDeclaration.hooks` lists it), name and empty body.
        let hooks = [
            (".rewritesJSON", "rewriteJSON(_:)", "\(typeMember) rewriteJSON(_ json: inout \(core)JSONValue) throws {}"),
            (
                ".choosesType", "modelType(for:)",
                "\(typeMember) modelType(for json: \(core)JSONValue) throws -> (any \(core)Model.Type)? { nil }"
            ),
            (".validates", "validate()", "\(instanceMember) validate() throws {}"),
        ]
        return hooks.filter { !model.hooks.contains($0.0) }.map { _, hook, declaration in
            "// '@Model' found no '\(hook)' in the body of '\(name)': hooks are declared in the type's body.\n\(declaration)"
        }
    }
}
