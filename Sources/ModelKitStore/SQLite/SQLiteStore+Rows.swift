import Foundation
import GRDB
import ModelKitCore

extension SQLiteStore {
    public func save<S: Sequence>(_ models: S) throws where S.Element: Model {
        let table = try StoreTable.of(S.Element.self)
        try write(table, sql: table.upsertSQL) { db in
            // The statement of the last table written: a batch of one type looks it up once.
            var current: (table: StoreTable, statement: Statement)?
            var encoder = RowEncoder { table, values in
                if current?.table !== table {
                    try self.prepare(table, in: db)
                    let statement = try db.cachedStatement(sql: table.upsertSQL)
                    statement.prepareForBinding(count: table.columns.count + 1)
                    current = (table, statement)
                }
                guard let statement = current?.statement else { return }
                do {
                    try statement.bindAndExecute(values, version: table.schema.version)
                } catch {
                    throw StoreError.wrapping(
                        error, table: table.name, identifier: values[table.identifierColumn].quotedDescription,
                        sql: table.upsertSQL)
                }
            }
            try encoder.encode(models)
        }
    }

    public func fetchCount<M: Model>(_ query: ModelQuery<M>) throws -> Int {
        let statement = try query.resolved().countSQL()
        let table = try StoreTable.of(M.self)
        return try read(table, sql: statement.sql) { db in
            try Int.fetchOne(db.cachedStatement(sql: statement.sql), arguments: StatementArguments(storeValues: statement.arguments)) ?? 0
        }
    }

    @discardableResult
    public func deleteOne<M: Model, ID: Hashable & Sendable>(_ type: M.Type, id: ID) throws -> Bool {
        let table = try StoreTable.of(M.self)
        let key = try table.identifierValue(id)
        return try write(table, sql: table.deleteByIdentifierSQL) { db in
            try db.cachedStatement(sql: table.deleteByIdentifierSQL).execute(arguments: [key.databaseValue])
            return db.changesCount > 0
        }
    }

    @discardableResult
    public func deleteAll<M: Model>(_ query: ModelQuery<M>) throws -> Int {
        let resolved = try query.resolved()
        let statement = resolved.deleteSQL()
        return try write(resolved.table, sql: statement.sql) { db in
            try db.execute(sql: statement.sql, arguments: StatementArguments(storeValues: statement.arguments))
            return db.changesCount
        }
    }

    // MARK: Rows for the engine

    func selectRows(_ query: ResolvedQuery) throws -> [StoredRow] {
        let statement = query.selectSQL()
        return try read(query.table, sql: statement.sql) { db in
            let select = try db.cachedStatement(sql: statement.sql)
            let cursor = try Row.fetchCursor(select, arguments: StatementArguments(storeValues: statement.arguments))
            var rows: [StoredRow] = []
            while try cursor.next() != nil {
                rows.append(Self.currentRow(of: select, columns: query.table.columns.count))
            }
            return rows
        }
    }

    func selectRow(_ table: StoreTable, identifier: StoreValue) throws -> StoredRow? {
        try read(table, sql: table.selectByIdentifierSQL) { db in
            let select = try db.cachedStatement(sql: table.selectByIdentifierSQL)
            let cursor = try Row.fetchCursor(select, arguments: [identifier.databaseValue])
            guard try cursor.next() != nil else { return nil }
            return Self.currentRow(of: select, columns: table.columns.count)
        }
    }

    func selectAllColumns(_ table: StoreTable, identifier: StoreValue) throws -> [String: StoreValue] {
        try read(table, sql: table.selectRowByIdentifierSQL) { db in
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
