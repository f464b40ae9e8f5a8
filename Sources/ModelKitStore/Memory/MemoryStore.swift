import Foundation
import ModelKitCore

/// A store that keeps rows in memory: the same rows, queries, references, versions, transactions
/// and change notifications as ``SQLiteStore``, without a database. For tests and caches.
///
/// Rows are encoded and decoded exactly as the SQLite store does it, so a model saved here reads
/// back as it would from a file; queries follow SQLite's comparison rules.
///
/// Transactions: a write works on its own copy of the tables (copy on write), which replaces the
/// store's when it commits; writes take turns. A read works on the tables as they were when it
/// began, so it never waits.
///
/// ```swift
/// let store = MemoryStore()
/// try await store.save(users)
/// try await store.fetchCount(TwitterUser.self)   // users.count
/// ```
public final class MemoryStore: ModelStore, SynchronousStoreEngine, ModelRelationshipLoading, Sendable {
    /// One table: rows by identifier, with the order they were first saved in.
    struct Table {
        var rows: [StoreValue: Row] = [:]
        var nextSequence = 0
        /// The columns the table has, in the order they were added: as an SQL table's, columns
        /// are only added by saves, and changed by migrations.
        var columns: [String] = []
    }

    /// One row: every column by name (older columns included), the version, the insertion order.
    struct Row {
        var columns: [String: StoreValue]
        var version: Int
        var sequence: Int
    }

    /// The committed tables.
    let tables = Locked<[String: Table]>([:])
    /// Whether transactions read references as they go (the default) or in rounds, as a store
    /// that must suspend to read does (PostgreSQL): the tests run that path on this store too.
    private let readsInRounds: Bool
    private let gate = StoreGate()
    private let hub = StoreChangeHub()

    /// An empty store.
    public init() {
        self.readsInRounds = false
    }

    /// An empty store whose transactions read the rows references need in rounds, one query per
    /// table, as a store that must suspend to read does.
    package init(readingInRounds: Bool) {
        self.readsInRounds = readingInRounds
    }

    public func changes<M: Model>(to type: M.Type) -> StoreChanges {
        hub.subscribe(table: M.modelSchema.storeTableName)
    }

    package func transaction<T>(_ kind: StoreTransactionKind, _ body: (MemoryConnection) async throws -> T)
        async throws -> T
    {
        guard kind == .write else {
            return try await body(MemoryConnection(tables: tables.withLock { $0 }, readsInRounds: readsInRounds))
        }
        await gate.acquire()
        defer { gate.release() }
        let connection = MemoryConnection(tables: tables.withLock { $0 }, readsInRounds: readsInRounds)
        let result = try await body(connection)
        let (committed, changes) = connection.state.withLock { ($0.tables, $0.changes) }
        tables.withLock { $0 = committed }
        hub.post(changes.values.sorted { $0.modelName < $1.modelName })
        return result
    }

    package func withConnectionNow<T>(_ body: (MemoryConnection) throws -> T) throws -> T {
        try body(MemoryConnection(tables: tables.withLock { $0 }, readsInRounds: false))
    }
}
