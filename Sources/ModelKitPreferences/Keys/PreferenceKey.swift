/// The namespace of declared preference keys: extend it with typed keys, then use them with
/// leading-dot syntax.
///
/// ```swift
/// extension Preferences.Keys {
///     static let volume = Key<Double>("volume", default: 0.5)
///     static let recentFiles = Key<[URL]>("recentFiles", default: [])
/// }
/// prefs[.volume] = 0.8
/// ```
///
/// It is a class only so that keys of every value type can be static members of one type
/// (``PreferenceKey`` inherits from it); it is never subclassed outside ModelKit.
public class PreferenceKeys: @unchecked Sendable {
    // @unchecked: the class and its only subclass hold constants of Sendable types.

    /// The key in the preferences file.
    public let name: String

    init(name: String) {
        self.name = name
    }

    /// A typed key, spelled `Key<Value>` inside `extension Preferences.Keys`.
    public typealias Key<Value: Codable & Sendable> = PreferenceKey<Value>
}

/// A typed preference key with a default value: any `Codable` value, including `@Model` types.
///
/// Reading a key that is not stored (or whose value cannot be decoded, see
/// the typed subscript of ``Preferences``) gives the default; the default is
/// never written to the file by reading.
///
/// ```swift
/// extension Preferences.Keys {
///     static let volume = Key<Double>("volume", default: 0.5)
///     static let window = Key<WindowFrame>("window", default: WindowFrame())  // a @Model struct
///     static let nickname = Key<String?>("nickname")                          // default nil
/// }
/// let volume: Double = prefs[.volume]
/// ```
public final class PreferenceKey<Value: Codable & Sendable>: PreferenceKeys, @unchecked Sendable,
    CustomStringConvertible
{
    // @unchecked: every stored property is a constant of a Sendable type.

    /// The value a read gives when the key is not stored.
    public let defaultValue: Value

    /// A key named `name` (its key in the file) with a default value.
    public init(_ name: String, default defaultValue: Value) {
        self.defaultValue = defaultValue
        super.init(name: name)
    }

    public var description: String {
        "Key<\(Value.self)>(\"\(name)\")"
    }
}

extension PreferenceKey where Value: ExpressibleByNilLiteral {
    /// A key of an optional type whose default is nil.
    ///
    /// ```swift
    /// static let nickname = Key<String?>("nickname")
    /// ```
    public convenience init(_ name: String) {
        self.init(name, default: nil)
    }
}
