import ModelKitCore

/// A JSON document that breaks RFC 8259 or one of its ``JSONLimits``, with where it went wrong.
///
/// The location is worked out from the input only when the error is made, so scanning never
/// tracks lines. `offset` is the 0-based byte offset; `line` and `column` are 1-based, a line
/// ends at a line feed, and the column counts Unicode scalars from the start of its line.
///
/// ```swift
/// do {
///     try JSONValidator.validate("[1,]")
/// } catch let error as JSONSyntaxError {
///     print(error) // invalid JSON at line 1, column 4 (byte 3): a trailing comma is not allowed before ']'
/// }
/// ```
public struct JSONSyntaxError: Error, Hashable, CustomStringConvertible, Sendable {
    /// What is wrong with the document.
    ///
    /// Not frozen: kinds can be added in a minor release, so a `switch` over them needs a
    /// `default`.
    public enum Kind: Hashable, Sendable {
        /// The input ended where something else was expected.
        case unexpectedEndOfInput(expected: Expectation)
        /// A byte that cannot appear here (outside a string).
        case unexpectedByte(UInt8, expected: Expectation)
        /// A comma directly before `}` or `]` (the closing byte is carried).
        case trailingComma(before: UInt8)
        /// A UTF-8 byte order mark at the start of the document, which RFC 8259 forbids senders to add.
        case byteOrderMark
        /// Something that starts like `true`, `false` or `null` but is not that literal.
        case invalidLiteral(expected: String)
        /// A number that breaks the RFC 8259 number grammar.
        case invalidNumber(NumberProblem)
        /// A string with no closing quote.
        case unterminatedString
        /// A control character (below 0x20) that is not escaped inside a string.
        case unescapedControlCharacter(UInt8)
        /// A backslash followed by something other than `"` `\` `/` `b` `f` `n` `r` `t` `u`.
        case invalidEscape(UInt8)
        /// `\u` not followed by four hexadecimal digits.
        case invalidUnicodeEscape
        /// A `\u` escape of a UTF-16 surrogate without its other half.
        case unpairedSurrogate(UInt16)
        /// Bytes inside a string that are not well-formed UTF-8 (the first bad byte is carried).
        case invalidUTF8(UInt8)
        /// A limit of ``JSONLimits`` was exceeded; carries the limit's name and value.
        case limitExceeded(JSONLimits.Name, limit: Int)
    }

    /// What the reader expected where it found something else.
    public enum Expectation: Hashable, Sendable, CustomStringConvertible {
        /// Any JSON value.
        case value
        /// A JSON value or the `]` that closes an empty array.
        case valueOrArrayEnd
        /// A string key after a comma in an object.
        case key
        /// A string key or the `}` that closes an empty object.
        case keyOrObjectEnd
        /// The `:` between a key and its value.
        case colon
        /// A `,` or `}` after an object member.
        case commaOrObjectEnd
        /// A `,` or `]` after an array element.
        case commaOrArrayEnd
        /// A digit inside a number.
        case digit
        /// The closing quote of a string.
        case closingQuote
        /// Nothing but whitespace: the document has already ended.
        case endOfDocument

        /// The expectation as words for an error message.
        public var description: String {
            switch self {
            case .value: "a value"
            case .valueOrArrayEnd: "a value or ']'"
            case .key: "a string key"
            case .keyOrObjectEnd: "a string key or '}'"
            case .colon: "':' after an object key"
            case .commaOrObjectEnd: "',' or '}' after an object member"
            case .commaOrArrayEnd: "',' or ']' after an array element"
            case .digit: "a digit"
            case .closingQuote: "the closing '\"' of a string"
            case .endOfDocument: "the end of the document"
            }
        }
    }

    /// Why a number literal is not valid JSON.
    public enum NumberProblem: Hashable, Sendable, CustomStringConvertible {
        /// `01`, `-012`: a zero integer part followed by more digits.
        case leadingZero
        /// `-`, `-x`: a minus sign without digits after it.
        case missingIntegerDigits
        /// `1.`, `1.e5`: a decimal point without digits after it.
        case missingFractionDigits
        /// `1e`, `1e+`: an exponent marker without digits after it.
        case missingExponentDigits

        /// The problem as words for an error message.
        public var description: String {
            switch self {
            case .leadingZero: "a number cannot have a leading zero"
            case .missingIntegerDigits: "expected a digit after '-' in a number"
            case .missingFractionDigits: "expected a digit after '.' in a number"
            case .missingExponentDigits: "expected a digit in the exponent of a number"
            }
        }
    }

    /// What is wrong.
    public let kind: Kind
    /// The 0-based byte offset of the problem in the document.
    public let offset: Int
    /// The 1-based line of the problem.
    public let line: Int
    /// The 1-based column of the problem, counted in Unicode scalars.
    public let column: Int

    /// Creates an error at a known location.
    public init(_ kind: Kind, offset: Int, line: Int, column: Int) {
        self.kind = kind
        self.offset = offset
        self.line = line
        self.column = column
    }

    /// Creates an error at `offset` in `document`, working out its line and column.
    // Unsafe: reads the document in place to count lines and columns up to `offset`; the scanner
    // passes the buffer it borrows, alive during the call.
    public init(_ kind: Kind, offset: Int, in document: UnsafeRawBufferPointer) {
        let location = JSONTextLocation(offset: offset, in: document)
        self.init(kind, offset: offset, line: location.line, column: location.column)
    }

    /// The problem as one lowercase sentence, without the location.
    public var message: String {
        switch kind {
        case .unexpectedEndOfInput(let expected):
            return "unexpected end of input, expected \(expected)"
        case .unexpectedByte(let byte, let expected):
            return "expected \(expected), found \(JSONTextLocation.describe(byte: byte))"
        case .trailingComma(let closer):
            return "a trailing comma is not allowed before \(JSONTextLocation.describe(byte: closer))"
        case .byteOrderMark:
            return "a byte order mark is not allowed at the start of JSON"
        case .invalidLiteral(let expected):
            return "invalid literal, expected '\(expected)'"
        case .invalidNumber(let problem):
            return problem.description
        case .unterminatedString:
            return "unterminated string, expected a closing '\"'"
        case .unescapedControlCharacter(let byte):
            return "control character \(JSONTextLocation.hex(byte)) must be escaped in a string"
        case .invalidEscape(let byte) where byte > 0x20 && byte < 0x7F:
            return "invalid escape '\\\(Character(Unicode.Scalar(byte)))' in a string"
        case .invalidEscape(let byte):
            return "invalid escape in a string: '\\' followed by byte \(JSONTextLocation.hex(byte))"
        case .invalidUnicodeEscape:
            return "invalid unicode escape, expected four hexadecimal digits after '\\u'"
        case .unpairedSurrogate(let unit):
            return "unpaired surrogate escape '\\u\(JSONTextLocation.hex4(unit))' in a string"
        case .invalidUTF8(let byte):
            return "invalid UTF-8 byte \(JSONTextLocation.hex(byte)) in a string"
        case .limitExceeded(let name, let limit):
            return name.violation(limit: limit)
        }
    }

    /// The error as one sentence: `invalid JSON at line L, column C (byte B): message`.
    public var description: String {
        "invalid JSON at line \(line), column \(column) (byte \(offset)): \(message)"
    }
}

/// The 1-based line and column of a byte offset, computed by one pass over the text before it.
///
/// ```swift
/// let location = JSONTextLocation(offset: 4, in: buffer) // for "[1,\n2" → line 2, column 1
/// ```
// @usableFromInline: no inlinable body uses this type (only the error initializers and messages,
// out of line, do): a candidate for removal.
@usableFromInline
struct JSONTextLocation: Sendable {
    /// The 1-based line.
    var line: Int
    /// The 1-based column in Unicode scalars.
    var column: Int

    /// Counts line feeds and scalar starts before `offset` (clamped to the buffer).
    // Unsafe: reads the document in place, no copy; `limit` clamps the offset to the buffer, so the
    // reads stay inside it.
    init(offset: Int, in document: UnsafeRawBufferPointer) {
        let limit = min(max(offset, 0), document.count)
        var line = 1
        var column = 1
        var index = 0
        while index < limit {
            let byte = document[index]
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
            index += 1
        }
        self.line = line
        self.column = column
    }

    /// A byte for a message: `'x'` when printable ASCII, else `byte 0xNN`.
    static func describe(byte: UInt8) -> String {
        if byte == UInt8(ascii: "'") { return "\"'\"" }
        if byte > 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte \(hex(byte))"
    }

    /// `0xNN` in uppercase hexadecimal.
    static func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return byte < 0x10 ? "0x0" + digits : "0x" + digits
    }

    /// Four lowercase hexadecimal digits, as written in a `\u` escape.
    static func hex4(_ unit: UInt16) -> String {
        let digits = String(unit, radix: 16)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}

extension JSONSyntaxError: MalformedInputError {}
