/// A forward cursor over the UTF-8 bytes of one JSON document, read value by value.
///
/// The scanner is what generated model code drives: it peeks at the next value's kind, reads
/// scalars, walks objects and arrays with ``beginObject()`` / ``nextKey(_:)`` and
/// ``beginArray()`` / ``nextElement()``, and skips what it does not want with ``skipValue()``.
/// It is strict RFC 8259 (see ``JSONValidator`` for the list) and never recurses.
///
/// The scanner does not own its bytes: the caller keeps the buffer alive while scanning.
/// Reading a value of the wrong kind throws ``JSONValueError`` without consuming anything, so a
/// caller can report the problem and ``skipValue()``. Malformed input throws ``JSONSyntaxError``.
///
/// ```swift
/// let json = Array(#"{"id": 7, "tags": ["a", "b"]}"#.utf8)
/// try json.withUnsafeBytes { bytes in
///     var scanner = JSONScanner(bytes: bytes)
///     try scanner.beginObject()
///     while let key = try scanner.nextKey({ String(decoding: $0, as: UTF8.self) }) {
///         if key == "id" { print(try scanner.readInt64()) } else { try scanner.skipValue() }
///     }
///     try scanner.finish()
/// }
/// ```
///
/// Performance: the methods a decoder calls per value are `@inlinable` so that their common
/// case (a byte compare or two) is compiled into the caller instead of costing a call across
/// the module boundary; their rare and bulky paths (errors, escapes, slow numbers) stay in
/// non-inlined `@usableFromInline` helpers.
public struct JSONScanner {
    /// The whole document.
    // @usableFromInline: read by every inlinable scanning method (peek(), readString(),
    // readInt64(), beginObject(), ...), whose bodies are compiled into the module that decodes.
    // Unsafe: the scanner borrows the caller's bytes (Data, [UInt8], a String's UTF-8) where they
    // lie instead of copying them; its reads are not bounds-checked in release builds, so each one
    // follows a comparison with `end`.
    @usableFromInline let input: UnsafeRawBufferPointer
    /// Where reading stops: `input.count`, or 0 when the document exceeds `maxDocumentSize`
    /// (every read then ends in the end-of-input path, which reports the limit).
    // @usableFromInline: the bound every inlinable scanning method compares `position` with before
    // it reads a byte.
    @usableFromInline let end: Int
    /// The offset of the next unread byte, always in `0...input.count`.
    // @usableFromInline: read and advanced by every inlinable scanning method.
    @usableFromInline var position: Int
    /// How many objects and arrays are open.
    // @usableFromInline: counted by the inlinable beginObject(), beginArray(), moveToNextKey() and
    // nextElement(), and saved by checkpoint().
    @usableFromInline var openContainers: Int
    /// True right after `beginObject()`/`beginArray()`, until the first `nextKey`/`nextElement`.
    // @usableFromInline: set by the inlinable beginObject() and beginArray(), read and cleared by
    // moveToNextKey() and nextElement().
    @usableFromInline var atContainerStart: Bool
    /// The limits this scanner enforces.
    public let limits: JSONLimits

    /// Creates a scanner at the start of `bytes`, which must stay alive while it is used.
    ///
    /// A document larger than `limits.maxDocumentSize` is reported by the first read.
    // Unsafe: takes a raw buffer so that any contiguous bytes are scanned where they lie, without a
    // copy; the caller keeps them alive while scanning (see the type's documentation).
    public init(bytes: UnsafeRawBufferPointer, limits: JSONLimits = .default) {
        self.input = bytes
        self.end = bytes.count > limits.maxDocumentSize ? 0 : bytes.count
        self.position = 0
        self.openContainers = 0
        self.atContainerStart = false
        self.limits = limits
    }

    /// The byte offset of the next unread byte. Setting it clamps to the document.
    ///
    /// To go back to an earlier point after a failed read, prefer ``checkpoint()`` and
    /// ``restore(_:)``, which also restore the nesting state.
    public var offset: Int {
        get { position }
        set { position = min(max(newValue, 0), input.count) }
    }

    /// How many objects and arrays are currently open.
    public var depth: Int { openContainers }

    /// The document's bytes.
    // Unsafe: hands out the borrowed document itself, not a copy, for callers that slice out a
    // value they skipped (JSONBytesReader.decodeCodable); valid as long as the caller's buffer.
    public var bytes: UnsafeRawBufferPointer { input }

    /// A saved reading position, including the nesting state, for ``restore(_:)``.
    public struct Checkpoint: Hashable, Sendable {
        // @usableFromInline, these three fields: written by the inlinable checkpoint(), which
        // JSONBytesReader calls before every value it reads, and read back by the inlinable
        // restore(_:).
        @usableFromInline let position: Int
        @usableFromInline let openContainers: Int
        @usableFromInline let atContainerStart: Bool

        // @usableFromInline: called by the inlinable checkpoint().
        @usableFromInline
        init(position: Int, openContainers: Int, atContainerStart: Bool) {
            self.position = position
            self.openContainers = openContainers
            self.atContainerStart = atContainerStart
        }

        /// The byte offset saved.
        public var offset: Int { position }
    }

    /// Saves the current position and nesting state.
    ///
    /// ```swift
    /// let mark = scanner.checkpoint()
    /// do { person = try Person(from: &scanner) } catch {
    ///     errors.append(error)
    ///     scanner.restore(mark)
    ///     try scanner.skipValue()
    /// }
    /// ```
    // @inlinable: JSONBytesReader takes a checkpoint before every value it reads (read(_:_:),
    // readText), so that an error can picture the value; inlined, it is three field copies.
    @inlinable
    public func checkpoint() -> Checkpoint {
        Checkpoint(position: position, openContainers: openContainers, atContainerStart: atContainerStart)
    }

    /// Goes back to a position saved by ``checkpoint()`` on this scanner.
    // @inlinable: the inlinable JSONBytesReader.reset(to:) forwards here, which the key-tree walk
    // calls where several fields read the same value; inlined, it is three stores.
    @inlinable
    public mutating func restore(_ checkpoint: Checkpoint) {
        position = min(max(checkpoint.position, 0), input.count)
        openContainers = checkpoint.openContainers
        atContainerStart = checkpoint.atContainerStart
    }

    // MARK: - Whitespace and kinds

    /// Moves past spaces, tabs, line feeds and carriage returns.
    // @inlinable: the first step of every inlinable read; its common case, a value with no
    // whitespace before it, is one compare compiled into the caller.
    @inlinable @inline(__always)
    mutating func skipWhitespace() {
        if position < end && input[position] > 0x20 { return }
        position = whitespaceEnd(from: position)
    }

    /// The offset of the first non-whitespace byte at or after `start` (or `end`).
    // @inlinable: called by the inlinable skipWhitespace(), isAtEnd() and colonEnd(after:); it
    // hands Text's out-of-line loop two words instead of the whole scanner.
    @inlinable @inline(__always)
    func whitespaceEnd(from start: Int) -> Int {
        text.whitespaceEnd(from: start)
    }

    /// The document and where reading stops, for the validating helpers that hot paths call
    /// (strings, whitespace): three words, passed in registers, where a call to a method of the
    /// scanner copies all of it to the stack first.
    // @usableFromInline: the type of the inlinable `text` property, through which the inlinable
    // scanning methods call the out-of-line string and whitespace scans.
    @usableFromInline
    struct Text {
        /// The whole document.
        // @usableFromInline: set by the inlinable init(input:end:).
        // Unsafe: the scanner's borrowed document (see JSONScanner.input), passed on without a
        // copy.
        @usableFromInline let input: UnsafeRawBufferPointer
        /// Where reading stops (see ``JSONScanner/end``).
        // @usableFromInline: set by the inlinable init(input:end:).
        @usableFromInline let end: Int

        // @inlinable: called by the inlinable `text` property before every string and whitespace
        // scan; inlined, it only pairs two values.
        @inlinable
        init(input: UnsafeRawBufferPointer, end: Int) {
            self.input = input
            self.end = end
        }

        /// Throws an error of the given kind at `offset`; kept out of line.
        // @usableFromInline: no inlinable body calls this (only Text's own out-of-line scans do): a
        // candidate for removal.
        @usableFromInline @inline(never)
        func fail(_ kind: JSONSyntaxError.Kind, at offset: Int) throws -> Never {
            throw JSONSyntaxError(kind, offset: offset, in: input)
        }
    }

    /// The document and where reading stops.
    // @inlinable: used by the inlinable scanStringBody(from:) and whitespaceEnd(from:) to reach
    // Text's out-of-line scans.
    @inlinable
    var text: Text { Text(input: input, end: end) }
}

extension JSONScanner.Text {
    /// The offset of the first non-whitespace byte at or after `start` (or `end`).
    // @usableFromInline: called by the inlinable whitespaceEnd(from:), so by skipWhitespace()
    // before a value that has whitespace in front; a loop, so it stays out of line.
    @usableFromInline
    func whitespaceEnd(from start: Int) -> Int {
        var index = start
        while index < end {
            let byte = input[index]
            guard ByteScanning.isWhitespace(byte) else { return index }
            index &+= 1
            // Indentation comes in runs of spaces: measure them eight bytes at a time.
            while index &+ 8 <= end {
                // Unsafe: eight bytes read as one word, unaligned; the loop condition
                // `index &+ 8 <= end` keeps them inside the document.
                let word = UInt64(littleEndian: input.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                let notSpace = ByteScanning.nonzeroBytes(word ^ 0x2020_2020_2020_2020)
                if notSpace != 0 {
                    index &+= notSpace.trailingZeroBitCount &>> 3
                    break
                }
                index &+= 8
            }
        }
        return index
    }
}

extension JSONScanner {
    /// The kind of the next value, after skipping whitespace; consumes nothing else.
    ///
    /// Throws ``JSONSyntaxError`` at the end of input or when no value starts there.
    ///
    /// ```swift
    /// if try scanner.peek() == .array { ... } else { ... }
    /// ```
    // @inlinable: called before values of several kinds (JSONBytesReader.peekShape() in the
    // key-tree walk, hand-written decoders); the common case is a byte compare compiled into the
    // caller.
    @inlinable
    public mutating func peek() throws -> JSONValueKind {
        skipWhitespace()
        guard position < end else { throw unexpectedEnd(expected: .value) }
        if let kind = JSONValueKind(firstByte: input[position]) { return kind }
        throw unexpectedByte(at: position, expected: .value)
    }

    /// Whether only whitespace remains.
    // @inlinable: lets a hand-written decoder's end-of-document check compile to a compare around
    // the out-of-line whitespace scan; nothing in this package calls it.
    @inlinable
    public func isAtEnd() -> Bool {
        whitespaceEnd(from: position) >= end
    }

    /// Checks that only whitespace remains after the document's value.
    ///
    /// ```swift
    /// let model = try Model(from: &scanner)
    /// try scanner.finish() // rejects `{...} garbage`
    /// ```
    public mutating func finish() throws {
        skipWhitespace()
        if position < end { throw unexpectedByte(at: position, expected: .endOfDocument) }
        if input.count > limits.maxDocumentSize { throw documentTooLarge() }
    }

    // MARK: - Literals

    /// Consumes `null` when it is next and returns true; otherwise consumes nothing (but the
    /// whitespace before the value) and returns false.
    ///
    /// Throws when the next value starts with `n` but is not `null`.
    ///
    /// ```swift
    /// let nickname: String? = try scanner.consumeNull() ? nil : try scanner.readString()
    /// ```
    // @inlinable: called for every optional value (JSONBytesReader.decodeNil()); its common case, a
    // value that is not `null`, is one compare compiled into the caller.
    @inlinable
    public mutating func consumeNull() throws -> Bool {
        skipWhitespace()
        guard position < end, input[position] == UInt8(ascii: "n") else { return false }
        // Unsafe: `null` is compared as one unaligned word; `position &+ 4 <= end` keeps its four
        // bytes inside the document.
        guard position &+ 4 <= end,
              UInt32(littleEndian: input.loadUnaligned(fromByteOffset: position, as: UInt32.self)) == 0x6C6C_756E
        else { throw invalidLiteral(expected: "null") }
        position &+= 4
        return true
    }

    /// Reads `true` or `false`.
    ///
    /// ```swift
    /// let isPublic = try scanner.readBool()
    /// ```
    // @inlinable: called for every boolean value (JSONBytesReader.decodeBool()); `true` and `false`
    // are recognised with a word compare compiled into the caller.
    @inlinable
    public mutating func readBool() throws -> Bool {
        skipWhitespace()
        if position &+ 4 <= end {
            // Unsafe: four bytes read as one unaligned word; the `position &+ 4 <= end` check above
            // keeps them inside the document.
            let word = UInt32(littleEndian: input.loadUnaligned(fromByteOffset: position, as: UInt32.self))
            if word == 0x6575_7274 { // "true"
                position &+= 4
                return true
            }
            if word == 0x736C_6166, position &+ 5 <= end, input[position &+ 4] == UInt8(ascii: "e") { // "false"
                position &+= 5
                return false
            }
        }
        if position < end, input[position] == UInt8(ascii: "t") { throw invalidLiteral(expected: "true") }
        if position < end, input[position] == UInt8(ascii: "f") { throw invalidLiteral(expected: "false") }
        throw kindMismatch(expected: .bool)
    }

    /// The `true`, `false` or `null` at `index`, or nil when the bytes there are not that literal.
    // @usableFromInline: no inlinable body calls this (only scalarEnd(at:), out of line, does): a
    // candidate for removal.
    @usableFromInline
    func literalEnd(at index: Int) -> Int? {
        guard index &+ 4 <= end else { return nil }
        // Unsafe: the literal is compared as one unaligned word; the guard above keeps its four
        // bytes inside the document.
        switch UInt32(littleEndian: input.loadUnaligned(fromByteOffset: index, as: UInt32.self)) {
        case 0x6575_7274, 0x6C6C_756E: return index &+ 4
        case 0x736C_6166 where index &+ 5 <= end && input[index &+ 4] == UInt8(ascii: "e"): return index &+ 5
        default: return nil
        }
    }
}

/// Error construction for ``JSONScanner``.
///
/// Everything here runs only once something has gone wrong, so none of it is inlined into
/// callers: the hot paths just call these helpers and throw what they return.
extension JSONScanner {
    /// An error of the given kind at `offset`, located in this document.
    // @usableFromInline: no inlinable body calls this (only the out-of-line error helpers below and
    // the skipping code do): a candidate for removal.
    @usableFromInline @inline(never)
    func syntaxError(_ kind: JSONSyntaxError.Kind, at offset: Int) -> JSONSyntaxError {
        JSONSyntaxError(kind, offset: offset, in: input)
    }

    /// Throws an error of the given kind at `offset`; kept out of line so that hot loops do
    /// not reserve room for building the error.
    // @usableFromInline: no inlinable body calls this (only scanNumber(at:), out of line, does): a
    // candidate for removal.
    @usableFromInline @inline(never)
    func fail(_ kind: JSONSyntaxError.Kind, at offset: Int) throws -> Never {
        throw syntaxError(kind, at: offset)
    }

    /// The input ended where `expected` was due (or the document is over its size limit).
    // @usableFromInline: thrown by the inlinable peek(), moveToNextKey() and nextElement() at the
    // end of the input; errors are rare, so it stays out of line.
    @usableFromInline @inline(never)
    func unexpectedEnd(expected: JSONSyntaxError.Expectation) -> JSONSyntaxError {
        if input.count > limits.maxDocumentSize { return documentTooLarge() }
        return syntaxError(.unexpectedEndOfInput(expected: expected), at: end)
    }

    /// The document is over `maxDocumentSize`; reported at the first byte past the limit.
    // @usableFromInline: no inlinable body calls this (only unexpectedEnd(expected:) and finish(),
    // both out of line, do): a candidate for removal.
    @usableFromInline @inline(never)
    func documentTooLarge() -> JSONSyntaxError {
        syntaxError(.limitExceeded(.maxDocumentSize, limit: limits.maxDocumentSize), at: limits.maxDocumentSize)
    }

    /// Opening one more container at `offset` would exceed `maxDepth`.
    // @usableFromInline: thrown by the inlinable beginObject() and beginArray(); out of line, as
    // errors are rare.
    @usableFromInline @inline(never)
    func depthExceeded(at offset: Int) -> JSONSyntaxError {
        syntaxError(.limitExceeded(.maxDepth, limit: limits.maxDepth), at: offset)
    }

    /// The byte at `offset` cannot start what was expected.
    ///
    /// Recognises a leading byte order mark and a comma before `}` or `]` so their messages say so.
    // @usableFromInline: thrown by the inlinable peek(), moveToNextKey(), colonEnd(after:) and
    // nextElement(); out of line, as errors are rare.
    @usableFromInline @inline(never)
    func unexpectedByte(at offset: Int, expected: JSONSyntaxError.Expectation) -> JSONSyntaxError {
        guard offset < end else { return unexpectedEnd(expected: expected) }
        let byte = input[offset]
        if offset == 0, end >= 3, byte == 0xEF, input[1] == 0xBB, input[2] == 0xBF {
            return syntaxError(.byteOrderMark, at: 0)
        }
        if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
            var previous = offset - 1
            while previous >= 0, ByteScanning.isWhitespace(input[previous]) { previous -= 1 }
            if previous >= 0, input[previous] == UInt8(ascii: ",") {
                return syntaxError(.trailingComma(before: byte), at: offset)
            }
        }
        return syntaxError(.unexpectedByte(byte, expected: expected), at: offset)
    }

    /// The literal at the current position starts like `expected` but is not it.
    // @usableFromInline: thrown by the inlinable consumeNull() and readBool(); out of line, as
    // errors are rare.
    @usableFromInline @inline(never)
    func invalidLiteral(expected: String) -> JSONSyntaxError {
        syntaxError(.invalidLiteral(expected: expected), at: position)
    }

    /// The error for reading a value of kind `expected` where the next value is something else:
    /// a ``JSONValueError`` when a value of another kind is there, else a ``JSONSyntaxError``.
    // @usableFromInline: thrown by the inlinable readers when the next value is of another kind
    // (readBool(), readString(), readStringBytes(_:), beginObject(), beginArray()); out of line.
    @usableFromInline @inline(never)
    func kindMismatch(expected: JSONValueKind) -> any Error {
        let start = whitespaceEnd(from: position)
        guard start < end else { return unexpectedEnd(expected: .value) }
        guard JSONValueKind(firstByte: input[start]) != nil else {
            return unexpectedByte(at: start, expected: .value)
        }
        return valueError(.typeMismatch(expected: expected), at: start)
    }

    /// A ``JSONValueError`` of the given kind for the value that starts at `offset`.
    // @usableFromInline: thrown by the inlinable readInteger(_:) for a number outside the requested
    // type; out of line, as errors are rare.
    @usableFromInline @inline(never)
    func valueError(_ kind: JSONValueError.Kind, at offset: Int) -> JSONValueError {
        let found = offset < end ? JSONValueKind(firstByte: input[offset]) ?? .null : .null
        return JSONValueError(kind, found: found, excerpt: excerpt(at: offset), offset: offset, in: input)
    }

    /// An error saying the next value is not of kind `expected`, for decoders that check kinds
    /// themselves (for example after ``peek()``). Consumes nothing.
    ///
    /// ```swift
    /// guard try scanner.peek() == .string else { throw scanner.typeMismatch(expected: .string) }
    /// ```
    public func typeMismatch(expected: JSONValueKind) -> any Error {
        kindMismatch(expected: expected)
    }

    /// An error of `kind` for the next value, for decoders with their own checks (such as a
    /// number out of range for `Int8`). Consumes nothing.
    public func valueError(_ kind: JSONValueError.Kind) -> any Error {
        let start = whitespaceEnd(from: position)
        guard start < end else { return unexpectedEnd(expected: .value) }
        guard JSONValueKind(firstByte: input[start]) != nil else { return unexpectedByte(at: start, expected: .value) }
        return valueError(kind, at: start)
    }
}
