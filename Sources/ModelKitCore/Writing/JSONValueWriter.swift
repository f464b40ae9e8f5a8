import Foundation

/// Writes a value as a ``JSONValue`` tree: remote mapping, with transformers, dates as ISO 8601
/// text and data as base64, exactly as the JSON bytes writer writes them, and no `Any` on the way.
///
/// ```swift
/// var writer = JSONValueWriter()
/// try writer.encodeModel(user)
/// writer.value // .object([...])
/// ```
public struct JSONValueWriter: ModelWriter {
    public var mapping: ModelSchema.Mapping { .remote }
    public let options: MappingOptions
    /// What was written; nil when an omitted nil was the only thing written.
    public var written: JSONValue? { storage }
    // Usable from inline: the inlinable container methods below store and read what was written here.
    @usableFromInline var storage: JSONValue?
    // Usable from inline, though only `child()`, which is not inlinable, reads it: no inlinable body needs it.
    @usableFromInline var depth = 0
    /// The members of the object being written.
    // Usable from inline: the inlinable `encodeObject` and `encodeMember` collect the open object's members here.
    @usableFromInline var members: [JSONMember]?

    /// What was written, `null` when nothing was.
    public var value: JSONValue { storage ?? .null }

    /// A writer with options.
    public init(options: MappingOptions = .default) {
        self.options = options
    }

    // Usable from inline: the inlinable container methods below make each element's and member's writer with it.
    @usableFromInline
    func child() throws -> JSONValueWriter {
        try checkNesting(depth, options.maxDepth)
        var writer = JSONValueWriter(options: options)
        writer.depth = depth + 1
        return writer
    }

    public mutating func encodeNil() throws { storage = options.nilEncoding == .null ? .null : nil }
    public mutating func encodeBool(_ value: Bool) throws { storage = .bool(value) }
    public mutating func encodeString(_ value: String) throws { storage = .string(value) }
    public mutating func encodeInt64(_ value: Int64) throws { storage = .int(value) }

    public mutating func encodeUInt64(_ value: UInt64) throws {
        storage = value <= UInt64(Int64.max) ? .int(Int64(value)) : .uint(value)
    }

    public mutating func encodeDouble(_ value: Double) throws {
        guard value.isFinite else { throw ModelError(.invalidValue, expected: "a finite number", found: "\(value)") }
        storage = .double(value)
    }

    public mutating func encodeDecimal(_ value: Decimal) throws {
        storage = JSONValue(exactly: value)
    }

    public mutating func encodeDate(_ value: Date) throws { storage = .string(DateCoding.formatISO8601(value)) }
    public mutating func encodeData(_ value: Data) throws { storage = .string(value.base64EncodedString()) }
    public mutating func encodeURL(_ value: URL) throws { storage = .string(value.absoluteString) }
    public mutating func encodeUUID(_ value: UUID) throws { storage = .string(value.uuidString) }
    public mutating func encodeJSONValue(_ value: JSONValue) throws { storage = value }

    public mutating func encodeCodable<T: Encodable>(_ value: T) throws {
        storage = try CodableBridge.jsonValue(encoding: value)
    }

    // Inlinable: per array written into a JSONValue (`Array.write`, `Set.write`) by the modules that write one
    // (preferences, transformers); specialised there, the element's `write` is called directly.
    @inlinable
    public mutating func encodeArray<C: Collection>(
        _ elements: C, _ element: (inout JSONValueWriter, C.Element) throws -> Void
    ) throws {
        var array: [JSONValue] = []
        array.reserveCapacity(elements.count)
        for (index, item) in elements.enumerated() {
            var writer = try child()
            try prefixingErrors(with: .index(index)) { try element(&writer, item) }
            array.append(writer.value)
        }
        storage = .array(array)
    }

    /// Writes the dictionary's members sorted by key, so the same dictionary is the same value.
    // Inlinable: per dictionary written into a JSONValue; specialised like `encodeArray`.
    @inlinable
    public mutating func encodeDictionary<V>(
        _ dictionary: [String: V], _ body: (inout JSONValueWriter, V) throws -> Void
    ) throws {
        var members: [JSONMember] = []
        members.reserveCapacity(dictionary.count)
        for key in dictionary.keys.sorted() {
            guard let item = dictionary[key] else { continue }
            var writer = try child()
            try prefixingErrors(with: .key(key)) { try body(&writer, item) }
            if let value = writer.storage { members.append(JSONMember(key, value)) }
        }
        storage = .object(members)
    }

    // MARK: Sink for the key-tree walk

    // Inlinable: the key-tree walk opens every object through it, per model written; specialised with the walk, `body`
    // is inlined.
    @inlinable
    public mutating func encodeObject(_ body: (inout JSONValueWriter) throws -> Void) throws {
        let enclosing = members
        members = []
        defer { members = enclosing }
        try body(&self)
        storage = .object(members ?? [])
    }

    // Inlinable: the key-tree walk writes every key through it, per member; specialised with the walk, `value` is
    // inlined.
    @inlinable
    public mutating func encodeMember(_ edge: ModelKeyEdge, _ value: (inout JSONValueWriter) throws -> Void) throws {
        var writer = try child()
        try value(&writer)
        if let written = writer.storage { members?.append(JSONMember(edge.key, written)) }
    }
}
