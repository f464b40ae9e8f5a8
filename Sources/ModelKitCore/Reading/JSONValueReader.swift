import Foundation

/// Reads models from a ``JSONValue`` tree, with the same rules and error messages as reading
/// JSON bytes: the reader of the hooks' slow path (``Model/rewriteJSON(_:)``,
/// ``Model/modelType(for:)``), lenient transformers and preferences.
///
/// ```swift
/// let value: JSONValue = ["id": 1, "title": "Hi", "published_at": "2024-03-01T12:00:00Z"]
/// var reader = JSONValueReader(value: value)
/// let post = try reader.decodeModel(Post.self)
/// ```
public struct JSONValueReader: ModelReader {
    public let mapping: ModelSchema.Mapping
    public let options: MappingOptions
    public var collectedProblems: [ModelError] = []
    /// The value the reader is at.
    public private(set) var value: JSONValue
    @usableFromInline var depth = 0

    /// A reader at `value`.
    public init(value: JSONValue, mapping: ModelSchema.Mapping = .remote, options: MappingOptions = .default) {
        self.value = value
        self.mapping = mapping
        self.options = options
    }

    @usableFromInline
    func mismatch(_ expected: String) -> ModelError {
        ModelError.mismatch(expected: expected, found: ModelError.describe(value))
    }

    @usableFromInline
    mutating func enter() throws {
        guard depth < options.maxDepth else {
            throw ModelError(
                .limitExceeded, expected: "nesting of at most \(options.maxDepth) levels ('maxDepth')",
                found: "deeper nesting")
        }
        depth += 1
    }

    // MARK: Scalars

    public mutating func decodeNil() throws -> Bool { value.isNull }

    public mutating func decodeBool() throws -> Bool {
        if case .bool(let flag) = value { return flag }
        throw mismatch("a boolean")
    }

    public mutating func decodeString() throws -> String {
        if case .string(let string) = value { return string }
        throw mismatch("a string")
    }

    public mutating func decodeInt64() throws -> Int64 { try value.int64Value() }
    public mutating func decodeUInt64() throws -> UInt64 { try value.uint64Value() }
    public mutating func decodeDouble() throws -> Double { try value.doubleValue() }
    public mutating func decodeDecimal() throws -> Decimal { try value.decimalValue() }

    public mutating func decodeDate() throws -> Date {
        guard case .string(let text) = value, let date = DateCoding.parseISO8601(text) else {
            throw mismatch("an ISO 8601 date string")
        }
        return date
    }

    public mutating func decodeData() throws -> Data {
        guard case .string(let text) = value, let data = Data(base64Encoded: text) else {
            throw mismatch("a base64 string")
        }
        return data
    }

    public mutating func decodeURL() throws -> URL {
        guard case .string(let text) = value, let url = URL(string: text) else { throw mismatch("a URL string") }
        return url
    }

    public mutating func decodeUUID() throws -> UUID {
        guard case .string(let text) = value, let uuid = UUID(uuidString: text) else { throw mismatch("a UUID string") }
        return uuid
    }

    public mutating func decodeJSONValue() throws -> JSONValue { value }

    public mutating func decodeCodable<T: Decodable>(_ type: T.Type) throws -> T {
        try CodableBridge.decode(T.self, fromJSONValue: value)
    }

    // MARK: Containers

    public mutating func decodeArray<T>(_ element: (inout JSONValueReader) throws -> T) throws -> [T] {
        guard case .array(let elements) = value else { throw mismatch("an array") }
        try enter()
        let saved = value
        defer {
            depth -= 1
            value = saved
        }
        var result: [T] = []
        result.reserveCapacity(elements.count)
        for (index, item) in elements.enumerated() {
            value = item
            if let decoded = try decodeElement(at: index, element) { result.append(decoded) }
        }
        return result
    }

    public mutating func decodeDictionary<T>(_ body: (inout JSONValueReader) throws -> T) throws -> [String: T] {
        guard case .object(let members) = value else { throw mismatch("an object") }
        try enter()
        let saved = value
        defer {
            depth -= 1
            value = saved
        }
        var result: [String: T] = [:]
        result.reserveCapacity(members.count)
        for member in members {
            value = member.value
            if let decoded = try decodeMember(member.key, body) { result[member.key] = decoded }
        }
        return result
    }

    // MARK: Access for the key-tree walk

    public mutating func peekShape() throws -> ModelValueShape {
        switch value {
        case .object: return .object
        case .array: return .array
        case .null: return .null
        default: return .scalar
        }
    }

    public mutating func readMembers(
        of node: ModelKeyNode, expected: @autoclosure () -> String, _ member: (inout JSONValueReader, Int) throws -> Void
    ) throws {
        guard case .object(let members) = value else { throw mismatch(expected()) }
        try enter()
        let saved = value
        defer {
            depth -= 1
            value = saved
        }
        for entry in members {
            guard let edge = node.edgeIndex(forKey: entry.key) else { continue }
            value = entry.value
            try member(&self, edge)
        }
    }

    public mutating func readIndexedElements(
        of node: ModelKeyNode, _ element: (inout JSONValueReader, Int) throws -> Void
    ) throws -> Int {
        guard case .array(let elements) = value else { throw mismatch("an array") }
        try enter()
        let saved = value
        defer {
            depth -= 1
            value = saved
        }
        for (index, item) in elements.enumerated() {
            guard let edge = node.edgeByIndex[index] else { continue }
            value = item
            try element(&self, edge)
        }
        return elements.count
    }

    // MARK: Positions

    public func mark() -> (value: JSONValue, depth: Int) {
        (value, depth)
    }

    public mutating func reset(to mark: (value: JSONValue, depth: Int)) {
        value = mark.value
        depth = mark.depth
    }

    public mutating func skipValue() throws {}

    public mutating func recover<T>(_ body: (inout JSONValueReader) throws -> T) throws -> Result<T, ModelError> {
        let saved = mark()
        do {
            return .success(try body(&self))
        } catch let error as ModelError {
            reset(to: saved)
            return .failure(error)
        }
    }

    /// Reads a model from this value: the hooks run on it as it is, without another copy.
    public mutating func decodeModelFromJSONValue<M: Model>(_ type: M.Type) throws -> M {
        var json = value
        return try ModelKitCore.decodeModel(M.self, fromJSON: &json, options: options, problems: &collectedProblems)
    }
}
