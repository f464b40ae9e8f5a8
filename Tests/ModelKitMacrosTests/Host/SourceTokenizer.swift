/// A token of Swift source, with the trivia swift-syntax would give it.
///
/// swift-syntax gives a token the trivia after it up to the end of its line (its trailing trivia)
/// and the rest before the next token (that token's leading trivia). Pieces of source sent to the
/// plugin start at their first token's leading trivia and end after their last one's trailing
/// trivia, as swiftc sends them.
struct SourceToken: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        /// Names and keywords, backquoted names included.
        case identifier
        /// A string literal, interpolations and raw delimiters included.
        case string
        case number
        /// `( ) [ ] { } , : ; @ # \`, one character each.
        case punctuation
        /// A run of operator characters (`.`, `?`, `=`, `->`, `==`, ...).
        case `operator`
    }

    let kind: Kind
    let text: String
    /// The token's UTF-8 offsets, without trivia.
    let range: Range<Int>
    /// Where its leading trivia starts: after the previous token's trailing trivia.
    let leadingTriviaStart: Int
    /// A line break is in its leading trivia, or it is the first token.
    let startsLine: Bool
}

/// Splits Swift source into the tokens the test host needs to find declarations and attributes.
///
/// It knows comments (nested block comments too), string literals (multi-line, raw, with
/// interpolations), names, numbers and punctuation; it does not need to know more of Swift's
/// grammar. Unterminated comments and strings are errors, so that a mistyped test source fails
/// with a clear message instead of expanding something else.
struct SourceTokenizer {
    private let bytes: [UInt8]
    private var offset = 0

    /// The tokens of `source`.
    static func tokens(of source: SourceFile) throws(SourceSyntaxError) -> [SourceToken] {
        var tokenizer = SourceTokenizer(bytes: source.bytes)
        var tokens: [SourceToken] = []
        while let token = try tokenizer.next(isFirst: tokens.isEmpty) { tokens.append(token) }
        return tokens
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private mutating func next(isFirst: Bool) throws(SourceSyntaxError) -> SourceToken? {
        let lineBreak = try skipTrivia()
        guard offset < bytes.count else { return nil }
        let start = offset
        let kind = try scanToken()
        return SourceToken(
            kind: kind, text: String(decoding: bytes[start..<offset], as: UTF8.self), range: start..<offset,
            leadingTriviaStart: isFirst ? 0 : (lineBreak ?? start), startsLine: isFirst || lineBreak != nil)
    }

    // MARK: - Trivia

    /// Skips whitespace and comments; returns where the first line break among them is.
    @discardableResult
    private mutating func skipTrivia() throws(SourceSyntaxError) -> Int? {
        var firstLineBreak: Int?
        while offset < bytes.count {
            switch bytes[offset] {
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                if firstLineBreak == nil { firstLineBreak = offset }
                offset += 1
            case UInt8(ascii: " "), UInt8(ascii: "\t"), 0x0B, 0x0C:
                offset += 1
            case UInt8(ascii: "/") where byte(at: offset + 1) == UInt8(ascii: "/"):
                while offset < bytes.count, bytes[offset] != UInt8(ascii: "\n"), bytes[offset] != UInt8(ascii: "\r") {
                    offset += 1
                }
            case UInt8(ascii: "/") where byte(at: offset + 1) == UInt8(ascii: "*"):
                try skipBlockComment()
            default:
                return firstLineBreak
            }
        }
        return firstLineBreak
    }

    private mutating func skipBlockComment() throws(SourceSyntaxError) {
        let start = offset
        var depth = 0
        repeat {
            if starts(with: "/*", at: offset) {
                depth += 1
                offset += 2
            } else if starts(with: "*/", at: offset) {
                depth -= 1
                offset += 2
            } else if offset < bytes.count {
                offset += 1
            } else {
                throw SourceSyntaxError("unterminated block comment", at: start)
            }
        } while depth > 0
    }

    // MARK: - Tokens

    private mutating func scanToken() throws(SourceSyntaxError) -> SourceToken.Kind {
        let first = bytes[offset]
        if first == UInt8(ascii: "\"") || (first == UInt8(ascii: "#") && isRawStringStart()) {
            try scanString()
            return .string
        }
        if first == UInt8(ascii: "`") {
            let start = offset
            offset += 1
            while offset < bytes.count, bytes[offset] != UInt8(ascii: "`") { offset += 1 }
            guard offset < bytes.count else { throw SourceSyntaxError("unterminated backquoted name", at: start) }
            offset += 1
            return .identifier
        }
        if isIdentifierByte(first, first: true) {
            while offset < bytes.count, isIdentifierByte(bytes[offset], first: false) { offset += 1 }
            return .identifier
        }
        if isDigit(first) {
            while offset < bytes.count,
                isIdentifierByte(bytes[offset], first: false)
                    || (bytes[offset] == UInt8(ascii: ".") && byte(at: offset + 1).map(isDigit) == true)
            {
                offset += 1
            }
            return .number
        }
        if Self.operatorBytes.contains(first) {
            while offset < bytes.count, Self.operatorBytes.contains(bytes[offset]),
                !starts(with: "//", at: offset), !starts(with: "/*", at: offset)
            {
                offset += 1
            }
            return .operator
        }
        offset += 1
        return .punctuation
    }

    /// `#"`, `##"`, ...: a raw string's opening delimiter.
    private func isRawStringStart() -> Bool {
        var index = offset
        while byte(at: index) == UInt8(ascii: "#") { index += 1 }
        return byte(at: index) == UInt8(ascii: "\"")
    }

    /// Scans a string literal: `#`s, one or three quotes, the text (escapes and interpolations
    /// skipped), the closing quotes and the same number of `#`s.
    private mutating func scanString() throws(SourceSyntaxError) {
        let start = offset
        var pounds = 0
        while bytes[offset] == UInt8(ascii: "#") {
            pounds += 1
            offset += 1
        }
        let multiline = starts(with: "\"\"\"", at: offset)
        let quotes = multiline ? "\"\"\"" : "\""
        let closing = Array((quotes + String(repeating: "#", count: pounds)).utf8)
        let escape = Array(("\\" + String(repeating: "#", count: pounds)).utf8)
        offset += quotes.utf8.count
        while true {
            guard offset < bytes.count else { throw SourceSyntaxError("unterminated string literal", at: start) }
            if starts(with: closing, at: offset) {
                offset += closing.count
                return
            }
            if !multiline, bytes[offset] == UInt8(ascii: "\n") {
                throw SourceSyntaxError("unterminated string literal", at: start)
            }
            if starts(with: escape, at: offset) {
                offset += escape.count
                if byte(at: offset) == UInt8(ascii: "(") { try skipInterpolation() } else { offset += 1 }
            } else {
                offset += 1
            }
        }
    }

    /// Skips `( ... )` after a backslash: tokens, strings included, up to the matching parenthesis.
    private mutating func skipInterpolation() throws(SourceSyntaxError) {
        let start = offset
        var depth = 0
        repeat {
            try skipTrivia()
            guard offset < bytes.count else { throw SourceSyntaxError("unterminated interpolation", at: start) }
            let tokenStart = offset
            _ = try scanToken()
            if bytes[tokenStart] == UInt8(ascii: "(") { depth += 1 }
            if bytes[tokenStart] == UInt8(ascii: ")") { depth -= 1 }
        } while depth > 0
    }

    // MARK: - Characters

    private static let operatorBytes = Set("/=-+!*%<>&|^~?.".utf8)

    private func byte(at index: Int) -> UInt8? { index < bytes.count ? bytes[index] : nil }

    private func starts(with text: String, at index: Int) -> Bool { starts(with: Array(text.utf8), at: index) }

    private func starts(with prefix: [UInt8], at index: Int) -> Bool {
        index + prefix.count <= bytes.count && bytes[index..<index + prefix.count].elementsEqual(prefix)
    }

    private func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    private func isIdentifierByte(_ byte: UInt8, first: Bool) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"),
            UInt8(ascii: "$"), 0x80...0xFF:
            true
        case UInt8(ascii: "0")...UInt8(ascii: "9"): !first
        default: false
        }
    }
}

/// A test source the host cannot read.
struct SourceSyntaxError: Error, CustomStringConvertible {
    let problem: String
    let offset: Int

    init(_ problem: String, at offset: Int) {
        self.problem = problem
        self.offset = offset
    }

    var description: String { "\(problem) at UTF-8 offset \(offset) of the test source" }
}
