import Foundation
import GRDB
import ModelKitCore

#if canImport(GRDBSQLite)
    import GRDBSQLite
#elseif canImport(SQLite3)
    import SQLite3
#endif

// Reading rows: every select steps its statement itself and hands each row to a closure while
// the statement is on it (``SQLiteRow``), so a model is read from SQLite's columns directly. Rows
// a caller keeps are copied out of the same accessors, so both ways read the same values.

extension SQLiteConnection {
    // MARK: InPlaceRowReading

    package func withRows<T>(_ query: ResolvedQuery, _ body: (_ next: () throws -> StoreRowColumns?) throws -> T) throws -> T {
        let statement = query.selectSQL()
        var result: T?
        try access(query, sql: statement.sql) { db in
            try select(statement.sql, arguments: statement.arguments, columns: query.table.columns.count, in: db) { rows in
                result = try body { try rows.next().map(StoreRowColumns.sqlite) }
            }
        }
        guard let result else { throw StoreError(.database, table: query.table.name, reason: "a select returned nothing") }
        return result
    }

    package func withRow(_ table: StoreTable, identifier: StoreValue, _ body: (StoreRowColumns) throws -> Void) throws -> Bool {
        // Nothing generic on this path (a point read's fixed cost): no optional of a caller's type.
        var found = false
        try access(table, sql: table.selectByIdentifierSQL) { db in
            try select(table.selectByIdentifierSQL, arguments: [identifier], columns: table.columns.count, in: db) { rows in
                guard let row = try rows.next() else { return }
                found = true
                try body(.sqlite(row))
            }
        }
        return found
    }

    // MARK: SynchronousRowReading

    package func selectRowNow(_ table: StoreTable, identifier: StoreValue) throws -> StoredRow? {
        var stored: StoredRow?
        _ = try withRow(table, identifier: identifier) { row in stored = row.stored(count: table.columns.count) }
        return stored
    }

    package func selectAllColumnsNow(_ table: StoreTable, identifier: StoreValue) throws -> [String: StoreValue] {
        try access(table, sql: table.selectRowByIdentifierSQL) { db in
            guard let row = try Row.fetchOne(db, sql: table.selectRowByIdentifierSQL, arguments: [identifier.databaseValue])
            else { return [:] }
            var columns: [String: StoreValue] = [:]
            for (name, value) in row { columns[name] = StoreValue(value) }
            return columns
        }
    }

    // MARK: Stepping

    /// Runs the `SELECT` `sql` with `arguments` bound, and `body` with a cursor over its rows; the
    /// statement is reset afterwards (its read ends), also when `body` throws.
    ///
    /// The statement is the connection's cached one, unless a read under way is stepping that
    /// one (a model's reference to a row of its own table, loaded while the model's row is
    /// read): then a statement of its own, so the outer read stays on its row.
    private func select(
        _ sql: String, arguments: [StoreValue], columns count: Int, in db: Database,
        _ body: (inout SQLiteRowCursor) throws -> Void
    ) throws {
        var select = try db.cachedStatement(sql: sql)
        if sqlite3_stmt_busy(select.sqliteStatement) != 0 { select = try db.makeStatement(sql: sql) }
        let statement = select.sqliteStatement
        sqlite3_reset(statement)
        defer { sqlite3_reset(statement) }
        guard Int(sqlite3_bind_parameter_count(statement)) == arguments.count else {
            throw DatabaseError(
                resultCode: .SQLITE_RANGE, message: "\(arguments.count) arguments for the statement's placeholders", sql: sql)
        }
        for (index, value) in arguments.enumerated() { value.bind(to: statement, at: CInt(index + 1)) }
        // The columns' storage classes, asked for once per row: the model's and the version.
        // Unsafe: on the stack where it fits, not an array per select; `CInt` is trivial, and the cursor zeroes every
        // slot before it hands out each row, so nothing reads one unset. The rows live only inside this call.
        try withUnsafeTemporaryAllocation(of: CInt.self, capacity: count + 1) { types in
            var cursor = SQLiteRowCursor(
                row: SQLiteRow(statement: statement, count: count, types: types), sql: sql, database: db)
            try body(&cursor)
        }
    }
}

/// Steps a statement through its rows.
struct SQLiteRowCursor {
    let row: SQLiteRow
    let sql: String
    let database: Database
    private var isDone = false

    init(row: SQLiteRow, sql: String, database: Database) {
        self.row = row
        self.sql = sql
        self.database = database
    }

    /// The next row, or nil after the last; throws SQLite's error.
    mutating func next() throws -> SQLiteRow? {
        if isDone { return nil }
        let code = sqlite3_step(row.statement)
        if code == SQLITE_ROW {
            row.types.update(repeating: 0)
            return row
        }
        isDone = true
        if code == SQLITE_DONE { return nil }
        throw DatabaseError(resultCode: ResultCode(rawValue: code), message: database.lastErrorMessage, sql: sql)
    }
}

/// A read of the store's own (``StoreTransactionKind/readOnce``) run without `BEGIN`: one access
/// to the database is a snapshot by itself, since SQLite keeps a statement's read open while it
/// steps, and the reads nested in it (the rows a model's references need, loaded while the model
/// is read) see that same snapshot. A second access would not, so it is refused, and the store
/// runs the read again in a transaction.
final class AutocommitRead: @unchecked Sendable {
    // @unchecked: a connection serves one task at a time, and its accesses run one after the
    // other (a nested one while the outer one waits for it, inside the queue's synchronous
    // call), so these are never touched at once: no lock for what a point read does twice.
    private var depth = 0
    private var accesses = 0
    /// Whether the read asked for a second access (and must run again in a transaction).
    private(set) var neededTransaction = false

    /// Runs one access, or one nested in the access under way; refuses a second one.
    func run<T>(_ body: () throws -> T) throws -> T {
        if depth == 0 {
            accesses += 1
            if accesses > 1 { neededTransaction = true }
        }
        guard !neededTransaction else { throw SecondAccess() }
        depth += 1
        defer { depth -= 1 }
        return try body()
    }

    /// What a second access throws: the read runs again, in a transaction.
    struct SecondAccess: Error, CustomStringConvertible {
        var description: String { "a read without a transaction needed a second statement" }
    }
}
