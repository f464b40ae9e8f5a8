import Foundation
import GRDB
import ModelKitCore

/// The SQLite store's rows inside one of its transactions: each call is one access to the GRDB
/// queue, inside the `BEGIN` the store issued (the store's gate keeps every other access of the
/// store out until its `COMMIT` or `ROLLBACK`).
package struct SQLiteConnection: StoreConnection, SynchronousRowReading {
    let store: SQLiteStore
    /// Whether this is a context's load outside any transaction, reading the committed state:
    /// through the store's reader once the table is known, else on the main connection between
    /// transactions.
    let readsCommitted: Bool

    /// Runs one access to the database, turning GRDB's errors into ``StoreError``s.
    func access<T>(_ table: StoreTable?, sql: String?, _ body: (Database) throws -> T) throws -> T {
        do {
            try store.checkOpen()
            guard readsCommitted else { return try store.database.writeWithoutTransaction(body) }
            if let reader = store.reader, let table, store.isPrepared(table) {
                return try reader.writeWithoutTransaction(body)
            }
            // A table this store has not met yet: created or brought up to date first, on the
            // main connection, between transactions.
            store.gate.acquireBlocking()
            defer { store.gate.release() }
            return try store.database.writeWithoutTransaction(body)
        } catch {
            throw store.accessError(error, table: table?.name, sql: sql)
        }
    }

    // MARK: The transaction

    func begin(_ kind: StoreTransactionKind) throws {
        guard store.database.configuration.allowsUnsafeTransactions else {
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
        let statement = query.selectSQL()
        return try access(query.table, sql: statement.sql) { db in
            try store.prepare(query.table, in: db)
            let select = try db.cachedStatement(sql: statement.sql)
            let cursor = try Row.fetchCursor(select, arguments: StatementArguments(storeValues: statement.arguments))
            var rows: [StoredRow] = []
            while try cursor.next() != nil {
                rows.append(Self.currentRow(of: select, columns: query.table.columns.count))
            }
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

    // MARK: SynchronousRowReading

    package func selectRowNow(_ table: StoreTable, identifier: StoreValue) throws -> StoredRow? {
        try access(table, sql: table.selectByIdentifierSQL) { db in
            try store.prepare(table, in: db)
            let select = try db.cachedStatement(sql: table.selectByIdentifierSQL)
            let cursor = try Row.fetchCursor(select, arguments: [identifier.databaseValue])
            guard try cursor.next() != nil else { return nil }
            return Self.currentRow(of: select, columns: table.columns.count)
        }
    }

    package func selectAllColumnsNow(_ table: StoreTable, identifier: StoreValue) throws -> [String: StoreValue] {
        try access(table, sql: table.selectRowByIdentifierSQL) { db in
            try store.prepare(table, in: db)
            guard let row = try Row.fetchOne(db, sql: table.selectRowByIdentifierSQL, arguments: [identifier.databaseValue])
            else { return [:] }
            var columns: [String: StoreValue] = [:]
            for (name, value) in row { columns[name] = StoreValue(value) }
            return columns
        }
    }

    /// The row a statement is on: the model's columns, then the version.
    static func currentRow(of statement: Statement, columns count: Int) -> StoredRow {
        let sqlite = statement.sqliteStatement
        var values: [StoreValue] = []
        values.reserveCapacity(count)
        for index in 0..<count {
            values.append(StoreValue(DatabaseValue(sqliteStatement: sqlite, index: CInt(index))))
        }
        let version = DatabaseValue(sqliteStatement: sqlite, index: CInt(count))
        return StoredRow(values: values, version: Int.fromDatabaseValue(version) ?? 0)
    }
}
