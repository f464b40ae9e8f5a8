/// Writes JSON into a byte buffer, handling commas, colons and indentation itself.
///
/// Callers say what to write — `beginObject()`, `writeKey(_:)`, a value, `endObject()` — and
/// the writer puts the separators in. Output is RFC 8259 JSON in UTF-8: non-ASCII characters are
/// written as themselves (never `\u` escapes), `/` is never escaped, control characters are
/// escaped as `\n`, `\t`, ... or `\u00XX`. Compact output has no whitespace at all; pretty output
/// puts each member and element on its own line indented by two spaces per level, writes
/// `"key": value`, keeps empty containers as `{}` and `[]`, and ends without a line feed.
///
/// ```swift
/// var writer = JSONWriter(options: .prettyPrinted)
/// writer.beginObject()
/// writer.writeKey("id")
/// writer.writeInt64(7)
/// writer.writeKey("tags")
/// writer.beginArray()
/// writer.writeString("a")
/// writer.endArray()
/// writer.endObject()
/// print(writer.string) // {\n  "id": 7,\n  "tags": [\n    "a"\n  ]\n}
/// ```
///
/// Performance: the structural and scalar methods are `@inlinable` so that generated encoders
/// append bytes directly, without a call per value across the module boundary.
public struct JSONWriter: @unchecked Sendable {
    // @unchecked: `base` points into `storage`, which copies of a writer share only until one
    // of them writes (copy on write, see `JSONWriterStorage`).
    /// How the output is laid out.
    public struct Options: OptionSet, Hashable, Sendable {
        /// The option bits.
        public let rawValue: Int

        /// Creates options from their raw bits.
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// One member or element per line, indented by two spaces per level, `"key": value`.
        public static let prettyPrinted = Options(rawValue: 1 << 0)
        /// Object members of ``JSONValue``s and dictionaries in ascending order of their keys'
        /// UTF-8 bytes (Unicode code point order); members with equal keys keep their order.
        public static let sortedKeys = Options(rawValue: 1 << 1)
    }

    /// The JSON written so far, as UTF-8.
    public var bytes: [UInt8] {
        get { output }
        set {
            capacity = max(newValue.count, 64)
            storage = JSONWriterStorage(firstChunk: capacity)
            base = storage.current
            base.initialize(from: newValue, count: newValue.count)
            count = newValue.count
        }
    }
    /// The memory the output is written into (see ``JSONWriterStorage``).
    @usableFromInline var storage: JSONWriterStorage
    /// The chunk of `storage` being written.
    @usableFromInline var base: UnsafeMutablePointer<UInt8>
    /// How many bytes the chunk holds.
    @usableFromInline var capacity: Int
    /// How many bytes of the chunk are written.
    @usableFromInline var count = 0
    /// The layout options.
    public let options: Options
    /// Whether `options` contains `.prettyPrinted`.
    @usableFromInline let isPretty: Bool
    /// How many objects and arrays are open.
    @usableFromInline var depth: Int = 0
    /// Whether the innermost open container already has a member or element.
    @usableFromInline var hasElements: Bool = false
    /// Whether a key was just written, so the next value needs no separator.
    @usableFromInline var afterKey: Bool = false

    /// Creates a writer with an empty buffer that can grow to `capacity` bytes without reallocating.
    public init(options: Options = [], capacity: Int = 0) {
        self.options = options
        self.isPretty = options.contains(.prettyPrinted)
        self.capacity = max(capacity, 64)
        self.storage = JSONWriterStorage(firstChunk: self.capacity)
        self.base = storage.current
    }

    /// The JSON written so far, as a string.
    public var string: String {
        String(decoding: output, as: UTF8.self)
    }

    /// Reserves room for `count` more bytes.
    public mutating func reserveCapacity(_ count: Int) {
        _ = reserve(max(0, count))
    }

    // MARK: - Separators

    /// Writes what goes before a value: nothing after a key, else a comma (when the container
    /// already has an element) and, when pretty, a line break and indentation.
    @inlinable @inline(__always)
    mutating func prepareForValue() {
        if afterKey {
            afterKey = false
            return
        }
        guard depth > 0 else { return }
        if hasElements { append(UInt8(ascii: ",")) }
        hasElements = true
        if isPretty { appendLineBreak() }
    }

    /// Writes what goes before a key: a comma after earlier members and, when pretty, a line
    /// break and indentation.
    @inlinable @inline(__always)
    mutating func prepareForKey() {
        if hasElements { append(UInt8(ascii: ",")) }
        hasElements = true
        if isPretty { appendLineBreak() }
    }

    /// Writes the `:` after a key (`": "` when pretty).
    @inlinable @inline(__always)
    mutating func finishKey() {
        if isPretty {
            append(word: 0x203A, length: 2)  // ": "
        } else {
            append(UInt8(ascii: ":"))
        }
        afterKey = true
    }

    /// Writes a key already in its JSON form (quotes included) with what goes around it: the
    /// comma before it and the `:` after it, in compact output in one reservation.
    @inlinable @inline(__always)
    mutating func appendKey(quoted key: UnsafeRawBufferPointer) {
        guard !isPretty, let source = key.baseAddress else {
            prepareForKey()
            append(key)
            finishKey()
            return
        }
        let length = key.count
        var target = reserve(length &+ 2)
        if hasElements {
            target.pointee = UInt8(ascii: ",")
            target += 1
            count &+= 1
        }
        hasElements = true
        JSONWriter.copy(source, to: target, count: length)
        target[length] = UInt8(ascii: ":")
        count &+= length &+ 1
        afterKey = true
    }

    /// A line feed and two spaces per open container.
    @usableFromInline
    mutating func appendLineBreak() {
        let width = 2 * depth
        let target = reserve(width &+ 1)
        target.pointee = 0x0A
        (target + 1).initialize(repeating: UInt8(ascii: " "), count: width)
        count &+= width &+ 1
    }

    // MARK: - Structure

    /// Writes `{` and opens an object; follow with ``writeKey(_:)`` and a value per member.
    @inlinable
    public mutating func beginObject() {
        prepareForValue()
        append(UInt8(ascii: "{"))
        depth &+= 1
        hasElements = false
    }

    /// Writes `}` and closes the innermost object.
    @inlinable
    public mutating func endObject() {
        closeContainer(UInt8(ascii: "}"))
    }

    /// Writes `[` and opens an array; follow with a value per element.
    @inlinable
    public mutating func beginArray() {
        prepareForValue()
        append(UInt8(ascii: "["))
        depth &+= 1
        hasElements = false
    }

    /// Writes `]` and closes the innermost array.
    @inlinable
    public mutating func endArray() {
        closeContainer(UInt8(ascii: "]"))
    }

    /// Closes the innermost container with `closer`, on its own line when pretty and non-empty.
    @inlinable @inline(__always)
    mutating func closeContainer(_ closer: UInt8) {
        if depth > 0 { depth &-= 1 }
        if isPretty && hasElements { appendLineBreak() }
        append(closer)
        hasElements = true
        afterKey = false
    }

    // MARK: - Keys

    /// Writes an object key (escaped as needed) and the `:` after it.
    ///
    /// ```swift
    /// writer.writeKey("created_at")
    /// writer.writeString("Sun Aug 31 00:29:15 +0000 2014")
    /// ```
    @inlinable
    public mutating func writeKey(_ key: String) {
        prepareForKey()
        appendQuoted(key)
        finishKey()
    }

    /// Writes a key escaped ahead of time by ``escapedKey(_:)`` (quotes included) and the `:`.
    ///
    /// ```swift
    /// static let idKey = JSONWriter.escapedKey("id")
    /// writer.writeKey(preEscaped: Self.idKey)
    /// ```
    @inlinable
    public mutating func writeKey(preEscaped key: [UInt8]) {
        key.withUnsafeBytes { appendKey(quoted: $0) }
    }

    /// Writes a key escaped ahead of time (quotes included), from memory the caller owns.
    @inlinable
    public mutating func writeKey(preEscaped key: UnsafeRawBufferPointer) {
        appendKey(quoted: key)
    }

    /// Writes a key given as a JSON string literal in source, quotes included, such as
    /// `#""id""#`; it is written as is, so it must already be valid JSON.
    @inlinable
    public mutating func writeKey(preEscaped key: StaticString) {
        guard key.hasPointerRepresentation else {
            prepareForKey()
            appendQuoted(key.description)
            finishKey()
            return
        }
        appendKey(quoted: UnsafeRawBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
    }

    /// The JSON form of `key` with its quotes, for ``writeKey(preEscaped:)-([UInt8])``.
    ///
    /// ```swift
    /// JSONWriter.escapedKey("say \"hi\"") // the bytes of "say \"hi\"" with quotes
    /// ```
    public static func escapedKey(_ key: String) -> [UInt8] {
        var writer = JSONWriter()
        writer.appendQuoted(key)
        return writer.bytes
    }
}
