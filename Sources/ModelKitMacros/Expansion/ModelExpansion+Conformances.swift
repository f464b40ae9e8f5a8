// Equality, hashing, Codable and the memberwise initializer of classes.

extension ModelExpansion {
    /// The non-transient properties equality and hashing use.
    var comparedProperties: [StoredProperty] { properties.filter { !$0.isTransient } }

    func comparison(_ property: StoredProperty, _ lhs: String, _ rhs: String) -> String {
        let function = property.isWeak ? "modelReferencesIdentical" : "modelValuesEqual"
        return "\(core)\(function)(\(lhs).\(property.name), \(rhs).\(property.name))"
    }

    /// The comparisons of `lhs` and `rhs`, joined by `&&` one per line; `true` with none.
    func conjunction(_ lhs: String, _ rhs: String) -> String {
        let terms = comparedProperties.map { comparison($0, lhs, rhs) }
        return terms.isEmpty ? "true" : terms.joined(separator: "\n    && ")
    }

    func structEquals() -> String {
        """
        \(access)static func == (lhs: \(typeName), rhs: \(typeName)) -> Bool {
        \(indented(conjunction("lhs", "rhs")))
        }
        """
    }

    func hash(override: Bool) -> String {
        var lines = comparedProperties.filter { !$0.isWeak }.map {
            "\(core)modelHashValue(self.\($0.name), into: &hasher)"
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
            \(indented("return " + conjunction("self", "other")))
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
                try self.init(modelReader: &reader)
                try reader.validateModel(self)
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
        let assignments = settable.map { "self.\($0.name) = \($0.name)" }
        return [
            """
            \(access)init(\(parameters.joined(separator: ", "))) {
            \(indented(assignments.joined(separator: "\n")))
            }
            """
        ]
    }
}
