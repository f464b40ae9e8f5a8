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
        return try access(query.table, sql: statement.sql) { db in
            try store.prepare(query.table, in: db)
            return try select(statement.sql, arguments: statement.arguments, columns: query.table.columns.count, in: db) {
                rows in
                try body { try rows.next().map(StoreRowColumns.sqlite) }
            }
        }
    }

    package func withRow<T>(_ table: StoreTable, identifier: StoreValue, _ body: (StoreRowColumns) throws -> T) throws -> T? {
        try access(table, sql: table.selectByIdentifierSQL) { db in
            try store.prepare(table, in: db)
            return try select(table.selectByIdentifierSQL, arguments: [identifier], columns: table.columns.count, in: db) {
                rows in
                try rows.next().map { try body(.sqlite($0)) }
            }
        }
    }

    // MARK: SynchronousRowReading

    package func selectRowNow(_ table: StoreTable, identifier: StoreValue) throws -> StoredRow? {
        try withRow(table, identifier: identifier) { row in row.stored(count: table.columns.count) }
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

    // MARK: Stepping

    /// Runs the `SELECT` `sql` with `arguments` bound, and `body` with a cursor over its rows; the
    /// statement is reset afterwards (its read ends), also when `body` throws.
    ///
    /// The statement is the connection's cached one, unless a read under way is stepping that
    /// one (a model's reference to a row of its own table, loaded while the model's row is
    /// read): then a statement of its own, so the outer read stays on its row.
    private func select<T>(
        _ sql: String, arguments: [StoreValue], columns count: Int, in db: Database,
        _ body: (inout SQLiteRowCursor) throws -> T
    ) throws -> T {
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
        return try withUnsafeTemporaryAllocation(of: CInt.self, capacity: count + 1) { types in
            var cursor = SQLiteRowCursor(
                row: SQLiteRow(statement: statement, count: count, types: types), sql: sql, database: db)
            return try body(&cursor)
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
final class AutocommitRead: Sendable {
    private let state = Locked<(depth: Int, accesses: Int, exceeded: Bool)>((0, 0, false))

    /// Whether the read asked for a second access (and must run again in a transaction).
    var neededTransaction: Bool {
        state.withLock { $0.exceeded }
    }

    /// Runs one access, or one nested in the access under way; refuses a second one.
    func run<T>(_ body: () throws -> T) throws -> T {
        let allowed = state.withLock { state in
            if state.depth == 0 {
                state.accesses += 1
                if state.accesses > 1 { state.exceeded = true }
            }
            if !state.exceeded { state.depth += 1 }
            return !state.exceeded
        }
        guard allowed else { throw SecondAccess() }
        defer { state.withLock { $0.depth -= 1 } }
        return try body()
    }

    /// What a second access throws: the read runs again, in a transaction.
    struct SecondAccess: Error, CustomStringConvertible {
        var description: String { "a read without a transaction needed a second statement" }
    }
}
