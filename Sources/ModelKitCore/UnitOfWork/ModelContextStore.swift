/// Somewhere durable a ``ModelContext`` keeps its models: a store (`ModelKitStore`'s
/// `ModelStore` refines it).
///
/// ```swift
/// let context = ModelContext(store: try SQLiteStore(path: path))
/// ```
public protocol ModelContextStore: Sendable {}

/// A store a context can load models from as it maps (SQLite and memory stores; PostgreSQL
/// loads only asynchronously, through fetches).
public protocol ModelLoading: ModelContextStore {
    /// The model of `type` stored for `identifier`, created through `context` (so references to
    /// other identified models resolve to their live instances) and registered in it.
    func loadModel<M: Model>(_ type: M.Type, id identifier: AnyHashable, into context: ModelContext) throws -> M?
}

/// What a context does when an instance it edited has changed in the store since it was loaded
/// (another context or process saved the row): decided when the context saves or refreshes it.
///
/// ```swift
/// let context = ModelContext(store: store, mergePolicy: .storeWins)
/// ```
public enum ModelMergePolicy: Hashable, Sendable {
    /// The stored values replace the edits.
    case storeWins
    /// The edits are saved over the stored values.
    case memoryWins
    /// Saving throws an error naming the model, its identifier and the properties that changed
    /// on each side; nothing is saved.
    case error
}

/// A store that tracks a context's changes for it (the unit of work): made once per context.
package protocol ChangeTrackingStore: ModelContextStore {
    func makeChangeTracker(mergePolicy: ModelMergePolicy) -> any ContextChangeTracking
}

/// The unit of work of one context, as the mapping engine reports to it; it stays in the
/// context's isolation domain.
package protocol ContextChangeTracking: AnyObject {
    /// A mapping run through `context` created and registered `model`, an identified class
    /// instance the store did not give it: a new model, to insert.
    func contextDidCreate(_ model: any Model, in context: ModelContext)
}
