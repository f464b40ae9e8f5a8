import SwiftDiagnostics
import SwiftSyntax

/// A `@Model` enum as the macro reads it: its representation and its cases.
struct ModelEnumDeclaration {
    /// One case: its name, tag, associated values and whether it keeps unknown tags.
    struct Case {
        var name: String
        /// `@Key("img")`: its tag, when not its name.
        var tag: String?
        /// `@Key(3)`: an integer tag, in decimal.
        var integerTag: Int64?
        /// The associated values: label (nil when unlabelled) and type, as written.
        var values: [(label: String?, type: String)]
        /// `@UnknownCase`: keeps the value of a tag the enum does not know.
        var isFallback = false

        /// The tag as written in payloads' text: its string, its integer's digits, or its name.
        var tagText: String { integerTag.map { String($0) } ?? tag ?? name }

        /// One unlabelled associated value: the payload is that value itself.
        var hasSingleValue: Bool { values.count == 1 && values[0].label == nil }
        /// Several associated values, none labelled: the payload is an array of them.
        var isTuple: Bool { values.count > 1 && values.allSatisfy { $0.label == nil } }
        /// The payload's field names: the labels, `_0`, `_1`... for unlabelled ones.
        var fieldNames: [String] { values.enumerated().map { $0.element.label ?? "_\($0.offset)" } }
    }

    var name: String
    /// `public `, `package ` or empty.
    var access: String
    /// `.external`, `.internal(tag: "type")`, ... as the schema's initializer takes it; nil
    /// when the attribute names none.
    var representation: String?
    /// Whether payloads sit beside the tag (they must be objects).
    var payloadsBesideTag = false
    var cases: [Case] = []

    var fallback: Case? { cases.first(where: \.isFallback) }
    var taggedCases: [Case] { cases.filter { !$0.isFallback } }
}

extension ModelDeclarationParser {
    /// The value of an integer literal, negative or not (`3`, `-1`, `1_000`), that fits `Int64`.
    static func integerLiteral(_ expression: ExprSyntax) -> Int64? {
        if let prefix = expression.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "-" {
            return integerLiteral(prefix.expression).flatMap { $0 == Int64.min ? nil : -$0 }
        }
        guard let literal = expression.as(IntegerLiteralExprSyntax.self) else { return nil }
        return Int64(literal.literal.text.filter { $0 != "_" })
    }

    /// Reads an enum declaration; nil (with diagnostics) when it cannot be mapped.
    mutating func parseEnum(_ declaration: EnumDeclSyntax, attribute: AttributeSyntax) -> ModelEnumDeclaration? {
        let modifiers = declaration.modifiers.map(\.name.text)
        let access = modifiers.contains("public") ? "public " : modifiers.contains("package") ? "package " : ""
        var model = ModelEnumDeclaration(name: declaration.name.text, access: access)
        if declaration.genericParameterClause != nil {
            diagnose(declaration.name, .enumUnfit(name: model.name, reason: "a generic enum is not supported; make its payloads generic models instead"))
            return nil
        }
        var tag: String?
        var content: String?
        for argument in attribute.arguments?.as(LabeledExprListSyntax.self) ?? [] {
            let literal = argument.expression.as(StringLiteralExprSyntax.self)?.representedLiteralValue
            switch argument.label?.text {
            case "tag": tag = literal
            case "content": content = literal
            case nil:
                let written = argument.expression.trimmedDescription
                model.representation = written
                model.payloadsBesideTag = written.hasPrefix(".internal")
            default: break
            }
        }
        if let tag {
            model.representation = content.map { ".adjacent(tag: \(GeneratedSyntax.stringLiteral(tag)), content: \(GeneratedSyntax.stringLiteral($0)))" } ?? ".internal(tag: \(GeneratedSyntax.stringLiteral(tag)))"
            model.payloadsBesideTag = content == nil
        }
        for member in declaration.memberBlock.members {
            guard let caseDecl = member.decl.as(EnumCaseDeclSyntax.self) else { continue }
            let tagAttribute = PropertyAttribute.key.find(in: caseDecl.attributes)
            let tagExpression = tagAttribute?.arguments?.as(LabeledExprListSyntax.self)?.first?.expression
            let caseTag = tagExpression.flatMap { $0.as(StringLiteralExprSyntax.self)?.representedLiteralValue }
            let integerTag = tagExpression.flatMap(Self.integerLiteral)
            if let tagExpression, caseTag == nil {
                if integerTag == nil {
                    diagnose(tagExpression, .enumUnfit(name: model.name, reason: "write a case's tag as a string or an integer literal"))
                } else if !model.payloadsBesideTag && !(model.representation ?? "").hasPrefix(".adjacent") {
                    diagnose(
                        tagExpression,
                        .enumUnfit(name: model.name, reason: "an integer tag needs a tag key: '@Model(tag: \"type\")' or '@Model(tag:content:)'"))
                }
            }
            let isFallback = caseDecl.attributes.contains { element in
                element.as(AttributeSyntax.self).map { $0.attributeName.trimmedDescription.hasSuffix("UnknownCase") } ?? false
            }
            for element in caseDecl.elements {
                let values = element.parameterClause?.parameters.map { parameter in
                    (label: parameter.firstName?.text == "_" ? nil : parameter.firstName?.text, type: parameter.type.trimmedDescription)
                } ?? []
                var enumCase = ModelEnumDeclaration.Case(
                    name: element.name.text, tag: caseTag, integerTag: integerTag, values: values, isFallback: isFallback)
                if isFallback {
                    let type = values.first.map { String($0.type.filter { $0 != " " }) }
                    if values.count != 1 || !(type == "JSONValue" || type == "ModelKit.JSONValue") {
                        diagnose(element, .enumUnfit(name: model.name, reason: "'@UnknownCase' keeps a value as it came: declare it 'case \(element.name.text)(JSONValue)'"))
                        enumCase.isFallback = false
                    } else if let first = model.fallback {
                        diagnose(element, .enumUnfit(name: model.name, reason: "'\(first.name)' keeps unknown tags already"))
                        enumCase.isFallback = false
                    }
                }
                model.cases.append(enumCase)
            }
        }
        if model.representation == nil {
            diagnose(
                attribute,
                .enumUnfit(
                    name: model.name,
                    reason: "say how its cases appear in payloads: '@Model(.external)', '@Model(tag: \"type\")', "
                        + "'@Model(tag: \"type\", content: \"data\")' or '@Model(.untagged)'"))
            return nil
        }
        if model.taggedCases.isEmpty {
            diagnose(declaration.name, .enumUnfit(name: model.name, reason: "it has no case to map"))
            return nil
        }
        var seen: Set<String> = []
        for enumCase in model.taggedCases where !seen.insert(enumCase.tagText).inserted {
            diagnose(declaration.name, .enumUnfit(name: model.name, reason: "two cases have the tag '\(enumCase.tagText)'"))
            return nil
        }
        return model
    }

}
