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
            return "try reader.decodeValue((\(type)).self, transformer: \(typeName).\(transformerName(property)))"
        }
        return "try reader.decodeValue((\(type)).self)"
    }

    /// Statements that read a property's value into `self.<name>` (of the model, or of the
    /// fields struct), validating it when the type declares `validate<Name>(_:)`, attributed to
    /// the property's line.
    func readStatements(_ property: StoredProperty) -> String {
        let target = "self.\(property.name)"
        if property.typeText == nil { return located(property, "try reader.decodeValue(into: &\(target))") }
        guard property.hasValidationMethod else { return located(property, "\(target) = \(readExpression(property))") }
        return located(
            property,
            """
            let value = \(readExpression(property))
            try reader.validateField(value, \(typeName).validate\(property.capitalizedName))
            \(target) = value
            """)
    }

    /// `code` attributed to the property's declaration in the user's source (see
    /// ``StoredProperty/sourceLocation``), so that a type error in it is reported on that line.
    func located(_ property: StoredProperty, _ code: String) -> String {
        guard let directive = property.sourceLocation else { return code }
        return "\(directive)\n\(code)\n#sourceLocation()"
    }

    func fieldsStruct() -> String {
        var slots = ownProperties.filter { $0.property.isMappedIn }.map { _, property in
            "fileprivate var \(property.name): Optional<\(property.typeText ?? "_")> = nil"
        }
        if model.isSubclass, let superclass = model.superclassName {
            slots.append("var _super = \(superclass).__ModelKitFields()")
        }
        let cases = ownProperties.filter { $0.property.isMappedIn }.map { position, property in
            "case \(position):\n\(indented(readStatements(property)))"
        }
        let body = ownSwitch(cases, inherited: "try _super.decodeField(index, from: &reader)", fallback: "break")
        return """
            \(access)struct __ModelKitFields: \(isolated("\(core)ModelFieldDecoder")) {
            \(indented(slots.joined(separator: "\n")))
                \(access)init() {}
                \(access)mutating func decodeField<R: \(core)ModelReader>(_ index: Int, from reader: inout R) throws {
            \(indented(body, 2))
                }
            }
            """
    }

    func initFromFields() -> String {
        let mapped = ownProperties.filter { $0.property.isMappedIn }
        let required = mapped.filter { !$0.property.hasDefault }
        var lines: [String] = []
        if !required.isEmpty {
            let checks = required.map { position, property in
                "if fields.\(property.name) == nil { missing.append(\(index(position))) }"
            }
            // Bound under a prefix: a property may be named like a local here (`fields`, `mapping`).
            let bindings = required.map { "let __\($0.property.name) = fields.\($0.property.name)" }
            lines.append(
                """
                guard \(bindings.joined(separator: ", ")) else {
                    var missing: [Int] = []
                \(indented(checks.joined(separator: "\n")))
                    throw \(core)ModelError.missingValues(missing, in: \(typeName).modelSchema, mapping: mapping)
                }
                """)
        }
        for (_, property) in mapped {
            if !property.hasDefault {
                lines.append("self.\(property.name) = __\(property.name)")
            } else if let initializer = property.initializer {
                lines.append("self.\(property.name) = fields.\(property.name) ?? (\(initializer))")
            } else {
                lines.append("self.\(property.name) = fields.\(property.name) ?? nil")
            }
        }
        if model.isSubclass { lines.append("try super.init(modelFields: fields._super, mapping: mapping)") }
        return """
            \(access)init(modelFields fields: __ModelKitFields, mapping: \(core)ModelSchema.Mapping) throws {
            \(indented(lines.joined(separator: "\n")))
            }
            """
    }

    func initFromReader() -> String {
        let modifiers = model.isClass ? "required convenience " : ""
        return """
            \(access)\(modifiers)init<R: \(core)ModelReader>(modelReader reader: inout R) throws {
                var fields = __ModelKitFields()
                try reader.decodeFields(of: \(typeName).modelSchema, into: &fields)
                try self.init(modelFields: fields, mapping: reader.mapping)
            }
            """
    }
}
