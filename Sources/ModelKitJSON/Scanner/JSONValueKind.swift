/// The six kinds of JSON value, as told by the first byte of a value.
///
/// ```swift
/// switch try scanner.peek() {
/// case .string: name = try scanner.readString()
/// case .null: _ = try scanner.consumeNull()
/// default: throw scanner.typeMismatch(expected: .string)
/// }
/// ```
public enum JSONValueKind: String, Hashable, Sendable, CustomStringConvertible {
    /// `{ ... }`
    case object
    /// `[ ... ]`
    case array
    /// `"..."`
    case string
    /// `-1.5e3`
    case number
    /// `true` or `false`
    case bool
    /// `null`
    case null

    /// The kind of the value that starts with `byte`, or nil when no value starts so.
    // @inlinable: called before reading values of several kinds by the inlinable JSONScanner.peek()
    // (the key-tree walk's peekShape()); a switch on one byte, compiled into the caller.
    @inlinable
    public init?(firstByte byte: UInt8) {
        switch byte {
        case UInt8(ascii: "{"): self = .object
        case UInt8(ascii: "["): self = .array
        case UInt8(ascii: "\""): self = .string
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): self = .number
        case UInt8(ascii: "t"), UInt8(ascii: "f"): self = .bool
        case UInt8(ascii: "n"): self = .null
        default: return nil
        }
    }

    /// The kind's name for messages: `object`, `array`, `string`, `number`, `boolean`, `null`.
    public var description: String {
        self == .bool ? "boolean" : rawValue
    }

    /// The kind with an article for messages: `an object`, `a string`, `null`, ...
    public var withArticle: String {
        switch self {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .number: "a number"
        case .bool: "a boolean"
        case .null: "null"
        }
    }

    /// A found value as words: `number 42`, `string "a"`, `object {"a": 1}`, `true`, `null`.
    public func describe(excerpt: String) -> String {
        switch self {
        case .bool, .null: excerpt.isEmpty ? description : excerpt
        default: excerpt.isEmpty ? description : "\(description) \(excerpt)"
        }
    }
}

/// Describing values for messages.
extension JSONScanner {
    /// The next value as words for an error message, such as `number 42`, `string "yesterday"`,
    /// `object {"a": 1, "b": [true]}` or `end of input`; shortened to about 40 characters.
    /// Consumes nothing.
    ///
    /// ```swift
    /// "expected a date, found \(scanner.describeNextValue())"
    /// ```
    public func describeNextValue() -> String {
        let start = whitespaceEnd(from: position)
        guard start < end else { return "end of input" }
        guard let kind = JSONValueKind(firstByte: input[start]) else {
            return JSONTextLocation.describe(byte: input[start])
        }
        return kind.describe(excerpt: excerpt(at: start))
    }

    /// The value starting at `offset` as written, with whitespace runs outside strings collapsed
    /// to one space, cut to about 40 characters (an ellipsis marks a cut).
    // @usableFromInline: no inlinable body calls this (only valueError(_:at:) and
    // describeNextValue(), out of line, do): a candidate for removal.
    @usableFromInline
    func excerpt(at offset: Int) -> String {
        let maximumCharacters = 40
        let window = min(end, offset + 4 * maximumCharacters)
        var text: [UInt8] = []
        var index = offset
        var inString = false
        var nesting = 0
        var complete = false
        scan: while index < window {
            let byte = input[index]
            if inString {
                text.append(byte)
                if byte == UInt8(ascii: "\\"), index + 1 < window {
                    text.append(input[index + 1])
                    index += 2
                    continue
                }
                if byte == UInt8(ascii: "\"") {
                    inString = false
                    if nesting == 0 { complete = true; break scan }
                }
                index += 1
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
                text.append(byte)
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                nesting += 1
                text.append(byte)
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if nesting == 0 { complete = true; break scan }
                nesting -= 1
                text.append(byte)
                if nesting == 0 { complete = true; break scan }
            case 0x20, 0x0A, 0x0D, 0x09:
                if nesting == 0 { complete = true; break scan }
                if text.last != 0x20 { text.append(0x20) }
            case UInt8(ascii: ","), UInt8(ascii: ":"):
                if nesting == 0 { complete = true; break scan }
                text.append(byte)
            default:
                text.append(byte)
            }
            index += 1
        }
        if index >= end { complete = true }
        let decoded = String(decoding: text, as: UTF8.self)
        if decoded.count > maximumCharacters {
            return String(decoded.prefix(maximumCharacters - 1)) + "…"
        }
        return complete ? decoded : decoded + "…"
    }
}
