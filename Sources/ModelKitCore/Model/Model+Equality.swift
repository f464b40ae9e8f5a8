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
