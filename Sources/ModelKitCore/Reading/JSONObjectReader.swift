import Foundation

/// Reads models from Foundation's JSON object model: `[String: Any]`, `[Any]`, `String`,
/// `NSNumber`, `NSNull`, as `JSONSerialization` produces them.
///
/// With ``ModelSchema/Mapping/remote`` it follows remote key paths and transformers (the JSON
/// object path); with ``ModelSchema/Mapping/propertyKeys`` it reads property keys and plain
/// property values (`init(dictionary:)`, KVC).
///
/// ```swift
/// let object = try JSONSerialization.jsonObject(with: data)
/// var reader = JSONObjectReader(value: object)
/// let user = try reader.decodeModel(User.self)
/// ```
public struct JSONObjectReader: ModelReader {
    public let mapping: ModelSchema.Mapping
    public let options: MappingOptions
    public var collectedProblems: [ModelError] = []
    /// The value the reader is at.
    @usableFromInline var value: Any
    @usableFromInline var depth = 0

    /// A reader at `value`.
    public init(value: Any, mapping: ModelSchema.Mapping = .remote, options: MappingOptions = .default) {
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

    @inlinable
    public mutating func decodeNil() throws -> Bool {
        isNullValue(value)
    }

    public mutating func decodeBool() throws -> Bool {
        if case .bool(let value) = FoundationNumber(value) { return value }
        throw mismatch("a boolean")
    }

    @inlinable
    public mutating func decodeString() throws -> String {
        if let string = value as? String { return string }
        throw mismatch("a string")
    }

    /// The number the reader is at, as a JSON number (a `Bool` is not one).
    func number(_ expected: String) throws -> JSONValue {
        switch FoundationNumber(value) {
        case .int(let integer): return .int(integer)
        case .uint(let integer): return .uint(integer)
        case .double(let number): return .double(number)
        case .decimal(let number): return .decimal(number)
        case .bool, nil: throw mismatch(expected)
        }
    }

    public mutating func decodeInt64() throws -> Int64 { try number("an integer").int64Value() }
    public mutating func decodeUInt64() throws -> UInt64 { try number("an integer").uint64Value() }
    public mutating func decodeDouble() throws -> Double { try number("a number").doubleValue() }
    public mutating func decodeDecimal() throws -> Decimal { try number("a number").decimalValue() }

    public mutating func decodeDate() throws -> Date {
        if mapping == .propertyKeys {
            if let date = value as? Date { return date }
            throw mismatch("a date")
        }
        guard let text = value as? String else { throw mismatch("an ISO 8601 date string") }
        guard let date = DateCoding.parseISO8601(text) else { throw mismatch("an ISO 8601 date string") }
        return date
    }

    public mutating func decodeData() throws -> Data {
        if mapping == .propertyKeys {
            if let data = value as? Data { return data }
            throw mismatch("data")
        }
        guard let text = value as? String, let data = Data(base64Encoded: text) else {
            throw mismatch("a base64 string")
        }
        return data
    }

    public mutating func decodeURL() throws -> URL {
        if let url = value as? URL { return url }
        guard mapping == .remote else { throw mismatch("a URL") }
        guard let text = value as? String, let url = URL(string: text) else { throw mismatch("a URL string") }
        return url
    }

    public mutating func decodeUUID() throws -> UUID {
        if let uuid = value as? UUID { return uuid }
        guard mapping == .remote else { throw mismatch("a UUID") }
        guard let text = value as? String, let uuid = UUID(uuidString: text) else { throw mismatch("a UUID string") }
        return uuid
    }

    public mutating func decodeJSONValue() throws -> JSONValue {
        try JSONValue(foundationObject: value, maxDepth: options.maxDepth - depth)
    }

    public mutating func decodeCodable<T: Decodable>(_ type: T.Type) throws -> T {
        if mapping == .propertyKeys, let value = value as? T { return value }
        return try CodableBridge.decode(T.self, fromFoundationObject: value)
    }

    // MARK: Containers

    @inlinable
    public mutating func decodeArray<T>(_ element: (inout JSONObjectReader) throws -> T) throws -> [T] {
        guard let array = value as? [Any] else { throw mismatch("an array") }
        try enter()
        defer {
            depth -= 1
            value = array
        }
        var result: [T] = []
        result.reserveCapacity(array.count)
        for index in array.indices {
            value = array[index]
            if let decoded = try decodeElement(at: index, element) { result.append(decoded) }
        }
        return result
    }

    @inlinable
    public mutating func decodeDictionary<T>(_ body: (inout JSONObjectReader) throws -> T) throws -> [String: T] {
        guard let object = value as? [String: Any] else { throw mismatch("an object") }
        try enter()
        defer {
            depth -= 1
            value = object
        }
        var result: [String: T] = [:]
        result.reserveCapacity(object.count)
        for (key, member) in object {
            value = member
            if let decoded = try decodeMember(key, body) { result[key] = decoded }
        }
        return result
    }

    // MARK: Access for the key-tree walk

    @inlinable
    public mutating func peekShape() throws -> ModelValueShape {
        if value is [String: Any] { return .object }
        if value is [Any] { return .array }
        return isNullValue(value) ? .null : .scalar
    }

    /// Looks up each key of `node` in the dictionary (cheaper than matching every member when a
    /// payload has many keys no property wants).
    @inlinable
    public mutating func readMembers(
        of node: ModelKeyNode, expected: @autoclosure () -> String, _ member: (inout JSONObjectReader, Int) throws -> Void
    ) throws {
        guard let object = value as? [String: Any] else { throw mismatch(expected()) }
        try enter()
        defer {
            depth -= 1
            value = object
        }
        let keys = node.keys
        for position in keys.indices {
            guard let child = object[keys[position]] else { continue }
            value = consume child
            try member(&self, position)
        }
    }

    @inlinable
    public mutating func readIndexedElements(
        of node: ModelKeyNode, _ element: (inout JSONObjectReader, Int) throws -> Void
    ) throws -> Int {
        guard let array = value as? [Any] else { throw mismatch("an array") }
        try enter()
        defer {
            depth -= 1
            value = array
        }
        for (position, edge) in node.edges.enumerated() {
            guard let index = edge.index, index < array.count, node.edgeByIndex[index] == position else { continue }
            value = array[index]
            try element(&self, position)
        }
        return array.count
    }

    @inlinable
    public mutating func decodeModel<M: Model>(_ type: M.Type) throws -> M {
        if mapping == .propertyKeys, let model = value as? M { return model }
        return try decodeModelThroughHooksAndIdentity(M.self)
    }

    @inlinable
    public func mark() -> (value: Any, depth: Int) {
        (value, depth)
    }

    @inlinable
    public mutating func reset(to mark: (value: Any, depth: Int)) {
        value = mark.value
        depth = mark.depth
    }

    public mutating func skipValue() throws {}

    public mutating func recover<T>(_ body: (inout JSONObjectReader) throws -> T) throws -> Result<T, ModelError> {
        let saved = value
        let savedDepth = depth
        do {
            return .success(try body(&self))
        } catch let error as ModelError {
            value = saved
            depth = savedDepth
            return .failure(error)
        }
    }
}
