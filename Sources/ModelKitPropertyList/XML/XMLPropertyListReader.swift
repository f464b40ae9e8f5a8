/// Reads an XML property list into a `PropertyListValue`.
///
/// A hand-written parser for the XML that property lists use (see `XMLScanner`): the prolog, an
/// optional `<plist>` wrapper, and the elements `dict`, `key`, `array`, `string`, `integer`,
/// `real`, `true`, `false`, `date` and `data`. A dictionary whose only entry is `CF$UID` with a
/// non-negative integer becomes a `.uid`, as in Apple's reader. Containers are parsed with an
/// explicit stack, so nesting is bounded by `PropertyListLimits.maxDepth` and never by the
/// thread's stack; errors carry a 1-based line and column.
///
/// The text must be UTF-8 (a UTF-8 byte-order mark is skipped) or UTF-16 with a byte-order mark,
/// which is converted first. Value rules follow Apple's reader: integers may be hexadecimal
/// (`0x1F`) and range from `Int64.min` to `UInt64.max`; reals accept `nan`, `inf`, `infinity`
/// with optional signs, in any case; base64 may contain whitespace anywhere.
///
/// ```swift
/// let value = try XMLPropertyListReader.read(buffer, limits: .default)
/// ```
struct XMLPropertyListReader {
    /// Decodes a whole XML property list.
    // The caller's bytes in place, read without a copy (a UTF-16 document is converted to UTF-8 first).
    static func read(
        _ bytes: UnsafeRawBufferPointer, limits: PropertyListLimits
    ) throws(PropertyListError) -> PropertyListValue {
        if bytes.count >= 2, (bytes[0] == 0xFE && bytes[1] == 0xFF) || (bytes[0] == 0xFF && bytes[1] == 0xFE) {
            guard let utf8 = XMLTextDecoding.utf8(fromUTF16WithByteOrderMark: bytes) else {
                throw PropertyListError(.invalidUTF8, at: .lineColumn(line: 1, column: 1), while: .readingXML)
            }
            // The converted UTF-8 lent in place for the read.
            let result: Result<PropertyListValue, PropertyListError> = utf8.withUnsafeBytes { buffer in
                do throws(PropertyListError) {
                    return .success(try readUTF8(buffer, limits: limits, fromUTF16: true))
                } catch {
                    return .failure(error)
                }
            }
            return try result.get()
        }
        return try readUTF8(bytes, limits: limits, fromUTF16: false)
    }

    // The UTF-8 bytes in place: validated first, then scanned without copies.
    private static func readUTF8(
        _ bytes: UnsafeRawBufferPointer, limits: PropertyListLimits, fromUTF16: Bool
    ) throws(PropertyListError) -> PropertyListValue {
        if let invalid = XMLTextDecoding.firstInvalidUTF8Offset(bytes) {
            throw locate(Failure(.invalidUTF8, at: invalid), in: bytes)
        }
        var reader = XMLPropertyListReader(text: bytes, limits: limits, fromUTF16: fromUTF16)
        do {
            return try reader.readDocument()
        } catch {
            throw locate(error, in: bytes)
        }
    }

    /// Turns a byte offset into a line and column: lines end at `\n`, `\r\n` or `\r`; columns
    /// count Unicode scalars from 1.
    // The bytes in place, read up to the failure's offset, clamped to the count.
    static func locate(_ failure: Failure, in text: UnsafeRawBufferPointer) -> PropertyListError {
        var line = 1
        var column = 1
        var index = 0
        let end = min(failure.offset, text.count)
        while index < end {
            let byte = text[index]
            if byte == 0x0A || (byte == 0x0D && (index + 1 >= text.count || text[index + 1] != 0x0A)) {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80, byte != 0x0D {
                column += 1
            }
            index += 1
        }
        return PropertyListError(failure.kind, at: .lineColumn(line: line, column: column), while: .readingXML)
    }

    typealias Failure = XMLScanner.Failure

    /// An open array or dictionary.
    struct Frame {
        let isDictionary: Bool
        let tagOffset: Int
        /// The children so far (and a dictionary's keys): the container's own arrays, which become
        /// its value as they are, with no copy.
        var values: [PropertyListValue] = []
        var keys: [String] = []
        var count = 0
        /// A dictionary's key that still waits for its value.
        var pendingKey: String?
        /// A dictionary one level past `maxDepth`, allowed only if it turns out to be a UID.
        var mustBeUID = false
    }

    var scanner: XMLScanner
    let limits: PropertyListLimits
    let fromUTF16: Bool
    var frames: [Frame] = []
    var objectCount = 0
    /// String bytes and data bytes read so far, for `maxTotalLength`.
    var totalLength = 0

    // Borrows the document for one read (see `XMLScanner.text`).
    init(text: UnsafeRawBufferPointer, limits: PropertyListLimits, fromUTF16: Bool) {
        scanner = XMLScanner(text: text)
        self.limits = limits
        self.fromUTF16 = fromUTF16
    }

    /// Reads the prolog, the root value (inside `<plist>` or bare), and the epilog.
    mutating func readDocument() throws(Failure) -> PropertyListValue {
        if scanner.hasPrefix("\u{FEFF}") { scanner.position += 3 }
        try readProlog()
        guard !scanner.isAtEnd else { throw Failure(.emptyDocument, at: scanner.position) }
        var tag = try nextTag(context: "at the top level")
        let value: PropertyListValue
        if tag.element == .plist, !tag.isClosing {
            guard !tag.isSelfClosing else { throw Failure(.emptyDocument, at: tag.offset) }
            try scanner.skipMisc()
            guard !scanner.isAtEnd else { throw Failure(.unexpectedEnd(expected: "</plist>"), at: tag.offset) }
            tag = try nextTag(context: "in '<plist>'")
            if tag.isClosing {
                guard tag.element == .plist else {
                    throw Failure(.mismatchedTag(expected: "plist", found: XMLScanner.clip(scanner.name(of: tag))), at: tag.offset)
                }
                throw Failure(.emptyDocument, at: tag.offset)
            }
            value = try readValue(startingWith: tag)
            try scanner.skipMisc()
            guard !scanner.isAtEnd else { throw Failure(.unexpectedEnd(expected: "</plist>"), at: scanner.position) }
            let close = try nextTag(context: "in '<plist>'")
            guard close.isClosing else { throw Failure(.extraContent, at: close.offset) }
            guard close.element == .plist else {
                throw Failure(.mismatchedTag(expected: "plist", found: XMLScanner.clip(scanner.name(of: close))), at: close.offset)
            }
        } else {
            guard !tag.isClosing else {
                let name = XMLScanner.clip(scanner.name(of: tag))
                throw Failure(.malformedMarkup("unexpected closing tag '</\(name)>'"), at: tag.offset)
            }
            value = try readValue(startingWith: tag)
        }
        try scanner.skipMisc()
        guard scanner.isAtEnd else { throw Failure(.extraContent, at: scanner.position) }
        return value
    }

    /// Skips the XML declaration (checking its encoding), comments, processing instructions and
    /// the `DOCTYPE`.
    private mutating func readProlog() throws(Failure) {
        while true {
            scanner.skipWhitespace()
            if scanner.hasPrefix("<?xml") {
                let start = scanner.position
                scanner.position += 5
                try scanner.skip(past: "?>", expected: "?>")
                try checkEncoding(declaration: start..<scanner.position)
            } else if scanner.hasPrefix("<?") {
                scanner.position += 2
                try scanner.skip(past: "?>", expected: "?>")
            } else if scanner.hasPrefix("<!--") {
                scanner.position += 4
                try scanner.skip(past: "-->", expected: "-->")
            } else if scanner.hasPrefix("<!DOCTYPE") {
                try scanner.skipDoctype()
            } else {
                return
            }
        }
    }

    /// Accepts UTF-8 and ASCII declarations, and UTF-16 ones for text that had a UTF-16 mark.
    private func checkEncoding(declaration: Range<Int>) throws(Failure) {
        // The declaration's bytes, copied out of the document to search them.
        let text = Array(UnsafeRawBufferPointer(rebasing: scanner.text[declaration]))
        let attribute = Array("encoding".utf8)
        guard var index = (0..<text.count).first(where: { text[$0...].starts(with: attribute) }) else { return }
        index += attribute.count
        while index < text.count, XMLScanner.isWhitespace(text[index]) || text[index] == UInt8(ascii: "=") {
            index += 1
        }
        guard index < text.count, text[index] == UInt8(ascii: "\"") || text[index] == UInt8(ascii: "'") else {
            return
        }
        let quote = text[index]
        let name = String(decoding: text[(index + 1)...].prefix { $0 != quote }, as: UTF8.self).lowercased()
        let utf16Names = ["utf-16", "utf16", "utf-16be", "utf-16le"]
        let accepted = ["utf-8", "utf8", "us-ascii", "ascii"] + (fromUTF16 ? utf16Names : [])
        guard accepted.contains(name) else {
            throw Failure(.unsupportedEncoding(XMLScanner.clip(name)), at: declaration.lowerBound)
        }
    }

    /// Skips whitespace and comments, then reads the next tag; text there is an error.
    private mutating func nextTag(context: String) throws(Failure) -> XMLScanner.Tag {
        try scanner.skipMisc()
        guard !scanner.isAtEnd else {
            let expected = frames.last.map { $0.isDictionary ? "</dict>" : "</array>" } ?? "a value"
            throw Failure(.unexpectedEnd(expected: expected), at: scanner.position)
        }
        guard scanner.text[scanner.position] == UInt8(ascii: "<") else {
            throw Failure(.unexpectedText(scanner.snippet(at: scanner.position)), at: scanner.position)
        }
        if scanner.hasPrefix("<![CDATA[") || scanner.hasPrefix("<!") {
            throw Failure(.malformedMarkup("unexpected markup \(context)"), at: scanner.position)
        }
        return try scanner.readTag()
    }

    /// Reads one value whose start tag has been read, with everything nested in it.
    private mutating func readValue(startingWith first: XMLScanner.Tag) throws(Failure) -> PropertyListValue {
        var tag = first
        while true {
            if let value = try openElement(tag) {
                if frames.isEmpty { return value }
                try deliver(value)
            }
            // Read until the next start tag; end tags complete containers.
            while true {
                let context = frames.last?.isDictionary == true ? "in '<dict>'" : "in '<array>'"
                let next = try nextTag(context: context)
                guard next.isClosing else {
                    tag = next
                    break
                }
                let value = try closeContainer(next)
                if frames.isEmpty { return value }
                try deliver(value)
            }
        }
    }

    /// Handles a start tag: returns a scalar or empty container, or opens a frame (or records a
    /// key) and returns `nil`.
    private mutating func openElement(_ tag: XMLScanner.Tag) throws(Failure) -> PropertyListValue? {
        if tag.element == .key {
            guard let top = frames.indices.last, frames[top].isDictionary else {
                throw Failure(.unexpectedElement("key", context: "outside a dictionary"), at: tag.offset)
            }
            if let previous = frames[top].pendingKey {
                throw Failure(.missingValue(key: XMLScanner.clip(previous)), at: tag.offset)
            }
            frames[top].pendingKey = try readString(tag)
            return nil
        }
        if let top = frames.indices.last, frames[top].isDictionary, frames[top].pendingKey == nil {
            let context = "in a dictionary without a preceding '<key>'"
            throw Failure(.unexpectedElement(XMLScanner.clip(scanner.name(of: tag)), context: context), at: tag.offset)
        }
        switch tag.element {
        case .array, .dict:
            let isDictionary = tag.element == .dict
            let depth = frames.count + 1
            var mustBeUID = false
            if depth > limits.maxDepth {
                // A UID's dictionary form may sit one level deeper: it becomes a scalar.
                guard isDictionary, depth == limits.maxDepth + 1, !(frames.last?.mustBeUID ?? false) else {
                    throw exceeded(.maxDepth, found: depth, at: tag.offset)
                }
                mustBeUID = true
            }
            if tag.isSelfClosing {
                guard !mustBeUID else {
                    throw exceeded(.maxDepth, found: depth, at: tag.offset)
                }
                try countObject(at: tag.offset)
                return isDictionary ? .dictionary(PropertyListDictionary()) : .array([])
            }
            frames.append(
                Frame(isDictionary: isDictionary, tagOffset: tag.offset, mustBeUID: mustBeUID))
            return nil
        default:
            let value = try readScalar(tag)
            try countObject(at: tag.offset)
            return value
        }
    }

    /// Adds a completed value to the innermost container.
    private mutating func deliver(_ value: PropertyListValue) throws(Failure) {
        let top = frames.count - 1
        frames[top].count += 1
        guard frames[top].count <= limits.maxCollectionCount else {
            throw exceeded(.maxCollectionCount, found: frames[top].count, at: frames[top].tagOffset)
        }
        if frames[top].isDictionary, let key = frames[top].pendingKey {
            frames[top].keys.append(key)
            frames[top].pendingKey = nil
        }
        frames[top].values.append(value)
    }

    /// Handles an end tag: checks it matches, and builds the array, dictionary or UID.
    private mutating func closeContainer(_ tag: XMLScanner.Tag) throws(Failure) -> PropertyListValue {
        let isDictionary = frames[frames.count - 1].isDictionary
        let expected = isDictionary ? "dict" : "array"
        guard tag.element == (isDictionary ? .dict : .array) else {
            throw Failure(.mismatchedTag(expected: expected, found: XMLScanner.clip(scanner.name(of: tag))), at: tag.offset)
        }
        if let key = frames[frames.count - 1].pendingKey {
            throw Failure(.missingValue(key: XMLScanner.clip(key)), at: tag.offset)
        }
        let frame = frames.removeLast()
        let value: PropertyListValue
        if frame.isDictionary {
            if frame.keys.count == 1, frame.keys[0] == "CF$UID", case .integer(let integer) = frame.values[0],
               let uid = integer.uint64Value
            {
                objectCount -= 1  // the integer becomes part of the UID
                value = .uid(uid)
            } else {
                value = .dictionary(PropertyListDictionary(trustedKeys: frame.keys, values: frame.values))
            }
        } else {
            value = .array(frame.values)
        }
        if frame.mustBeUID, !value.isUID {
            throw exceeded(.maxDepth, found: limits.maxDepth + 1, at: frame.tagOffset)
        }
        try countObject(at: frame.tagOffset)
        return value
    }

    /// A `limitExceeded` failure for `limit`, reporting the size found when known.
    func exceeded(_ limit: PropertyListLimits.Limit, found: Int?, at offset: Int) -> Failure {
        Failure(.limitExceeded(limit, limit: limits.value(of: limit), found: found.map { UInt64($0) }), at: offset)
    }

    /// Adds a string's or a data value's length to the document total.
    mutating func countLength(_ length: Int, at offset: Int) throws(Failure) {
        // Bounded by the input's size, so this cannot overflow.
        totalLength += length
        guard totalLength <= limits.maxTotalLength else {
            throw exceeded(.maxTotalLength, found: totalLength, at: offset)
        }
    }

    private mutating func countObject(at offset: Int) throws(Failure) {
        objectCount += 1
        guard objectCount <= limits.maxObjectCount else {
            throw exceeded(.maxObjectCount, found: objectCount, at: offset)
        }
    }
}

extension PropertyListValue {
    /// Whether this is a `.uid`.
    var isUID: Bool {
        if case .uid = self { return true }
        return false
    }
}
