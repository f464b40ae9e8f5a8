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
public struct JSONObjectReader: ModelTreeReader {
    public let mapping: ModelSchema.Mapping
    public let options: MappingOptions
    public let context: ModelContext?
    /// The options' switches, read per field without copying the options.
    public let flags: MappingFlags
    public var collectedProblems: [ModelError] = []
    /// The value the reader is at.
    public var node: Any
    public var depth = 0

    /// A reader at `value`, mapping identified class models through `context` when given.
    public init(
        value: Any, mapping: ModelSchema.Mapping = .remote, options: MappingOptions = .default, context: ModelContext? = nil
    ) {
        self.node = value
        self.mapping = mapping
        self.options = options
        self.context = context
        self.flags = MappingFlags(options, hasContext: context != nil)
    }

    /// The value the reader is at.
    // Usable from inline: the inlinable `decodeNil`, `decodeString` and `decodeModel` read the node through it.
    @usableFromInline var value: Any {
        get { node }
        set { node = newValue }
    }

    // MARK: The tree

    public func shape(of node: Any) -> ModelValueShape {
        if node is [String: Any] { return .object }
        if node is [Any] { return .array }
        return isNullValue(node) ? .null : .scalar
    }

    public func elements(of node: Any) -> [Any]? {
        node as? [Any]
    }

    public func forEachMember(of node: Any, _ body: (String, Any) throws -> Void) rethrows -> Bool {
        guard let object = node as? [String: Any] else { return false }
        for (key, value) in object { try body(key, value) }
        return true
    }

    public func describe(_ node: Any) -> String {
        ModelError.describe(node)
    }

    // MARK: Scalars

    // Inlinable: per optional value and per field whose null means its default; specialised in `init(json:)`'s caller,
    // one null test on the node.
    @inlinable
    public mutating func decodeNil() throws -> Bool {
        isNullValue(value)
    }

    public mutating func decodeBool() throws -> Bool {
        if case .bool(let value) = FoundationNumber(value) { return value }
        throw mismatch("a boolean")
    }

    // Inlinable: per String value read (`String.read`), specialised in `init(json:)`'s caller; one dynamic cast.
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

    public mutating func decodeInt64() throws -> Int64 {
        if case .int(let integer) = FoundationNumber(value) { return integer }  // the common case, no JSONValue
        return try number("an integer").int64Value()
    }
    public mutating func decodeUInt64() throws -> UInt64 { try number("an integer").uint64Value() }
    public mutating func decodeDouble() throws -> Double {
        switch FoundationNumber(value) {  // the common cases, no JSONValue
        case .double(let double): return double
        case .int(let integer): return Double(integer)
        default: return try number("a number").doubleValue()
        }
    }
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

    // MARK: Access for the key-tree walk

    /// Looks up each key of `keys` in the dictionary (cheaper than matching every member when a
    /// payload has many keys no property wants).
    // Inlinable: the walk calls it per object read from a JSON object, in the module that calls `init(json:)`;
    // specialised there with the walk's member closure for the model's fields.
    @inlinable
    public mutating func readMembers(
        of keys: ModelKeyNode, expected: @autoclosure () -> String, reportingUnknownKeys: Bool,
        _ member: (inout JSONObjectReader, Int) throws -> Void, unknown: (inout JSONObjectReader, String) throws -> Void
    ) throws {
        try lookUpMembers(
            of: keys, orNull: false, expected: expected(), reportingUnknownKeys: reportingUnknownKeys, member,
            unknown: unknown)
    }

    /// Checks for `null` only when the value is not a dictionary: one cast for the common case.
    // Inlinable: as `readMembers`, per nested object the walk opens.
    @inlinable
    public mutating func readMembersOrNull(
        of keys: ModelKeyNode, expected: @autoclosure () -> String, reportingUnknownKeys: Bool,
        _ member: (inout JSONObjectReader, Int) throws -> Void, unknown: (inout JSONObjectReader, String) throws -> Void
    ) throws {
        try lookUpMembers(
            of: keys, orNull: true, expected: expected(), reportingUnknownKeys: reportingUnknownKeys, member,
            unknown: unknown)
    }

    // Inlinable: the body of both methods above, per object; internal, and inlinable so that they can call it.
    @inlinable
    mutating func lookUpMembers(
        of keys: ModelKeyNode, orNull: Bool, expected: @autoclosure () -> String, reportingUnknownKeys: Bool,
        _ member: (inout JSONObjectReader, Int) throws -> Void, unknown: (inout JSONObjectReader, String) throws -> Void
    ) throws {
        guard !reportingUnknownKeys, let object = node as? [String: Any] else {
            if orNull && isNullValue(node) { return }
            guard reportingUnknownKeys else { throw mismatch(expected()) }
            return try readTreeMembers(
                of: keys, expected: expected(), reportingUnknownKeys: true, member, unknown: unknown)
        }
        // Not `nested(_:)`: no closure call per object, and the object goes back as it came.
        try enterNested()
        defer { leaveNested(restoring: object) }
        let names = keys.keys
        for position in names.indices {
            guard let child = object[names[position]] else { continue }
            node = consume child
            try member(&self, position)
        }
    }

    // Inlinable: per nested model read (`Model.read`); specialised for the model type in the caller of `init(json:)`.
    @inlinable
    public mutating func decodeModel<M: Model>(_ type: M.Type) throws -> M {
        if mapping == .propertyKeys, let model = value as? M { return model }
        return try decodeModelThroughHooksAndIdentity(M.self)
    }
}
