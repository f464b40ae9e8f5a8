import Foundation
import GRDB
import ModelKitCore

extension SQLiteStore {
    /// Whether the table was created or brought up to date by a committed transaction.
    func isPrepared(_ table: StoreTable) -> Bool {
        preparedTables.withLock { $0.prepared.contains(ObjectIdentifier(table)) }
    }

    /// How the committed state holds `table`, as the reader's `db` sees it; once complete with
    /// every index of the model it counts as prepared from now on.
    ///
    /// Asks SQLite, not GRDB's schema cache (which does not see another connection's changes),
    /// and names the main schema: a stand-in of the same name in the reader's temporary schema
    /// (``withStandIn(for:_:in:_:)``, during a nested load) must not count as the table.
    func committedState(of table: StoreTable, in db: Database) throws -> CommittedTableState {
        guard let columns = try MainSchema.columns(of: table.name, in: db) else { return .absent }
        let existing = Set(columns)
        let missing = table.columns.map(\.name).filter { !existing.contains($0) }
        let lacksVersion = !existing.contains(StoreTable.versionColumn)
        guard missing.isEmpty, !lacksVersion else { return .lacking(columns: missing, version: lacksVersion) }
        // Readable as it is; prepared (no write needs to create anything) once its indexes exist too.
        let indexes = Set(try String.fetchAll(
            db, sql: "SELECT name FROM main.sqlite_master WHERE type = 'index' AND tbl_name = ?", arguments: [table.name]))
        let searchReady = try table.schema.searchable.isEmpty || MainSchema.contains(table.searchIndexName, in: db)
        if searchReady, table.indexes.allSatisfy({ indexes.contains($0.name(in: table.name)) }) {
            preparedTables.withLock { _ = $0.prepared.insert(ObjectIdentifier(table)) }
        }
        return .complete
    }

    /// Runs `body` on the reader with a temporary view named as `table` standing in for it: the
    /// rows the table will hold once a transaction prepares it. None when the committed state
    /// has no such table; its rows with `NULL` in the columns it lacks (version 0) otherwise,
    /// as `ALTER TABLE ... ADD COLUMN` will leave them. SQLite resolves an unqualified name in
    /// the temporary schema first, so the store's statements read the view unchanged.
    ///
    /// A nested load of the same table reads the view already there; the access that made it
    /// drops it, so the reader goes back to the table itself.
    func withStandIn<T>(
        for table: StoreTable, _ state: CommittedTableState, in db: Database, _ body: () throws -> T
    ) throws -> T {
        // sqlite_temp_master, not GRDB's schema cache: it knows no temporary schema before one
        // holds something.
        let standing = try Bool.fetchOne(
            db, sql: "SELECT 1 FROM sqlite_temp_master WHERE type = 'view' AND name = ?", arguments: [table.name])
        if standing == true { return try body() }
        let source: String
        switch state {
        case .complete:
            return try body()
        case .absent:
            let columns = table.columns.map { "NULL AS \(quoted($0.name))" } + ["0 AS \(quoted(StoreTable.versionColumn))"]
            source = "SELECT \(columns.joined(separator: ", ")) WHERE 0"
        case .lacking(let missing, let lacksVersion):
            let added = missing.map { "NULL AS \(quoted($0))" } + (lacksVersion ? ["0 AS \(quoted(StoreTable.versionColumn))"] : [])
            source = "SELECT *, \(added.joined(separator: ", ")) FROM main.\(table.quotedName)"
        }
        let drop = "DROP VIEW IF EXISTS temp.\(table.quotedName)"
        try db.execute(sql: "CREATE TEMP VIEW \(table.quotedName) AS \(source)")
        let result: T
        do {
            result = try body()
        } catch {
            try? db.execute(sql: drop)
            throw error
        }
        // Thrown, not ignored: a view left in place would hide the table from every later load.
        try db.execute(sql: drop)
        return result
    }

    /// Creates the model's table, or adds the columns it lacks, once per store.
    ///
    /// Columns are only added, never dropped or retyped: a row keeps the values of properties a
    /// later version renamed or removed, for the migration hook. New columns hold `NULL` in
    /// older rows, which reads as missing, so the property's default applies.
    func prepare(_ table: StoreTable, in db: Database) throws {
        let key = ObjectIdentifier(table)
        if preparedTables.withLock({ $0.prepared.contains(key) || $0.inTransaction.contains(key) }) { return }
        // Foreign keys go into a new table's definition (SQLite adds them no other way) and a
        // new column's; a table made before them keeps its columns as they are.
        let foreignKeys = try table.foreignKeys()
        func references(_ column: StoreTable.Column) -> String {
            guard let key = foreignKeys.first(where: { $0.column == column.name }) else { return "" }
            return " " + key.referencesClause(targetSQL: key.target.quotedName, quote: quoted)
        }
        try db.execute(sql: table.createSQL(adding: references))
        let existing = Set(try db.columns(in: table.name).map(\.name))
        for column in table.columns where !existing.contains(column.name) {
            try db.execute(sql: "ALTER TABLE \(table.quotedName) ADD COLUMN \(quoted(column.name)) \(column.sqlType)\(references(column))")
        }
        if !existing.contains(StoreTable.versionColumn) {
            try db.execute(
                sql: "ALTER TABLE \(table.quotedName) ADD COLUMN \(quoted(StoreTable.versionColumn)) INTEGER NOT NULL DEFAULT 0")
        }
        for sql in table.createIndexSQL { try db.execute(sql: sql) }
        try prepareSearch(of: table, in: db)
        // Known as prepared once the transaction that created it commits.
        if db.isInsideTransaction {
            preparedTables.withLock { _ = $0.inTransaction.insert(key) }
            let prepared = preparedTables
            db.afterNextTransaction(
                onCommit: { _ in prepared.withLock { $0.prepared.formUnion($0.inTransaction); $0.inTransaction = [] } },
                onRollback: { _ in prepared.withLock { $0.inTransaction = [] } })
        } else {
            preparedTables.withLock { _ = $0.prepared.insert(key) }
        }
        // The tables its foreign keys name exist before a row refers to them (SQLite checks a
        // foreign key against its table at each write).
        for foreignKey in foreignKeys { try prepare(foreignKey.target, in: db) }
    }
}

extension SQLiteStore {
    /// Creates the table's full-text index and the triggers that keep it in step, filling it
    /// from the rows already there when it is new.
    func prepareSearch(of table: StoreTable, in db: Database) throws {
        let statements = table.createSearchSQL
        guard !statements.isEmpty else { return }
        let exists = try MainSchema.contains(table.searchIndexName, in: db)
        for sql in statements { try db.execute(sql: sql) }
        if !exists {
            let index = quoted(table.searchIndexName)
            try db.execute(sql: "INSERT INTO \(index)(\(index)) VALUES ('rebuild')")
        }
    }
}

/// What a connection's main schema holds, asked of SQLite itself: GRDB's schema cache does not
/// see another connection's changes, and naming `main` keeps a stand-in of the same name in the
/// temporary schema (``SQLiteStore/withStandIn(for:_:in:_:)``) from counting.
enum MainSchema {
    /// The columns of a table in order; nil when there is no such table.
    static func columns(of table: String, in db: Database) throws -> [String]? {
        let names = try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info(?, 'main') ORDER BY cid", arguments: [table])
        return names.isEmpty ? nil : names
    }

    /// Whether a table, index or trigger of that name exists.
    static func contains(_ name: String, in db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT 1 FROM main.sqlite_master WHERE name = ?", arguments: [name]) == true
    }
}

/// How a store's committed state holds a model's table.
enum CommittedTableState: Equatable {
    /// With every column the model needs.
    case complete
    /// Not at all: no transaction created it yet.
    case absent
    /// Without some of the model's columns, or the version column, which a later version of the
    /// model added.
    case lacking(columns: [String], version: Bool)
}
