/// The lexical layer of the XML property list reader: markup, tags, character data, entities.
///
/// The scanner works on validated UTF-8 bytes and never reads past the end: every access checks
/// `position < end`. It knows the XML that property lists use: the XML declaration and other
/// processing instructions, comments, a `DOCTYPE` (skipped, internal subset included), start
/// tags with ignored attributes, end tags, empty-element tags, the five predefined entities,
/// numeric character references, and CDATA sections. Errors carry byte offsets; the reader turns
/// them into lines and columns.
struct XMLScanner {
    // The document's bytes, borrowed for the read: every access checks `position < text.count` (see above), and names
    // and text are taken from them in place, without copies.
    let text: UnsafeRawBufferPointer
    var position = 0

    /// A start, end or empty-element tag.
    struct Tag {
        /// The element, by its name.
        let element: Element
        /// Where the name's bytes are (``XMLScanner/name(of:)`` makes a string of them).
        let nameRange: Range<Int>
        /// Where the tag's `<` is.
        let offset: Int
        /// `</name>`.
        let isClosing: Bool
        /// `<name/>`.
        let isSelfClosing: Bool
    }

    /// The elements of property lists, told by their names' bytes (no string is made per tag).
    enum Element {
        case plist, dict, array, key, string, integer, real, `true`, `false`, date, data
        /// Any other name.
        case other

        // The name where it lies in the document: elements are told apart with no String made per tag.
        init(_ name: UnsafeRawBufferPointer) {
            // By the first byte, then the rest.
            @inline(__always)
            func spells(_ literal: StaticString) -> Bool {
                guard name.count == literal.utf8CodeUnitCount else { return false }
                // The literal's static bytes; `index` stays below `name.count`, which equals their count.
                let bytes = literal.utf8Start
                for index in 1..<name.count where name[index] != bytes[index] { return false }
                return true
            }
            guard let first = name.first else {
                self = .other
                return
            }
            switch first {
            case UInt8(ascii: "k"): self = spells("key") ? .key : .other
            case UInt8(ascii: "s"): self = spells("string") ? .string : .other
            case UInt8(ascii: "i"): self = spells("integer") ? .integer : .other
            case UInt8(ascii: "r"): self = spells("real") ? .real : .other
            case UInt8(ascii: "a"): self = spells("array") ? .array : .other
            case UInt8(ascii: "t"): self = spells("true") ? .true : .other
            case UInt8(ascii: "f"): self = spells("false") ? .false : .other
            case UInt8(ascii: "p"): self = spells("plist") ? .plist : .other
            case UInt8(ascii: "d"):
                if spells("dict") { self = .dict } else if spells("date") { self = .date } else if spells("data") { self = .data }
                else { self = .other }
            default: self = .other
            }
        }
    }

    /// An element's text: a range of the document when it holds no entity, CDATA section or
    /// comment (no copy), otherwise its decoded bytes.
    enum Content {
        case plain(Range<Int>)
        case decoded([UInt8])
    }

    /// Calls `body` with the bytes of `content`.
    // Lends an element's text in place: a range of the document, or the decoded array's storage; neither is copied.
    func withBytes<R>(of content: Content, _ body: (UnsafeRawBufferPointer) throws(Failure) -> R) throws(Failure) -> R {
        switch content {
        case .plain(let range): return try body(UnsafeRawBufferPointer(rebasing: text[range]))
        case .decoded(let bytes):
            let result: Result<R, Failure> = bytes.withUnsafeBytes { bytes in
                do throws(Failure) { return .success(try body(bytes)) } catch { return .failure(error) }
            }
            return try result.get()
        }
    }

    /// The name of `tag`, for messages and names outside property lists.
    func name(of tag: Tag) -> String {
        // The name's bytes in place, decoded once into the String.
        String(decoding: UnsafeRawBufferPointer(rebasing: text[tag.nameRange]), as: UTF8.self)
    }

    /// Whether `tag` has the name `name` (a name it read from the same document).
    func tag(_ tag: Tag, isNamed name: Range<Int>) -> Bool {
        // Both names compared in place in the document.
        ExactString.bytesEqual(UnsafeRawBufferPointer(rebasing: text[tag.nameRange]), UnsafeRawBufferPointer(rebasing: text[name]))
    }

    /// A scanner error before it is given a line and column.
    struct Failure: Error {
        let kind: PropertyListError.Kind
        let offset: Int

        init(_ kind: PropertyListError.Kind, at offset: Int) {
            self.kind = kind
            self.offset = offset
        }
    }

    // Borrows the document's bytes for the scanner's life, which is one read.
    init(text: UnsafeRawBufferPointer) {
        self.text = text
    }

    var isAtEnd: Bool { position >= text.count }

    /// Whether the bytes at the current position spell `literal`.
    @inline(__always)
    func hasPrefix(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard position + count <= text.count else { return false }
        // The literal's static bytes; `index` stays below their count.
        let bytes = literal.utf8Start
        for index in 0..<count where text[position + index] != bytes[index] {
            return false
        }
        return true
    }

    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: ":"),
             UInt8(ascii: "-"), UInt8(ascii: "."):
            return true
        default:
            return byte >= 0x80
        }
    }

    mutating func skipWhitespace() {
        while position < text.count, Self.isWhitespace(text[position]) { position += 1 }
    }

    /// Skips past the next occurrence of `terminator`, or fails at the end of the document.
    mutating func skip(past terminator: StaticString, expected: String) throws(Failure) {
        let start = position
        while position < text.count {
            if hasPrefix(terminator) {
                position += terminator.utf8CodeUnitCount
                return
            }
            position += 1
        }
        throw Failure(.unexpectedEnd(expected: expected), at: start)
    }

    /// Skips whitespace, comments and processing instructions; stops at anything else.
    mutating func skipMisc() throws(Failure) {
        while true {
            skipWhitespace()
            if hasPrefix("<!--") {
                position += 4
                try skip(past: "-->", expected: "-->")
            } else if hasPrefix("<?") {
                position += 2
                try skip(past: "?>", expected: "?>")
            } else {
                return
            }
        }
    }

    /// Skips a `<!DOCTYPE …>` declaration at the current position, internal subset included.
    mutating func skipDoctype() throws(Failure) {
        let start = position
        position += 9  // "<!DOCTYPE"
        var bracketDepth = 0
        while position < text.count {
            let byte = text[position]
            position += 1
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                while position < text.count, text[position] != byte { position += 1 }
                guard position < text.count else { break }
                position += 1
            case UInt8(ascii: "["):
                bracketDepth += 1
            case UInt8(ascii: "]"):
                bracketDepth = max(0, bracketDepth - 1)
            case UInt8(ascii: ">") where bracketDepth == 0:
                return
            default:
                break
            }
        }
        throw Failure(.unexpectedEnd(expected: ">"), at: start)
    }

    /// Reads a tag at the current position, which holds `<` followed by a name or `/`.
    mutating func readTag() throws(Failure) -> Tag {
        let start = position
        position += 1
        var isClosing = false
        if position < text.count, text[position] == UInt8(ascii: "/") {
            isClosing = true
            position += 1
        }
        let nameStart = position
        while position < text.count, Self.isNameByte(text[position]) { position += 1 }
        guard position > nameStart else {
            if position >= text.count { throw Failure(.unexpectedEnd(expected: ">"), at: start) }
            throw Failure(.malformedMarkup("'<' is not followed by a tag name"), at: start)
        }
        let nameRange = nameStart..<position
        var isSelfClosing = false
        while true {
            skipWhitespace()
            guard position < text.count else {
                throw Failure(.unexpectedEnd(expected: ">"), at: start)
            }
            let byte = text[position]
            if byte == UInt8(ascii: ">") {
                position += 1
                break
            }
            if byte == UInt8(ascii: "/"), !isClosing, position + 1 < text.count,
               text[position + 1] == UInt8(ascii: ">")
            {
                isSelfClosing = true
                position += 2
                break
            }
            guard !isClosing, Self.isNameByte(byte) else {
                let slash = isClosing ? "/" : ""
                // The name decoded from the document in place, for the message.
                let name = String(decoding: UnsafeRawBufferPointer(rebasing: text[nameRange]), as: UTF8.self)
                throw Failure(.malformedMarkup("malformed tag '<\(slash)\(Self.clip(name))'"), at: start)
            }
            try skipAttribute(tagStart: start, nameRange: nameRange)
        }
        // The name in place, matched without a String.
        let element = Element(UnsafeRawBufferPointer(rebasing: text[nameRange]))
        return Tag(element: element, nameRange: nameRange, offset: start, isClosing: isClosing, isSelfClosing: isSelfClosing)
    }

    /// Skips `name = "value"` (or single quotes) inside a start tag.
    private mutating func skipAttribute(tagStart: Int, nameRange: Range<Int>) throws(Failure) {
        // Made only for an error message, from the name in place.
        var name: String { String(decoding: UnsafeRawBufferPointer(rebasing: text[nameRange]), as: UTF8.self) }
        while position < text.count, Self.isNameByte(text[position]) { position += 1 }
        skipWhitespace()
        guard position < text.count, text[position] == UInt8(ascii: "=") else {
            throw Failure(.malformedMarkup("malformed attribute in tag '<\(Self.clip(name))>'"), at: position)
        }
        position += 1
        skipWhitespace()
        guard position < text.count,
              text[position] == UInt8(ascii: "\"") || text[position] == UInt8(ascii: "'")
        else {
            throw Failure(.malformedMarkup("malformed attribute in tag '<\(Self.clip(name))>'"), at: position)
        }
        let quote = text[position]
        position += 1
        while position < text.count, text[position] != quote { position += 1 }
        guard position < text.count else {
            throw Failure(.unexpectedEnd(expected: String(UnicodeScalar(quote))), at: tagStart)
        }
        position += 1
    }

    /// Reads the character data of element `name` up to and including its end tag, decoding
    /// entities and CDATA sections and skipping comments. Returns the decoded UTF-8 bytes.
    mutating func readContent(of opening: Tag) throws(Failure) -> Content {
        var name: String { self.name(of: opening) }
        let tagOffset = opening.offset
        let contentStart = position
        // Stays empty, and the content a range of the document, until an entity, a CDATA
        // section or a comment makes decoding necessary.
        var decoded: [UInt8] = []
        var isPlain = true
        var runStart = position
        while true {
            guard position < text.count else {
                throw Failure(.unexpectedEnd(expected: "</\(name)>"), at: tagOffset)
            }
            let byte = text[position]
            if byte == UInt8(ascii: "&") {
                // The plain run so far, copied in one go from the document.
                decoded.append(contentsOf: UnsafeRawBufferPointer(rebasing: text[runStart..<position]))
                isPlain = false
                try appendEntity(to: &decoded)
                runStart = position
            } else if byte == UInt8(ascii: "<") {
                let textEnd = position
                let isMarkup = position + 1 < text.count && text[position + 1] == UInt8(ascii: "!")
                let isCDATA = isMarkup && hasPrefix("<![CDATA[")
                let isComment = isMarkup && !isCDATA && hasPrefix("<!--")
                if isCDATA || isComment {
                    // The plain run so far, copied in one go from the document.
                    decoded.append(contentsOf: UnsafeRawBufferPointer(rebasing: text[runStart..<position]))
                    isPlain = false
                }
                if isCDATA {
                    position += 9
                    let dataStart = position
                    try skip(past: "]]>", expected: "]]>")
                    // The CDATA section's bytes, copied in one go from the document.
                    decoded.append(contentsOf: UnsafeRawBufferPointer(rebasing: text[dataStart..<(position - 3)]))
                } else if isComment {
                    position += 4
                    try skip(past: "-->", expected: "-->")
                } else {
                    let tag = try readTag()
                    guard tag.isClosing else {
                        let context = "inside '<\(name)>'"
                        throw Failure(.unexpectedElement(Self.clip(self.name(of: tag)), context: context), at: tag.offset)
                    }
                    guard self.tag(tag, isNamed: opening.nameRange) else {
                        throw Failure(.mismatchedTag(expected: name, found: Self.clip(self.name(of: tag))), at: tag.offset)
                    }
                    if isPlain { return .plain(contentStart..<textEnd) }
                    // The last plain run, copied in one go from the document.
                    decoded.append(contentsOf: UnsafeRawBufferPointer(rebasing: text[runStart..<textEnd]))
                    return .decoded(decoded)
                }
                runStart = position
            } else {
                position += 1
            }
        }
    }

    /// Decodes the entity reference at the current position (`&…;`).
    private mutating func appendEntity(to output: inout [UInt8]) throws(Failure) {
        let start = position
        var end = position + 1
        // An entity is `&`, a name or `#` digits, and `;`.
        while end < text.count, end - start <= 12,
              Self.isNameByte(text[end]) || text[end] == UInt8(ascii: "#")
        {
            end += 1
        }
        guard end < text.count, text[end] == UInt8(ascii: ";") else {
            // Made only for the error, from the bytes in place.
            let snippet = String(decoding: UnsafeRawBufferPointer(rebasing: text[start..<end]), as: UTF8.self)
            throw Failure(.invalidEntity(snippet), at: start)
        }
        // The entity's name in place, between the `&` and the `;` checked above.
        let body = UnsafeRawBufferPointer(rebasing: text[(start + 1)..<end])
        position = end + 1
        // The whole reference, decoded in place for a possible error.
        let entity = String(decoding: UnsafeRawBufferPointer(rebasing: text[start...end]), as: UTF8.self)
        let invalid = Failure(.invalidEntity(entity), at: start)
        switch String(decoding: body, as: UTF8.self) {
        case "lt": output.append(UInt8(ascii: "<"))
        case "gt": output.append(UInt8(ascii: ">"))
        case "amp": output.append(UInt8(ascii: "&"))
        case "quot": output.append(UInt8(ascii: "\""))
        case "apos": output.append(UInt8(ascii: "'"))
        default:
            guard body.count >= 2, body[0] == UInt8(ascii: "#") else { throw invalid }
            var scalar: UInt64 = 0
            let hex = body[1] == UInt8(ascii: "x")
            let digits = body[(hex ? 2 : 1)...]
            guard !digits.isEmpty, digits.count <= 8 else { throw invalid }
            for byte in digits {
                guard let digit = Self.digitValue(byte, hex: hex) else { throw invalid }
                scalar = scalar * (hex ? 16 : 10) + digit
            }
            guard scalar <= 0x10FFFF, !(0xD800...0xDFFF).contains(scalar) else { throw invalid }
            let codePoint = UInt32(scalar)
            var encoded: [UInt8] = [0, 0, 0, 0]
            // The array's storage in place, with room for the 4 bytes a scalar takes at most.
            let count = encoded.withUnsafeMutableBufferPointer { UTF8Encoding.encode(codePoint, into: $0, at: 0) }
            output.append(contentsOf: encoded[..<count])
        }
    }

    private static func digitValue(_ byte: UInt8, hex: Bool) -> UInt64? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt64(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f") where hex: return UInt64(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F") where hex: return UInt64(byte - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }

    /// Up to 20 characters of text starting at `offset`, stopping at a line break or `<`, for
    /// error messages.
    func snippet(at offset: Int) -> String {
        var end = offset
        var characters = 0
        while end < text.count, characters < 20 {
            let byte = text[end]
            if byte == 0x0A || byte == 0x0D || byte == UInt8(ascii: "<") { break }
            if byte & 0xC0 != 0x80 { characters += 1 }
            end += 1
        }
        while end < text.count, text[end] & 0xC0 == 0x80 { end += 1 }
        // The snippet, decoded from the bytes in place.
        return String(decoding: UnsafeRawBufferPointer(rebasing: text[offset..<end]), as: UTF8.self)
    }

    /// Shortens long names for error messages.
    static func clip(_ name: String) -> String {
        name.count <= 40 ? name : String(name.prefix(40)) + "…"
    }
}
