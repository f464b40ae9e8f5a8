import Foundation

/// Writes models to any `Encoder`, with the same remote key paths and transformers as JSON:
/// the generated `encode(to:)` of every `@Model` type runs through it.
public struct CodableWriter: ModelWriter {
    public let mapping = ModelSchema.Mapping.remote
    public let options: MappingOptions
    var position: Position
    /// The keyed container whose members are being written.
    var object: KeyedBox?

    /// Where the writer is: a whole encoder, a member of a keyed container, or the next element
    /// of an unkeyed one.
    enum Position {
        case encoder(any Encoder)
        case member(KeyedBox, AnyCodingKey)
        case element(UnkeyedBox)
    }

    /// A keyed container shared by the positions that write into it.
    final class KeyedBox {
        var container: KeyedEncodingContainer<AnyCodingKey>
        init(_ container: KeyedEncodingContainer<AnyCodingKey>) { self.container = container }
    }

    /// An unkeyed container shared by the positions that write into it.
    final class UnkeyedBox {
        var container: any UnkeyedEncodingContainer
        init(_ container: any UnkeyedEncodingContainer) { self.container = container }
    }

    /// A writer at the top of an encoder.
    public init(encoder: any Encoder, options: MappingOptions = .default) {
        self.position = .encoder(encoder)
        self.options = options
    }

    private func encodeHere<T: Encodable>(_ value: T) throws {
        switch position {
        case .encoder(let encoder):
            // Through a container, so the encoder's own handling of dates, data and URLs applies.
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .member(let box, let key): try box.container.encode(value, forKey: key)
        case .element(let box): try box.container.encode(value)
        }
    }

    public mutating func encodeNil() throws {
        switch position {
        case .encoder(let encoder):
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .member(let box, let key):
            if options.nilEncoding == .null { try box.container.encodeNil(forKey: key) }
        case .element(let box): try box.container.encodeNil()
        }
    }

    public mutating func encodeBool(_ value: Bool) throws { try encodeHere(value) }
    public mutating func encodeString(_ value: String) throws { try encodeHere(value) }
    public mutating func encodeInt64(_ value: Int64) throws { try encodeHere(value) }
    public mutating func encodeUInt64(_ value: UInt64) throws { try encodeHere(value) }
    public mutating func encodeDouble(_ value: Double) throws { try encodeHere(value) }
    public mutating func encodeDecimal(_ value: Decimal) throws { try encodeHere(value) }
    public mutating func encodeDate(_ value: Date) throws { try encodeHere(value) }
    public mutating func encodeData(_ value: Data) throws { try encodeHere(value) }
    public mutating func encodeURL(_ value: URL) throws { try encodeHere(value) }
    public mutating func encodeUUID(_ value: UUID) throws { try encodeHere(value) }
    public mutating func encodeJSONValue(_ value: JSONValue) throws { try encodeHere(value) }
    public mutating func encodeCodable<T: Encodable>(_ value: T) throws { try encodeHere(value) }

    private func keyedContainer() -> KeyedBox {
        switch position {
        case .encoder(let encoder): return KeyedBox(encoder.container(keyedBy: AnyCodingKey.self))
        case .member(let box, let key):
            return KeyedBox(box.container.nestedContainer(keyedBy: AnyCodingKey.self, forKey: key))
        case .element(let box): return KeyedBox(box.container.nestedContainer(keyedBy: AnyCodingKey.self))
        }
    }

    private func unkeyedContainer() -> UnkeyedBox {
        switch position {
        case .encoder(let encoder): return UnkeyedBox(encoder.unkeyedContainer())
        case .member(let box, let key): return UnkeyedBox(box.container.nestedUnkeyedContainer(forKey: key))
        case .element(let box): return UnkeyedBox(box.container.nestedUnkeyedContainer())
        }
    }

    public mutating func encodeArray<C: Collection>(
        _ elements: C, _ element: (inout CodableWriter, C.Element) throws -> Void
    ) throws {
        let box = unkeyedContainer()
        let saved = position
        defer { position = saved }
        for (index, value) in elements.enumerated() {
            position = .element(box)
            try prefixingErrors(with: .index(index)) { try element(&self, value) }
        }
    }

    public mutating func encodeDictionary<V>(
        _ dictionary: [String: V], _ body: (inout CodableWriter, V) throws -> Void
    ) throws {
        let box = keyedContainer()
        let saved = position
        defer { position = saved }
        for (key, value) in dictionary {
            position = .member(box, AnyCodingKey(key))
            try prefixingErrors(with: .key(key)) { try body(&self, value) }
        }
    }

    // MARK: Sink for the key-tree walk

    public mutating func encodeObject(_ members: (inout CodableWriter) throws -> Void) throws {
        let box = keyedContainer()
        let saved = position
        let enclosing = object
        object = box
        defer {
            position = saved
            object = enclosing
        }
        try members(&self)
    }

    public mutating func encodeMember(_ edge: ModelKeyEdge, _ value: (inout CodableWriter) throws -> Void) throws {
        guard let object else { return }
        position = .member(object, AnyCodingKey(edge.key))
        try value(&self)
    }
}
