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
    /// Whether this is a context's load outside any transaction, reading the committed state:
    /// through the store's reader once the table is known, else on the main connection between
    /// transactions.
    let readsCommitted: Bool
    /// Set for a read without `BEGIN`: it allows one access (and the ones nested in it).
    let autocommit: AutocommitRead?

    init(store: SQLiteStore, readsCommitted: Bool, autocommit: AutocommitRead? = nil) {
        self.store = store
        self.readsCommitted = readsCommitted
        self.autocommit = autocommit
    }

    /// Runs one access to the database, turning GRDB's errors into ``StoreError``s.
    func access<T>(_ table: StoreTable?, sql: String?, _ body: (Database) throws -> T) throws -> T {
        do {
            try store.checkOpen()
            guard readsCommitted else {
                guard let autocommit else { return try store.database.unsafeReentrantWrite(body) }
                return try autocommit.run { try store.database.unsafeReentrantWrite(body) }
            }
            if let reader = store.reader, let table, try store.isReadable(table, through: reader) {
                return try reader.unsafeReentrantWrite(body)
            }
            // A table the committed state lacks, or lacks columns of: created or brought up to
            // date first, on the main connection, between transactions. A synchronous load does
            // not wait for a transaction under way: its task may be suspended indefinitely.
            guard store.gate.tryAcquire() else {
                throw StoreError(
                    .database, table: table?.name,
                    reason: "its table is not created yet, and a transaction of another task is using the store: "
                        + "load it again once that transaction ends, or fetch it through the context")
            }
            defer { store.gate.release() }
            return try store.database.unsafeReentrantWrite(body)
        } catch {
            throw store.accessError(error, table: table?.name, sql: sql)
        }
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
            try store.prepare(table, in: db)
            let statement = try db.cachedStatement(sql: table.upsertSQL)
            statement.prepareForBinding(count: table.columns.count + 1)
            for values in rows {
                do {
                    try statement.bindAndExecute(values, version: table.schema.version)
                } catch {
                    throw StoreError.wrapping(
                        error, table: table.name, identifier: values[table.identifierColumn].quotedDescription,
                        sql: table.upsertSQL)
                }
            }
        }
    }

    package func selectRows(_ query: ResolvedQuery) async throws -> [StoredRow] {
        try withRows(query) { next in
            var rows: [StoredRow] = []
            while let row = try next() { rows.append(row.stored(count: query.table.columns.count)) }
            return rows
        }
    }

    package func selectRows(_ table: StoreTable, identifiers: [StoreValue]) async throws -> [StoredRow] {
        try identifiers.compactMap { try selectRowNow(table, identifier: $0) }
    }

    package func selectAllColumns(_ table: StoreTable, identifier: StoreValue) async throws -> [String: StoreValue] {
        try selectAllColumnsNow(table, identifier: identifier)
    }

    package func count(_ query: ResolvedQuery) async throws -> Int {
        let statement = query.countSQL()
        return try access(query.table, sql: statement.sql) { db in
            try store.prepare(query.table, in: db)
            let arguments = StatementArguments(storeValues: statement.arguments)
            return try Int.fetchOne(db.cachedStatement(sql: statement.sql), arguments: arguments) ?? 0
        }
    }

    package func delete(_ query: ResolvedQuery) async throws -> Int {
        let statement = query.deleteSQL()
        return try access(query.table, sql: statement.sql) { db in
            try store.prepare(query.table, in: db)
            try db.execute(sql: statement.sql, arguments: StatementArguments(storeValues: statement.arguments))
            return db.changesCount
        }
    }
}
