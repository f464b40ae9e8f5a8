import Foundation
import ModelKitCore

/// A store of models: transactions that save, fetch and delete them, and the committed changes
/// to observe. Every operation is `async` and usable from any task.
///
/// Three stores conform: ``SQLiteStore`` (the default: a table per model type in an SQLite file),
/// ``MemoryStore``, and `PostgresStore` (the `ModelKitPostgres` product, behind the package's
/// `PostgreSQL` trait). The same `@Model` declarations, queries and migrations work on each.
///
/// A single save, fetch or delete is a transaction of its own; ``write(_:)`` makes several one
/// unit, all of it or nothing, and ``read(_:)`` reads one consistent snapshot:
///
/// ```swift
/// let store = try SQLiteStore(path: "/tmp/statuses.sqlite")
/// try await store.save(timeline.statuses)                  // their users too
/// try await store.write { tx in
///     try await tx.save(newStatus)
///     try await tx.delete(oldStatus)
/// }
/// let recent = try await store.fetchAll(ModelQuery(Status.self).order(by: \Status.createdAt, .descending))
/// ```
public protocol ModelStore: ModelContextStore {
    /// Runs `body` in one write transaction: the saves and deletes it makes are committed
    /// together when it returns, and none of them when it throws or the task is cancelled.
    /// Reads inside see them. Write transactions of one store run one at a time.
    ///
    /// ```swift
    /// try await store.write { tx in
    ///     try await tx.save(user)
    ///     try await tx.deleteAll(ModelQuery(Status.self).filter(\Status.user == user))
    /// }
    /// ```
    func write<T>(_ body: (StoreTransaction) async throws -> T) async throws -> T

    /// Runs `body` in one read transaction: every fetch in it sees the same committed state,
    /// whatever other tasks or processes commit meanwhile. Saving or deleting in it throws.
    ///
    /// ```swift
    /// let (users, statuses) = try await store.read { tx in
    ///     (try await tx.fetchCount(User.self), try await tx.fetchCount(Status.self))
    /// }
    /// ```
    func read<T>(_ body: (StoreTransaction) async throws -> T) async throws -> T

    /// The model stored for `id`, or nil; through `context` when given (the live instance for
    /// `id`, brought up to date). One consistent read; a store implements it where it can read
    /// faster than a read transaction (the default).
    ///
    /// ```swift
    /// let user = try await store.fetchOne(User.self, id: "42", context: context)
    /// ```
    func fetchOne<M: Model, ID: Hashable & Sendable>(_ type: M.Type, id: ID, context: ModelContext?) async throws -> M?

    /// The models a query selects, in its order, read through `context` when given (one context
    /// for the whole fetch). One consistent read; a store implements it where it can read
    /// faster than a read transaction (the default).
    ///
    /// ```swift
    /// let japanese = try await store.fetchAll(ModelQuery(Status.self).filter(\Status.lang == "ja"), context: context)
    /// ```
    func fetchAll<M: Model>(_ query: ModelQuery<M>, context: ModelContext?) async throws -> [M]

    /// An asynchronous sequence yielding once per committed transaction that changed the
    /// table of `type`, from the call on.
    ///
    /// ```swift
    /// for await change in store.changes(to: Status.self) {
    ///     print(change)   // saved 3 rows of 'Status'
    /// }
    /// ```
    func changes<M: Model>(to type: M.Type) -> StoreChanges

    /// Runs the steps of `migrations` the store has not recorded yet, in their order, all in one
    /// write transaction, and records each in the store; returns their names. A step that
    /// throws leaves the store as it was, and the error names it. A store whose records name a
    /// step `migrations` does not have was migrated by a newer program: it throws
    /// ``StoreError/Kind-swift.struct/newerStore`` and changes nothing.
    ///
    /// ```swift
    /// var migrations = StoreMigrations()
    /// migrations.append("index accounts by email") { step in
    ///     try await step.addIndex(on: ["email"], unique: true, in: Account.self)
    /// }
    /// try await store.migrate(migrations)   // ["index accounts by email"]; [] when run again
    /// ```
    @discardableResult
    func migrate(_ migrations: StoreMigrations) async throws -> [String]

    /// The migration steps the store records, in the order they ran.
    ///
    /// ```swift
    /// for record in try await store.migrationRecords() { print(record) }   // 1  index accounts by email  2026-…
    /// ```
    func migrationRecords() async throws -> [StoreMigrationRecord]
}
