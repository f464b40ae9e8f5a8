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
public struct JSONValueReader: ModelTreeReader {
    public let mapping: ModelSchema.Mapping
    public let options: MappingOptions
    public let context: ModelContext?
    public var collectedProblems: [ModelError] = []
    /// The value the reader is at.
    public var node: JSONValue
    public var depth = 0

    /// A reader at `value`, mapping identified class models through `context` when given.
    public init(
        value: JSONValue, mapping: ModelSchema.Mapping = .remote, options: MappingOptions = .default,
        context: ModelContext? = nil
    ) {
        self.node = value
        self.mapping = mapping
        self.options = options
        self.context = context
    }

    /// The value the reader is at.
    public var value: JSONValue { node }

    // MARK: The tree

    public func shape(of node: JSONValue) -> ModelValueShape {
        switch node {
        case .object: return .object
        case .array: return .array
        case .null: return .null
        default: return .scalar
        }
    }

    public func elements(of node: JSONValue) -> [JSONValue]? {
        if case .array(let elements) = node { return elements }
        return nil
    }

    public func forEachMember(of node: JSONValue, _ body: (String, JSONValue) throws -> Void) rethrows -> Bool {
        guard case .object(let members) = node else { return false }
        for member in members { try body(member.key, member.value) }
        return true
    }

    public func describe(_ node: JSONValue) -> String {
        ModelError.describe(node)
    }

    // MARK: Scalars

    public mutating func decodeNil() throws -> Bool { node.isNull }

    public mutating func decodeBool() throws -> Bool {
        if case .bool(let flag) = node { return flag }
        throw mismatch("a boolean")
    }

    public mutating func decodeString() throws -> String {
        if case .string(let string) = node { return string }
        throw mismatch("a string")
    }

    public mutating func decodeInt64() throws -> Int64 { try node.int64Value() }
    public mutating func decodeUInt64() throws -> UInt64 { try node.uint64Value() }
    public mutating func decodeDouble() throws -> Double { try node.doubleValue() }
    public mutating func decodeDecimal() throws -> Decimal { try node.decimalValue() }

    public mutating func decodeDate() throws -> Date {
        guard case .string(let text) = node, let date = DateCoding.parseISO8601(text) else {
            throw mismatch("an ISO 8601 date string")
        }
        return date
    }

    public mutating func decodeData() throws -> Data {
        guard case .string(let text) = node, let data = Data(base64Encoded: text) else {
            throw mismatch("a base64 string")
        }
        return data
    }

    public mutating func decodeURL() throws -> URL {
        guard case .string(let text) = node, let url = URL(string: text) else { throw mismatch("a URL string") }
        return url
    }

    public mutating func decodeUUID() throws -> UUID {
        guard case .string(let text) = node, let uuid = UUID(uuidString: text) else { throw mismatch("a UUID string") }
        return uuid
    }

    public mutating func decodeJSONValue() throws -> JSONValue { node }

    public mutating func decodeCodable<T: Decodable>(_ type: T.Type) throws -> T {
        try CodableBridge.decode(T.self, fromJSONValue: node)
    }

    /// Reads a model from this value: the hooks run on it as it is, without another copy.
    public mutating func decodeModelFromJSONValue<M: Model>(_ type: M.Type) throws -> M {
        var json = node
        return try ModelKitCore.decodeModel(
            M.self, fromJSON: &json, options: options, context: context, problems: &collectedProblems)
    }
}
