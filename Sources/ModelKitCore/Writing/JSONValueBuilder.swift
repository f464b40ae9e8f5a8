import Foundation

/// Writes a value as a ``JSONValue`` (remote mapping: transformers apply, dates become ISO 8601).
///
/// ```swift
/// var builder = JSONValueBuilder()
/// try builder.encodeModel(user)
/// builder.value // .object([...])
/// ```
public struct JSONValueBuilder: ModelWriter {
    public var mapping: ModelSchema.Mapping { .remote }
    public let options: MappingOptions
    /// What was written.
    public private(set) var value: JSONValue = .null

    /// A builder with options.
    public init(options: MappingOptions = .default) {
        self.options = options
    }

    private mutating func viaObjects(_ body: (inout JSONObjectWriter) throws -> Void) throws {
        var writer = JSONObjectWriter(mapping: .remote, options: options)
        try body(&writer)
        value = try JSONValue(foundationObject: writer.result ?? NSNull(), maxDepth: options.maxDepth)
    }

    public mutating func encodeNil() throws { value = .null }
    public mutating func encodeBool(_ value: Bool) throws { self.value = .bool(value) }
    public mutating func encodeString(_ value: String) throws { self.value = .string(value) }
    public mutating func encodeInt64(_ value: Int64) throws { self.value = .int(value) }
    public mutating func encodeUInt64(_ value: UInt64) throws {
        self.value = value <= UInt64(Int64.max) ? .int(Int64(value)) : .uint(value)
    }
    public mutating func encodeDouble(_ value: Double) throws {
        guard value.isFinite else { throw ModelError(.invalidValue, expected: "a finite number", found: "\(value)") }
        self.value = .double(value)
    }
    public mutating func encodeDecimal(_ value: Decimal) throws { try viaObjects { try $0.encodeDecimal(value) } }
    public mutating func encodeDate(_ value: Date) throws { self.value = .string(DateCoding.formatISO8601(value)) }
    public mutating func encodeData(_ value: Data) throws { self.value = .string(value.base64EncodedString()) }
    public mutating func encodeURL(_ value: URL) throws { self.value = .string(value.absoluteString) }
    public mutating func encodeUUID(_ value: UUID) throws { self.value = .string(value.uuidString) }
    public mutating func encodeJSONValue(_ value: JSONValue) throws { self.value = value }
    public mutating func encodeCodable<T: Encodable>(_ value: T) throws { try viaObjects { try $0.encodeCodable(value) } }

    public mutating func encodeArray<C: Collection>(
        _ elements: C, _ element: (inout JSONValueBuilder, C.Element) throws -> Void
    ) throws {
        var array: [JSONValue] = []
        array.reserveCapacity(elements.count)
        for item in elements {
            var builder = JSONValueBuilder(options: options)
            try element(&builder, item)
            array.append(builder.value)
        }
        value = .array(array)
    }

    public mutating func encodeDictionary<V>(
        _ dictionary: [String: V], _ body: (inout JSONValueBuilder, V) throws -> Void
    ) throws {
        var members: [JSONMember] = []
        for key in dictionary.keys.sorted() {
            var builder = JSONValueBuilder(options: options)
            if let item = dictionary[key] { try body(&builder, item) }
            members.append(JSONMember(key, builder.value))
        }
        value = .object(members)
    }

    public mutating func encodeModel<M: Model>(_ model: M) throws {
        try viaObjects { try $0.encodeModel(model) }
    }
}
