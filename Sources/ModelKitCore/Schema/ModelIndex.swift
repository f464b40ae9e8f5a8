/// An index a store keeps on a model's table: one or more stored properties, in order, and
/// whether no two rows may hold the same values in them.
///
/// Declared on the model, checked by `@Model` at compile time (each name a stored property):
///
/// ```swift
/// @Model(indexes: [["lastName", "firstName"]], unique: [["email"]])
/// final class Account { ... }
/// ```
public struct ModelIndex: Hashable, Sendable, CustomStringConvertible {
    /// The properties' names, in the index's order.
    public let properties: [String]
    /// Whether two rows may not hold the same values in ``properties`` (rows with a `nil` among
    /// them never clash, as SQL's `NULL`s are distinct).
    public let isUnique: Bool

    /// Creates an index; `@Model` generates these.
    public init(_ properties: [String], unique: Bool = false) {
        self.properties = properties
        self.isUnique = unique
    }

    /// The index's name in a table `table`: `table_property_..._index` (or `_unique`).
    public func name(in table: String) -> String {
        ([table] + properties + [isUnique ? "unique" : "index"]).joined(separator: "_")
    }

    public var description: String {
        (isUnique ? "unique " : "") + "(" + properties.map { "'\($0)'" }.joined(separator: ", ") + ")"
    }
}
