import Foundation
import GRDB

#if canImport(GRDBSQLite)
    import GRDBSQLite
#elseif canImport(SQLite3)
    import SQLite3
#endif

extension SQLiteConnection {
    /// The statement of ``openRows(_:)``, stepped a batch per access, each batch copied out as
    /// rows: the engine's generic batches (a cursor on SQLite reads in place instead).
    package func selectRows(
        _ query: ResolvedQuery, inBatchesOf size: Int, _ body: ([StoredRow]) async throws -> Void
    ) async throws {
        let cursor = try openRows(query)
        defer { cursor.close() }
        let count = query.table.columns.count
        while true {
            let batch = try cursor.withNextRows(limit: size) { next in
                var rows: [StoredRow] = []
                rows.reserveCapacity(size)
                while let row = try next() { rows.append(row.stored(count: count)) }
                return rows
            }
            if !batch.result.isEmpty { try await body(batch.result) }
            if batch.isDone { return }
        }
    }
}

extension SQLiteConnection {
    /// One statement of its own over the rows a query selects: between two batches the
    /// transaction's other reads (the rows references need) use other statements, and this one
    /// stays on its row, inside the transaction's snapshot.
    package func openRows(_ query: ResolvedQuery) throws -> any InPlaceRowCursor {
        let select = query.selectSQL()
        let statement = try access(query, sql: select.sql) { db in
            let statement = try db.makeStatement(sql: select.sql)
            for (index, value) in select.arguments.enumerated() { value.bind(to: statement.sqliteStatement, at: CInt(index + 1)) }
            return statement
        }
        return SQLiteBatchCursor(connection: self, statement: statement, sql: select.sql, columns: query.table.columns.count)
    }
}

/// A statement of its own over a query's rows, stepped a batch per access to the connection.
final class SQLiteBatchCursor: InPlaceRowCursor, @unchecked Sendable {
    // @unchecked: used by one task at a time (see InPlaceRowCursor): the cursor's reading task
    // opens and closes it, the loop's task steps it while that task waits, and the store's gate
    // keeps every other task off the connection meanwhile. It holds rows, never a model.
    private let connection: SQLiteConnection
    private let statement: Statement
    private let sql: String
    private let columns: Int
    private var isDone = false

    init(connection: SQLiteConnection, statement: Statement, sql: String, columns: Int) {
        self.connection = connection
        self.statement = statement
        self.sql = sql
        self.columns = columns
    }

    func withNextRows<T>(limit: Int, _ body: (_ next: () throws -> StoreRowColumns?) throws -> T) throws -> (result: T, isDone: Bool) {
        let result = try connection.access(nil, sql: sql) { db in
            // Unsafe: a slot per column for the row's storage classes, alive for this access only (see SQLiteRow.types).
            try withUnsafeTemporaryAllocation(of: CInt.self, capacity: columns + 1) { types in
                var cursor = SQLiteRowCursor(
                    row: SQLiteRow(statement: statement.sqliteStatement, count: columns, types: types), sql: sql, database: db)
                var read = 0
                return try body {
                    guard !isDone, read < limit else { return nil }
                    guard let row = try cursor.next() else {
                        isDone = true
                        return nil
                    }
                    read += 1
                    return .sqlite(row)
                }
            }
        }
        return (result, isDone)
    }

    func close() {
        _ = try? connection.access(nil, sql: nil) { _ in sqlite3_reset(statement.sqliteStatement) }
    }
}
