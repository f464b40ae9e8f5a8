import Foundation
import GRDB
import ModelKitCore

/// The default store: a table per model type in an SQLite database (a file, or in memory),
/// through GRDB.
///
/// Each model type gets a table named after it, with a column per stored property (property
/// names, SQLite types: `INTEGER`, `REAL`, `TEXT`, `BLOB`; nested models and collections as JSON
/// text), the identifier as primary key, and `_version`, the model version that wrote the row.
/// Tables are created, and columns added, the first time the store meets a type. A property
/// holding an identified class model stores its identifier; loading resolves it through the
/// context. Files use write-ahead logging: a save is one transaction, all of it or none.
///
/// Concurrency: the store is `Sendable`, shared by every isolation domain (each with a context of
/// its own). Its writes take turns on one connection (GRDB's `DatabaseQueue`): a transaction's
/// `BEGIN` ... `COMMIT` spans several accesses to the queue, and a gate tasks await keeps every
/// other write out meanwhile. A file store's read transactions (fetches, `read { }`, cursors) run
/// on a small pool of read-only connections instead, beside the writes and each other, each in
/// the snapshot of the moment it began (write-ahead logging); `SQLiteStore(path:readers: 0)` and
/// an in-memory store keep every transaction on the one connection. A context's synchronous loads
/// read the last committed state through a read-only connection of their own, so they never wait
/// for a transaction.
/// Rows are turned into models in the caller's isolation domain, where its context lives.
///
/// ```swift
/// let store = try SQLiteStore(path: "/tmp/twitter.sqlite")
/// let context = ModelContext(store: store)
/// try await store.save(timeline.statuses)
/// let user = try context.model(TwitterUser.self, id: "42")   // live, or loaded from the file
/// ```
public final class SQLiteStore: ModelStore, SynchronousStoreEngine, ModelRelationshipLoading, OnceReading, Sendable {
    /// The GRDB connection, for raw SQL next to the store (`sqlite3` can read the same file).
    public let database: DatabaseQueue
    /// The database file, or nil for an in-memory database.
    public let path: String?
    /// The tables created or brought up to date: for good, and in the transaction under way. By
    /// table object (one per name: ``StoreTable/of(_:)``), so a check hashes no name.
    let preparedTables = Locked<(prepared: Set<ObjectIdentifier>, inTransaction: Set<ObjectIdentifier>)>(([], []))
    let hub: StoreChangeHub
    /// Transactions take turns on it: one `BEGIN` ... `COMMIT` on the connection at a time.
    let gate = StoreGate()
    /// Set once by ``close()``; every access checks it first.
    private let isClosed = Locked(false)
    /// A second, read-only connection: a context's loads outside any transaction read the last
    /// committed state through it, so a synchronous load never waits for a transaction under
    /// way, which may be suspended for as long as its task likes. A file's write-ahead log lets
    /// it read while the main connection writes; an in-memory database locks it out until the
    /// write commits, and the load fails at once (``readerIsLockedOutByWrites``). Nil for a
    /// store over a connection the caller opened.
    let reader: DatabaseQueue?
    /// Whether the reader cannot read while the main connection writes: SQLite's `memdb`
    /// file system has no write-ahead log, and a writer's lock keeps readers out until it commits.
    var readerIsLockedOutByWrites: Bool { reader != nil && path == nil }
    /// Whether the GRDB queue lets a transaction span several accesses (the store's need).
    let allowsTransactions: Bool
    /// Read-only connections that read transactions take instead of the main connection, so they
    /// run beside the writes and each other (a file store's; nil for the single queue).
    let readers: SQLiteReaderPool?

    /// Opens (creating if needed) the database file at `path`, in write-ahead-log mode.
    ///
    /// Read transactions (`read { }`, fetches, cursors) run on up to `readers` read-only
    /// connections of their own, beside the store's writes and each other, each in the snapshot
    /// of the moment it began; with `readers: 0` every transaction takes turns on the one
    /// connection, reads behind writes.
    ///
    /// ```swift
    /// let store = try SQLiteStore(path: FileManager.default.temporaryDirectory.appendingPathComponent("m.sqlite").path)
    /// ```
    public convenience init(path: String, readers: Int = 4) throws {
        var configuration = Configuration()
        configuration.journalMode = .wal
        configuration.busyMode = .timeout(10)
        // A transaction spans several accesses to the queue (the store's gate keeps others out).
        configuration.allowsUnsafeTransactions = true
        do {
            let database = try DatabaseQueue(path: path, configuration: configuration)
            self.init(
                database: database, path: path, reader: try Self.reader(of: path),
                readers: readers > 0 ? SQLiteReaderPool(path: path, capacity: readers) : nil)
        } catch {
            throw StoreError(.cannotOpen, reason: "'\(path)': \(error)".lowercasedFirst, underlying: error)
        }
    }

    /// An empty in-memory database, gone with the store.
    ///
    /// ```swift
    /// let store = try SQLiteStore()
    /// ```
    public convenience init() throws {
        // SQLite's `memdb` file system: a database in memory that a second connection of this
        // process can open by name, so loads have a reader as a file store's do.
        let name = "file:/modelkit-\(UUID().uuidString)?vfs=memdb"
        do {
            var configuration = Configuration()
            configuration.allowsUnsafeTransactions = true
            configuration.busyMode = .timeout(10)
            let database = try DatabaseQueue(path: name, configuration: configuration)
            self.init(database: database, path: nil, reader: try Self.reader(of: name, waits: false))
        } catch {
            throw StoreError(.cannotOpen, reason: "an in-memory database: \(error)".lowercasedFirst, underlying: error)
        }
    }

    /// A store over a GRDB connection that is already open. Its configuration must set
    /// `allowsUnsafeTransactions` (a store transaction spans several accesses to the queue);
    /// transactions on one that does not throw. The store has this one connection: a context
    /// loads through it while the store has no transaction open, and otherwise throws (fetch
    /// through the context first, or open the store with ``init(path:readers:)``).
    public convenience init(database: DatabaseQueue, path: String? = nil) {
        self.init(database: database, path: path, reader: nil)
    }

    /// A read-only connection to the database at `path` (a file, or an in-memory `memdb` name).
    ///
    /// One that `waits` retries for up to 10 seconds while the file is locked (a checkpoint, a
    /// writer of another process); one that does not fails at once, as a thread must not sleep
    /// through a transaction whose task is suspended.
    private static func reader(of path: String, waits: Bool = true) throws -> DatabaseQueue {
        var readOnly = Configuration()
        readOnly.readonly = true
        readOnly.busyMode = waits ? .timeout(10) : .immediateError
        return try DatabaseQueue(path: path, configuration: readOnly)
    }

    init(database: DatabaseQueue, path: String?, reader: DatabaseQueue?, readers: SQLiteReaderPool? = nil) {
        self.database = database
        self.path = path
        self.reader = reader
        self.readers = readers
        for connection in [database] + (reader.map { [$0] } ?? []) {
            connection.inDatabase { $0.add(function: Self.lowercase) }
        }
        self.allowsTransactions = database.configuration.allowsUnsafeTransactions
        let gate = self.gate
        self.hub = StoreChangeHub { hub in
            database.add(transactionObserver: SQLiteChangeObserver(hub: hub), extent: .databaseLifetime)
            // Commits of other connections to a file: another process, or another store on it.
            if path != nil { SQLiteStore.watchOtherConnections(of: database, gate: gate, hub: hub) }
        }
    }

    public func changes<M: Model>(to type: M.Type) -> StoreChanges {
        hub.subscribe(table: M.modelSchema.storeTableName)
    }

    /// The name of the SQL function that lowercases text as Swift's `lowercased()` does, for
    /// case-insensitive text predicates (SQLite's own `lower()` folds ASCII only).
    package static let lowercaseFunction = "modelkit_lower"

    /// ``lowercaseFunction``: text lowercased, any other value as it is.
    static let lowercase = DatabaseFunction(lowercaseFunction, argumentCount: 1, pure: true) { values in
        guard let text = String.fromDatabaseValue(values[0]) , case .string = values[0].storage else { return values[0] }
        return text.lowercased()
    }

    /// Closes the database now: later calls throw ``StoreError`` of kind `.closed`, and the
    /// change sequences end. A store also closes when it is released; calling this twice is
    /// harmless.
    ///
    /// ```swift
    /// let store = try SQLiteStore(path: path)
    /// try await store.save(user)
    /// try store.close()   // the file is complete and unlocked; other processes may open it
    /// ```
    public func close() throws {
        guard isClosed.withLock({ closed in defer { closed = true }; return !closed }) else { return }
        hub.finish()
        do {
            try readers?.close()
            try reader?.close()
            try database.close()
        } catch {
            throw StoreError.wrapping(error, table: nil)
        }
    }

    /// The `.closed` error once ``close()`` has run, else nil.
    private var closedError: StoreError? {
        guard isClosed.withLock({ $0 }) else { return nil }
        return StoreError(.closed, reason: "it was closed" + (path.map { " ('\($0)')" } ?? ""))
    }

    /// Throws `.closed` once ``close()`` has run.
    func checkOpen() throws {
        if let closedError { throw closedError }
    }

    /// What a database access threw, as a ``StoreError``: `.closed` when the store was closed
    /// while the access waited for the connection.
    func accessError(_ error: any Error, table: String?, sql: String?) -> StoreError {
        closedError ?? StoreError.wrapping(error, table: table, sql: sql)
    }

    // MARK: Transactions

    package func transaction<T>(_ kind: StoreTransactionKind, _ body: (SQLiteConnection) async throws -> T)
        async throws -> T
    {
        try checkOpen()
        let pooled = try await take(kind)
        defer { giveBack(pooled) }
        if kind == .readOnce {
            // One access is a snapshot by itself: no BEGIN, no COMMIT. A body that needs a
            // second one runs again, in a read transaction.
            let autocommit = AutocommitRead()
            do {
                return try await body(connection(on: pooled, autocommit: autocommit))
            } catch where autocommit.neededTransaction {}
        }
        let connection = connection(on: pooled)
        try connection.begin(kind)
        do {
            let result = try await body(connection)
            try connection.commit()
            return result
        } catch {
            connection.rollback()
            throw error
        }
    }

    /// What a transaction of `kind` runs on: a pooled read-only connection for a read of a file
    /// store (returned), or the main connection, once the gate is taken (nil).
    ///
    /// A read of one statement (``StoreTransactionKind/readOnce``) takes the main connection when
    /// no write holds it: the same snapshot, and SQLite spends about 5,000 fewer instructions on a
    /// point read there than on a read-only connection (callgrind, `store.fetch.id`: 274 M per
    /// 10,000 fetches against 328 M). Only a write under way sends it to the pool.
    private func take(_ kind: StoreTransactionKind) async throws -> DatabaseQueue? {
        if kind == .readOnce, gate.tryAcquire() { return nil }
        if kind != .write, let readers { return try await readers.acquire() }
        await gate.acquire()
        return nil
    }

    /// Ends what ``take(_:)`` took.
    private func giveBack(_ pooled: DatabaseQueue?) {
        if let pooled { readers?.release(pooled) } else { gate.release() }
    }

    /// A transaction's connection: on `pooled`, or on the main connection.
    private func connection(on pooled: DatabaseQueue?, autocommit: AutocommitRead? = nil) -> SQLiteConnection {
        guard let pooled else { return SQLiteConnection(store: self, readsCommitted: false, autocommit: autocommit) }
        return SQLiteConnection(store: self, pooled: pooled, autocommit: autocommit)
    }

    /// ``ModelStore/fetchOne(_:id:context:)`` reading the row in place: nothing but taking the
    /// store's gate may suspend, so a point read is not a chain of asynchronous calls around one
    /// synchronous access.
    // @inlinable: builds StoreModelDecoder<M> in the caller's module, where the model's type is concrete, so that
    // the row is read in place by the model's decoder specialised for StoreRowReader (see StoreModelDecoder).
    @inlinable
    public func fetchOne<M: Model, ID: Hashable & Sendable>(
        _ type: M.Type, id: ID, context: ModelContext?
    ) async throws -> M? {
        let decoder = StoreModelDecoder<M>()
        // The model kept here, where its optional's type is concrete (see `fetchOneNow`).
        var model: M?
        try await readNow { transaction in
            model = nil  // a read run again in a transaction starts afresh
            try transaction.fetchOneNow(M.self, id: id, context: context, decoder: decoder) { model = $0 }
        }
        return model
    }

    /// ``ModelStore/fetchAll(_:context:)`` reading the rows in place, as ``fetchOne(_:id:context:)``.
    // @inlinable: builds StoreModelDecoder<M> in the caller's module, as fetchOne(_:id:context:) does: every row is
    // read in place by the specialised decoder.
    @inlinable
    public func fetchAll<M: Model>(_ query: ModelQuery<M>, context: ModelContext?) async throws -> [M] {
        let decoder = StoreModelDecoder<M>()
        return try await readNow { try $0.fetchAllNow(query, context: context, decoder: decoder) }
    }

    /// A fetch of the store's own whose body reads in place, without suspending: the
    /// ``StoreTransactionKind/readOnce`` transaction ``transaction(_:_:)`` runs (one access without
    /// `BEGIN`, run again in a read transaction if it needs a second one), with nothing but
    /// taking the store's gate that may suspend, so a point read is not a chain of asynchronous
    /// calls around one synchronous access.
    // @usableFromInline: called by the inlinable fetchOne(_:id:context:) and fetchAll(_:context:) above.
    @usableFromInline
    func readNow<T>(_ body: (StoreTransaction) throws -> T) async throws -> T {
        try refuseNesting()
        try checkOpen()
        // Not through take(_:): no asynchronous call on a point read's way when the gate is free.
        if gate.tryAcquire() {
            defer { gate.release() }
            return try readNow(on: nil, body)
        }
        let pooled = try await take(.readOnce)
        defer { giveBack(pooled) }
        return try readNow(on: pooled, body)
    }

    /// ``readNow(_:)`` once it holds its connection: one access without `BEGIN`, or a read
    /// transaction when the body needs a second one.
    private func readNow<T>(on pooled: DatabaseQueue?, _ body: (StoreTransaction) throws -> T) throws -> T {
        let autocommit = AutocommitRead()
        do {
            return try withTransaction(connection(on: pooled, autocommit: autocommit), .readOnce, body)
        } catch where autocommit.neededTransaction {}
        let connection = connection(on: pooled)
        try connection.begin(.read)
        do {
            let result = try withTransaction(connection, .read, body)
            try connection.commit()
            return result
        } catch {
            connection.rollback()
            throw error
        }
    }


    /// Hands `body` the transaction of `connection`, open on this task (as ``StoreEngine``'s
    /// asynchronous transactions do), and returns what it returns unless the task was cancelled.
    private func withTransaction<T>(
        _ connection: SQLiteConnection, _ kind: StoreTransactionKind, _ body: (StoreTransaction) throws -> T
    ) throws -> T {
        let transaction = StoreTransaction(connection: connection, kind: kind, engine: self)
        defer { transaction.finish() }
        let result = try OpenTransaction.duringNow(self, connection) { try body(transaction) }
        try Task.checkCancellation()
        return result
    }

    package func withConnectionNow<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        try refuseNesting()
        if reader != nil { return try body(SQLiteConnection(store: self, readsCommitted: true)) }
        // One connection, opened by the caller in memory: usable only between transactions. A
        // synchronous load must not wait for one, whose task may be suspended indefinitely.
        guard gate.tryAcquire() else {
            throw StoreError(
                .misusedContext,
                reason: "a context cannot load from a store over one connection while the store has a transaction "
                    + "open: fetch the models through the context first, or open it with 'SQLiteStore(path:)'")
        }
        defer { gate.release() }
        return try body(SQLiteConnection(store: self, readsCommitted: false))
    }
}

extension SQLiteStore {
    /// How often a file store looks for other connections' commits while a sequence listens.
    static let externalCommitInterval: Duration = .milliseconds(100)

    /// Looks for commits other connections made to the database, for the hub's listeners:
    /// SQLite's `PRAGMA data_version`, asked on the store's own connection, changes exactly when
    /// another connection committed (its own commits leave it as it is). Asked between the
    /// store's transactions only, never waiting for one. Ends with the hub.
    static func watchOtherConnections(of database: DatabaseQueue, gate: StoreGate, hub: StoreChangeHub) {
        Task { [weak hub] in
            var last: Int?
            while let current = hub, !current.isFinished {
                if gate.tryAcquire() {
                    let version = try? database.unsafeReentrantRead { db in try Int.fetchOne(db, sql: "PRAGMA data_version") }
                    gate.release()
                    if let version, let previous = last, version != previous, current.isObserved { current.postExternal() }
                    last = version ?? last
                }
                try? await Task.sleep(for: externalCommitInterval)
            }
        }
    }
}

/// Posts the tables each committed transaction changed to the store's change hub.
final class SQLiteChangeObserver: TransactionObserver, @unchecked Sendable {
    // @unchecked: `pending` is only touched on the database's queue, where GRDB calls observers.
    private let hub: StoreChangeHub
    private var pending: [String: StoreChange] = [:]

    init(hub: StoreChangeHub) {
        self.hub = hub
    }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { true }

    func databaseDidChange(with event: DatabaseEvent) {
        let table = event.tableName
        var change = pending[table] ?? StoreChange(modelName: table)
        if event.kind == .delete { change.deleted += 1 } else { change.saved += 1 }
        pending[table] = change
    }

    func databaseDidCommit(_ db: Database) {
        let changes = pending.values.sorted { $0.modelName < $1.modelName }
        pending = [:]
        hub.post(changes)
    }

    func databaseDidRollback(_ db: Database) {
        pending = [:]
    }
}
