/// Which properties a payload gave, as a value or as `null`, and which it left out: what a
/// PATCH handler needs to tell "absent" from "null".
///
/// A model keeps the presence of the payload it was mapped from in a property marked
/// `@Presence` (models without one pay nothing), and ``Model/applyPatch(_:options:)-7zst0`` returns the
/// presence of the payload it applied:
///
/// ```swift
/// @Model struct Profile {
///     var name: String
///     var bio: String?
///     @Presence var presence = ModelPresence()
/// }
///
/// let profile = try Profile(jsonString: #"{"name": "Ada", "bio": null}"#)
/// profile.presence["name"]   // .value
/// profile.presence["bio"]    // .null
/// ```
///
/// A property read through a nested key path is present when its leaf is; a value taken as the
/// default because it did not map (`@Key(onError: .useDefault)`) counts as absent.
public struct ModelPresence: Hashable, Sendable, CustomStringConvertible {
    /// How a payload gave one property.
    public enum State: Hashable, Sendable {
        /// A value other than `null`.
        case value
        /// `null`.
        case null
        /// Not at all.
        case absent
    }

    /// The properties the payload gave, with a value or `null`, by name.
    public private(set) var givenProperties: Set<String> = []
    /// The properties the payload gave as `null`, by name.
    public private(set) var nullProperties: Set<String> = []

    /// A presence of nothing: what a model made in code has.
    public init() {}

    /// How the payload gave the property named `property`.
    public subscript(property: String) -> State {
        givenProperties.contains(property) ? (nullProperties.contains(property) ? .null : .value) : .absent
    }

    /// How the payload gave the property `keyPath` names: `presence[\Profile.bio]`.
    public subscript<M: Model, V>(keyPath: KeyPath<M, V>) -> State {
        guard let property = M.modelSchema.properties.first(where: { $0.keyPath == keyPath }) else { return .absent }
        return self[property.name]
    }

    /// Whether the payload gave the property named `property`, with a value or `null`.
    public func isGiven(_ property: String) -> Bool {
        givenProperties.contains(property)
    }

    /// Records that the payload gave `property`, as `null` or not.
    public mutating func record(_ property: String, isNull: Bool) {
        givenProperties.insert(property)
        if isNull { nullProperties.insert(property) } else { nullProperties.remove(property) }
    }

    /// Records that the payload gave `property`, read into `slot`: `null` when the slot holds no
    /// value, or an empty optional. `@Model` generates calls to it for a model with `@Presence`.
    public mutating func record<T>(_ property: String, slot: T?) {
        guard let value = slot else { return record(property, isNull: true) }
        record(property, isNull: unwrappedOptional(value) == nil)
    }

    public var description: String {
        let states = givenProperties.sorted().map { "\($0): \(nullProperties.contains($0) ? "null" : "value")" }
        return "ModelPresence(\(states.joined(separator: ", ")))"
    }
}
