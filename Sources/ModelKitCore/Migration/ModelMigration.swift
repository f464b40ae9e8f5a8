// Migration hooks (PSPDFModel's `decodeValueForKey:withCoder:modelVersion:`,
// `decodeAdditionalValues:model:` and preserved values). They are format-neutral: a format
// that records a model version (keyed archives, the store) gives the hooks read access to the
// stored object through ``ModelStoredValues`` and applies what they return through the
// generated field decoders, so migrated values are type-checked like any other.

/// Read access to the stored values of one object, by property key: what migration hooks read.
///
/// Keyed archives and the store implement it; hooks receive it generically.
///
/// ```swift
/// static func decodeAdditionalValues<S: ModelStoredValues>(from stored: inout S, modelVersion: Int) throws -> [String: Any] {
///     guard modelVersion < 2, let pages = try stored.decodeIfPresent([String].self, forKey: "pages") else { return [:] }
///     return ["pageCount": pages.count]
/// }
/// ```
public protocol ModelStoredValues {
    /// The version of the model that wrote the values (0 when the format recorded none).
    var modelVersion: Int { get }
    /// The keys the stored object holds, as the writer named them.
    var storedKeys: [String] { get }
    /// Whether the stored object holds a value for `key`.
    func contains(_ key: String) -> Bool
    /// The stored value for `key` read as `T`, or nil when the key is absent.
    mutating func decodeIfPresent<T: ModelValue>(_ type: T.Type, forKey key: String) throws -> T?
    /// The stored value for `key` as a plain Swift value (strings, numbers, arrays, dictionaries,
    /// models), or nil when the key is absent.
    mutating func decodeAny(forKey key: String) throws -> Any?
}

/// What a migration hook answers for one property.
public enum ModelStoredValue {
    /// Read the property from its own key, as without a hook.
    case stored
    /// Use this value instead; it is checked against the property's type like a mapped value.
    case value(Any)
    /// Treat the property as absent: its default, nil, or a missing-value error.
    case missing
}

/// A model that reads values written by other versions of itself (PSPDFModel's migration hooks).
///
/// Formats that record ``ModelSchema/version`` call ``decodeValue(forKey:from:modelVersion:)``
/// for each property key while decoding, with the version found in the stored object, then merge
/// ``decodeAdditionalValues(from:modelVersion:)`` into the initialization (additional values win).
///
/// ```swift
/// @Model(version: 2)
/// final class Note { var title: String; var pageCount: Int = 0 }
///
/// extension Note: ModelMigrating {
///     static func decodeValue<S: ModelStoredValues>(forKey key: String, from stored: inout S, modelVersion: Int) throws -> ModelStoredValue {
///         if key == "title", modelVersion < 2 { return .value(try stored.decodeIfPresent(String.self, forKey: "name") ?? "") }
///         return .stored
///     }
/// }
/// ```
public protocol ModelMigrating: Model {
    /// How to obtain the value of property `key` from an object written by `modelVersion`.
    /// The default reads it from its own key.
    static func decodeValue<S: ModelStoredValues>(
        forKey key: String, from stored: inout S, modelVersion: Int
    ) throws -> ModelStoredValue

    /// Extra property values, keyed by property key, computed from the stored object (to migrate
    /// older versions); merged into the initialization after the regular values. The default
    /// returns none.
    static func decodeAdditionalValues<S: ModelStoredValues>(
        from stored: inout S, modelVersion: Int
    ) throws -> [String: Any]
}

extension ModelMigrating {
    public static func decodeValue<S: ModelStoredValues>(
        forKey key: String, from stored: inout S, modelVersion: Int
    ) throws -> ModelStoredValue {
        .stored
    }

    public static func decodeAdditionalValues<S: ModelStoredValues>(
        from stored: inout S, modelVersion: Int
    ) throws -> [String: Any] {
        [:]
    }
}

/// A model that keeps some stored values aside instead of setting its properties from them
/// (PSPDFModel's `propertyKeysToPreserveWhenDecoding` and `preservedValues`).
///
/// While decoding, the values stored under ``propertyKeysToPreserveWhenDecoding`` go to
/// ``preservedValues`` (as plain Swift values) and the properties themselves take their
/// defaults; encoding still writes the properties. Declare the storage `@Transient`:
///
/// ```swift
/// @Model
/// final class FormField {
///     var name: String
///     var value: String? = nil
///     @Transient var preservedValues = ModelPreservedValues()
/// }
/// extension FormField: ModelPreservingValues {
///     static var propertyKeysToPreserveWhenDecoding: Set<String> { ["value"] }
/// }
/// ```
public protocol ModelPreservingValues: Model {
    /// The property keys whose stored values are kept in ``preservedValues``.
    static var propertyKeysToPreserveWhenDecoding: Set<String> { get }
    /// The values kept aside while decoding.
    var preservedValues: ModelPreservedValues { get set }
}

/// Values a model kept aside while decoding, by property key (see ``ModelPreservingValues``).
///
/// Values are plain Swift values: strings, numbers, `Bool`, `Data`, `Date`, `URL`, `UUID`,
/// arrays, dictionaries, and models of registered types.
///
/// ```swift
/// field.preservedValues["value"] as? String
/// ```
public struct ModelPreservedValues: Codable, @unchecked Sendable, CustomStringConvertible {
    // @unchecked: the values are immutable Swift values that formats decoded; models put here are
    // only shared the way their owner is.

    /// The kept values, by property key.
    public var values: [String: Any]

    /// An empty set of values.
    public init(_ values: [String: Any] = [:]) {
        self.values = values
    }

    /// Whether nothing was kept.
    public var isEmpty: Bool { values.isEmpty }

    /// The value kept for `key`.
    public subscript(key: String) -> Any? {
        get { values[key] }
        set { values[key] = newValue }
    }

    /// Preserved values are not mapped: decoding them always fails (declare the property `@Transient`).
    public init(from decoder: any Decoder) throws {
        throw DecodingError.typeMismatch(
            ModelPreservedValues.self,
            .init(codingPath: decoder.codingPath, debugDescription: "preserved values are not decodable"))
    }

    /// Preserved values are not mapped: encoding writes nothing.
    public func encode(to encoder: any Encoder) throws {}

    public var description: String {
        "ModelPreservedValues(" + values.keys.sorted().map { "\($0): \(values[$0].map { String(reflecting: $0) } ?? "nil")" }
            .joined(separator: ", ") + ")"
    }
}
