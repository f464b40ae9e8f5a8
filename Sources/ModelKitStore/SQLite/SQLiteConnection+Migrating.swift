import Foundation
import GRDB
import ModelKitCore

extension SQLiteStore: MigratingStore {
    package func forgetPreparedTables() {
        preparedTables.withLock { $0 = ([], []) }
    }
}

extension SQLiteConnection: MigratingConnection {
    private var records: String { quoted(StoreMigrationRecord.tableName) }

    package func migrationRecords() async throws -> [StoreMigrationRecord] {
        try access(nil, sql: nil) { db in
            guard try MainSchema.columns(of: StoreMigrationRecord.tableName, in: db) != nil else { return [] }
            let sql = "SELECT \"name\", \"position\", \"appliedAt\" FROM \(records) ORDER BY \"position\""
            return try Row.fetchAll(db, sql: sql).map { row in
                let applied: String = row["appliedAt"]
                return StoreMigrationRecord(
                    name: row["name"], position: row["position"], appliedAt: StoreMigrationRecord.parse(applied) ?? .distantPast)
            }
        }
    }

    package func record(_ record: StoreMigrationRecord) async throws {
        try access(nil, sql: nil) { db in
            try db.execute(
                sql: "CREATE TABLE IF NOT EXISTS \(records) (\"name\" TEXT PRIMARY KEY NOT NULL, "
                    + "\"position\" INTEGER NOT NULL, \"appliedAt\" TEXT NOT NULL)")
            try db.execute(
                sql: "INSERT INTO \(records) (\"name\", \"position\", \"appliedAt\") VALUES (?, ?, ?)",
                arguments: [record.name, record.position, StoreMigrationRecord.format(record.appliedAt)])
        }
    }

    package func prepareForMigration(_ table: StoreTable) async throws {
        try access(table, sql: nil) { _ in }
    }

    package func columnNames(ofTable table: String) async throws -> [String]? {
        try access(nil, sql: nil) { db in try MainSchema.columns(of: table, in: db) }
    }

    package func alter(_ change: StoreSchemaChange) async throws {
        try access(nil, sql: nil) { db in
            defer {
                store.forgetPreparedTables()
                db.clearSchemaCache()
            }
            let table = quoted(change.table)
            switch change {
            case .renameColumn(_, let from, let to):
                if try MainSchema.columns(of: change.table, in: db)?.contains(to) == true {
                    try db.execute(sql: "UPDATE \(table) SET \(quoted(to)) = COALESCE(\(quoted(to)), \(quoted(from)))")
                    try drop(from, of: change.table, in: db)
                } else {
                    try db.execute(sql: "ALTER TABLE \(table) RENAME COLUMN \(quoted(from)) TO \(quoted(to))")
                }
            case .dropColumn(_, let column):
                try drop(column, of: change.table, in: db)
            case .addColumn(_, let column, let kind):
                try db.execute(sql: "ALTER TABLE \(table) ADD COLUMN \(quoted(column)) \(kind?.sqliteColumnType ?? "TEXT")")
            case .renameTable(_, let newName):
                try db.execute(sql: "ALTER TABLE \(table) RENAME TO \(quoted(newName))")
            case .addIndex(_, let index):
                let sql = StoreTable.createIndexSQL([index], table: change.table, on: table, quote: quoted)[0]
                do {
                    try db.execute(sql: sql)
                } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
                    throw StoreError.rowsClash(index, table: change.table, underlying: error)
                }
            case .dropIndex(_, let index):
                try db.execute(sql: "DROP INDEX IF EXISTS \(quoted(index.name(in: change.table)))")
            }
        }
    }

    package func allRows(ofTable table: String, identifierColumn: String) async throws -> [[String: StoreValue]] {
        let sql = "SELECT * FROM \(quoted(table)) ORDER BY \(quoted(identifierColumn))"
        return try access(nil, sql: sql) { db in
            try Row.fetchAll(db, sql: sql).map { row in
                var columns: [String: StoreValue] = [:]
                for (name, value) in row { columns[name] = StoreValue(value) }
                return columns
            }
        }
    }

    package func update(
        table: String, identifierColumn: String, identifier: StoreValue, values: [String: StoreValue]
    ) async throws {
        let names = values.keys.sorted()
        let sql = "UPDATE \(quoted(table)) SET \(names.map { "\(quoted($0)) = ?" }.joined(separator: ", ")) "
            + "WHERE \(quoted(identifierColumn)) = ?"
        try access(nil, sql: sql) { db in
            try db.execute(sql: sql, arguments: StatementArguments(storeValues: names.map { values[$0]! } + [identifier]))
        }
    }

    /// Drops a column, after the indexes made on it (SQLite refuses to drop an indexed column).
    private func drop(_ column: String, of table: String, in db: Database) throws {
        let indexes = try String.fetchAll(
            db,
            sql: "SELECT DISTINCT list.name FROM pragma_index_list(?) AS list, pragma_index_info(list.name) AS info "
                + "WHERE list.origin = 'c' AND info.name = ?",
            arguments: [table, column])
        for index in indexes { try db.execute(sql: "DROP INDEX \(quoted(index))") }
        try db.execute(sql: "ALTER TABLE \(quoted(table)) DROP COLUMN \(quoted(column))")
    }
}
