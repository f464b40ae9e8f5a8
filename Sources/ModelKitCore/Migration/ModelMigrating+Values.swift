// Formats that hold an object's stored values as plain values keyed by name (the store's rows)
// run the migration hooks through these: one `ModelStoredValues` over a dictionary, and one
// function that applies `decodeValue(forKey:from:modelVersion:)` to every property key and merges
// `decodeAdditionalValues(from:modelVersion:)`, the same order keyed archives use.

/// Stored values held as plain Swift values keyed by the writer's names.
///
/// ```swift
/// var stored = DictionaryStoredValues(["name": "Ada Lovelace"], modelVersion: 1)
/// try stored.decodeIfPresent(String.self, forKey: "name") // "Ada Lovelace"
/// ```
public struct DictionaryStoredValues: ModelStoredValues {
    /// The stored values, by key.
    public let values: [String: Any]
    public let modelVersion: Int

    /// Stored values written by `modelVersion` of a model.
    public init(_ values: [String: Any], modelVersion: Int) {
        self.values = values
        self.modelVersion = modelVersion
    }

    public var storedKeys: [String] { values.keys.sorted() }

    public func contains(_ key: String) -> Bool { values[key] != nil }

    /// Reads the value for `key` as `T`, with the usual mapping rules (an error names the key).
    public mutating func decodeIfPresent<T: ModelValue>(_ type: T.Type, forKey key: String) throws -> T? {
        guard let value = values[key] else { return nil }
        var reader = JSONObjectReader(value: value, mapping: .propertyKeys)
        do {
            return try T.read(from: &reader)
        } catch let error as ModelError {
            throw error.prefixed(by: .key(key))
        }
    }

    public mutating func decodeAny(forKey key: String) throws -> Any? { values[key] }
}

extension ModelMigrating {
    /// The values to read for each property key, after the model's hooks have seen `stored`.
    ///
    /// Each property key gets what ``decodeValue(forKey:from:modelVersion:)`` answers (its own
    /// stored value for ``ModelStoredValue/stored``, nothing for ``ModelStoredValue/missing``);
    /// ``decodeAdditionalValues(from:modelVersion:)`` is merged last and wins.
    ///
    /// ```swift
    /// let values = try Person.migratedValues(
    ///     DictionaryStoredValues(["name": "Ada Lovelace"], modelVersion: 1))
    /// // ["firstName": "Ada", "lastName": "Lovelace"]
    /// ```
    public static func migratedValues<S: ModelStoredValues>(_ stored: S) throws -> [String: Any] {
        var stored = stored
        let version = stored.modelVersion
        var result: [String: Any] = [:]
        for key in modelSchema.propertyKeys {
            switch try decodeValue(forKey: key, from: &stored, modelVersion: version) {
            case .stored:
                if let value = try stored.decodeAny(forKey: key) { result[key] = value }
            case .value(let value):
                result[key] = value
            case .missing:
                break
            }
        }
        for (key, value) in try decodeAdditionalValues(from: &stored, modelVersion: version) {
            result[key] = value
        }
        return result
    }
}
