/// Where relationships a store left for later are loaded from: the store, which reads them
/// without suspending (SQLite, memory).
package protocol ModelRelationshipLoading: Sendable {
    /// Loads the relationships named `names` of `owner` (a model `context` holds) and sets them,
    /// in one read, as the fetch would have.
    func loadRelationships(_ names: Set<String>, of owner: any ObservableModel, into context: ModelContext) throws
}

/// The relationships of one live instance that its store left to load on first access
/// (SwiftData's faults): a to-many kept in the related rows or a join table, read by a fetch
/// that did not prefetch it.
///
/// `@Model` gives each observable class a slot for it (`_modelKitFaults`), nil once everything
/// is loaded; the generated accessors of a relationship ask it first, so the first read, write
/// or in-place change of `post.comments` loads the comments, with one query, from the store
/// that read the post, through the context that holds it. Writing the model (JSON, an archive)
/// loads what it still lacks first, and so does saving a model with a many-to-many.
public final class ModelFaults {
    /// The store that read the instance.
    let loader: any ModelRelationshipLoading
    /// The context that holds the instance (kept alive by it, as the store is).
    let context: ModelContext
    /// The names of the relationships still to load.
    package private(set) var pending: Set<String>

    package init(loader: any ModelRelationshipLoading, context: ModelContext, pending: Set<String>) {
        self.loader = loader
        self.context = context
        self.pending = pending
    }

    /// Loads the relationship at `keyPath` of `owner` when it is still to load (every pending
    /// one when `keyPath` is nil). A load that fails leaves it pending and throws.
    package func load<Owner: ObservableModel>(_ owner: Owner, _ keyPath: AnyKeyPath?) throws {
        let names: Set<String>
        if let keyPath {
            let schema = owner.dynamicModelSchema
            guard let index = schema.index(of: keyPath), pending.contains(schema.properties[index].name) else { return }
            names = [schema.properties[index].name]
        } else {
            names = pending
        }
        guard !names.isEmpty else { return }
        // Off the list first: the load sets the relationship through its setter, which asks again.
        pending.subtract(names)
        if pending.isEmpty { owner._modelKitFaults = nil }
        do {
            try loader.loadRelationships(names, of: owner, into: context)
        } catch {
            pending.formUnion(names)
            owner._modelKitFaults = self
            throw error
        }
    }

    /// ``load(_:_:)`` from a generated accessor, which cannot throw: a failure leaves the
    /// relationship as it is (empty) and still to load, and the context keeps the error
    /// (``ModelContext/relationshipLoadError``).
    @usableFromInline
    func loadFromAccessor<Owner: ObservableModel>(_ owner: Owner, _ keyPath: AnyKeyPath) {
        do {
            try load(owner, keyPath)
        } catch {
            context.relationshipLoadError = error
        }
    }
}

extension ObservableModel {
    /// Loads the property at `keyPath` if its store left it for later (generated accessors of a
    /// property whose type may be a relationship call it): nothing for other types.
    // Inlinable: every generated accessor of such a property calls it, per access; inlined, this overload is nothing.
    @inlinable
    public func _modelKitFault<Member>(_ keyPath: KeyPath<Self, Member>) {}

    /// Loads a to-many relationship its store left for later, on its first access.
    // Inlinable: as the overload above; inlined, one load of the instance's slot and a nil test.
    @inlinable
    public func _modelKitFault<Other: Model & AnyObject>(_ keyPath: KeyPath<Self, [Other]>) {
        guard let faults = _modelKitFaults else { return }
        faults.loadFromAccessor(self, keyPath)
    }

    /// Loads every relationship its store left for later (the generated
    /// ``Model/loadPendingRelationships()`` of an observable class).
    public func _modelKitLoadPending() throws {
        guard let faults = _modelKitFaults else { return }
        try faults.load(self, nil)
    }
}
