import Foundation
import ModelKitCore
import ModelKitJSON

/// Converts typed values to and from the ``JSONValue``s the preferences file holds.
///
/// ``ModelValue`` types (strings, numbers, dates, URLs, arrays, `@Model` types, ...) go through
/// ModelKit's core mapping: ``JSONValueWriter`` writes them, ``JSONValueReader`` reads them, so a `@Model` value is stored exactly as its JSON mapping says (remote
/// keys, transformers, ISO 8601 dates). Other `Codable` types go through Foundation's JSON
/// coders with the same date and data conventions.
enum PreferenceCoding {
    /// The stored form of `value`.
    static func encode<Value: Encodable>(_ value: Value, key: String) throws -> JSONValue {
        do {
            if let value = value as? any ModelValue {
                var writer = JSONValueWriter()
                try value.write(to: &writer)
                return writer.value
            }
            let data = try CodableBridge.encode(value)
            return try JSONValue(parsing: data)
        } catch {
            throw PreferencesError(
                .unencodableValue, key: key, reason: PreferencesError.describe(error), underlying: error)
        }
    }

    /// Decodes a stored value as `Value`.
    static func decode<Value: Decodable>(_ type: Value.Type, from json: JSONValue, key: String, path: String)
        throws -> Value
    {
        do {
            if let modelType = Value.self as? any ModelValue.Type {
                var reader = JSONValueReader(value: json)
                if let value = try readTopLevel(modelType, from: &reader) as? Value { return value }
                throw PreferencesError(
                    .undecodableValue, path: path, key: key, reason: "expected a value of type '\(Value.self)'")
            }
            let bytes = try json.jsonBytes()
            return try CodableBridge.decode(Value.self, fromJSON: Data(bytes)) {
                (try? json.jsonString()) ?? "a value"
            }
        } catch let error as PreferencesError {
            throw error
        } catch {
            throw PreferencesError(
                .undecodableValue, path: path, key: key,
                reason: PreferencesError.describe(error),
                underlying: error)
        }
    }

    /// Reads a whole value with the core mapping's top-level error handling.
    private static func readTopLevel<T: ModelValue>(_ type: T.Type, from reader: inout JSONValueReader) throws
        -> any ModelValue
    {
        try reader.decodeTopLevel(T.self)
    }

    /// The stored members of a `@Model` value: one top-level key per property.
    static func encodeModel<M: Model>(_ model: M) throws -> [String: JSONValue] {
        let json: JSONValue
        do {
            var writer = JSONValueWriter()
            try writer.encodeModel(model)
            json = writer.value
        } catch {
            throw PreferencesError(
                .unencodableValue, key: M.modelSchema.modelName, reason: PreferencesError.describe(error),
                underlying: error)
        }
        guard case .object(let list) = json else {
            throw PreferencesError(
                .unencodableValue, key: M.modelSchema.modelName, reason: "the model did not map to a JSON object")
        }
        var members: [String: JSONValue] = [:]
        for member in list { members[member.key] = member.value }
        return members
    }

    /// Reads a `@Model` value from the whole document: keys it lacks take their defaults,
    /// keys it does not know are left alone.
    static func decodeModel<M: Model>(_ type: M.Type, from members: [String: JSONValue], path: String) throws -> M {
        let document = JSONValue.object(members.sorted { $0.key < $1.key }.map { JSONMember($0.key, $0.value) })
        do {
            var reader = JSONValueReader(value: document)
            return try reader.decodeTopLevel(M.self)
        } catch {
            throw PreferencesError(
                .undecodableValue, path: path, key: M.modelSchema.modelName,
                reason: PreferencesError.describe(error), underlying: error)
        }
    }

    /// Throws ``PreferencesError/Kind/unencodableValue`` when `value` holds a number JSON
    /// cannot represent (NaN, infinity).
    static func checkEncodable(_ value: JSONValue, key: String) throws {
        switch value {
        case .double(let number) where !number.isFinite:
            throw PreferencesError(.unencodableValue, key: key, reason: "expected a finite number, found \(number)")
        case .array(let elements):
            for element in elements { try checkEncodable(element, key: key) }
        case .object(let members):
            for member in members { try checkEncodable(member.value, key: key) }
        default:
            break
        }
    }

    /// The top-level keys a `@Model` type reads and writes: the first segment of each
    /// non-transient property's remote key paths.
    static func topLevelKeys<M: Model>(of type: M.Type) -> [String] {
        var keys: [String] = []
        for property in M.modelSchema.properties where !property.isTransient {
            for path in property.remoteKeyPaths + (property.remoteWritingKeyPath.map { [$0] } ?? []) {
                if let first = path.segments.first, !keys.contains(first) { keys.append(first) }
            }
        }
        return keys
    }
}

extension JSONValue {
    /// The value as the preferences file stores it: object members sorted by key (UTF-8 byte
    /// order, as the writer's `.sortedKeys` writes them), the last of duplicate keys kept, at
    /// every level.
    ///
    /// Every value entering the storage is made canonical, so a value in memory equals the same
    /// value read back from the file, and re-reading a file never reports unchanged values as
    /// changes because of member order.
    ///
    /// ```swift
    /// JSONValue.object([.init("b", .int(1)), .init("a", .int(2)), .init("b", .int(3))]).canonicalized
    /// // {"a": 2, "b": 3}
    /// ```
    var canonicalized: JSONValue {
        switch self {
        case .array(let elements):
            guard elements.contains(where: \.isContainer) else { return self }
            return .array(elements.map(\.canonicalized))
        case .object(let members):
            var latest: [String: JSONValue] = [:]
            latest.reserveCapacity(members.count)
            for member in members { latest[member.key] = member.value }
            return .object(
                latest.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map { key in
                    JSONMember(key, latest[key]?.canonicalized ?? .null)
                })
        default:
            return self
        }
    }

}
