import ModelKitCore

/// Parsing a whole document into a ``JSONValue`` tree.
///
/// The parser drives a ``JSONScanner`` with an explicit stack instead of recursion, so no
/// nesting depth can overflow the call stack while parsing; ``JSONLimits/maxDepth`` bounds the
/// memory, and the depth of the tree that Swift later compares and frees recursively (see
/// ``JSONLimits``).
/// Open containers keep their finished children on one shared value stack, and a container's
/// children are moved into their array when it closes.
extension JSONValue {
    /// Parses one JSON document from UTF-8 bytes: an array, `Data`, a slice, ...
    ///
    /// Integers that fit `Int64` become `.int`, those above `Int64.max` that fit `UInt64`
    /// become `.uint`, and every other number (a fraction, an exponent, or a larger integer)
    /// becomes `.double`; a number too large for a `Double` is an error. Object members keep
    /// document order and duplicates.
    ///
    /// Throws ``JSONSyntaxError`` for malformed input or an exceeded limit, and
    /// ``JSONValueError`` for a number beyond `Double`.
    ///
    /// ```swift
    /// let value = try JSONValue(parsing: data)
    /// value["statuses"]?[0]?["id"] // .int(505874924095815681)
    /// ```
    public init(parsing bytes: some Collection<UInt8>, limits: JSONLimits = .default) throws {
        self = try withContiguousBytes(of: bytes) { try JSONValue(parsing: $0, limits: limits) }
    }

    /// Parses one JSON document from the UTF-8 form of `text`.
    ///
    /// ```swift
    /// let value = try JSONValue(parsing: #"{"a": [1, 2.5, null]}"#)
    /// ```
    public init(parsing text: String, limits: JSONLimits = .default) throws {
        var text = text
        // Unsafe: the string's UTF-8 storage, parsed in place.
        self = try text.withUTF8 { try JSONValue(parsing: UnsafeRawBufferPointer($0), limits: limits) }
    }

    /// Parses one JSON document from bytes the caller keeps alive during the call.
    // Unsafe: parses bytes where they lie (the other initializers lend a collection's or a string's
    // storage); the caller keeps them alive during the call.
    public init(parsing bytes: UnsafeRawBufferPointer, limits: JSONLimits = .default) throws {
        var scanner = JSONScanner(bytes: bytes, limits: limits)
        self = try JSONValue(reading: &scanner)
        try scanner.finish()
    }

    /// Reads the next value of `scanner` as a tree, leaving the scanner after it.
    ///
    /// Nesting counts the containers the scanner already has open against its `maxDepth`.
    ///
    /// ```swift
    /// case "extra": extra = try JSONValue(reading: &scanner) // keep unknown JSON as is
    /// ```
    public init(reading scanner: inout JSONScanner) throws {
        var builder = TreeBuilder()
        self = try builder.read(from: &scanner)
    }
}

/// The explicit stacks of the non-recursive parser.
struct TreeBuilder {
    /// An open container: where its children start on the stacks, and whether it is an object.
    private struct Frame {
        var valueStart: Int
        var keyStart: Int
        var isObject: Bool
    }

    /// Finished children of all open containers, innermost last.
    private var values: [JSONValue] = []
    /// Keys of the finished and current members of all open objects, innermost last.
    private var keys: [String] = []
    /// The open containers, innermost last.
    private var frames: [Frame] = []

    /// Reads one value (and everything inside it) from `scanner`.
    mutating func read(from scanner: inout JSONScanner) throws -> JSONValue {
        nextValue: while true {
            var value: JSONValue
            switch try scanner.peek() {
            case .object:
                try scanner.beginObject()
                if let key = try scanner.nextKey(Self.makeString) {
                    frames.append(Frame(valueStart: values.count, keyStart: keys.count, isObject: true))
                    keys.append(key)
                    continue nextValue
                }
                value = .object([])
            case .array:
                try scanner.beginArray()
                if try scanner.nextElement() {
                    frames.append(Frame(valueStart: values.count, keyStart: keys.count, isObject: false))
                    continue nextValue
                }
                value = .array([])
            case .string:
                value = .string(try scanner.readString())
            case .number:
                value = try scanner.readNumberValue()
            case .bool:
                value = .bool(try scanner.readBool())
            case .null:
                guard try scanner.consumeNull() else { throw scanner.typeMismatch(expected: .null) }
                value = .null
            }

            // Hand the finished value to its container, closing containers that end here.
            while let frame = frames.last {
                values.append(value)
                if frame.isObject {
                    if let key = try scanner.nextKey(Self.makeString) {
                        keys.append(key)
                        continue nextValue
                    }
                    value = .object(closeObject(frame))
                } else {
                    if try scanner.nextElement() { continue nextValue }
                    value = .array(closeArray(frame))
                }
                frames.removeLast()
            }
            return value
        }
    }

    /// Moves the members of the closing object off the stacks.
    private mutating func closeObject(_ frame: Frame) -> [JSONMember] {
        let count = values.count - frame.valueStart
        var members: [JSONMember] = []
        members.reserveCapacity(count)
        for offset in 0..<count {
            members.append(JSONMember(keys[frame.keyStart + offset], values[frame.valueStart + offset]))
        }
        keys.removeSubrange(frame.keyStart...)
        values.removeSubrange(frame.valueStart...)
        return members
    }

    /// Moves the elements of the closing array off the value stack.
    private mutating func closeArray(_ frame: Frame) -> [JSONValue] {
        let elements = Array(values[frame.valueStart...])
        values.removeSubrange(frame.valueStart...)
        return elements
    }

    /// A key's bytes as a `String`.
    // Unsafe: takes a key's bytes where nextKey(_:) found them, copied once into the String.
    private static func makeString(_ bytes: UnsafeRawBufferPointer) -> String {
        String(decoding: bytes, as: UTF8.self)
    }
}
