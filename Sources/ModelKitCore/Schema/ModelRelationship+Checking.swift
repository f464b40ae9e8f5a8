// What `@Model` generates for each `@Relationship`: a call that the type checker accepts only for
// a declaration that can work, so a mistake is an error on the user's line (the call is placed
// there) that says what would work, not a generic "no exact matches". The property is a to-one
// (`Other?` or `Other`) or a to-many (`[Other]`) of identified class models; its inverse, when
// declared, is a property of `Other` that refers back to the declaring model. A relationship that
// nullifies (the default rule) cannot have a non-optional to-one as its inverse: deleting the model
// would have to set it to nil.

/// A relationship without an inverse, to-one or to-many.
public func modelRelationship<Root, Value: RelationshipValue>(
    _ property: KeyPath<Root, Value>, deleteRule: DeleteRule
) -> ModelRelationship {
    ModelRelationship(deleteRule: deleteRule)
}

/// A relationship without an inverse, through a non-optional to-one.
public func modelRelationship<Root, Other: Model & AnyObject>(
    _ property: KeyPath<Root, Other>, deleteRule: DeleteRule
) -> ModelRelationship {
    ModelRelationship(deleteRule: deleteRule)
}

/// A relationship whose inverse is an optional to-one or a to-many.
public func modelRelationship<Root, Value: RelationshipValue, Inverse: RelationshipValue>(
    _ property: KeyPath<Root, Value>, deleteRule: DeleteRule, inverse: KeyPath<Value.Related, Inverse>,
    named name: String
) -> ModelRelationship where Inverse.Related == Root {
    ModelRelationship(deleteRule: deleteRule, inverse: name)
}

/// A relationship through a non-optional to-one whose inverse is an optional to-one or a to-many.
public func modelRelationship<Root, Other: Model & AnyObject, Inverse: RelationshipValue>(
    _ property: KeyPath<Root, Other>, deleteRule: DeleteRule, inverse: KeyPath<Other, Inverse>, named name: String
) -> ModelRelationship where Inverse.Related == Root {
    ModelRelationship(deleteRule: deleteRule, inverse: name)
}

/// A relationship that does not nullify (cascade, deny, no action) whose inverse is a
/// non-optional to-one.
public func modelRelationship<Root, Value: RelationshipValue>(
    _ property: KeyPath<Root, Value>, deleteRule: DeleteRule, inverse: KeyPath<Value.Related, Root>,
    named name: String
) -> ModelRelationship {
    ModelRelationship(deleteRule: deleteRule, inverse: name)
}

/// A relationship through a non-optional to-one that does not nullify, whose inverse is a
/// non-optional to-one.
public func modelRelationship<Root, Other: Model & AnyObject>(
    _ property: KeyPath<Root, Other>, deleteRule: DeleteRule, inverse: KeyPath<Other, Root>, named name: String
) -> ModelRelationship {
    ModelRelationship(deleteRule: deleteRule, inverse: name)
}

/// A relationship that nullifies whose inverse is an optional to-one or a to-many.
public func modelRelationship<Root, Value: RelationshipValue, Inverse: RelationshipValue>(
    nullifying property: KeyPath<Root, Value>, inverse: KeyPath<Value.Related, Inverse>, named name: String
) -> ModelRelationship where Inverse.Related == Root {
    ModelRelationship(deleteRule: .nullify, inverse: name)
}

/// A relationship through a non-optional to-one that nullifies, whose inverse is an optional
/// to-one or a to-many.
public func modelRelationship<Root, Other: Model & AnyObject, Inverse: RelationshipValue>(
    nullifying property: KeyPath<Root, Other>, inverse: KeyPath<Other, Inverse>, named name: String
) -> ModelRelationship where Inverse.Related == Root {
    ModelRelationship(deleteRule: .nullify, inverse: name)
}

@available(
    *, unavailable,
    message: "a relationship that nullifies cannot have a non-optional inverse: deleting the model would set it to nil; make the inverse optional, or choose 'deleteRule: .cascade' or '.deny'"
)
public func modelRelationship<Root, Value: RelationshipValue>(
    nullifying property: KeyPath<Root, Value>, inverse: KeyPath<Value.Related, Root>, named name: String
) -> ModelRelationship {
    ModelRelationship()
}

@available(
    *, unavailable,
    message: "a relationship that nullifies cannot have a non-optional inverse: deleting the model would set it to nil; make the inverse optional, or choose 'deleteRule: .cascade' or '.deny'"
)
public func modelRelationship<Root, Other: Model & AnyObject>(
    nullifying property: KeyPath<Root, Other>, inverse: KeyPath<Other, Root>, named name: String
) -> ModelRelationship {
    ModelRelationship()
}

@available(
    *, unavailable,
    message: "'@Relationship' applies to a property of an identified class model whose type is another such model, an optional one or an array of them ('Author?', '[Comment]'), and its inverse is a property of that model referring back"
)
@_disfavoredOverload
public func modelRelationship<Root, Value, InverseRoot, Inverse>(
    _ property: KeyPath<Root, Value>, deleteRule: DeleteRule, inverse: KeyPath<InverseRoot, Inverse>, named name: String
) -> ModelRelationship {
    ModelRelationship()
}

@available(
    *, unavailable,
    message: "'@Relationship' applies to a property of an identified class model whose type is another such model, an optional one or an array of them ('Author?', '[Comment]'), and its inverse is a property of that model referring back"
)
@_disfavoredOverload
public func modelRelationship<Root, Value, InverseRoot, Inverse>(
    nullifying property: KeyPath<Root, Value>, inverse: KeyPath<InverseRoot, Inverse>, named name: String
) -> ModelRelationship {
    ModelRelationship()
}

@available(
    *, unavailable,
    message: "'@Relationship' applies to a property of an identified class model whose type is another such model, an optional one or an array of them ('Author?', '[Comment]')"
)
@_disfavoredOverload
public func modelRelationship<Root, Value>(_ property: KeyPath<Root, Value>, deleteRule: DeleteRule) -> ModelRelationship {
    ModelRelationship()
}
