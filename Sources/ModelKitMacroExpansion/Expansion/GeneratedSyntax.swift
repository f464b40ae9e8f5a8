import SwiftSyntax

/// Syntax nodes that carry generated source text as it is, without parsing it.
///
/// The compiler receives an expansion as text: with `formatMode` `.disabled`, the plugin's
/// message handler prints each returned node (`description`) and sends the string, which the
/// compiler then parses itself. Building the nodes by parsing our own generated text
/// (`DeclSyntax(stringLiteral:)`) meant a second parse that only printed the same text back,
/// and in a debug build, where swift-syntax is unoptimized, that parse was about 60% of the
/// plugin's time (a fifth of the time to compile a file of models). These nodes print exactly
/// the text they were given; the compiler's own parse is the one that reads it.
///
/// ```swift
/// let member = GeneratedSyntax.declaration("static let answer = 42")
/// member.description  // "static let answer = 42"
/// ```
enum GeneratedSyntax {
    /// A declaration that prints as `text`: a placeholder token holding it.
    static func declaration(_ text: String) -> DeclSyntax {
        DeclSyntax(MissingDeclSyntax(attributes: [], modifiers: [], placeholder: .identifier(text)))
    }

    /// `extension <type>: <conformances> {\n<members>\n}`, printed as written.
    static func extensionDeclaration(of type: String, conformances: [String], members: String) -> ExtensionDeclSyntax {
        let inheritance = conformances.isEmpty
            ? nil
            : InheritanceClauseSyntax(
                colon: .colonToken(trailingTrivia: .space),
                inheritedTypes: InheritedTypeListSyntax(
                    conformances.enumerated().map { position, name in
                        InheritedTypeSyntax(
                            type: IdentifierTypeSyntax(name: .identifier(name)),
                            trailingComma: position < conformances.count - 1 ? .commaToken(trailingTrivia: .space) : nil)
                    }))
        return ExtensionDeclSyntax(
            extensionKeyword: .keyword(.extension, trailingTrivia: .space),
            extendedType: IdentifierTypeSyntax(name: .identifier(type)),
            inheritanceClause: inheritance,
            memberBlock: MemberBlockSyntax(
                leftBrace: .leftBraceToken(leadingTrivia: .space, trailingTrivia: .newline),
                members: [MemberBlockItemSyntax(decl: declaration(members))],
                rightBrace: .rightBraceToken(leadingTrivia: .newline)))
    }

    /// An accessor, one level in (the compiler wraps a property's accessors in braces as they
    /// are), whose body and attribute print as written:
    /// `    @<attribute>\n    <specifier>(<parameter>) {\n        <body>\n    }`.
    static func accessor(
        _ specifier: Keyword, parameter: String? = nil, attribute: String? = nil, body: String
    ) -> AccessorDeclSyntax {
        let indentation = Trivia.spaces(4)
        let attributes: AttributeListSyntax = attribute.map {
            [
                .attribute(
                    AttributeSyntax(
                        atSign: .atSignToken(leadingTrivia: indentation),
                        attributeName: IdentifierTypeSyntax(name: .identifier($0, trailingTrivia: [.newlines(1)] + indentation))))
            ]
        } ?? []
        let indentedBody = body.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.isEmpty ? "" : "        " + $0 }.joined(separator: "\n")
        return AccessorDeclSyntax(
            attributes: attributes,
            accessorSpecifier: .keyword(specifier, leadingTrivia: attribute == nil ? indentation : []),
            parameters: parameter.map { AccessorParametersSyntax(name: .identifier($0)) },
            body: CodeBlockSyntax(
                leftBrace: .leftBraceToken(leadingTrivia: .space, trailingTrivia: .newline),
                statements: [CodeBlockItemSyntax(item: .decl(declaration(indentedBody)))],
                rightBrace: .rightBraceToken(leadingTrivia: [.newlines(1)] + indentation)))
    }

    /// A Swift string literal for `text`.
    static func stringLiteral(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "\\": escaped += "\\\\"
            case "\"": escaped += "\\\""
            case "\n": escaped += "\\n"
            default: escaped.append(character)
            }
        }
        return "\"\(escaped)\""
    }

    /// `text` indented by `levels` of four spaces, empty lines left empty.
    static func indented(_ text: String, _ levels: Int = 1) -> String {
        let prefix = String(repeating: "    ", count: levels)
        return text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.isEmpty ? "" : prefix + $0 }
            .joined(separator: "\n")
    }
}
