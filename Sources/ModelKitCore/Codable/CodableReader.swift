import Foundation

/// Reads models from any `Decoder`, with the same remote key paths and transformers as JSON:
/// the generated `init(from:)` of every `@Model` type runs through it.
///
/// Dates, data, URLs and UUIDs are decoded through the decoder itself, so its strategies
/// (such as `JSONDecoder.dateDecodingStrategy`) apply to properties without a transformer.
public struct CodableReader: ModelReader {
    public let mapping = ModelSchema.Mapping.remote
    public let options: MappingOptions
    public var collectedProblems: [ModelError] = []
    var position: Position

    /// Where the reader is: a whole decoder, a member of a keyed container, or the next element
    /// of an unkeyed one.
    enum Position {
        case decoder(any Decoder)
        case member(KeyedDecodingContainer<AnyCodingKey>, AnyCodingKey)
        case element(UnkeyedBox)
    }

    /// Decodes any value and keeps nothing: moves an unkeyed container past an element.
    struct SkippedValue: Decodable {
        init(from decoder: any Decoder) throws {}
    }

    /// An unkeyed container shared by the positions that walk it.
    final class UnkeyedBox {
        var container: any UnkeyedDecodingContainer
        init(_ container: any UnkeyedDecodingContainer) { self.container = container }
    }

    /// A reader at the top of a decoder.
    public init(decoder: any Decoder, options: MappingOptions = .default) {
        self.position = .decoder(decoder)
        self.options = options
    }

    private func wrap<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DecodingError {
            switch error {
            case .valueNotFound(let type, _):
                throw ModelError(.nullValue, expected: "a value of type '\(type)'", found: "null", underlying: error)
            case .keyNotFound:
                throw ModelError(.missingValue, underlying: error)
            default:
                throw ModelError(.typeMismatch, underlying: error)
            }
        }
    }

    /// Decodes a `Decodable` value at the current position.
    private func decodeHere<T: Decodable>(_ type: T.Type) throws -> T {
        try wrap {
            switch position {
            case .decoder(let decoder): return try T(from: decoder)
            case .member(let container, let key): return try container.decode(T.self, forKey: key)
            case .element(let box): return try box.container.decode(T.self)
            }
        }
    }

    public mutating func decodeNil() throws -> Bool {
        try wrap {
            switch position {
            case .decoder(let decoder): return try decoder.singleValueContainer().decodeNil()
            case .member(let container, let key): return try container.decodeNil(forKey: key)
            case .element(let box): return try box.container.decodeNil()
            }
        }
    }

    public mutating func decodeBool() throws -> Bool { try decodeHere(Bool.self) }
    public mutating func decodeString() throws -> String { try decodeHere(String.self) }
    public mutating func decodeInt64() throws -> Int64 { try decodeHere(Int64.self) }
    public mutating func decodeUInt64() throws -> UInt64 { try decodeHere(UInt64.self) }
    public mutating func decodeDouble() throws -> Double { try decodeHere(Double.self) }
    public mutating func decodeDecimal() throws -> Decimal { try decodeHere(Decimal.self) }
    public mutating func decodeDate() throws -> Date { try decodeHere(Date.self) }
    public mutating func decodeData() throws -> Data { try decodeHere(Data.self) }
    public mutating func decodeURL() throws -> URL { try decodeHere(URL.self) }
    public mutating func decodeUUID() throws -> UUID { try decodeHere(UUID.self) }
    public mutating func decodeJSONValue() throws -> JSONValue { try decodeHere(JSONValue.self) }
    public mutating func decodeCodable<T: Decodable>(_ type: T.Type) throws -> T { try decodeHere(T.self) }

    private func keyedContainer() throws -> KeyedDecodingContainer<AnyCodingKey> {
        try wrap {
            switch position {
            case .decoder(let decoder): return try decoder.container(keyedBy: AnyCodingKey.self)
            case .member(let container, let key):
                return try container.nestedContainer(keyedBy: AnyCodingKey.self, forKey: key)
            case .element(let box): return try box.container.nestedContainer(keyedBy: AnyCodingKey.self)
            }
        }
    }

    private func unkeyedContainer() throws -> UnkeyedBox {
        try wrap {
            switch position {
            case .decoder(let decoder): return UnkeyedBox(try decoder.unkeyedContainer())
            case .member(let container, let key): return UnkeyedBox(try container.nestedUnkeyedContainer(forKey: key))
            case .element(let box): return UnkeyedBox(try box.container.nestedUnkeyedContainer())
            }
        }
    }

    public mutating func decodeArray<T>(_ element: (inout CodableReader) throws -> T) throws -> [T] {
        let box = try unkeyedContainer()
        let saved = position
        defer { position = saved }
        var result: [T] = []
        while !box.container.isAtEnd {
            position = .element(box)
            if let value = try decodeElement(at: box.container.currentIndex, element) { result.append(value) }
        }
        return result
    }

    public mutating func decodeDictionary<T>(_ body: (inout CodableReader) throws -> T) throws -> [String: T] {
        let container = try keyedContainer()
        let saved = position
        defer { position = saved }
        var result: [String: T] = [:]
        for key in container.allKeys {
            position = .member(container, key)
            if let value = try decodeMember(key.stringValue, body) { result[key.stringValue] = value }
        }
        return result
    }

    public mutating func decodeFields<F: ModelFieldDecoder>(of schema: ModelSchema, into fields: inout F) throws {
        let container = try keyedContainer()
        let saved = position
        defer { position = saved }
        let keys = schema.readingKeys(mapping)
        var priorities = FieldPriorities(schema: schema, keys: keys)
        try readObject(container, node: keys, schema: schema, fields: &fields, priorities: &priorities)
    }

    private mutating func readObject<F: ModelFieldDecoder>(
        _ container: KeyedDecodingContainer<AnyCodingKey>, node: ModelKeyNode, schema: ModelSchema,
        fields: inout F, priorities: inout FieldPriorities
    ) throws {
        for edge in node.edges {
            let key = AnyCodingKey(edge.key)
            guard container.contains(key) else { continue }
            try withPathComponent(.key(edge.key)) { reader in
                for leaf in edge.leaves {
                    reader.position = .member(container, key)
                    _ = try reader.decodeLeaf(leaf, of: schema, into: &fields, priorities: &priorities)
                }
                guard let next = edge.node, !(try container.decodeNil(forKey: key)) else { return }
                if next.hasIndexEdges, var array = try? container.nestedUnkeyedContainer(forKey: key) {
                    try reader.readElements(&array, node: next, schema: schema, fields: &fields, priorities: &priorities)
                } else {
                    reader.position = .member(container, key)
                    let nested = try reader.keyedContainer()
                    try reader.readObject(nested, node: next, schema: schema, fields: &fields, priorities: &priorities)
                }
            }
        }
    }

    private mutating func readElements<F: ModelFieldDecoder>(
        _ array: inout any UnkeyedDecodingContainer, node: ModelKeyNode, schema: ModelSchema, fields: inout F,
        priorities: inout FieldPriorities
    ) throws {
        let wanted = node.edges.compactMap { edge in edge.index.map { ($0, edge) } }.sorted { $0.0 < $1.0 }
        let box = UnkeyedBox(array)
        defer { array = box.container }
        for (index, edge) in wanted {
            while !box.container.isAtEnd && box.container.currentIndex < index {
                _ = try wrap { try box.container.decode(SkippedValue.self) }
            }
            guard !box.container.isAtEnd else {
                let count = box.container.count ?? box.container.currentIndex
                if edge.leadsToRequiredField { throw outOfRange(index, count: count, edge, schema) }
                continue
            }
            try withPathComponent(.index(index)) { reader in
                if let leaf = edge.leaves.first {
                    reader.position = .element(box)
                    _ = try reader.decodeLeaf(leaf, of: schema, into: &fields, priorities: &priorities)
                } else if let next = edge.node {
                    let nested = try reader.wrap { try box.container.nestedContainer(keyedBy: AnyCodingKey.self) }
                    try reader.readObject(nested, node: next, schema: schema, fields: &fields, priorities: &priorities)
                }
            }
        }
    }

    public func mark() -> Any {
        position
    }

    public mutating func reset(to mark: Any) {
        if let saved = mark as? Position { position = saved }
    }

    public mutating func recover<T>(_ body: (inout CodableReader) throws -> T) throws -> Result<T, ModelError> {
        do {
            return .success(try body(&self))
        } catch let error as ModelError {
            return .failure(error)
        }
    }
}
