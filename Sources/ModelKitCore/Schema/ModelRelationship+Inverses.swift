// Inverses kept in memory, as SwiftData keeps them: setting `comment.post = post` appends the
// comment to `post.comments` and removes it from its old post's, and assigning or appending to
// `post.comments` sets each added comment's `post` (and nils the removed ones'). The generated
// setters of an observable class call `modelInverseChanged` after each write of a property whose
// type may be a relationship; an overload chosen at compile time does nothing for any other type.
// Each side is written through its own setter, so observers see both changes, and the setter of
// the other side finds its inverse already consistent and stops (after a removal it does not look:
// see `ModelInverse.remove(_:from:)`).

/// The property of a related model that refers back, found from either side's `@Relationship`.
// Usable from inline, with its methods inlinable: the generated setters' inverse keeping
// (`modelInverseChanged`) is specialized in the model's module, where both types are known, so the casts of the
// key path below find their types' metadata at once instead of looking it up on every write.
@usableFromInline
package struct ModelInverse {
    /// The related model's property.
    @usableFromInline package let property: ModelProperty
    /// Its index in the related model's schema.
    @usableFromInline package let index: Int
    /// Whether it holds an array of models (else a to-one).
    @usableFromInline package let isToMany: Bool

    @usableFromInline
    package init(property: ModelProperty, index: Int, isToMany: Bool) {
        self.property = property
        self.index = index
        self.isToMany = isToMany
    }

    /// Makes each of `others`' inverse refer to `root` too (`adding`): appended to a to-many, set
    /// in a to-one; or stop referring to it: removed from a to-many, nil in an optional to-one (a
    /// non-optional one keeps it: it cannot be nil). Through the related model's generated writer
    /// where it has one; through the key path (several thousand instructions per read or write, in
    /// the standard library's generic code) where it has not.
    @inlinable
    func edit<Root: AnyObject, Other: Model & AnyObject>(_ root: Root, adding: Bool, _ others: some Sequence<Other>) {
        var byKeyPath: [Other] = []
        for other in others where !other._modelKitEditRelationship(index, adding: adding, root) { byKeyPath.append(other) }
        guard !byKeyPath.isEmpty else { return }
        if adding { addByKeyPath(root, to: byKeyPath) } else { removeByKeyPath(root, from: byKeyPath) }
    }

    /// ``edit(_:adding:_:)``, adding.
    @inlinable
    func add<Root: AnyObject, Other: Model & AnyObject>(_ root: Root, to others: some Sequence<Other>) {
        edit(root, adding: true, others)
    }

    /// ``edit(_:adding:_:)``, removing, after a write of `root`'s side: the writes it makes keep
    /// no inverse of their own. What they would keep is `root`'s side, which holds its new value
    /// already, so each would only look for its model there and find it gone (a comment leaving a
    /// post whose comments were just emptied, once per comment). Adding keeps them: a model added
    /// to `root`'s side may leave another model's. Nothing to remove (a to-many appended to, its
    /// old elements all kept) sets no task-local.
    @inlinable
    func remove<Root: AnyObject, Other: Model & AnyObject>(_ root: Root, from others: some Sequence<Other>) {
        var remaining = others.makeIterator()
        guard let first = remaining.next() else { return }
        ModelInverses.withoutKeeping {
            edit(root, adding: false, CollectionOfOne(first))
            edit(root, adding: false, IteratorSequence(remaining))
        }
    }

    @inlinable
    func addByKeyPath<Root: AnyObject, Other: AnyObject>(_ root: Root, to others: [Other]) {
        if isToMany {
            guard let keyPath = property.keyPath as? ReferenceWritableKeyPath<Other, [Root]> else { return }
            for other in others where !other[keyPath: keyPath].contains(where: { $0 === root }) {
                other[keyPath: keyPath].append(root)
            }
        } else if let keyPath = property.keyPath as? ReferenceWritableKeyPath<Other, Root?> {
            for other in others where other[keyPath: keyPath] !== root { other[keyPath: keyPath] = root }
        } else if let keyPath = property.keyPath as? ReferenceWritableKeyPath<Other, Root> {
            for other in others where other[keyPath: keyPath] !== root { other[keyPath: keyPath] = root }
        }
    }

    @inlinable
    func removeByKeyPath<Root: AnyObject, Other: AnyObject>(_ root: Root, from others: [Other]) {
        if isToMany {
            guard let keyPath = property.keyPath as? ReferenceWritableKeyPath<Other, [Root]> else { return }
            for other in others {
                guard let index = other[keyPath: keyPath].firstIndex(where: { $0 === root }) else { continue }
                other[keyPath: keyPath].remove(at: index)
            }
        } else if let keyPath = property.keyPath as? ReferenceWritableKeyPath<Other, Root?> {
            for other in others where other[keyPath: keyPath] === root { other[keyPath: keyPath] = nil }
        }
    }
}

/// The inverse of each relationship property, found once per property.
// Usable from inline: see `ModelInverse`.
@usableFromInline
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

    /// Whether writes keep inverses now (see ``isSuspended``).
    // Usable from inline: the inlinable `modelInverseChanged` overloads ask it first.
    @usableFromInline
    package static var keepsInverses: Bool { !isSuspended }

    /// Runs `body` without keeping inverses.
    // Usable from inline: the inlinable `ModelInverse.remove(_:from:)` runs its writes through it.
    @usableFromInline
    package static func withoutKeeping<T>(_ body: () throws -> T) rethrows -> T {
        try $isSuspended.withValue(true, operation: body)
    }

    /// The inverse of the property at `keyPath` of a model whose schema is `schema`, if a
    /// `@Relationship` on either side names one.
    // Usable from inline: the inlinable `modelInverseChanged` overloads find the inverse through it.
    @usableFromInline
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
        if let name = property.relationship?.inverse, let index = relatedSchema.index(ofProperty: name) {
            let inverse = relatedSchema.properties[index]
            return ModelInverse(
                property: inverse, index: index, isToMany: inverse.valueKind.referencedIdentifiedClass?.isToMany ?? false)
        }
        // Declared on the other side: a property of the related model whose inverse is this one.
        for (index, candidate) in relatedSchema.properties.enumerated() where candidate.relationship?.inverse == property.name {
            guard let back = candidate.valueKind.referencedIdentifiedClass, back.type.modelSchema === schema else { continue }
            return ModelInverse(property: candidate, index: index, isToMany: back.isToMany)
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

// The overloads below are inlinable so that each generated setter's call is specialized for its
// model and related types (see `ModelInverse`); what they call that is not is a function call.

/// After a write of an optional to-one: the old model's inverse loses `root`, the new one's gains it.
@inlinable
public func modelInverseChanged<Root: Model & AnyObject, Other: Model & AnyObject>(
    _ root: Root, _ keyPath: KeyPath<Root, Other?>, from old: Other?, to new: Other?
) {
    guard old !== new, ModelInverses.keepsInverses,
        let inverse = ModelInverses.inverse(of: keyPath, in: type(of: root).modelSchema)
    else { return }
    if let old { inverse.remove(root, from: CollectionOfOne(old)) }
    if let new { inverse.add(root, to: CollectionOfOne(new)) }
}

/// After a write of a non-optional to-one.
@inlinable
public func modelInverseChanged<Root: Model & AnyObject, Other: Model & AnyObject>(
    _ root: Root, _ keyPath: KeyPath<Root, Other>, from old: Other, to new: Other
) {
    guard old !== new, ModelInverses.keepsInverses,
        let inverse = ModelInverses.inverse(of: keyPath, in: type(of: root).modelSchema)
    else { return }
    inverse.remove(root, from: CollectionOfOne(old))
    inverse.add(root, to: CollectionOfOne(new))
}

/// After a write of a to-many (an assignment or an in-place change such as `append`): the
/// models removed lose `root` from their inverse, the models added gain it. A model is in a
/// relationship once: one given twice (appended after its to-one already put it there) is kept
/// at its first place.
@inlinable
public func modelInverseChanged<Root: Model & AnyObject, Other: Model & AnyObject>(
    _ root: Root, _ keyPath: KeyPath<Root, [Other]>, from old: [Other], to new: [Other]
) {
    guard ModelInverses.keepsInverses, let inverse = ModelInverses.inverse(of: keyPath, in: type(of: root).modelSchema)
    else { return }
    // Emptied (a relationship cleared, a cycle broken): every model leaves, nothing to compare.
    guard !new.isEmpty else { return inverse.remove(root, from: old) }
    let before = Set(old.map(ObjectIdentifier.init))
    var seen = Set<ObjectIdentifier>()
    let unique = new.filter { seen.insert(ObjectIdentifier($0)).inserted }
    inverse.remove(root, from: old.lazy.filter { !seen.contains(ObjectIdentifier($0)) })
    inverse.add(root, to: unique.lazy.filter { !before.contains(ObjectIdentifier($0)) })
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
    guard ModelInverses.keepsInverses, let inverse = ModelInverses.inverse(of: keyPath, in: type(of: root).modelSchema)
    else { return }
    inverse.add(root, to: CollectionOfOne(value))
}

/// Once an initializer has set a to-many.
public func modelInverseInitialized<Root: Model & AnyObject, Other: Model & AnyObject>(
    _ root: Root, _ keyPath: KeyPath<Root, [Other]>, _ value: [Other]
) {
    modelInverseChanged(root, keyPath, from: [], to: value)
}

// MARK: What generated writers call

// The generated `_modelKitEditRelationship(_:adding:_:)` calls one of these per property whose
// type may be a relationship, chosen at compile time by the property's type; each reads the
// property and writes it through its setter (observers see the change, and the other side's
// inverse is kept as after any write) only when it changes. Inlinable: specialized and inlined
// in the model's module, each is a direct read and write of the property.

/// For a property that is not a relationship: nothing written, false.
@inlinable
public func modelEditRelationship<Value>(_ current: Value, adding: Bool, _ object: AnyObject, set: (Value) -> Void) -> Bool {
    false
}

/// For an optional to-one: `object` set (adding) or nil (removing, when it is `object`).
@inlinable
public func modelEditRelationship<Other: Model & AnyObject>(
    _ current: Other?, adding: Bool, _ object: AnyObject, set: (Other?) -> Void
) -> Bool {
    guard let object = object as? Other else { return false }
    if adding {
        if current !== object { set(object) }
    } else if current === object {
        set(nil)
    }
    return true
}

/// For a non-optional to-one: `object` set (adding); removing leaves it (it cannot be nil).
@inlinable
public func modelEditRelationship<Other: Model & AnyObject>(
    _ current: Other, adding: Bool, _ object: AnyObject, set: (Other) -> Void
) -> Bool {
    guard let object = object as? Other else { return false }
    if adding, current !== object { set(object) }
    return true
}

/// For a to-many: `object` appended (adding, when it is not there yet) or removed.
@inlinable
public func modelEditRelationship<Other: Model & AnyObject>(
    _ current: [Other], adding: Bool, _ object: AnyObject, set: ([Other]) -> Void
) -> Bool {
    guard let object = object as? Other else { return false }
    if adding {
        if !current.contains(where: { $0 === object }) { set(current + CollectionOfOne(object)) }
    } else if let index = current.firstIndex(where: { $0 === object }) {
        var edited = current
        edited.remove(at: index)
        set(edited)
    }
    return true
}

/// For a property that is not a to-many of models: nothing written, false.
// Inlinable: as `modelEditRelationship`, the generated `_modelKitSetRelationship(_:to:)` calls one of these per
// written array property, chosen at compile time by its type.
@inlinable
public func modelSetRelationship<Value>(_ objects: [AnyObject], as _: Value.Type, set: (Value) -> Void) -> Bool {
    false
}

/// For a to-many: set to `objects`, each an `Other` (else nothing written, false).
@inlinable
public func modelSetRelationship<Other: Model & AnyObject>(
    _ objects: [AnyObject], as _: [Other].Type, set: ([Other]) -> Void
) -> Bool {
    var elements: [Other] = []
    elements.reserveCapacity(objects.count)
    for object in objects {
        guard let element = object as? Other else { return false }
        elements.append(element)
    }
    set(elements)
    return true
}
