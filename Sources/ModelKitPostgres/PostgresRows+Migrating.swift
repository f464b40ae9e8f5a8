#if PostgreSQL
    import Foundation
    import ModelKitCore
    import ModelKitStore
    import PostgresNIO

    extension PostgresStore: MigratingStore {
        package func forgetPreparedTables() {
            prepared.withLock { $0 = [:] }
        }
    }

    extension PostgresRows: MigratingConnection {
        private var records: String { qualified(StoreMigrationRecord.tableName) }

        /// `"schema"."table"`.
        private func qualified(_ table: String) -> String {
            postgresQuoted(store.schema) + "." + postgresQuoted(table)
        }

        package func migrationRecords() async throws -> [StoreMigrationRecord] {
            // One migration at a time across processes: the lock is held to the end of the
            // transaction, so a second one reads the records the first committed.
            var lock = PostgresQuery(unsafeSQL: "SELECT pg_advisory_xact_lock($1, hashtext($2))")
            lock.binds.append(PostgresStore.definitionLock)
            lock.binds.append(store.schema + "." + StoreMigrationRecord.tableName)
            try await run(lock, table: nil)
            guard try await columnNames(ofTable: StoreMigrationRecord.tableName) != nil else { return [] }
            let rows = try await run(
                PostgresQuery(unsafeSQL: "SELECT \"name\", \"position\", \"appliedAt\" FROM \(records) ORDER BY \"position\""),
                table: StoreMigrationRecord.tableName)
            return try rows.map { row in
                let (name, position, applied) = try row.decode((String, Int64, String).self)
                return StoreMigrationRecord(
                    name: name, position: Int(position), appliedAt: StoreMigrationRecord.parse(applied) ?? .distantPast)
            }
        }

        package func record(_ record: StoreMigrationRecord) async throws {
            try await run(
                "CREATE TABLE IF NOT EXISTS \(records) (\"name\" text PRIMARY KEY, \"position\" bigint NOT NULL, "
                    + "\"appliedAt\" text NOT NULL)", table: StoreMigrationRecord.tableName)
            var insert = PostgresQuery(unsafeSQL: "INSERT INTO \(records) (\"name\", \"position\", \"appliedAt\") VALUES ($1, $2, $3)")
            insert.binds.append(record.name)
            insert.binds.append(Int64(record.position))
            insert.binds.append(StoreMigrationRecord.format(record.appliedAt))
            try await run(insert, table: StoreMigrationRecord.tableName)
        }

        package func prepareForMigration(_ table: StoreTable) async throws {
            _ = try await prepare(table)
        }

        package func columnNames(ofTable table: String) async throws -> [String]? {
            let columns = try await columnTypes(of: table).map(\.name)
            return columns.isEmpty ? nil : columns
        }

        /// A table's columns in order, each with its type as SQL spells it (`bigint`, `text`, ...).
        func columnTypes(of table: String) async throws -> [(name: String, type: String)] {
            var query = PostgresQuery(unsafeSQL: "SELECT attname::text, format_type(atttypid, atttypmod) FROM pg_attribute "
                + "WHERE attrelid = to_regclass($1) AND attnum > 0 AND NOT attisdropped ORDER BY attnum")
            query.binds.append(qualified(table))
            return try await run(query, table: table).map { row in
                let (name, type) = try row.decode((String, String).self)
                return (name, type)
            }
        }

        /// Every column of `columns` as a `SELECT` reads it: types the store reads natively as they
        /// are, the others as their text.
        static func selectList(_ columns: [(name: String, type: String)]) -> String {
            columns.map { column in
                PostgresColumnType.readsNatively(column.type) ? postgresQuoted(column.name) : "\(postgresQuoted(column.name))::text"
            }.joined(separator: ", ")
        }

        /// A row of a ``selectList(_:)`` select, by column name.
        static func values(
            of row: PostgresRow, columns: [(name: String, type: String)], table: String, identifier: StoreValue?
        ) throws -> [String: StoreValue] {
            var values: [String: StoreValue] = [:]
            for (cell, column) in zip(row, columns) {
                do {
                    values[column.name] = try PostgresColumnType.anyValue(of: cell) ?? .text(try cell.decode(String.self))
                } catch {
                    throw StoreError(
                        .undecodableRow, table: table, identifier: identifier?.quotedDescription,
                        reason: "the column '\(column.name)' of type '\(column.type)' cannot be read", underlying: error)
                }
            }
            return values
        }

        package func alter(_ change: StoreSchemaChange) async throws {
            defer {
                state.withLock { $0.prepared = [:] }
                store.forgetPreparedTables()
            }
            let table = qualified(change.table)
            switch change {
            case .renameColumn(_, let from, let to):
                if try await columnNames(ofTable: change.table)?.contains(to) == true {
                    try await run(
                        "UPDATE \(table) SET \(postgresQuoted(to)) = COALESCE(\(postgresQuoted(to)), \(postgresQuoted(from)))",
                        table: change.table)
                    try await run("ALTER TABLE \(table) DROP COLUMN \(postgresQuoted(from))", table: change.table)
                } else {
                    try await run("ALTER TABLE \(table) RENAME COLUMN \(postgresQuoted(from)) TO \(postgresQuoted(to))", table: change.table)
                }
            case .dropColumn(_, let column):
                // PostgreSQL drops the indexes on the column with it.
                try await run("ALTER TABLE \(table) DROP COLUMN \(postgresQuoted(column))", table: change.table)
            case .addColumn(_, let column, let kind):
                let type = kind.map { PostgresColumnType($0).definition } ?? PostgresColumnType.text.definition
                try await run("ALTER TABLE \(table) ADD COLUMN \(postgresQuoted(column)) \(type)", table: change.table)
            case .renameTable(_, let newName):
                try await run("ALTER TABLE \(table) RENAME TO \(postgresQuoted(newName))", table: change.table)
            case .addIndex(_, let index):
                let sql = StoreTable.createIndexSQL([index], table: change.table, on: table, quote: postgresQuoted)[0]
                do {
                    try await run(sql, table: change.table)
                } catch let error as StoreError
                    where (error.underlying as? PSQLError)?.serverInfo?[.sqlState] == "23505" {
                    throw StoreError.rowsClash(index, table: change.table, underlying: error.underlying)
                }
            case .dropIndex(_, let index):
                try await run(
                    "DROP INDEX IF EXISTS \(postgresQuoted(store.schema)).\(postgresQuoted(index.name(in: change.table)))",
                    table: change.table)
            }
        }

        package func allRows(ofTable table: String, identifierColumn: String) async throws -> [[String: StoreValue]] {
            let columns = try await columnTypes(of: table)
            guard !columns.isEmpty else { return [] }
            let sql = "SELECT \(Self.selectList(columns)) FROM \(qualified(table)) ORDER BY \(postgresQuoted(identifierColumn))"
            return try await run(PostgresQuery(unsafeSQL: sql), table: table).map { row in
                try Self.values(of: row, columns: columns, table: table, identifier: nil)
            }
        }

        package func update(
            table: String, identifierColumn: String, identifier: StoreValue, values: [String: StoreValue]
        ) async throws {
            let types = Dictionary(try await columnTypes(of: table).map { ($0.name, $0.type) }, uniquingKeysWith: { a, _ in a })
            let names = values.keys.sorted()
            // Each value bound as its text and cast to the column's type, which PostgreSQL parses
            // the way it parses a literal: whatever the column's type, one way to bind.
            var query = PostgresQuery(unsafeSQL: "")
            var assignments: [String] = []
            for (index, name) in names.enumerated() {
                query.binds.append(values[name]!.postgresText)
                assignments.append("\(postgresQuoted(name)) = CAST($\(index + 1) AS \(types[name] ?? "text"))")
            }
            query.binds.append(identifier.postgresText)
            query.sql = "UPDATE \(qualified(table)) SET \(assignments.joined(separator: ", ")) WHERE \(postgresQuoted(identifierColumn)) = "
                + "CAST($\(names.count + 1) AS \(types[identifierColumn] ?? "text"))"
            try await run(query, table: table)
            state.withLock { $0.changes[table, default: StoreChange(modelName: table)].saved += 1 }
        }
    }

    extension StoreValue {
        /// The value as PostgreSQL's text input for a column takes it; nil for `NULL`.
        fileprivate var postgresText: String? {
            switch self {
            case .null: return nil
            case .integer(let value): return String(value)
            case .real(let value): return value.description
            case .text(let text): return text
            case .blob(let data): return "\\x" + data.map { String(format: "%02x", $0) }.joined()
            }
        }
    }
#endif
