/// What `null` in a payload means for a non-optional property that has a default value.
///
/// ```swift
/// @Model(nulls: .useDefault) struct Settings { var volume: Double = 0.5 }
/// try Settings(json: ["volume": NSNull()]).volume // 0.5
/// ```
public enum NullPolicy: Hashable, Sendable {
    /// `null` is an error: the property cannot hold nil.
    case error
    /// `null` counts as missing, so the default applies.
    case useDefault
}

/// What a value of the wrong type (or one its transformer refuses) means for a property that
/// has a default: an error, or the default, with the error in ``MappingOptions/report``.
///
/// ```swift
/// @Model struct Settings { @Key(onError: .useDefault) var volume: Double = 0.5 }
/// try Settings(json: ["volume": "loud"]).volume // 0.5
/// ```
public enum InvalidValuePolicy: Hashable, Sendable {
    /// The value is an error.
    case error
    /// The property takes its default; the error goes to the report.
    case useDefault
}

/// When a property is left out of the payloads a model writes (`@Key(omit: .ifNil)`): the
/// per-property version of ``MappingOptions/nilEncoding``, and a way to keep defaults out of
/// output.
///
/// ```swift
/// @Model struct Query {
///     @Key(omit: .ifDefault) var limit: Int = 20
///     @Key(omit: .ifNil) var cursor: String?
/// }
/// try Query().jsonData() // {}
/// ```
public enum OmitPolicy: Hashable, Sendable {
    /// Left out when nil (an optional property).
    case ifNil
    /// Left out when equal to its initial value (an `Equatable` property with one).
    case ifDefault
}

/// What a key in a payload that no property reads means (strict mode finds a mistyped `@Key`).
///
/// ```swift
/// @Model(unknownKeys: .reject) struct Config { var retries: Int = 3 }
/// try Config(json: ["retires": 5])  // cannot map 'Config' at 'retires': unknown key
///
/// var options = MappingOptions()
/// options.unknownKeys = .reject    // for one call, whatever the model says
/// ```
public enum UnknownKeyPolicy: Hashable, Sendable {
    /// Unknown keys are skipped (the default).
    case ignore
    /// An unknown key is an error naming it (every one, in collect-all mode).
    case reject
}
