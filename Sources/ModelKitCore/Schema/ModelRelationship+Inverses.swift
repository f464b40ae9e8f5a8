// Inverses kept in memory, as SwiftData keeps them: setting `comment.post = post` appends the
// comment to `post.comments` and removes it from its old post's, and assigning or appending to
// `post.comments` sets each added comment's `post` (and nils the removed ones'). The generated
// setters of an observable class call `modelInverseChanged` after each write of a property whose
// type may be a relationship; an overload chosen at compile time does nothing for any other type.
// Each side is written through its own setter, so observers see both changes, and the setter of
// the other side finds its inverse already consistent and stops.

/// The property of a related model that refers back, found from either side's `@Relationship`.
package struct ModelInverse {
    /// The related model's property.
    package let property: ModelProperty
    /// Whether it holds an array of models (else a to-one).
    package let isToMany: Bool

    /// Makes `other`'s inverse refer to `root` too: appended to a to-many, set in a to-one.
    func add<Root: AnyObject, Other: AnyObject>(_ root: Root, to other: Other) {
        if isToMany {
            guard let keyPath = property.keyPath as? ReferenceWritableKeyPath<Other, [Root]> else { return }
            if !other[keyPath: keyPath].contains(where: { $0 === root }) { other[keyPath: keyPath].append(root) }
        } else if let keyPath = property.keyPath as? ReferenceWritableKeyPath<Other, Root?> {
            if other[keyPath: keyPath] !== root { other[keyPath: keyPath] = root }
        } else if let keyPath = property.keyPath as? ReferenceWritableKeyPath<Other, Root> {
            if other[keyPath: keyPath] !== root { other[keyPath: keyPath] = root }
        }
    }

    /// Makes `other`'s inverse stop referring to `root`: removed from a to-many, nil in an
    /// optional to-one (a non-optional one keeps it: it cannot be nil).
    func remove<Root: AnyObject, Other: AnyObject>(_ root: Root, from other: Other) {
        if isToMany {
            guard let keyPath = property.keyPath as? ReferenceWritableKeyPath<Other, [Root]>,
                let index = other[keyPath: keyPath].firstIndex(where: { $0 === root })
            else { return }
            other[keyPath: keyPath].remove(at: index)
        } else if let keyPath = property.keyPath as? ReferenceWritableKeyPath<Other, Root?>, other[keyPath: keyPath] === root {
            other[keyPath: keyPath] = nil
        }
    }
}

/// The inverse of each relationship property, found once per property.
package enum ModelInverses {
    private static let cache = Locked<[AnyKeyPath: ModelInverse?]>([:])
    /// The same answers by key path object: a generated setter passes its literal, one object
    /// per call site, so this finds it without hashing the key path's components (which the
    /// cache by value does, on every write of a relationship). The object is kept, so its
    /// address names no other key path meanwhile.
    private static let cacheByObject = Locked<[ObjectIdentifier: (keyPath: AnyKeyPath, inverse: ModelInverse?)]>([:])

    /// Whether writes keep inverses now: not while a store reads its rows into live instances,
    /// whose rows hold both sides already (keeping them then would mix a cycle's half-loaded
    /// instances into the other side).
    @TaskLocal static var isSuspended = false

    /// Runs `body` without keeping inverses.
    package static func withoutKeeping<T>(_ body: () throws -> T) rethrows -> T {
        try $isSuspended.withValue(true, operation: body)
    }

    /// The inverse of the property at `keyPath` of a model whose schema is `schema`, if a
    /// `@Relationship` on either side names one.
    package static func inverse(of keyPath: AnyKeyPath, in schema: ModelSchema) -> ModelInverse? {
        let object = ObjectIdentifier(keyPath)
        if let known = cacheByObject.withLock({ $0[object] }), known.keyPath === keyPath { return known.inverse }
        let found: ModelInverse?
        if let cached = cache.withLock({ $0[keyPath] }) {
            found = cached
        } else {
            found = resolve(keyPath, in: schema)
            cache.withLock { $0[keyPath] = .some(found) }
        }
        cacheByObject.withLock { known in
            // Key paths made at run time, one object each time, would only grow it.
            if known.count >= 4096 { known.removeAll() }
            known[object] = (keyPath, found)
        }
        return found
    }

    private static func resolve(_ keyPath: AnyKeyPath, in schema: ModelSchema) -> ModelInverse? {
        guard let index = schema.index(of: keyPath) else { return nil }
        let property = schema.properties[index]
        guard let related = property.valueKind.referencedIdentifiedClass else { return nil }
        let relatedSchema = related.type.modelSchema
        if let name = property.relationship?.inverse, let inverse = relatedSchema[name] {
            return ModelInverse(property: inverse, isToMany: inverse.valueKind.referencedIdentifiedClass?.isToMany ?? false)
        }
        // Declared on the other side: a property of the related model whose inverse is this one.
        for candidate in relatedSchema.properties where candidate.relationship?.inverse == property.name {
            guard let back = candidate.valueKind.referencedIdentifiedClass, back.type.modelSchema === schema else { continue }
            return ModelInverse(property: candidate, isToMany: back.isToMany)
        }
        return nil
    }

}

extension ModelValueKind {
    /// The identified class model type a value of this kind refers to (`Author`, `Author?`), or
    /// holds an array of (`[Comment]`): the relationships stores and inverses follow.
    package var referencedIdentifiedClass: (type: any Model.Type, isToMany: Bool)? {
        func identifiedClass(_ kind: ModelValueKind) -> (any Model.Type)? {
            guard case .model(let model) = kind.unwrapped, model.type is AnyObject.Type,
                model.schema.identifierIndex != nil
            else { return nil }
            return model.type
        }
        if let type = identifiedClass(self) { return (type, false) }
        if case .array(let element) = unwrapped, let type = identifiedClass(element) { return (type, true) }
        return nil
    }
}

// MARK: What generated code calls

/// Whether any relationship of `type`'s own properties has an inverse (asked once per type).
public func modelHasInverses<Root: Model & AnyObject>(_ type: Root.Type) -> Bool {
    let schema = type.modelSchema
    return schema.properties.contains { ModelInverses.inverse(of: $0.keyPath, in: schema) != nil }
}

/// After a write of a property that is not a relationship: nothing to keep.
// Inlinable: a generated setter calls this overload for every property whose type may be a relationship but is
// not; inlined, nothing is left.
@inlinable
public func modelInverseChanged<Root, Value>(_ root: Root, _ keyPath: KeyPath<Root, Value>, from old: Value, to new: Value) {}

/// After a write of an optional to-one: the old model's inverse loses `root`, the new one's gains it.
public func modelInverseChanged<Root: Model & AnyObject, Other: Model & AnyObject>(
    _ root: Root, _ keyPath: KeyPath<Root, Other?>, from old: Other?, to new: Other?
) {
    guard old !== new, !ModelInverses.isSuspended,
        let inverse = ModelInverses.inverse(of: keyPath, in: type(of: root).modelSchema)
    else { return }
    if let old { inverse.remove(root, from: old) }
    if let new { inverse.add(root, to: new) }
}

/// After a write of a non-optional to-one.
public func modelInverseChanged<Root: Model & AnyObject, Other: Model & AnyObject>(
    _ root: Root, _ keyPath: KeyPath<Root, Other>, from old: Other, to new: Other
) {
    guard old !== new, !ModelInverses.isSuspended,
        let inverse = ModelInverses.inverse(of: keyPath, in: type(of: root).modelSchema)
    else { return }
    inverse.remove(root, from: old)
    inverse.add(root, to: new)
}

/// After a write of a to-many (an assignment or an in-place change such as `append`): the
/// models removed lose `root` from their inverse, the models added gain it. A model is in a
/// relationship once: one given twice (appended after its to-one already put it there) is kept
/// at its first place.
public func modelInverseChanged<Root: Model & AnyObject, Other: Model & AnyObject>(
    _ root: Root, _ keyPath: KeyPath<Root, [Other]>, from old: [Other], to new: [Other]
) {
    guard !ModelInverses.isSuspended, let inverse = ModelInverses.inverse(of: keyPath, in: type(of: root).modelSchema)
    else { return }
    let before = Set(old.map(ObjectIdentifier.init))
    var seen = Set<ObjectIdentifier>()
    let unique = new.filter { seen.insert(ObjectIdentifier($0)).inserted }
    for removed in old where !seen.contains(ObjectIdentifier(removed)) { inverse.remove(root, from: removed) }
    for added in unique where !before.contains(ObjectIdentifier(added)) { inverse.add(root, to: added) }
    // The write of the array without its repeats finds nothing more to keep.
    if unique.count < new.count, let writable = keyPath as? ReferenceWritableKeyPath<Root, [Other]> {
        root[keyPath: writable] = unique
    }
}

/// Once an initializer has set the property at `keyPath`: the models it refers to gain `root`
/// in their inverse, as a write after initialization would do.
// Inlinable: as the overload of `modelInverseChanged` above that does nothing.
@inlinable
public func modelInverseInitialized<Root, Value>(_ root: Root, _ keyPath: KeyPath<Root, Value>, _ value: Value) {}

/// Once an initializer has set an optional to-one.
public func modelInverseInitialized<Root: Model & AnyObject, Other: Model & AnyObject>(
    _ root: Root, _ keyPath: KeyPath<Root, Other?>, _ value: Other?
) {
    modelInverseChanged(root, keyPath, from: nil, to: value)
}

/// Once an initializer has set a non-optional to-one.
public func modelInverseInitialized<Root: Model & AnyObject, Other: Model & AnyObject>(
    _ root: Root, _ keyPath: KeyPath<Root, Other>, _ value: Other
) {
    guard !ModelInverses.isSuspended, let inverse = ModelInverses.inverse(of: keyPath, in: type(of: root).modelSchema)
    else { return }
    inverse.add(root, to: value)
}

/// Once an initializer has set a to-many.
public func modelInverseInitialized<Root: Model & AnyObject, Other: Model & AnyObject>(
    _ root: Root, _ keyPath: KeyPath<Root, [Other]>, _ value: [Other]
) {
    modelInverseChanged(root, keyPath, from: [], to: value)
}
