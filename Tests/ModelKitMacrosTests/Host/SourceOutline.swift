/// An attribute written on a declaration: `@Model`, `@Key("id")`, `@ModelKit.Transient`.
struct OutlinedAttribute: Sendable, Equatable {
    /// The name as written, module included (swiftc sends it as the macro's name).
    let writtenName: String
    /// The name without a module (what macro lookup uses).
    var name: String { writtenName.split(separator: ".").last.map(String.init) ?? writtenName }
    /// Its tokens, by index: `@`, the name, the arguments.
    let tokens: Range<Int>
}

/// A declaration of a test source: its attributes, its keyword and name, and for a type or an
/// extension, its inheritance clause and members; for a function or initializer, the
/// declarations in its body (a local type). Accessor bodies are not looked into.
struct OutlinedDeclaration: Sendable {
    /// `struct`, `class`, `var`, `case`, ...; nil for a statement that is not a declaration.
    let keyword: String?
    /// The declared name (the first one of a `var` or `let`), or the extended type of an extension.
    let name: String?
    let attributes: [OutlinedAttribute]
    /// Its tokens, by index, attributes included.
    let tokens: Range<Int>
    /// The `{` and `}` of a type's or extension's members, or of a function's body, by index.
    let memberBraces: (open: Int, close: Int)?
    /// The names in the inheritance clause (`Hashable`, `Model`, ...).
    let inheritedNames: [String]
    let members: [OutlinedDeclaration]

    /// A struct, class, enum, actor, protocol or extension: what member and extension macros attach to.
    var isTypeOrExtension: Bool { memberBraces != nil && keyword.map(SourceOutline.typeKeywords.contains) == true }

    /// `struct Tag`, `var id`: how failure messages name it.
    var summary: String { [keyword, name].compactMap { $0 }.joined(separator: " ") }
}

/// The declarations of a test source, found from its tokens by the shape of Swift declarations:
/// attributes, modifiers, a keyword, and everything up to the end of the line at bracket depth 0
/// (a line that ends with `,` `:` `=` `->` or `.`, or a next line that starts with `{` `.` or
/// `where`, continues it).
struct SourceOutline: Sendable {
    let file: SourceFile
    let tokens: [SourceToken]
    let declarations: [OutlinedDeclaration]

    static let typeKeywords: Set = ["struct", "class", "enum", "actor", "protocol", "extension"]
    static let declarationKeywords: Set =
        typeKeywords.union(["var", "let", "func", "init", "deinit", "subscript", "case", "typealias", "import"])
    static let modifiers: Set = [
        "public", "private", "fileprivate", "internal", "package", "open", "final", "static", "class", "override",
        "required", "convenience", "lazy", "weak", "unowned", "mutating", "nonmutating", "nonisolated", "dynamic",
        "indirect", "distributed",
    ]

    init(_ source: String) throws(SourceSyntaxError) {
        file = SourceFile(source)
        tokens = try SourceTokenizer.tokens(of: file)
        declarations = try OutlineParser(tokens: tokens).declarations(in: 0..<tokens.count)
    }

    /// The UTF-8 range of some tokens with their trivia: the first one's leading trivia, the
    /// last one's trailing trivia (up to the end of its line or the next token).
    func sourceRange(of tokenRange: Range<Int>) -> Range<Int> {
        let start = tokens[tokenRange.lowerBound].leadingTriviaStart
        guard tokenRange.upperBound >= tokens.count else {
            return start..<tokens[tokenRange.upperBound].leadingTriviaStart
        }
        let lastEnd = tokens[tokenRange.upperBound - 1].range.upperBound
        let lineEnd = file.bytes[lastEnd...].firstIndex { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") }
        return start..<(lineEnd ?? file.bytes.count)
    }

    /// Some tokens as a request carries them: their text with trivia, and where it starts.
    func payload(_ kind: SyntaxPayload.Kind, tokens tokenRange: Range<Int>) -> SyntaxPayload {
        let range = sourceRange(of: tokenRange)
        return SyntaxPayload(kind: kind, source: file.text(in: range), location: file.location(of: range.lowerBound))
    }

    /// A type or function as the lexical context of what it contains: the declaration with its
    /// members or body removed (`@Model\nstruct User {}`, `func make() {}`), as swift-syntax's
    /// `asMacroLexicalContext()` makes it.
    func lexicalContext(_ type: OutlinedDeclaration) -> SyntaxPayload? {
        guard let braces = type.memberBraces else { return nil }
        let start = tokens[type.tokens.lowerBound].leadingTriviaStart
        let header = file.text(in: start..<tokens[braces.open].leadingTriviaStart)
        return SyntaxPayload(kind: .declaration, source: header + "{}", location: .synthesized)
    }
}

/// Reads declarations from tokens for ``SourceOutline``.
private struct OutlineParser {
    let tokens: [SourceToken]

    func declarations(in range: Range<Int>) throws(SourceSyntaxError) -> [OutlinedDeclaration] {
        var result: [OutlinedDeclaration] = []
        var index = range.lowerBound
        while index < range.upperBound {
            if tokens[index].text == ";" {
                index += 1
                continue
            }
            let declaration = try self.declaration(from: index, limit: range.upperBound)
            result.append(declaration)
            index = declaration.tokens.upperBound
        }
        return result
    }

    private func declaration(from start: Int, limit: Int) throws(SourceSyntaxError) -> OutlinedDeclaration {
        var index = start
        var attributes: [OutlinedAttribute] = []
        while index < limit, tokens[index].text == "@" {
            let attribute = try self.attribute(at: index, limit: limit)
            attributes.append(attribute)
            index = attribute.tokens.upperBound
        }
        let keywordIndex = self.keyword(from: index, limit: limit)
        let keyword = keywordIndex.map { tokens[$0].text }
        let isType = keyword.map(SourceOutline.typeKeywords.contains) ?? false
        let hasBody = isType || keyword == "func" || keyword == "init"
        var depth = 0
        var braces: (open: Int, close: Int?)?
        var end = keywordIndex ?? index
        while end < limit {
            let token = tokens[end]
            if token.kind == .punctuation, ["(", "[", "{"].contains(token.text) {
                if hasBody, depth == 0, token.text == "{", braces == nil { braces = (end, nil) }
                depth += 1
            } else if token.kind == .punctuation, [")", "]", "}"].contains(token.text) {
                depth -= 1
                guard depth >= 0 else { throw SourceSyntaxError("unbalanced '\(token.text)'", at: token.range.lowerBound) }
                if depth == 0, let open = braces?.open, braces?.close == nil { braces = (open, end) }
            }
            end += 1
            if depth == 0, end == limit || !continues(after: end - 1, next: end) { break }
        }
        guard depth == 0 else {
            throw SourceSyntaxError("unclosed bracket in a declaration", at: tokens[start].range.lowerBound)
        }
        var memberBraces: (open: Int, close: Int)?
        var members: [OutlinedDeclaration] = []
        if let open = braces?.open, let close = braces?.close {
            memberBraces = (open, close)
            members = try declarations(in: open + 1..<close)
        }
        let header = (keywordIndex ?? start)..<(memberBraces?.open ?? end)
        return OutlinedDeclaration(
            keyword: keyword, name: keywordIndex.flatMap { name(after: $0, limit: header.upperBound) },
            attributes: attributes, tokens: start..<end, memberBraces: memberBraces,
            inheritedNames: isType ? inheritedNames(in: header) : [], members: members)
    }

    /// `@`, a name (dotted for a module), and arguments in parentheses right after it.
    private func attribute(at start: Int, limit: Int) throws(SourceSyntaxError) -> OutlinedAttribute {
        var index = start + 1
        guard index < limit, tokens[index].kind == .identifier else {
            throw SourceSyntaxError("'@' without an attribute name", at: tokens[start].range.lowerBound)
        }
        var name = tokens[index].text
        index += 1
        while index + 1 < limit, tokens[index].text == ".", tokens[index + 1].kind == .identifier {
            name += "." + tokens[index + 1].text
            index += 2
        }
        if index < limit, tokens[index].text == "(", tokens[index].range.lowerBound == tokens[index - 1].range.upperBound {
            var depth = 0
            repeat {
                if tokens[index].text == "(" { depth += 1 }
                if tokens[index].text == ")" { depth -= 1 }
                index += 1
            } while depth > 0 && index < limit
            guard depth == 0 else {
                throw SourceSyntaxError("unclosed arguments of '@\(name)'", at: tokens[start].range.lowerBound)
            }
        }
        return OutlinedAttribute(writtenName: name, tokens: start..<index)
    }

    /// The declaration keyword after the modifiers (`class` is a modifier before another keyword).
    private func keyword(from start: Int, limit: Int) -> Int? {
        var index = start
        while index < limit, tokens[index].kind == .identifier {
            let text = tokens[index].text
            let next = index + 1 < limit ? tokens[index + 1].text : ""
            let isModifierClass =
                text == "class" && (SourceOutline.declarationKeywords.contains(next) || SourceOutline.modifiers.contains(next))
            if SourceOutline.declarationKeywords.contains(text), !isModifierClass { return index }
            guard SourceOutline.modifiers.contains(text) else { return nil }
            index += 1
            if index < limit, tokens[index].text == "(" { index += 3 }  // private(set)
        }
        return nil
    }

    /// Whether the declaration goes on after token `last` with token `next`.
    private func continues(after last: Int, next: Int) -> Bool {
        let following = tokens[next]
        guard following.text != ";" else { return false }
        guard following.startsLine else { return true }
        return [",", ":", "=", "->", "."].contains(tokens[last].text) || ["{", ".", "where"].contains(following.text)
    }

    /// The name after the keyword; for an extension, the extended type (`Outer.Inner`).
    private func name(after keyword: Int, limit: Int) -> String? {
        guard keyword + 1 < limit, tokens[keyword + 1].kind == .identifier else { return nil }
        guard tokens[keyword].text == "extension" else { return tokens[keyword + 1].text }
        var name = tokens[keyword + 1].text
        var index = keyword + 2
        while index + 1 < limit, tokens[index].text == ".", tokens[index + 1].kind == .identifier {
            name += "." + tokens[index + 1].text
            index += 2
        }
        return name
    }

    /// The names after the type's `:` (not one in its generic parameters), up to `where` or the members.
    private func inheritedNames(in header: Range<Int>) -> [String] {
        var angles = 0
        let colon = header.first { index in
            let text = tokens[index].text
            if tokens[index].kind == .operator {
                angles += text.filter { $0 == "<" }.count - text.filter { $0 == ">" }.count
            }
            return angles == 0 && text == ":"
        }
        guard let colon else { return [] }
        let clause = (colon + 1..<header.upperBound).prefix { tokens[$0].text != "where" }
        return clause.filter { tokens[$0].kind == .identifier }.map { tokens[$0].text }
    }
}
