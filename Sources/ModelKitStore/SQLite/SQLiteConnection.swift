import Foundation
import GRDB
import ModelKitCore

/// The SQLite store's rows inside one of its transactions: each call is one access to the GRDB
/// queue, inside the `BEGIN` the store issued (the store's gate keeps every other access of the
/// store out until its `COMMIT` or `ROLLBACK`); or, for a read of the store's own, one access
/// without `BEGIN` (``AutocommitRead``).
///
/// Accesses are reentrant: a model read in place, inside the access that steps its statement,
/// loads the rows its references need through the same connection.
package struct SQLiteConnection: StoreConnection, SynchronousRowReading, InPlaceRowReading {
    let store: SQLiteStore
    /// Set for a read without `BEGIN`: it allows one access (and the ones nested in it).
    let autocommit: AutocommitRead?
    /// Which connection the accesses use. One word with the two above: three words in all, so
    /// the connection fits an existential's inline buffer (`any StoreConnection`) and a point
    /// read boxes nothing on the heap.
    private let reading: Reading

    private enum Reading {
        /// A transaction's, on the main connection.
        case main
        /// A context's load outside any transaction, reading the committed state: through the
        /// store's reader once the table is known, else on the main connection between
        /// transactions.
        case committed
        /// A read transaction on a pooled read-only connection, beside the main connection's
        /// writes, with what it knows of its snapshot.
        case pooled(PooledRead)
    }

    /// Whether this is a context's load outside any transaction, reading the committed state.
    var readsCommitted: Bool {
        if case .committed = reading { return true }
        return false
    }

    /// The pooled connection of a read transaction, if it runs on one.
    var pooled: PooledRead? {
        if case .pooled(let pooled) = reading { return pooled }
        return nil
    }

    init(store: SQLiteStore, readsCommitted: Bool, autocommit: AutocommitRead? = nil) {
        self.store = store
        self.autocommit = autocommit
        self.reading = readsCommitted ? .committed : .main
    }

    /// A read transaction's connection on a pooled read-only connection.
    init(store: SQLiteStore, pooled: DatabaseQueue, autocommit: AutocommitRead? = nil) {
        self.store = store
        self.autocommit = autocommit
        self.reading = .pooled(PooledRead(queue: pooled))
    }

    /// Runs one access to the database, turning GRDB's errors into ``StoreError``s; with a
    /// table, the table is there with every column of its model when `body` runs.
    func access<T>(_ table: StoreTable?, sql: String?, _ body: (Database) throws -> T) throws -> T {
        do {
            try store.checkOpen()
            if let pooled {
                guard let autocommit else { return try readPooled(table, through: pooled, body) }
                return try autocommit.run { try readPooled(table, through: pooled, body) }
            }
            guard readsCommitted, let reader = store.reader, let table else {
                return try onMainConnection { db in
                    if let table { try store.prepare(table, in: db) }
                    return try body(db)
                }
            }
            return try readCommitted(table, through: reader, body)
        } catch {
            throw store.accessError(error, table: table?.name, sql: sql)
        }
    }

    /// ``access(_:sql:_:)`` for a query: the tables its conditions through references name are
    /// prepared first as its own table is (a table no row was saved to yet is created empty), so
    /// the subquery on them finds no rows instead of failing.
    func access<T>(_ query: ResolvedQuery, sql: String?, _ body: (Database) throws -> T) throws -> T {
        for related in query.relatedTables where !store.isPrepared(related) {
            _ = try access(related, sql: nil) { _ in }
        }
        return try access(query.table, sql: sql, body)
    }

    private func onMainConnection<T>(_ body: (Database) throws -> T) throws -> T {
        guard let autocommit else { return try store.database.unsafeReentrantWrite(body) }
        return try autocommit.run { try store.database.unsafeReentrantWrite(body) }
    }

    /// A context's load outside any transaction: through the reader, which sees the committed
    /// state and never waits for a transaction (whose task may be suspended indefinitely).
    private func readCommitted<T>(_ table: StoreTable, through reader: DatabaseQueue, _ body: (Database) throws -> T) throws -> T {
        if store.isPrepared(table) { return try onReader(reader, body) }
        let state = try onReader(reader) { db in try store.committedState(of: table, in: db) }
        if state == .complete { return try onReader(reader, body) }
        // A table the committed state lacks, or lacks columns of: created or brought up to date
        // on the main connection when no transaction is under way, so later loads read it as is.
        // Not from inside a read of an in-memory reader, whose lock would keep that write out.
        if !holdsReadLock(reader), store.gate.tryAcquire() {
            defer { store.gate.release() }
            return try store.database.unsafeReentrantWrite { db in
                try store.prepare(table, in: db)
                return try body(db)
            }
        }
        // A transaction of another task holds the main connection (creating this very table,
        // maybe): read what the committed state will show once the table is prepared.
        return try onReader(reader) { db in
            try store.withStandIn(for: table, state, in: db) { try body(db) }
        }
    }

    /// An access of a read transaction on a pooled connection. A table is read as it is once
    /// the transaction's snapshot holds it complete (checked once per transaction: another
    /// connection may have created it after the snapshot began; a read of one statement is its
    /// own snapshot, so a table known prepared needs no check); otherwise through a stand-in of
    /// what it will hold (``SQLiteStore/withStandIn(for:_:in:_:)``). Never writes.
    private func readPooled<T>(_ table: StoreTable?, through checked: PooledRead, _ body: (Database) throws -> T) throws -> T {
        // The transaction's first read of a table the store has not prepared, before the snapshot
        // begins: prepared on the main connection when no write holds it, so the snapshot holds
        // the table as the model has it (its new columns, its search index), as a write would.
        if let table, !checked.hasSnapshot {
            checked.hasSnapshot = true
            if !store.isPrepared(table), store.gate.tryAcquire() {
                defer { store.gate.release() }
                try store.database.unsafeReentrantWrite { db in try store.prepare(table, in: db) }
            }
        }
        return try checked.queue.unsafeReentrantWrite { db in
            guard let table else { return try body(db) }
            let key = ObjectIdentifier(table)
            if checked.tables.contains(key) || (autocommit != nil && store.isPrepared(table)) { return try body(db) }
            let state = try store.committedState(of: table, in: db)
            guard state == .complete else { return try store.withStandIn(for: table, state, in: db) { try body(db) } }
            checked.tables.insert(key)
            return try body(db)
        }
    }

    /// Runs `body` on the reader. An in-memory database's reader reads inside a transaction
    /// whose first read takes SQLite's lock (and its current schema) before `body` compiles a
    /// statement: a writer of another task holding the database fails it there, at once, with
    /// a typed error, instead of a statement compiled against an outdated schema.
    private func onReader<T>(_ reader: DatabaseQueue, _ body: (Database) throws -> T) throws -> T {
        try reader.unsafeReentrantWrite { db in
            guard store.readerIsLockedOutByWrites, !db.isInsideTransaction else { return try body(db) }
            try db.execute(sql: "BEGIN DEFERRED")
            do {
                do {
                    _ = try Row.fetchOne(db, sql: "SELECT 1 FROM sqlite_master LIMIT 1")
                } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY {
                    throw StoreError(
                        .misusedContext,
                        reason: "an in-memory store cannot be read while a transaction of another task writes to it: "
                            + "fetch the models through the context, which waits for the transaction, "
                            + "or open the store with 'SQLiteStore(path:)'")
                }
                let result = try body(db)
                try db.execute(sql: "COMMIT")
                return result
            } catch {
                // A read transaction: ending it loses nothing, and its error would hide this one.
                try? db.execute(sql: "ROLLBACK")
                throw error
            }
        }
    }

    /// Whether an in-memory store's reader is inside a read (a load nested in another), whose
    /// lock keeps the main connection from committing a write.
    private func holdsReadLock(_ reader: DatabaseQueue) -> Bool {
        guard store.readerIsLockedOutByWrites else { return false }
        return reader.unsafeReentrantRead { $0.isInsideTransaction }
    }

    // MARK: The transaction

    func begin(_ kind: StoreTransactionKind) throws {
        guard store.allowsTransactions else {
            throw StoreError(
                .database,
                reason: "the GRDB queue the store was made with must allow transactions across accesses: "
                    + "set 'Configuration.allowsUnsafeTransactions' to true")
        }
        let sql = kind == .write ? "BEGIN IMMEDIATE" : "BEGIN DEFERRED"
        try access(nil, sql: sql) { db in try db.cachedStatement(sql: sql).execute() }
    }

    func commit() throws {
        try access(nil, sql: "COMMIT") { db in try db.cachedStatement(sql: "COMMIT").execute() }
    }

    /// Rolls back what is left of the transaction (SQLite may have rolled back already).
    func rollback() {
        _ = try? access(nil, sql: "ROLLBACK") { db in
            if db.isInsideTransaction { try db.execute(sql: "ROLLBACK") }
        }
    }

    // MARK: StoreConnection

    package func upsert(_ table: StoreTable, rows: [[StoreValue]]) async throws {
        try access(table, sql: table.upsertSQL) { db in
            let statement = try db.cachedStatement(sql: table.upsertSQL)
            statement.prepareForBinding(count: table.columns.count + 1)
            for values in rows {
                do {
                    try statement.bindAndExecute(values, version: table.schema.version)
                } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
                    throw uniqueViolation(error, table: table, row: values)
                } catch {
                    throw StoreError.wrapping(
                        error, table: table.name, identifier: values[table.identifierColumn].quotedDescription,
                        sql: table.upsertSQL)
                }
            }
        }
    }

    /// The unique constraint SQLite names (`UNIQUE constraint failed: Account.email`), as a
    /// ``StoreError``; SQLite's own error when no constraint of the model matches.
    private func uniqueViolation(_ error: DatabaseError, table: StoreTable, row: [StoreValue]) -> any Error {
        let failed = (error.message ?? "").components(separatedBy: "failed: ").last ?? ""
        let columns = failed.components(separatedBy: ", ").map { $0.components(separatedBy: ".").last ?? $0 }
        guard let unique = table.uniqueIndexes.first(where: { $0.index.properties == columns }) else {
            return StoreError.wrapping(
                error, table: table.name, identifier: row[table.identifierColumn].quotedDescription, sql: table.upsertSQL)
        }
        return StoreError.uniqueViolation(
            unique.index, table: table, identifier: row[table.identifierColumn], values: unique.columns.map { row[$0] },
            underlying: error)
    }

    package func selectRows(_ query: ResolvedQuery) async throws -> [StoredRow] {
        try selectRowsNow(query)
    }

    package func selectRowsNow(_ query: ResolvedQuery) throws -> [StoredRow] {
        try withRows(query) { next in try StoreRowColumns.copies(of: next, count: query.table.columns.count) }
    }

    package func selectRows(_ table: StoreTable, identifiers: [StoreValue]) async throws -> [StoredRow] {
        try identifiers.compactMap { try selectRowNow(table, identifier: $0) }
    }

    package func selectAllColumns(_ table: StoreTable, identifier: StoreValue) async throws -> [String: StoreValue] {
        try selectAllColumnsNow(table, identifier: identifier)
    }

    package func count(_ query: ResolvedQuery) async throws -> Int {
        let statement = query.countSQL()
        return try access(query, sql: statement.sql) { db in
            let arguments = StatementArguments(storeValues: statement.arguments)
            return try Int.fetchOne(db.cachedStatement(sql: statement.sql), arguments: arguments) ?? 0
        }
    }

    package func selectValues(_ selection: ResolvedSelection) async throws -> [[StoreValue]] {
        var dialect = SQLiteDialect()
        let sql = try selection.select(&dialect)
        return try access(selection.query, sql: sql) { db in
            let arguments = StatementArguments(storeValues: dialect.arguments)
            return try Row.fetchAll(db.cachedStatement(sql: sql), arguments: arguments).map { row in
                row.databaseValues.map(StoreValue.init)
            }
        }
    }

    package func delete(_ query: ResolvedQuery) async throws -> Int {
        let statement = query.deleteSQL()
        return try access(query, sql: statement.sql) { db in
            try db.execute(sql: statement.sql, arguments: StatementArguments(storeValues: statement.arguments))
            return db.changesCount
        }
    }
}
