import Foundation
import ModelKitCore

/// Saves models: a row per model in its type's table.
///
/// ```swift
/// try store.save(user)                 // one
/// try store.save(statuses)             // many, in one transaction
/// ```
public protocol ModelSaving: Sendable {
    /// Saves `models`, and the identified class models they refer to, in one transaction: all of
    /// them or, when something throws, none. A model already stored is replaced.
    func save<S: Sequence>(_ models: S) throws where S.Element: Model
}

/// Fetches models: by identifier, by query, and counts.
///
/// Fetching through a context returns the live instance for an identifier the context holds,
/// and registers the others; references to identified models resolve through it, so two
/// statuses by one user share one user.
///
/// ```swift
/// let user = try store.fetchOne(TwitterUser.self, id: "42", context: context)
/// let recent = try store.fetchAll(ModelQuery(Status.self).order(by: \Status.createdAt, .descending))
/// ```
public protocol ModelFetching: ModelLoading {
    /// The model stored for `id`, or nil.
    func fetchOne<M: Model, ID: Hashable & Sendable>(_ type: M.Type, id: ID, context: ModelContext?) throws -> M?
    /// The models a query selects, in its order.
    func fetchAll<M: Model>(_ query: ModelQuery<M>, context: ModelContext?) throws -> [M]
    /// How many stored models a query selects.
    func fetchCount<M: Model>(_ query: ModelQuery<M>) throws -> Int
}

/// Deletes models.
///
/// ```swift
/// try store.deleteOne(TwitterUser.self, id: "42")
/// try store.deleteAll(ModelQuery(Status.self).filter(\Status.lang == "ja"))
/// ```
public protocol ModelDeleting: Sendable {
    /// Deletes the model stored for `id`; returns whether there was one.
    @discardableResult
    func deleteOne<M: Model, ID: Hashable & Sendable>(_ type: M.Type, id: ID) throws -> Bool
    /// Deletes the models a query selects, in one transaction; returns how many.
    @discardableResult
    func deleteAll<M: Model>(_ query: ModelQuery<M>) throws -> Int
}

/// Tells about committed changes: those made through the store (its saves and deletes, and raw
/// SQL on the SQLite store's own connection); another process writing the same file is not seen.
///
/// ```swift
/// for await change in store.changes(to: Status.self) {
///     print(change)   // saved 3 rows of 'Status'
/// }
/// ```
public protocol ModelObserving: Sendable {
    /// An asynchronous sequence yielding once per committed transaction that changed the
    /// table of `type`, from the call on.
    func changes<M: Model>(to type: M.Type) -> StoreChanges
}

/// A store of models: save, fetch, delete, observe, and load what a ``ModelContext`` does not
/// hold (`ModelContext(store:)`).
///
/// Two stores conform: ``SQLiteStore`` (the default: a table per model type in an SQLite file
/// or in-memory database) and ``MemoryStore``.
///
/// ```swift
/// let store = try SQLiteStore(path: "/tmp/statuses.sqlite")
/// let context = ModelContext(store: store)
/// let timeline = try Timeline(jsonData: data, context: context)
/// try store.save(timeline.statuses)
/// ```
public protocol ModelStore: ModelSaving, ModelFetching, ModelDeleting, ModelObserving {}
