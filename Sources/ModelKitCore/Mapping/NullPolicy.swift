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
