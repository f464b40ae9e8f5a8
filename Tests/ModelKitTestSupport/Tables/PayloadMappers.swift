import Foundation
import ModelKit

/// The JSON-object path: JSONSerialization, then `init(json:)`.
public struct JSONObjectMapper: PayloadMapper {
    public init() {}

    public func map<M: Model>(_ type: M.Type, from json: String, options: MappingOptions) throws -> M {
        try M(json: jsonObject(json), options: options)
    }
}

/// The JSON-bytes path: `init(jsonData:)`.
public struct JSONBytesMapper: PayloadMapper {
    public init() {}

    public func map<M: Model>(_ type: M.Type, from json: String, options: MappingOptions) throws -> M {
        try M(jsonData: Data(json.utf8), options: options)
    }
}

/// The JSON-value path: the payload parsed into a ``JSONValue``, then read by ``JSONValueReader``
/// (what the hooks, transformers and preferences read through).
public struct JSONValueMapper: PayloadMapper {
    public init() {}

    public func map<M: Model>(_ type: M.Type, from json: String, options: MappingOptions) throws -> M {
        var reader = JSONValueReader(value: try JSONValue(parsing: json), options: options)
        return try reader.decodeTopLevel(M.self)
    }
}

/// The Codable path: Foundation's `JSONDecoder`, through the generated `init(from:)`, the
/// options given through its `userInfo`.
public struct CodableMapper: PayloadMapper {
    public init() {}

    public func map<M: Model>(_ type: M.Type, from json: String, options: MappingOptions) throws -> M {
        let decoder = JSONDecoder()
        decoder.userInfo[MappingOptions.userInfoKey] = options
        return try decoder.decode(M.self, from: Data(json.utf8))
    }
}

/// Every path that maps payloads into models, for tables of tests: JSON bytes, JSON objects,
/// `JSONValue` and Codable.
public let payloadReaders: [any PayloadMapper] = [JSONBytesMapper(), JSONObjectMapper(), JSONValueMapper(), CodableMapper()]

/// Every writer of payloads, for tables of tests: what it is called and the bytes it writes.
public let payloadWriters: [(name: String, write: @Sendable (any Model) throws -> Data)] = [
    ("jsonData", { try $0.jsonData() }),
    ("jsonObject", { try JSONSerialization.data(withJSONObject: $0.jsonObject()) }),
    ("JSONEncoder", { try JSONEncoder().encode($0) }),
]
