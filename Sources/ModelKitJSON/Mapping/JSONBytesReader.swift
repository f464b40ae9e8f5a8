import Foundation
import ModelKitCore

/// Reads models straight from JSON bytes: no `JSONSerialization`, no `[String: Any]`, no
/// Foundation decoder in between.
///
/// Generated model code drives it through `ModelReader`; each property's key is matched
/// against the schema's key tree as the scanner meets it, and its value is read with the
/// property's own type. Mapping semantics and error messages are the same as the JSON-object path.
///
/// ```swift
/// let user = try User(jsonData: data)
/// let statuses = try [Status](jsonData: data, at: "statuses")
/// ```
public struct JSONBytesReader: ModelReader {
    public var mapping: ModelSchema.Mapping { .remote }
    public let options: MappingOptions
    public let context: ModelContext?
    /// The options' switches, read per field without copying the options.
    public let flags: MappingFlags
    public var collectedProblems: [ModelError] = []
    /// The cursor over the document.
    // @usableFromInline: read by every inlinable ModelReader witness below, which ModelKitCore's
    // generic readers call per value in the decoding module.
    @usableFromInline var scanner: JSONScanner
    /// Where the last internal tag's value starts and ends in the document: the payload's read,
    /// which goes over the same object again, meets it as a member it does not map and steps
    /// over it without scanning it a second time. Offsets in this document stay true after
    /// other reads, so the pair needs no clearing.
    // @usableFromInline: written by the inlinable findTag and read by the inlinable readMembers.
    @usableFromInline var lastTagValue: (start: Int, end: Int) = (-1, -1)

    /// A reader at the start of `bytes`, which must stay alive while it is used, mapping
    /// identified class models through `context` when given.
    // Unsafe: maps the caller's bytes where they lie, without a copy (ModelJSON.decode lends it
    // Data's or an array's storage); the caller keeps them alive while reading.
    public init(bytes: UnsafeRawBufferPointer, options: MappingOptions = .default, context: ModelContext? = nil) {
        let limits = JSONLimits(
            maxDepth: options.maxDepth, maxStringLength: options.maxStringLength, maxDocumentSize: options.maxDocumentSize)
        self.scanner = JSONScanner(bytes: bytes, limits: limits)
        self.options = options
        self.context = context
        self.flags = MappingFlags(options, hasContext: context != nil)
    }

    // MARK: Errors

    /// Turns a scanner error into a mapping error: a wrong kind or number becomes a mismatch
    /// that pictures the value like the JSON-object path does; malformed JSON stays as it is.
    // @usableFromInline: called by the inlinable read(_:_:), readText, decodeStringBytes(_:) and
    // readMembers(of:...) when a read fails; errors only, so out of line.
    @usableFromInline
    mutating func mappingError(_ error: any Error, expected: String, at start: JSONScanner.Checkpoint) -> any Error {
        guard let valueError = error as? JSONValueError else { return error }
        let found = describeValue(at: start)
        switch valueError.kind {
        case .numberOutOfRange(let type):
            return ModelError(.numberOutOfRange, expected: "a number that fits '\(type)'", found: found)
        case .typeMismatch, .notAnInteger:
            return ModelError.mismatch(expected: expected, found: found)
        }
    }

    /// Pictures the value at `start` for an error message as the JSON-object path does
    /// (`42`, `"yesterday"`, `an array of 3 elements`), leaving the scanner where it was.
    // @usableFromInline: called by the inlinable readText when a string does not convert; errors
    // only, so out of line.
    @usableFromInline
    mutating func describeValue(at start: JSONScanner.Checkpoint) -> String {
        let current = scanner.checkpoint()
        defer { scanner.restore(current) }
        scanner.restore(start)
        if let value = try? JSONValue(reading: &scanner) { return ModelError.describe(value) }
        scanner.restore(start)
        switch try? scanner.peek() {
        case .array: return "an array"
        case .object: return "an object"
        default: return scanner.describeNextValue()
        }
    }

    /// Runs a scanner read, translating its errors.
    // @inlinable: the wrapper of the scalar witnesses below (decodeBool(), decodeInt64(), ...);
    // generic over the result and the closure, so compiled into each of them with the scanner call
    // inlined.
    @inlinable
    mutating func read<T>(_ expected: String, _ body: (inout JSONScanner) throws -> T) throws -> T {
        let start = scanner.checkpoint()
        do {
            return try body(&scanner)
        } catch {
            throw mappingError(error, expected: expected, at: start)
        }
    }

    /// Reads a string's bytes and converts them, failing with `expected` when `convert` gives nil.
    // @inlinable: the wrapper of the inlinable decodeDate(); generic over what `convert` returns,
    // so compiled where `T` is known, with `convert` inlined.
    // Unsafe: `convert` gets the string's bytes where they lie, as readStringBytes(_:) hands them
    // out, so that a date is parsed without making a String.
    @inlinable
    mutating func readText<T>(_ expected: String, _ convert: (UnsafeRawBufferPointer) -> T?) throws -> T {
        let start = scanner.checkpoint()
        let value: T?
        do {
            value = try scanner.readStringBytes(convert)
        } catch {
            throw mappingError(error, expected: expected, at: start)
        }
        guard let value else { throw ModelError.mismatch(expected: expected, found: describeValue(at: start)) }
        return value
    }

    // MARK: Scalars

    // @inlinable: the ModelReader witness for every optional value (Optional.read(from:) in
    // ModelKitCore), specialised for this reader in the decoding module; its common case is one
    // compare.
    @inlinable
    public mutating func decodeNil() throws -> Bool {
        try scanner.consumeNull()
    }

    // @inlinable: the ModelReader witness for every Bool, called from ModelKitCore's generic
    // readers specialised for this reader; the scanner's word compare is compiled into them.
    @inlinable
    public mutating func decodeBool() throws -> Bool {
        try read("a boolean") { try $0.readBool() }
    }

    // @inlinable: the ModelReader witness for every String, called from ModelKitCore's generic
    // readers specialised for this reader; the scanner's short-string path is compiled into them.
    @inlinable
    public mutating func decodeString() throws -> String {
        try read("a string") { try $0.readString() }
    }

    // @inlinable: the ModelReader witness the date transformers read strings with; generic over
    // what `body` returns, so compiled where `T` is known, with `body` inlined.
    // Unsafe: hands `body` the string's bytes where they lie, valid during the call (see
    // JSONScanner.readStringBytes(_:)).
    @inlinable
    public mutating func decodeStringBytes<T>(_ body: (UnsafeRawBufferPointer) throws -> T) throws -> T {
        let start = scanner.checkpoint()
        do {
            return try scanner.readStringBytes(body)
        } catch let error as JSONValueError {
            throw mappingError(error, expected: "a string", at: start)
        }
    }

    // @inlinable: the ModelReader witness for every signed integer, called from ModelKitCore's
    // generic readers specialised for this reader; the scanner's digit loop is compiled into them.
    @inlinable
    public mutating func decodeInt64() throws -> Int64 {
        try read("an integer") { try $0.readInt64() }
    }

    // @inlinable: the ModelReader witness for every unsigned integer, called from ModelKitCore's
    // generic readers specialised for this reader; the scanner's digit loop is compiled into them.
    @inlinable
    public mutating func decodeUInt64() throws -> UInt64 {
        try read("an integer") { try $0.readUInt64() }
    }

    // @inlinable: the ModelReader witness for every Double and Float, called from ModelKitCore's
    // generic readers specialised for this reader.
    @inlinable
    public mutating func decodeDouble() throws -> Double {
        try read("a number") { try $0.readDouble() }
    }

    public mutating func decodeDecimal() throws -> Decimal {
        let start = scanner.checkpoint()
        let text = try read("a number") { try $0.readNumberText() }
        guard let decimal = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else {
            throw ModelError.mismatch(expected: "a decimal number", found: describeValue(at: start))
        }
        return decimal
    }

    // @inlinable: the ModelReader witness for every Date, called from ModelKitCore's generic
    // readers specialised for this reader; the ISO 8601 parse runs on the document's bytes.
    @inlinable
    public mutating func decodeDate() throws -> Date {
        try readText("an ISO 8601 date string") { DateCoding.parseISO8601($0) }
    }

    public mutating func decodeData() throws -> Data {
        try readText("a base64 string") { Data(base64Encoded: String(decoding: $0, as: UTF8.self)) }
    }

    public mutating func decodeURL() throws -> URL {
        try readText("a URL string") { URL(string: String(decoding: $0, as: UTF8.self)) }
    }

    public mutating func decodeUUID() throws -> UUID {
        try readText("a UUID string") { UUID(uuidString: String(decoding: $0, as: UTF8.self)) }
    }

    public mutating func decodeJSONValue() throws -> JSONValue {
        try JSONValue(reading: &scanner)
    }

    public mutating func decodeCodable<T: Decodable>(_ type: T.Type) throws -> T {
        let start = scanner.checkpoint()
        try scanner.skipValue()
        // Unsafe: the skipped value as a slice of the document, copied once into Data for the
        // Codable bridge; skipValue() has just found its end inside the document.
        let bytes = UnsafeRawBufferPointer(rebasing: scanner.bytes[start.offset..<scanner.offset])
        return try CodableBridge.decode(T.self, fromJSON: Data(bytes), found: { describeValue(at: start) })
    }

    // MARK: Containers

    // @inlinable: the ModelReader witness for every array; generic over the element, so compiled
    // where `T` is known, with the element's decoder and ElementCollector specialised for it.
    @inlinable
    public mutating func decodeArray<T>(_ element: (inout JSONBytesReader) throws -> T) throws -> [T] {
        try read("an array") { try $0.beginArray() }
        guard try scanner.nextElement() else { return [] }
        let collects = flags.collectsAllErrors
        // Collected on the stack first, so that the array is allocated once at its exact size
        // (growing from empty allocated at one, two and four elements).
        return try ElementCollector<T>.collect { elements in
            var index = 0
            repeat {
                if !collects {
                    // Straight into the buffer: no optional to unwrap (and copy, model and all).
                    elements.append(try withPathComponent(.index(index), element))
                } else if let value = try decodeElement(at: index, element) {
                    elements.append(value)
                }
                index &+= 1
            } while try scanner.nextElement()
        }
    }

    // @inlinable: the ModelReader witness for every dictionary; generic over the value, so compiled
    // where `T` is known, with the value's decoder inlined into the member loop.
    @inlinable
    public mutating func decodeDictionary<T>(_ body: (inout JSONBytesReader) throws -> T) throws -> [String: T] {
        try read("an object") { try $0.beginObject() }
        let collects = flags.collectsAllErrors
        // Collected first (on the stack while they fit), so that the dictionary is made at its
        // count and each key hashed once.
        return try ElementCollector<(String, T)>.collectDictionary { pairs in
            while let key = try scanner.nextKey({ JSONScanner.string(validUTF8: $0) }) {
                if !collects {
                    pairs.append((key, try withPathComponent(.key(key), body)))
                } else if let value = try decodeMember(key, body) {
                    pairs.append((key, value))
                }
            }
        }
    }

    // MARK: Access for the key-tree walk

    // @inlinable: the ModelReader witness the key-tree walk asks where a value may be null or an
    // array; inlined, it is the scanner's byte compare.
    @inlinable
    public mutating func peekShape() throws -> ModelValueShape {
        switch try scanner.peek() {
        case .object: return .object
        case .array: return .array
        case .null: return .null
        default: return .scalar
        }
    }

    /// Matches each key against `node` as the scanner meets it; values no edge wants are skipped
    /// without being decoded.
    // @inlinable: the ModelReader witness the key-tree walk calls for every object: compiled into
    // the walk for this reader, so that the member closures and the key match are inlined.
    @inlinable
    public mutating func readMembers(
        of node: ModelKeyNode, expected: @autoclosure () -> String, reportingUnknownKeys: Bool,
        _ member: (inout JSONBytesReader, Int) throws -> Void, unknown: (inout JSONBytesReader, String) throws -> Void
    ) throws {
        let start = scanner.checkpoint()
        do {
            try scanner.beginObject()
        } catch {
            throw mappingError(error, expected: expected(), at: start)
        }
        // Payloads mostly list keys in the model's order: the key after the last one matched is
        // tried before the hash.
        var expectedNext = 0
        guard reportingUnknownKeys else {
            while let position = try scanner.nextKeyIndex(in: node, expected: expectedNext) {
                if position < 0 {
                    if scanner.position == lastTagValue.start {
                        scanner.position = lastTagValue.end
                    } else {
                        try scanner.skipValue()
                    }
                    continue
                }
                expectedNext = position &+ 1
                try member(&self, position)
            }
            return
        }
        // Strict mode: unknown keys are reported by name.
        var unknownKey: String?
        while let match = try scanner.nextKey({ bytes -> Int? in
            let position = node.edgeIndex(forKeyBytes: bytes, expected: expectedNext)
            if let position { expectedNext = position &+ 1 }
            if position == nil { unknownKey = String(decoding: bytes, as: UTF8.self) }
            return position
        }) {
            guard let position = match else {
                if let key = unknownKey {
                    unknownKey = nil
                    try unknown(&self, key)
                }
                try scanner.skipValue()
                continue
            }
            try member(&self, position)
        }
    }

    // @inlinable: the ModelReader witness the key-tree walk calls for arrays read by index;
    // compiled into the walk for this reader, with the element closure inlined.
    @inlinable
    public mutating func readIndexedElements(
        of node: ModelKeyNode, _ element: (inout JSONBytesReader, Int) throws -> Void
    ) throws -> Int {
        try read("an array") { try $0.beginArray() }
        var index = 0
        while try scanner.nextElement() {
            if let position = node.edgeByIndex[index] {
                try element(&self, position)
            } else {
                try scanner.skipValue()
            }
            index &+= 1
        }
        return index
    }

    // @inlinable: the ModelReader witness the key-tree walk and identity mapping call where a value
    // is read more than once; inlined, it copies three fields.
    @inlinable
    public func mark() -> JSONScanner.Checkpoint {
        scanner.checkpoint()
    }

    // @inlinable: the ModelReader witness that goes back to a mark(); inlined, it is three stores.
    @inlinable
    public mutating func reset(to mark: JSONScanner.Checkpoint) {
        scanner.restore(mark)
    }

    // @inlinable: the ModelReader witness called for every value no field wants; inlined, the walk
    // calls the scanner's skipping directly instead of through this reader.
    @inlinable
    public mutating func skipValue() throws {
        try scanner.skipValue()
    }

    public mutating func recover<T>(_ body: (inout JSONBytesReader) throws -> T) throws -> Result<T, ModelError> {
        let start = scanner.checkpoint()
        do {
            return .success(try body(&self))
        } catch let error as ModelError where error.kind != .malformedInput {
            scanner.restore(start)
            try scanner.skipValue()
            return .failure(error)
        }
    }
}
