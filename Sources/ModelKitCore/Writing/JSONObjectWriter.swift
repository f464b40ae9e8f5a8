import Foundation

/// Writes models as Foundation's JSON object model: `[String: Any]`, `[Any]`, `String`,
/// numbers, `Bool` and `NSNull`, ready for `JSONSerialization`.
///
/// ```swift
/// var writer = JSONObjectWriter()
/// try writer.encodeModel(user)
/// let data = try JSONSerialization.data(withJSONObject: writer.result ?? NSNull())
/// ```
public struct JSONObjectWriter: ModelWriter {
    public let mapping: ModelSchema.Mapping
    public let options: MappingOptions
    /// What was written; nil when an omitted nil was the only thing written.
    public var result: Any?
    // Usable from inline, though only `child()`, which is not inlinable, reads it: no inlinable body needs it.
    @usableFromInline var depth = 0
    /// The object whose members are being written.
    // Usable from inline: the inlinable `encodeObject` and `encodeMember` collect the open object's members here.
    @usableFromInline var object: [String: Any]?

    /// A writer for a mapping.
    public init(mapping: ModelSchema.Mapping = .remote, options: MappingOptions = .default) {
        self.mapping = mapping
        self.options = options
    }

    // Usable from inline: the inlinable container methods below make each element's and member's writer with it.
    @usableFromInline
    func child() throws -> JSONObjectWriter {
        try checkNesting(depth, options.maxDepth)
        var writer = JSONObjectWriter(mapping: mapping, options: options)
        writer.depth = depth + 1
        return writer
    }

    public mutating func encodeNil() throws {
        result = options.nilEncoding == .null ? NSNull() : nil
    }

    public mutating func encodeBool(_ value: Bool) throws { result = value }
    public mutating func encodeString(_ value: String) throws { result = value }
    public mutating func encodeInt64(_ value: Int64) throws { result = Int(value) }

    public mutating func encodeUInt64(_ value: UInt64) throws {
        result = value <= UInt64(Int.max) ? Int(value) : value
    }

    public mutating func encodeDouble(_ value: Double) throws {
        guard value.isFinite || mapping == .propertyKeys else {
            throw ModelError(.invalidValue, expected: "a finite number", found: "\(value)")
        }
        result = value
    }

    public mutating func encodeDecimal(_ value: Decimal) throws { result = value }

    public mutating func encodeDate(_ value: Date) throws {
        result = mapping == .remote ? DateCoding.formatISO8601(value) : value
    }

    public mutating func encodeData(_ value: Data) throws {
        result = mapping == .remote ? value.base64EncodedString() : value
    }

    public mutating func encodeURL(_ value: URL) throws {
        result = mapping == .remote ? value.absoluteString : value
    }

    public mutating func encodeUUID(_ value: UUID) throws {
        result = mapping == .remote ? value.uuidString : value
    }

    public mutating func encodeJSONValue(_ value: JSONValue) throws {
        result = value.foundationObject
    }

    public mutating func encodeCodable<T: Encodable>(_ value: T) throws {
        result = mapping == .propertyKeys ? value : try CodableBridge.foundationObject(encoding: value)
    }

    // Inlinable: per array written to a JSON object (`Array.write`, `Set.write`), in the module that calls
    // `jsonObject(options:)`; specialised there, the element's `write` is called directly.
    @inlinable
    public mutating func encodeArray<C: Collection>(
        _ elements: C, _ element: (inout JSONObjectWriter, C.Element) throws -> Void
    ) throws {
        var array: [Any] = []
        array.reserveCapacity(elements.count)
        for (index, value) in elements.enumerated() {
            var writer = try child()
            try prefixingErrors(with: .index(index)) { try element(&writer, value) }
            array.append(writer.result ?? NSNull())
        }
        result = array
    }

    // Inlinable: per dictionary written to a JSON object; specialised like `encodeArray`.
    @inlinable
    public mutating func encodeDictionary<V>(
        _ dictionary: [String: V], _ body: (inout JSONObjectWriter, V) throws -> Void
    ) throws {
        // `init(minimumCapacity:)`: `reserveCapacity(_:)` also looks generic metadata up per call.
        var object = [String: Any](minimumCapacity: dictionary.count)
        for (key, value) in dictionary {
            var writer = try child()
            try prefixingErrors(with: .key(key)) { try body(&writer, value) }
            if let written = writer.result { object[key] = written }
        }
        result = object
    }

    // MARK: Sink for the key-tree walk

    // Inlinable: the key-tree walk opens every object through it, per model written; specialised with the walk,
    // `members` is inlined.
    @inlinable
    public mutating func encodeObject(_ members: (inout JSONObjectWriter) throws -> Void) throws {
        let enclosing = object
        object = [:]
        defer { object = enclosing }
        try members(&self)
        result = object ?? [String: Any]()
    }

    // Inlinable: the key-tree walk writes every key through it, per member; specialised with the walk, `value` is
    // inlined.
    @inlinable
    public mutating func encodeMember(_ edge: ModelKeyEdge, _ value: (inout JSONObjectWriter) throws -> Void) throws {
        var writer = try child()
        try value(&writer)
        if let written = writer.result { object?[edge.key] = written }
    }
}
