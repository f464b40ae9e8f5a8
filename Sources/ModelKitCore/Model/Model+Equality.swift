// Equality, hashing and description derived from the schema's property list (Mantle's
// semantics): transient properties never count, weak references compare by identity.
// `@Model` generates `==` and `hash(into:)` that call these helpers property by property, so
// overload resolution picks `==` wherever the property's type has one.

/// Whether two property values are equal: `==` for `Equatable` types.
// Inlinable: the generated `==` calls it for each property, in the user's module; inlined there it is the property
// type's own `==`.
@inlinable
public func modelValuesEqual<T: Equatable>(_ lhs: T, _ rhs: T) -> Bool {
    lhs == rhs
}

/// Whether two property values are equal, for types without `==`: class instances by identity,
/// other values by their reflected description.
// Inlinable: the generated `==` calls it for each property whose type has no `==`; specialised for that type, the class
// check folds to a constant.
@inlinable
public func modelValuesEqual<T>(_ lhs: T, _ rhs: T) -> Bool {
    if T.self is AnyClass { return (lhs as AnyObject) === (rhs as AnyObject) }
    return String(reflecting: lhs) == String(reflecting: rhs)
}

/// Whether two references to class models are equal: the same instance, or, for identified
/// models, the same type and identifier (a reference, as stores keep it: so comparing a post and
/// its comments that point back to it ends); models without an identifier by their values.
// Inlinable: the generated `==` calls it for each property holding a class model, in the user's module; more
// specialised than the `Equatable` overload, so overload resolution picks it there.
@inlinable
public func modelValuesEqual<T: Model & AnyObject & Equatable>(_ lhs: T, _ rhs: T) -> Bool {
    if lhs === rhs { return true }
    guard T.modelSchema.identifierIndex != nil else { return lhs == rhs }
    return type(of: lhs) == type(of: rhs) && lhs.modelIdentifier == rhs.modelIdentifier
}

/// The same comparison for optional references: two nils are equal.
// Inlinable: as the non-optional overload, for properties of type `T?`.
@inlinable
public func modelValuesEqual<T: Model & AnyObject & Equatable>(_ lhs: T?, _ rhs: T?) -> Bool {
    switch (lhs, rhs) {
    case (nil, nil): return true
    case (let lhs?, let rhs?): return modelValuesEqual(lhs, rhs)
    default: return false
    }
}

/// Feeds a reference to a class model to a hasher as `modelValuesEqual(_:_:)` compares it: an
/// identified model by its identifier, another by its values.
// Inlinable: the generated `hash(into:)` calls it for each property holding a class model, as `==` does.
@inlinable
public func modelHashValue<T: Model & AnyObject & Hashable>(_ value: T, into hasher: inout Hasher) {
    guard T.modelSchema.identifierIndex != nil else { return hasher.combine(value) }
    hasher.combine(value.modelIdentifier)
}

/// The same hashing for optional references.
// Inlinable: as the non-optional overload, for properties of type `T?`.
@inlinable
public func modelHashValue<T: Model & AnyObject & Hashable>(_ value: T?, into hasher: inout Hasher) {
    guard let value else { return hasher.combine(0 as UInt8) }
    hasher.combine(1 as UInt8)
    modelHashValue(value, into: &hasher)
}

/// Whether two weak references point to the same instance.
// Inlinable: the generated `==` calls it for each weak reference; inlined, it is one identity comparison.
@inlinable
public func modelReferencesIdentical<T: AnyObject>(_ lhs: T?, _ rhs: T?) -> Bool {
    lhs === rhs
}

/// Feeds a property value to a hasher: `Hashable` types only.
// Inlinable: the generated `hash(into:)` calls it for each property; inlined there it is the type's own `combine`.
@inlinable
public func modelHashValue<T: Hashable>(_ value: T, into hasher: inout Hasher) {
    hasher.combine(value)
}

/// Feeds a property value that is not `Hashable` to a hasher: nothing (equal values still hash
/// equal).
// Inlinable: the generated `hash(into:)` calls it for each property that is not Hashable; inlined, the empty body
// leaves no call behind.
@inlinable
public func modelHashValue<T>(_ value: T, into hasher: inout Hasher) {}

extension Model {
    /// `TypeName(property: value, ...)` over the non-transient properties; weak references, and
    /// references to identified classes, print as their type and identifier only, so cycles
    /// (a post and its comments that point back to it) print finitely.
    public var modelDescription: String {
        let schema = dynamicModelSchema
        let parts = schema.properties.filter { !$0.isTransient }.map { property -> String in
            let value = propertyValue(property)
            if let model = value as? any Model,
                property.isWeak || (type(of: model) is AnyClass && model.dynamicModelSchema.identifier != nil)
            {
                return "\(property.name): \(model.shortModelDescription)"
            }
            return "\(property.name): \(value.map { String(reflecting: $0) } ?? "nil")"
        }
        return "\(schema.modelName)(\(parts.joined(separator: ", ")))"
    }

    /// `TypeName(id: value)`, or `TypeName(…)` without an identifier.
    public var shortModelDescription: String {
        let schema = dynamicModelSchema
        guard let identifier = schema.identifier else { return "\(schema.modelName)(…)" }
        let value = propertyValue(identifier).map { String(reflecting: $0) } ?? "nil"
        return "\(schema.modelName)(\(identifier.name): \(value))"
    }
}
