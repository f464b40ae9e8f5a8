/// What `@Model` generates for an enum: the `ModelEnum` conformance (its schema, the reading and
/// writing of each case's payload) and, for a case with labelled or several associated values, a
/// model of those values that its payload is read and written as.
struct ModelEnumExpansion {
    let model: ModelEnumDeclaration
    let typeName: String
    let core = "ModelKitCore."

    /// The members of the conformance's extension.
    func members() -> [String] {
        [schema(), caseIndex(), decodeCase(), encodePayload(), fallback()]
    }

    func schema() -> String {
        let cases = model.taggedCases.map { enumCase in
            let tag = enumCase.integerTag.map { ", integerTag: \($0)" }
                ?? enumCase.tag.map { ", tag: \(GeneratedSyntax.stringLiteral($0))" } ?? ""
            var payload = ""
            if enumCase.hasSingleValue {
                payload = ", payload: (\(enumCase.values[0].type)).self"
            } else if enumCase.isTuple {
                payload = ", tuple: [\(enumCase.values.map { "(\($0.type)).self" }.joined(separator: ", "))]"
            } else if !enumCase.values.isEmpty {
                payload = ", payload: \(payloadName(enumCase)).self"
            }
            return "\(core)ModelEnumSchema.Case(\(GeneratedSyntax.stringLiteral(enumCase.name))\(tag), hasPayload: \(!enumCase.values.isEmpty)\(payload))"
        }
        let fallback = model.fallback.map { ", fallback: \(GeneratedSyntax.stringLiteral($0.name))" } ?? ""
        return """
            \(model.access)static let modelEnumSchema = \(core)ModelEnumSchema(
                name: \(GeneratedSyntax.stringLiteral(model.name)), representation: \(model.representation ?? ".external"),
                cases: [\(cases.joined(separator: ", "))]\(fallback))
            """
    }

    func caseIndex() -> String {
        var index = 0
        let lines = model.cases.map { enumCase -> String in
            guard !enumCase.isFallback else { return "case .\(enumCase.name): nil" }
            defer { index += 1 }
            return "case .\(enumCase.name): \(index)"
        }
        return """
            \(model.access)var modelCaseIndex: Int? {
                switch self {
            \(lines.map { "    " + $0 }.joined(separator: "\n"))
                }
            }
            """
    }

    func decodeCase() -> String {
        let lines = model.taggedCases.enumerated().map { index, enumCase -> String in
            if enumCase.values.isEmpty { return "case \(index): return .\(enumCase.name)" }
            if enumCase.hasSingleValue {
                return "case \(index): return .\(enumCase.name)(try reader.decodeValue((\(enumCase.values[0].type)).self))"
            }
            if enumCase.isTuple {
                let elements = enumCase.values.enumerated().map { position, value in
                    "try elements.element(\(position)) { try $0.decodeValue((\(value.type)).self) }"
                }
                return """
                    case \(index):
                        let elements = try \(core)ModelTupleElements(reading: &reader, count: \(enumCase.values.count))
                        return .\(enumCase.name)(\(elements.joined(separator: ", ")))
                    """
            }
            let arguments = zip(enumCase.values, enumCase.fieldNames).map { value, field in
                (value.label.map { "\($0): " } ?? "") + "payload.\(field)"
            }
            return """
                case \(index):
                    let payload = try reader.decodeValue(\(payloadName(enumCase)).self)
                    return .\(enumCase.name)(\(arguments.joined(separator: ", ")))
                """
        }
        return """
            \(model.access)static func decodeModelCase<R: \(core)ModelReader>(_ index: Int, from reader: inout R) throws -> Self {
                switch index {
            \(lines.map { GeneratedSyntax.indented($0) }.joined(separator: "\n"))
                default: throw \(core)ModelError(.invalidValue, expected: "a case of '\(model.name)'")
                }
            }
            """
    }

    func encodePayload() -> String {
        let lines = model.cases.map { enumCase -> String in
            if enumCase.values.isEmpty || enumCase.isFallback { return "case .\(enumCase.name): break" }
            let names = enumCase.values.indices.map { "value\($0)" }
            let pattern = "case .\(enumCase.name)(\(names.map { "let \($0)" }.joined(separator: ", ")))"
            if enumCase.hasSingleValue { return "\(pattern): try writer.encodeValue(value0)" }
            if enumCase.isTuple {
                let appends = names.map { "    try elements.append { try $0.encodeValue(\($0)) }" }
                return (["\(pattern):", "    var elements = \(core)ModelTupleWriter(options: writer.options)"] + appends
                    + ["    try writer.encodeJSONValue(elements.value)"]).joined(separator: "\n")
            }
            let arguments = zip(enumCase.fieldNames, names).map { "\($0): \($1)" }
            return "\(pattern): try writer.encodeValue(\(payloadName(enumCase))(\(arguments.joined(separator: ", "))))"
        }
        return """
            \(model.access)func encodeModelCasePayload<W: \(core)ModelWriter>(to writer: inout W) throws {
                switch self {
            \(lines.map { GeneratedSyntax.indented($0) }.joined(separator: "\n"))
                }
            }
            """
    }

    func fallback() -> String {
        guard let fallback = model.fallback else {
            return """
                \(model.access)static func modelFallback(_ payload: \(core)JSONValue) -> Self? { nil }
                \(model.access)var modelFallbackPayload: \(core)JSONValue? { nil }
                """
        }
        return """
            \(model.access)static func modelFallback(_ payload: \(core)JSONValue) -> Self? { .\(fallback.name)(payload) }
            \(model.access)var modelFallbackPayload: \(core)JSONValue? {
                if case .\(fallback.name)(let payload) = self { return payload }
                return nil
            }
            """
    }

    /// A model of each case's labelled or several associated values, named in errors and schemas
    /// after the case (`Block.image`).
    func payloadModels() -> [String] {
        model.taggedCases.filter { !$0.values.isEmpty && !$0.hasSingleValue && !$0.isTuple }.map { enumCase in
            let fields = zip(enumCase.fieldNames, enumCase.values).map { "    var \($0): \($1.type)" }
            return """
                @ModelKit.Model(name: \(GeneratedSyntax.stringLiteral("\(model.name).\(enumCase.name)")))
                \(model.access)struct \(payloadName(enumCase)) {
                \(fields.joined(separator: "\n"))
                }
                """
        }
    }

    func payloadName(_ enumCase: ModelEnumDeclaration.Case) -> String {
        "__ModelKitCase_\(enumCase.name)"
    }

}
