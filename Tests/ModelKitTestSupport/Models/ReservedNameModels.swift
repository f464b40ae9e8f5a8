import Foundation
import ModelKit

/// Properties named like what `@Model` generates or uses in generated code (`description`,
/// `hash`, `fields`, `reader`, `mapping`, ...): each is plain data.
@Model
public struct ReservedNames: Sendable {
    public var description: String?
    public var hash: String
    public var copy: Int
    public var modelDescription: String
    public var fields: Int
    public var reader: Int
    public var writer: Int
    public var index: Int
    public var hasher: Int
    public var decoder: Int
    public var encoder: Int
    public var mapping: Int
    public var missing: Int
    public var modelSchema: Int
    public var propertyKeys: Int
    public var modelIdentifier: Int
    public var jsonObject: Int
    public var dictionaryValue: Int
    public var lhs: Int
    public var rhs: Int
    public var other: Int
    public var value: Int
}

/// The same for an identified class, whose generated members differ (equality, initializers).
@Model
public final class ReservedNamesRecord {
    @Identifier public var id: Int
    public var description: String?
    public var hash: String = ""
    public var fields: Int
    public var reader: Int = 0
    public var other: Int = 0
    public var mapping: Int = 0
}
