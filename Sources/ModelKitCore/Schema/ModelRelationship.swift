/// What deleting a model does to the models one of its relationships refers to, as SwiftData
/// spells it: `@Relationship(deleteRule: .cascade, inverse: \Comment.post) var comments: [Comment]`.
public enum DeleteRule: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// The related models stay; whatever in them refers back to the deleted model (the inverse)
    /// stops referring to it. The default.
    case nullify
    /// The related models are deleted too, with their own rules.
    case cascade
    /// The model cannot be deleted while the relationship refers to any model.
    case deny
    /// Nothing is done: references to the deleted model are left as they are.
    case noAction

    public var description: String { rawValue }
}

/// A property of an identified class model that refers to other identified class models, as
/// `@Relationship` declares it: what deleting the model does to them, and the property of the
/// related model that refers back (the inverse).
///
/// Stores read it to keep references whole when a model is deleted; ``ModelProperty/relationship``
/// holds it, and `@Model` generates it from the declaration, checking the types at compile time:
///
/// ```swift
/// @Model final class Post {
///     @Identifier var id: Int
///     @Relationship(deleteRule: .cascade, inverse: \Comment.post) var comments: [Comment] = []
/// }
/// Post.modelSchema["comments"]?.relationship   // cascade, inverse 'post'
/// ```
public struct ModelRelationship: Hashable, Sendable, CustomStringConvertible {
    /// What deleting the model does to the related models.
    public let deleteRule: DeleteRule
    /// The name of the related model's property that refers back, if one is declared.
    public let inverse: String?
    /// How formats that map payloads (JSON, dictionaries, `Codable`) write the related models.
    public private(set) var representation: RelationshipRepresentation = .nested

    /// A relationship with no inverse.
    public init(deleteRule: DeleteRule = .nullify, inverse: String? = nil) {
        self.deleteRule = deleteRule
        self.inverse = inverse
    }

    /// The relationship written as `representation`; `@Model` generates the call for
    /// `@Relationship(representation:)`.
    public func representing(_ representation: RelationshipRepresentation) -> ModelRelationship {
        var copy = self
        copy.representation = representation
        return copy
    }

    public var description: String {
        deleteRule.rawValue + (inverse.map { ", inverse '\($0)'" } ?? "")
            + (representation == .nested ? "" : ", written as \(representation)")
    }
}

/// How formats that map payloads (JSON, dictionaries, `Codable`) write a relationship's models:
/// `@Relationship(representation: .identifiers) var tags: [Tag]`.
///
/// Stores keep identifiers and archives keep the graph whatever it says. Reading accepts both
/// forms: a nested object maps into the related model, and an identifier, through a context,
/// is the model the context holds or loads for it.
public enum RelationshipRepresentation: String, Hashable, Sendable, CustomStringConvertible {
    /// The related models as nested objects (the default); a reference back through an inverse
    /// is left implied (`null`, or left out of an array).
    case nested
    /// The related models' identifiers: `"author": 1`, `"tags": ["swift", "linux"]`.
    case identifiers

    public var description: String { rawValue }
}

/// The type of a property that can hold a relationship: an optional (to-one) or an array
/// (to-many) of identified class models; a non-optional model is a to-one too.
public protocol RelationshipValue {
    /// The related model type.
    associatedtype Related: Model & AnyObject
}

extension Optional: RelationshipValue where Wrapped: Model & AnyObject {
    public typealias Related = Wrapped
}

extension Array: RelationshipValue where Element: Model & AnyObject {
    public typealias Related = Element
}
