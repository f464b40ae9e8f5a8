import ModelKitShared

/// Writes ``ModelPlan``s as Swift source: the imports, then one `@Model` declaration each.
///
/// ```swift
/// SwiftSource.render([plan])
/// // import Foundation
/// // import ModelKit
/// //
/// // /// The payload's top-level object.
/// // @Model(keys: .snakeCase)
/// // struct Root {
/// //     var screenName: String
/// // }
/// ```
enum SwiftSource {
    /// The whole file for `plans`, in their order, ending with a newline.
    static func render(_ plans: [ModelPlan]) -> String {
        var lines = ["import Foundation", "import ModelKit"]
        for plan in plans {
            lines.append("")
            lines += declaration(plan)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The lines of one declaration, its comment first.
    static func declaration(_ plan: ModelPlan) -> [String] {
        if let enumeration = plan.enumeration { return enumDeclaration(plan, enumeration) }
        var lines = ["/// \(origin(of: plan.paths, tag: plan.caseTag))"]
        lines.append(plan.usesSnakeCase ? "@Model(keys: .snakeCase)" : "@Model")
        lines.append("\(plan.isClass ? "final class" : "struct") \(plan.name) {")
        for property in plan.properties {
            var attributes: [String] = []
            if property.needsKey { attributes.append("@Key(\(stringLiteral(KeyPathSyntax.join([property.key]))))") }
            if let transform = property.type.transform { attributes.append("@Transform(\(transform))") }
            attributes.append("var \(property.name): \(property.type.spelled)")
            lines.append("    " + attributes.joined(separator: " "))
        }
        for key in plan.skippedKeys {
            lines.append("    // The key \(stringLiteral(key)) is left out: '@Key' cannot name an empty key.")
        }
        lines.append("}")
        return lines
    }

    /// The lines of a tagged union's enum: `@Model(tag:)`, a case per tag holding its model, with
    /// `@Key` where the case name is not the tag, and a fallback case that keeps the objects of the
    /// tags the sample did not show (a server adds kinds of events; a client built today should
    /// still read them).
    ///
    /// ```swift
    /// /// The elements of the payload's top-level array, told apart by their 'type'.
    /// @Model(tag: "type")
    /// enum Event: Hashable {
    ///     @Key("PushEvent") case pushEvent(PushEvent)
    ///     @UnknownCase case other(JSONValue)
    /// }
    /// ```
    static func enumDeclaration(_ plan: ModelPlan, _ enumeration: EnumPlan) -> [String] {
        // The sentence goes on; several samples at the top level are objects, not the object.
        let origin = plan.paths == [""] ? "The top-level objects" : String(origin(of: plan.paths).dropLast())
        var lines = ["/// \(origin), told apart by their '\(commentText(enumeration.tagKey))'."]
        lines.append("@Model(tag: \(stringLiteral(enumeration.tagKey)))")
        // Hashable, as the macro makes structs: the models holding the enum compare and hash it.
        lines.append("enum \(plan.name): Hashable {")
        for item in enumeration.cases {
            let key = item.name == item.tag ? "" : "@Key(\(stringLiteral(item.tag))) "
            lines.append("    \(key)case \(item.name)(\(item.model))")
        }
        lines.append("    @UnknownCase case \(EnumPlan.fallbackCase)(JSONValue)")
        lines.append("}")
        return lines
    }

    /// Where the model's objects are in the payload, as a sentence; for the model of a union's
    /// case, which of them (`... whose 'type' is 'PushEvent'.`).
    static func origin(of paths: [String], tag: ModelPlan.CaseTag? = nil) -> String {
        let which = tag.map { " whose '\(commentText($0.key))' is '\(commentText($0.value))'" } ?? ""
        if paths == [""] { return tag == nil ? "The payload's top-level object." : "The top-level objects\(which)." }
        if paths == ["[]"] { return "The elements of the payload's top-level array\(which)." }
        let shown = paths.prefix(3).map { "'\(commentText($0))'" }
        let more = paths.count - shown.count
        let list = more > 0 ? shown.joined(separator: ", ") + " and \(more) more" : joinedWithAnd(shown)
        return "The objects at \(list)\(which)."
    }

    /// `a`, `a and b`, `a, b and c`.
    static func joinedWithAnd(_ items: [String]) -> String {
        guard let last = items.last, items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " and " + last
    }

    /// A Swift string literal for `text`, escaping backslashes, quotes and control characters.
    static func stringLiteral(_ text: String) -> String {
        "\"" + escaped(text) + "\""
    }

    /// `text` safe inside a line comment: control characters escaped as in a literal.
    static func commentText(_ text: String) -> String {
        escaped(text, quotes: false)
    }

    private static func escaped(_ text: String, quotes: Bool = true) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\" where quotes: result += "\\\\"
            case "\"" where quotes: result += "\\\""
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || (0x2028...0x2029).contains(scalar.value) {
                    result += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }
}
