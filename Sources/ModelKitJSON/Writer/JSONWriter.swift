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
        /// Object members of `JSONValue`s and dictionaries in ascending order of their keys'
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
            // Unsafe: the fresh chunk holds `capacity` bytes, at least `newValue.count`; it starts
            // uninitialized, so the bytes are initialized into it.
            base.initialize(from: newValue, count: newValue.count)
            count = newValue.count
        }
    }
    /// The memory the output is written into (see ``JSONWriterStorage``).
    // @usableFromInline: checked for uniqueness by the inlinable reserve(_:) before every write
    // (copy on write).
    @usableFromInline var storage: JSONWriterStorage
    /// The chunk of `storage` being written.
    // @usableFromInline: the inlinable reserve(_:) hands out addresses in it for every write.
    // Unsafe: the current chunk of `storage`, alive as long as the writer holds `storage`; values
    // are stored through it without an array's checks and generic appends (see JSONWriterStorage).
    @usableFromInline var base: UnsafeMutablePointer<UInt8>
    /// How many bytes the chunk holds.
    // @usableFromInline: the bound the inlinable reserve(_:) checks before every write.
    @usableFromInline var capacity: Int
    /// How many bytes of the chunk are written.
    // @usableFromInline: advanced by every inlinable write.
    @usableFromInline var count = 0
    /// The layout options.
    public let options: Options
    /// Whether `options` contains `.prettyPrinted`.
    // @usableFromInline: read by the inlinable separator methods (prepareForValue(),
    // prepareForKey(), finishKey(), appendKey(quoted:)) and reserveValue(_:).
    @usableFromInline let isPretty: Bool
    /// How many objects and arrays are open.
    // @usableFromInline: counted by the inlinable beginObject(), beginArray() and
    // closeContainer(_:).
    @usableFromInline var depth: Int = 0
    /// Whether the innermost open container already has a member or element.
    // @usableFromInline: read and set by the inlinable separator methods before every value and
    // key.
    @usableFromInline var hasElements: Bool = false
    /// Whether a key was just written, so the next value needs no separator.
    // @usableFromInline: set by the inlinable finishKey(), read by prepareForValue() and
    // reserveValue(_:).
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
    // @inlinable: runs before every value the inlinable writers write; compiled into them (see
    // Performance in the type's documentation).
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
    // @inlinable: runs before every key the inlinable writeKey methods write; compiled into them
    // (see Performance in the type's documentation).
    @inlinable @inline(__always)
    mutating func prepareForKey() {
        if hasElements { append(UInt8(ascii: ",")) }
        hasElements = true
        if isPretty { appendLineBreak() }
    }

    /// Writes the `:` after a key (`": "` when pretty).
    // @inlinable: runs after every key the inlinable writeKey methods write; compiled into them
    // (see Performance in the type's documentation).
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
    // @inlinable: the body of the inlinable writeKey(preEscaped:) overloads, which JSONBytesWriter
    // calls for every member of a model: the comma, key and colon go out in one reservation.
    // Unsafe: copies the key from wherever its caller keeps it (an array, a static string, the
    // caller's buffer) without making a String.
    @inlinable @inline(__always)
    mutating func appendKey(quoted key: UnsafeRawBufferPointer) {
        guard !isPretty, let source = key.baseAddress else {
            prepareForKey()
            append(key)
            finishKey()
            return
        }
        let length = key.count
        // Unsafe: room for a comma, the key and a colon, `length + 2` bytes, which the stores below
        // stay within (the comma is stored only when one is due).
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
    // @usableFromInline: called by the inlinable prepareForValue(), prepareForKey() and
    // closeContainer(_:) in pretty output only, so it stays out of line, off the compact path.
    @usableFromInline
    mutating func appendLineBreak() {
        let width = 2 * depth
        // Unsafe: the line feed and `width` spaces go into the `width + 1` bytes reserved here.
        let target = reserve(width &+ 1)
        target.pointee = 0x0A
        (target + 1).initialize(repeating: UInt8(ascii: " "), count: width)
        count &+= width &+ 1
    }

    // MARK: - Structure

    /// Writes `{` and opens an object; follow with ``writeKey(_:)`` and a value per member.
    // @inlinable: called for every object written (JSONBytesWriter.encodeObject); see Performance
    // in the type's documentation. Always inlined: left to itself the compiler merged it with
    // beginArray() into one out-of-line function, called per model written.
    @inlinable @inline(__always)
    public mutating func beginObject() {
        openContainer(UInt8(ascii: "{"))
    }

    /// Writes `}` and closes the innermost object.
    // @inlinable: called for every object written; see Performance in the type's documentation.
    // Always inlined, as beginObject().
    @inlinable @inline(__always)
    public mutating func endObject() {
        closeContainer(UInt8(ascii: "}"))
    }

    /// Writes `[` and opens an array; follow with a value per element.
    // @inlinable: called for every array written (JSONBytesWriter.encodeArray); see Performance in
    // the type's documentation. Always inlined, as beginObject(): out of line, a call and its
    // register saves cost about as much as the bracket and its comma.
    @inlinable @inline(__always)
    public mutating func beginArray() {
        openContainer(UInt8(ascii: "["))
    }

    /// Writes `]` and closes the innermost array.
    // @inlinable: called for every array written; see Performance in the type's documentation.
    // Always inlined, as beginArray().
    @inlinable @inline(__always)
    public mutating func endArray() {
        closeContainer(UInt8(ascii: "]"))
    }

    /// Opens a container with `opener`, after the comma that separates it from a value before.
    // @inlinable: the body of the inlinable beginObject() and beginArray(), compiled into them.
    @inlinable @inline(__always)
    mutating func openContainer(_ opener: UInt8) {
        // Unsafe: the opener into the byte reserved after the comma, if any (one reservation).
        reserveValue(1).pointee = opener
        count &+= 1
        depth &+= 1
        hasElements = false
    }

    /// Closes the innermost container with `closer`, on its own line when pretty and non-empty.
    // @inlinable: the body of the inlinable endObject() and endArray(), compiled into them.
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
    // @inlinable: called for every dictionary key and for model keys that need escaping
    // (JSONBytesWriter.encodeMember); see Performance in the type's documentation.
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
    // @inlinable: called for every model key that needs no escaping, with the bytes the schema made
    // once per type (JSONBytesWriter.writeKey(_:)); see Performance in the type's documentation.
    @inlinable
    public mutating func writeKey(preEscaped key: [UInt8]) {
        // Unsafe: the array's storage is read in place during the call, not copied first.
        key.withUnsafeBytes { appendKey(quoted: $0) }
    }

    /// Writes a key escaped ahead of time (quotes included), from memory the caller owns.
    // @inlinable: for keys the caller escaped into its own memory; see Performance in the type's
    // documentation.
    // Unsafe: the caller's bytes are read in place; they only need to live during the call.
    @inlinable
    public mutating func writeKey(preEscaped key: UnsafeRawBufferPointer) {
        appendKey(quoted: key)
    }

    /// Writes a key escaped ahead of time (quotes included) from memory that goes on, readable,
    /// to the end of its last eight-byte word, eight-aligned (``ModelQuotedKey``): in compact
    /// output the key is copied a word at a time, with no byte loop for short keys.
    // @inlinable: called for every model key JSONBytesWriter writes (writeKey(_:)), compiled into
    // the key-tree walk with the comma, the words and the colon in one reservation.
    // Unsafe: reads whole words of the key's memory, which its owner padded to the last word.
    @inlinable @inline(__always)
    mutating func writeKey(wordPadded key: UnsafeRawBufferPointer) {
        let length = key.count
        guard !isPretty, let source = key.baseAddress else { return appendKeyOutOfLine(quoted: key) }
        // Unsafe: room for a comma, the key's words and a colon; the stores below stay within it.
        var target = reserve((length &+ 7) & ~7 &+ 2)
        if hasElements {
            target.pointee = UInt8(ascii: ",")
            target += 1
            count &+= 1
        }
        hasElements = true
        let raw = UnsafeMutableRawPointer(target)
        var offset = 0
        repeat {
            // Unsafe: whole words of the padded key, aligned in its memory, stored unaligned here;
            // what goes past the key is written over by the colon and what follows.
            raw.storeBytes(of: source.load(fromByteOffset: offset, as: UInt64.self), toByteOffset: offset, as: UInt64.self)
            offset &+= 8
        } while offset < length
        target[length] = UInt8(ascii: ":")
        count &+= length &+ 1
        afterKey = true
    }

    /// ``appendKey(quoted:)`` as a call: pretty output's keys, kept out of the model walks that
    /// inline the compact path.
    // @usableFromInline: called by the inlinable writeKey(wordPadded:) for pretty output.
    @usableFromInline @inline(never)
    mutating func appendKeyOutOfLine(quoted key: UnsafeRawBufferPointer) {
        appendKey(quoted: key)
    }

    /// Writes a key given as a JSON string literal in source, quotes included, such as
    /// `#""id""#`; it is written as is, so it must already be valid JSON.
    // @inlinable: for keys written as literals in source; see Performance in the type's
    // documentation.
    @inlinable
    public mutating func writeKey(preEscaped key: StaticString) {
        guard key.hasPointerRepresentation else {
            prepareForKey()
            appendQuoted(key.description)
            finishKey()
            return
        }
        // Unsafe: a static string with a pointer representation is UTF-8 in the binary, alive for
        // the whole run, `utf8CodeUnitCount` bytes long.
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
