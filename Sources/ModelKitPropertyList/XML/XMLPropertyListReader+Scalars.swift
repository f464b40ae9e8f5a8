#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension XMLPropertyListReader {
    /// Reads a scalar element (`string`, `integer`, `real`, `true`, `false`, `date`, `data`) whose
    /// start tag has been read, through its end tag.
    mutating func readScalar(_ tag: XMLScanner.Tag) throws(Failure) -> PropertyListValue {
        switch tag.element {
        case .string:
            return .string(try readString(tag))
        case .integer:
            return try withContent(of: tag) { (text) throws(Failure) in
                guard let integer = Self.parseInteger(text) else {
                    throw Failure(.invalidInteger(Self.quote(text)), at: tag.offset)
                }
                return .integer(integer)
            }
        case .real:
            return try withContent(of: tag) { (text) throws(Failure) in
                guard let real = Self.parseReal(text) else {
                    throw Failure(.invalidReal(Self.quote(text)), at: tag.offset)
                }
                return .real(PropertyListReal(real))
            }
        case .true, .false:
            let empty = try withContent(of: tag) { $0.allSatisfy(XMLScanner.isWhitespace) }
            guard empty else {
                throw Failure(.malformedMarkup("'<\(scanner.name(of: tag))>' must be empty"), at: tag.offset)
            }
            return .bool(tag.element == .true)
        case .date:
            return try withContent(of: tag) { (text) throws(Failure) in
                guard let seconds = PropertyListDateText.parse(Array(Self.trimmed(text))) else {
                    throw Failure(.invalidDate(Self.quote(text)), at: tag.offset)
                }
                return .date(Date(timeIntervalSinceReferenceDate: seconds))
            }
        case .data:
            let text = try withContent(of: tag) { Array($0) }
            var tooLong = false
            let decoded = PropertyListBase64.decode(text, maximumLength: limits.maxDataLength, exceededLimit: &tooLong)
            guard let bytes = decoded else {
                if tooLong {
                    throw exceeded(.maxDataLength, found: nil, at: tag.offset)
                }
                throw Failure(.invalidBase64, at: tag.offset)
            }
            try countLength(bytes.count, at: tag.offset)
            return .data(Data(bytes))
        case .plist:
            throw Failure(.unexpectedElement("plist", context: "inside a value"), at: tag.offset)
        case .dict, .array, .key, .other:
            throw Failure(.unknownElement(XMLScanner.clip(scanner.name(of: tag))), at: tag.offset)
        }
    }

    /// Reads the text of a `string` or `key` element, enforcing `maxStringLength` (UTF-8 bytes).
    mutating func readString(_ tag: XMLScanner.Tag) throws(Failure) -> String {
        let bytes = try content(of: tag)
        let count = try scanner.withBytes(of: bytes) { $0.count }
        guard count <= limits.maxStringLength else {
            throw exceeded(.maxStringLength, found: count, at: tag.offset)
        }
        try countLength(count, at: tag.offset)
        // Entities and CDATA can only produce valid UTF-8 from valid UTF-8 input.
        return try scanner.withBytes(of: bytes) { String(decoding: $0, as: UTF8.self) }
    }

    /// The content of an element, empty for `<name/>`.
    private mutating func content(of tag: XMLScanner.Tag) throws(Failure) -> XMLScanner.Content {
        if tag.isSelfClosing { return .plain(scanner.position..<scanner.position) }
        return try scanner.readContent(of: tag)
    }

    /// Calls `body` with the content of an element.
    // Lends the element's text in place (see `XMLScanner.withBytes`).
    private mutating func withContent<R>(of tag: XMLScanner.Tag, _ body: (UnsafeRawBufferPointer) throws(Failure) -> R)
        throws(Failure) -> R
    {
        let content = try content(of: tag)
        return try scanner.withBytes(of: content, body)
    }

    /// Parses `[whitespace][+|-][whitespace](digits | 0x hexdigits)[whitespace]` in the range
    /// `Int64.min ... UInt64.max`.
    // Parses the element's text in place.
    static func parseInteger(_ text: UnsafeRawBufferPointer) -> PropertyListInteger? {
        var bytes = trimmed(text)[...]
        guard let first = bytes.first else { return nil }
        var negative = false
        if first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
            negative = first == UInt8(ascii: "-")
            bytes = bytes.dropFirst().drop(while: XMLScanner.isWhitespace)
        }
        var radix: UInt64 = 10
        if bytes.count > 2, bytes.first == UInt8(ascii: "0"),
           bytes.dropFirst().first == UInt8(ascii: "x") || bytes.dropFirst().first == UInt8(ascii: "X")
        {
            radix = 16
            bytes = bytes.dropFirst(2)
        }
        guard !bytes.isEmpty else { return nil }
        var magnitude: UInt64 = 0
        for byte in bytes {
            let digit: UInt64
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt64(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f") where radix == 16:
                digit = UInt64(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F") where radix == 16:
                digit = UInt64(byte - UInt8(ascii: "A") + 10)
            default: return nil
            }
            let shifted = magnitude.multipliedReportingOverflow(by: radix)
            let added = shifted.partialValue.addingReportingOverflow(digit)
            guard !shifted.overflow, !added.overflow else { return nil }
            magnitude = added.partialValue
        }
        if negative {
            guard magnitude <= UInt64(1) << 63 else { return nil }
            return PropertyListInteger(Int64(bitPattern: 0 &- magnitude))
        }
        return PropertyListInteger(magnitude)
    }

    /// Parses a decimal real (`[+|-]digits[.digits][e[+|-]digits]`, or starting with `.`) or one
    /// of Apple's special spellings (`nan`, `inf`, `infinity`, signed, any case).
    // The element's text in place; a String is made of it for the special spellings.
    static func parseReal(_ text: UnsafeRawBufferPointer) -> Double? {
        let bytes = trimmed(text)
        guard !bytes.isEmpty, bytes.count <= 1_000 else { return nil }
        let word = String(decoding: bytes, as: UTF8.self).lowercased()
        switch word {
        case "nan": return .nan
        case "inf", "+inf", "infinity", "+infinity": return .infinity
        case "-inf", "-infinity": return -.infinity
        default: break
        }
        var index = 0
        func skipDigits() -> Int {
            let start = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
                index += 1
            }
            return index - start
        }
        if bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
        var mantissaDigits = skipDigits()
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            mantissaDigits += skipDigits()
        }
        guard mantissaDigits > 0 else { return nil }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard skipDigits() > 0 else { return nil }
        }
        guard index == bytes.count else { return nil }
        return Double(String(decoding: bytes, as: UTF8.self))
    }

    /// The bytes without leading and trailing XML whitespace.
    // A view of the same bytes without the whitespace, not a copy; valid as long as they are.
    static func trimmed(_ text: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        guard let first = text.firstIndex(where: { !XMLScanner.isWhitespace($0) }),
              let last = text.lastIndex(where: { !XMLScanner.isWhitespace($0) })
        else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return UnsafeRawBufferPointer(rebasing: text[first...last])
    }

    /// Up to 40 characters of element text, for error messages.
    // Decodes the bytes in place, for an error message.
    static func quote(_ text: UnsafeRawBufferPointer) -> String {
        XMLScanner.clip(String(decoding: trimmed(text), as: UTF8.self))
    }
}
