import Foundation

/// Reads models from any `Decoder`, with the same remote key paths and transformers as JSON:
/// the generated `init(from:)` of every `@Model` type runs through it.
///
/// Dates, data, URLs and UUIDs are decoded through the decoder itself, so its strategies
/// (such as `JSONDecoder.dateDecodingStrategy`) apply to properties without a transformer.
/// Errors read like every other format's: the value found is decoded again as a ``JSONValue``
/// to picture it (`expected a string, found 42`).
public struct CodableReader: ModelReader {
    public let mapping = ModelSchema.Mapping.remote
    public let options: MappingOptions
    public var collectedProblems: [ModelError] = []
    var position: Position

    /// Where the reader is: a whole value (the top, or an array element through its own
    /// decoder, so that it can be read more than once), or a member of a keyed container.
    enum Position {
        case decoder(any Decoder)
        case member(KeyedDecodingContainer<AnyCodingKey>, AnyCodingKey)
    }

    /// Decodes any value and keeps nothing: moves an unkeyed container past an element.
    struct SkippedValue: Decodable {
        init(from decoder: any Decoder) throws {}
    }

    /// The decoder the reader started at: a generated `init(from:)` reads its model there.
    let top: any Decoder

    /// A reader at the top of a decoder, with `options`, or else the options the decoder's
    /// `userInfo` holds under ``MappingOptions/userInfoKey`` (how a `JSONDecoder` user asks for
    /// a report or strict mode), or else the defaults.
    public init(decoder: any Decoder, options: MappingOptions? = nil) {
        self.position = .decoder(decoder)
        self.top = decoder
        self.options = options ?? (decoder.userInfo[MappingOptions.userInfoKey] as? MappingOptions) ?? .default
    }

    /// Reads a model's object; at the top, a value that is not an object names the model, as a
    /// whole payload's does on the other paths.
    public mutating func decodeFields<F: ModelFieldDecoder>(of schema: ModelSchema, into fields: inout F) throws {
        if schema.hooks.contains(.rewritesJSON), let type = schema.modelType as? any Model.Type {
            return try decodeRewrittenFields(of: schema, type: type, into: &fields)
        }
        do {
            try decodeFieldsByKeyTree(of: schema, into: &fields)
        } catch let error as ModelError where error.modelName == nil && isAtTop {
            throw error.naming(model: schema.modelName, property: nil)
        }
    }

    /// Reads a model that rewrites its payload: as a JSON value, rewritten, then mapped. Nested
    /// models take that path before they get here; this is a model's own `init(from:)`, which
    /// skipped the hook before.
    private mutating func decodeRewrittenFields<F: ModelFieldDecoder>(
        of schema: ModelSchema, type: any Model.Type, into fields: inout F
    ) throws {
        var json = try decodeJSONValue()
        try rewritePayload(&json, for: type)
        var reader = JSONValueReader(value: json, mapping: .remote, options: options)
        reader.collectedProblems = collectedProblems
        defer { collectedProblems = reader.collectedProblems }
        try reader.decodeFields(of: schema, into: &fields)
    }

    /// Whether the reader is at the decoder it started at. Only class decoders have an identity
    /// to compare (Foundation's are classes); a struct decoder boxed for `===` would get a new
    /// box each time, which could even reuse the last one's address.
    private var isAtTop: Bool {
        guard case .decoder(let decoder) = position, type(of: decoder) is AnyObject.Type else { return false }
        return (decoder as AnyObject) === (top as AnyObject)
    }

    /// Decodes a `Decodable` value at the current position, as the decoder throws.
    private func decodeRaw<T: Decodable>(_ type: T.Type) throws -> T {
        switch position {
        // Through a container, so the decoder's own handling of dates, data and URLs applies.
        case .decoder(let decoder): return try decoder.singleValueContainer().decode(T.self)
        case .member(let container, let key): return try container.decode(T.self, forKey: key)
        }
    }

    /// Decodes a value at the current position; what the decoder refuses becomes a mismatch
    /// expecting `expected` (`nil`: a value '`T`' can decode) that pictures the value found.
    private func decodeHere<T: Decodable>(_ type: T.Type, expected: String? = nil) throws -> T {
        do {
            return try decodeRaw(T.self)
        } catch let error as DecodingError {
            throw translate(error, expected: expected ?? "a value '\(T.self)' can decode")
        }
    }

    /// A decoder's error as a ``ModelError`` like the other formats'.
    private func translate(_ error: DecodingError, expected: String) -> ModelError {
        if case .keyNotFound = error { return ModelError(.missingValue, underlying: error) }
        var mismatch = ModelError.mismatch(expected: expected, found: describeCurrentValue())
        if case .typeMismatch = error {} else if case .valueNotFound = error {} else {
            mismatch = ModelError(mismatch.kind, expected: expected, found: mismatch.found, underlying: error)
        }
        return mismatch
    }

    /// A short picture of the value at the current position, for error messages.
    func describeCurrentValue() -> String {
        guard let value = try? decodeRaw(JSONValue.self) else { return "a value" }
        return ModelError.describe(value)
    }

    // MARK: Scalars

    public mutating func decodeNil() throws -> Bool {
        do {
            switch position {
            case .decoder(let decoder): return try decoder.singleValueContainer().decodeNil()
            case .member(let container, let key): return try container.decodeNil(forKey: key)
            }
        } catch let error as DecodingError {
            throw translate(error, expected: "a value")
        }
    }

    public mutating func decodeBool() throws -> Bool { try decodeHere(Bool.self, expected: "a boolean") }
    public mutating func decodeString() throws -> String { try decodeHere(String.self, expected: "a string") }
    public mutating func decodeInt64() throws -> Int64 { try decodeInteger64(Int64.self) }
    public mutating func decodeUInt64() throws -> UInt64 { try decodeInteger64(UInt64.self) }
    public mutating func decodeDouble() throws -> Double { try decodeHere(Double.self, expected: "a number") }
    public mutating func decodeDecimal() throws -> Decimal { try decodeHere(Decimal.self, expected: "a number") }
    public mutating func decodeDate() throws -> Date { try decodeHere(Date.self, expected: "a date") }
    public mutating func decodeData() throws -> Data { try decodeHere(Data.self, expected: "data") }
    public mutating func decodeURL() throws -> URL { try decodeHere(URL.self, expected: "a URL string") }
    public mutating func decodeUUID() throws -> UUID { try decodeHere(UUID.self, expected: "a UUID string") }
    public mutating func decodeJSONValue() throws -> JSONValue { try decodeHere(JSONValue.self, expected: "a JSON value") }
    public mutating func decodeCodable<T: Decodable>(_ type: T.Type) throws -> T { try decodeHere(T.self) }

    /// Reads a 64-bit integer; a whole number that does not fit is a range error (as in JSON),
    /// anything else a mismatch.
    private func decodeInteger64<T: FixedWidthInteger & Decodable>(_ type: T.Type) throws -> T {
        do {
            return try decodeRaw(T.self)
        } catch {
            // A whole number as written (decoders read decimals from the number's text); some
            // decoders throw errors of their own for numbers beyond 64 bits.
            if let number = try? decodeRaw(Decimal.self) {
                guard number.isWholeNumber else {
                    throw ModelError.mismatch(expected: "an integer", found: describeCurrentValue())
                }
                throw integerRange(T.self, number.description)
            }
            guard let error = error as? DecodingError else { throw error }
            throw translate(error, expected: "an integer")
        }
    }

    // MARK: Containers

    private func keyedContainer(expected: String) throws -> KeyedDecodingContainer<AnyCodingKey> {
        do {
            switch position {
            case .decoder(let decoder): return try decoder.container(keyedBy: AnyCodingKey.self)
            case .member(let container, let key):
                return try container.nestedContainer(keyedBy: AnyCodingKey.self, forKey: key)
            }
        } catch let error as DecodingError {
            throw translate(error, expected: expected)
        }
    }

    private func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        do {
            switch position {
            case .decoder(let decoder): return try decoder.unkeyedContainer()
            case .member(let container, let key): return try container.nestedUnkeyedContainer(forKey: key)
            }
        } catch let error as DecodingError {
            throw translate(error, expected: "an array")
        }
    }

    /// Moves to the next element of `container` through a decoder of its own, so the element can
    /// be read again (several fields at one index) and a failed read still moves past it.
    private mutating func enterElement(of container: inout any UnkeyedDecodingContainer) throws {
        do {
            position = .decoder(try container.superDecoder())
        } catch let error as DecodingError {
            throw translate(error, expected: "an element")
        }
    }

    public mutating func decodeArray<T>(_ element: (inout CodableReader) throws -> T) throws -> [T] {
        var container = try unkeyedContainer()
        let saved = position
        defer { position = saved }
        var result: [T] = []
        var index = 0
        while !container.isAtEnd {
            try enterElement(of: &container)
            if let value = try decodeElement(at: index, element) { result.append(value) }
            index += 1
        }
        return result
    }

    public mutating func decodeDictionary<T>(_ body: (inout CodableReader) throws -> T) throws -> [String: T] {
        let container = try keyedContainer(expected: "an object")
        let saved = position
        defer { position = saved }
        var result: [String: T] = [:]
        for key in container.allKeys {
            position = .member(container, key)
            if let value = try decodeMember(key.stringValue, body) { result[key.stringValue] = value }
        }
        return result
    }

    // MARK: Access for the key-tree walk

    public mutating func peekShape() throws -> ModelValueShape {
        if try decodeNil() { return .null }
        switch position {
        case .decoder(let decoder):
            if (try? decoder.container(keyedBy: AnyCodingKey.self)) != nil { return .object }
            if (try? decoder.unkeyedContainer()) != nil { return .array }
        case .member(let container, let key):
            if (try? container.nestedContainer(keyedBy: AnyCodingKey.self, forKey: key)) != nil { return .object }
            if (try? container.nestedUnkeyedContainer(forKey: key)) != nil { return .array }
        }
        return .scalar
    }

    public mutating func readMembers(
        of node: ModelKeyNode, expected: @autoclosure () -> String, reportingUnknownKeys: Bool,
        _ member: (inout CodableReader, Int) throws -> Void, unknown: (inout CodableReader, String) throws -> Void
    ) throws {
        let container = try keyedContainer(expected: expected())
        let saved = position
        defer { position = saved }
        for (index, edge) in node.edges.enumerated() {
            let key = AnyCodingKey(edge.key)
            guard container.contains(key) else { continue }
            position = .member(container, key)
            try member(&self, index)
        }
        guard reportingUnknownKeys else { return }
        for key in container.allKeys.sorted(by: { $0.stringValue < $1.stringValue })
        where node.edgeIndex(forKey: key.stringValue) == nil {
            position = .member(container, key)
            try unknown(&self, key.stringValue)
        }
    }

    public mutating func readIndexedElements(
        of node: ModelKeyNode, _ element: (inout CodableReader, Int) throws -> Void
    ) throws -> Int {
        var container = try unkeyedContainer()
        let saved = position
        defer { position = saved }
        let last = node.edgeByIndex.keys.max() ?? -1
        var index = 0
        while !container.isAtEnd && index <= last {
            if let edge = node.edgeByIndex[index] {
                try enterElement(of: &container)
                try element(&self, edge)
            } else {
                _ = try container.decode(SkippedValue.self)
            }
            index += 1
        }
        while !container.isAtEnd, container.count == nil {
            _ = try container.decode(SkippedValue.self)
            index += 1
        }
        return container.count ?? index
    }

    public func mark() -> Any {
        position
    }

    public mutating func reset(to mark: Any) {
        if let saved = mark as? Position { position = saved }
    }

    public mutating func skipValue() throws {}

    public mutating func recover<T>(_ body: (inout CodableReader) throws -> T) throws -> Result<T, ModelError> {
        let saved = position
        do {
            return .success(try body(&self))
        } catch let error as ModelError {
            position = saved
            return .failure(error)
        }
    }
}
