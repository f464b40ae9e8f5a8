#if PostgreSQL
    import Foundation
    import Logging
    import ModelKitCore
    import ModelKitStore
    import PostgresNIO

    /// A PostgreSQL store's rows inside one of its transactions: one pooled connection, in the
    /// `BEGIN` the store issued, until its `COMMIT` or `ROLLBACK`.
    ///
    /// Every call suspends (the server is across a socket), so the shared code reads the rows
    /// references need in rounds, one query per table.
    package final class PostgresRows: StoreConnection {
        let store: PostgresStore
        let connection: PostgresConnection
        /// What the transaction changed, by table, and the tables it created or brought up to date.
        let state = Locked<(changes: [String: StoreChange], prepared: [String: PostgresTableLayout])>(([:], [:]))

        /// For a ``StoreTransactionKind/readOnce`` read outside a transaction: the statements
        /// run so far, at most one.
        private let statementLimit: Locked<(limited: Bool, run: Int, exceeded: Bool)>
        /// The number of the next cursor the transaction declares.
        private let cursorNumber = Locked(0)

        init(store: PostgresStore, connection: PostgresConnection, singleStatement: Bool = false) {
            self.store = store
            self.connection = connection
            self.statementLimit = Locked((singleStatement, 0, false))
        }

        /// Whether a single-statement read asked for a second statement (and must run again in
        /// a transaction).
        var neededTransaction: Bool {
            statementLimit.withLock { $0.exceeded }
        }

        // MARK: Running SQL

        /// Runs one statement and returns its rows, turning PostgreSQL's errors into ``StoreError``s.
        @discardableResult
        func run(_ query: PostgresQuery, table: String?) async throws -> [PostgresRow] {
            let allowed = statementLimit.withLock { limit in
                guard limit.limited else { return true }
                limit.run += 1
                if limit.run > 1 { limit.exceeded = true }
                return !limit.exceeded
            }
            guard allowed else { throw SecondStatement() }
            do {
                return try await connection.query(query, logger: store.logger).collect()
            } catch {
                throw PostgresStore.storeError(error, table: table, sql: query.sql)
            }
        }

        func run(_ sql: String, table: String? = nil) async throws {
            try await run(PostgresQuery(unsafeSQL: sql), table: table)
        }

        /// Sends a statement without waiting for its answer: the connection runs statements in
        /// the order they are sent, so a `BEGIN` sent this way shares the next statement's round
        /// trip. Its result, or error, comes with the returned future.
        func send(_ query: PostgresQuery) -> EventLoopFuture<PostgresQueryResult> {
            connection.query(query, logger: store.logger)
        }

        // MARK: Tables

        /// The layout of `table`, creating the table (and the store's schema), or adding the
        /// columns it lacks, the first time the store meets it.
        ///
        /// Tables are created inside the transaction that first needs them, so a transaction that
        /// rolls back leaves none behind; an advisory lock per table keeps two processes from
        /// creating one table at once, and the `IF NOT EXISTS` clauses see what the other one
        /// committed. The store created its schema before the transaction began.
        /// The layout of a query's table, prepared with the tables its conditions through
        /// references name (created empty when no row was saved to them yet).
        func prepare(_ query: ResolvedQuery) async throws -> PostgresTableLayout {
            for related in query.relatedTables { _ = try await prepare(related) }
            return try await prepare(query.table)
        }

        func prepare(_ table: StoreTable) async throws -> PostgresTableLayout {
            if let layout = store.preparedLayout(table) ?? state.withLock({ $0.prepared[table.name] }) { return layout }
            let layout = store.layout(of: table)
            var query = PostgresQuery(unsafeSQL: "SELECT column_name::text FROM information_schema.columns "
                + "WHERE table_schema = $1 AND table_name = $2")
            query.binds.append(store.schema)
            query.binds.append(table.name)
            let existing = Set(try await run(query, table: table.name).map { try $0.decode(String.self) })
            let wanted = table.columns.map(\.name) + [StoreTable.versionColumn]
            if !wanted.allSatisfy(existing.contains) || !layout.createIndexSQL.isEmpty {
                try await lockDefinition(of: table)
                try await run(layout.createSQL, table: table.name)
                for sql in layout.addColumnsSQL() + layout.createIndexSQL { try await run(sql, table: table.name) }
            }
            // Known before its foreign keys, whose tables may name it back.
            state.withLock { $0.prepared[table.name] = layout }
            try await addForeignKeys(of: table, layout: layout)
            return layout
        }

        /// Adds the foreign keys `table` lacks (``StoreForeignKey``), creating the tables they
        /// name first: `NOT VALID`, so rows written before them are not checked, as SQLite's
        /// older tables are not.
        private func addForeignKeys(of table: StoreTable, layout: PostgresTableLayout) async throws {
            let foreignKeys = try table.foreignKeys()
            guard !foreignKeys.isEmpty else { return }
            var query = PostgresQuery(unsafeSQL: "SELECT conname::text FROM pg_constraint WHERE conrelid = $1::regclass AND contype = 'f'")
            query.binds.append(layout.qualifiedName)
            let present = Set(try await run(query, table: table.name).map { try $0.decode(String.self) })
            let missing = foreignKeys.filter { !present.contains(Self.constraintName(of: $0, in: table)) }
            guard !missing.isEmpty else { return }
            try await lockDefinition(of: table)
            // Another process may have added them meanwhile: asked again under the lock.
            let added = Set(try await run(query, table: table.name).map { try $0.decode(String.self) })
            for key in missing where !added.contains(Self.constraintName(of: key, in: table)) {
                let target = key.target === table ? layout : try await prepare(key.target)
                try await run(
                    "ALTER TABLE \(layout.qualifiedName) ADD CONSTRAINT \(postgresQuoted(Self.constraintName(of: key, in: table))) "
                        + "FOREIGN KEY (\(postgresQuoted(key.column))) "
                        + key.referencesClause(targetSQL: target.qualifiedName, quote: postgresQuoted) + " NOT VALID",
                    table: table.name)
            }
        }

        /// Takes the lock on `table`'s definition: one lock per table, held to the end of the
        /// transaction, so only a transaction changing the same table's definition waits for this one.
        private func lockDefinition(of table: StoreTable) async throws {
            var lock = PostgresQuery(unsafeSQL: "SELECT pg_advisory_xact_lock($1, hashtext($2))")
            lock.binds.append(PostgresStore.definitionLock)
            lock.binds.append(store.schema + "." + table.name)
            try await run(lock, table: table.name)
        }

        /// `Table_column_fkey`, PostgreSQL's own name for such a constraint, cut to the 63 bytes a
        /// name may have (as PostgreSQL would cut it).
        static func constraintName(of key: StoreForeignKey, in table: StoreTable) -> String {
            var name = ""
            for character in "\(table.name)_\(key.column)_fkey" {
                guard name.utf8.count + String(character).utf8.count <= 63 else { break }
                name.append(character)
            }
            return name
        }

        // MARK: StoreConnection

        package func upsert(_ table: StoreTable, rows: [[StoreValue]]) async throws {
            guard !rows.isEmpty else { return }
            let layout = try await prepare(table)
            // In identifier order, so that writers upserting overlapping rows lock them in one
            // order and never deadlock.
            let identifier = table.identifierColumn
            let sorted = rows.sorted { StoreValue.compare($0[identifier], $1[identifier]) < 0 }
            do {
                try await run(try layout.upsert(sorted[...]), table: table.name)
            } catch let error as StoreError {
                throw layout.uniqueViolation(error) ?? error
            }
            note(table.name) { $0.saved += rows.count }
        }

        package func selectRows(_ query: ResolvedQuery) async throws -> [StoredRow] {
            let layout = try await prepare(query)
            var dialect = PostgresDialect(layout)
            let sql = try query.select(&dialect)
            return try await run(dialect.query(sql), table: query.table.name).map { try decode($0, layout) }
        }

        /// A server-side cursor (`DECLARE ... NO SCROLL CURSOR`) in the transaction, read with
        /// `FETCH FORWARD size` until it is done, and closed.
        package func selectRows(
            _ query: ResolvedQuery, inBatchesOf size: Int, _ body: ([StoredRow]) async throws -> Void
        ) async throws {
            let layout = try await prepare(query)
            var dialect = PostgresDialect(layout)
            let sql = try query.select(&dialect)
            // Unique in the transaction, however many cursors it opens.
            let name = "modelkit_cursor_" + String(cursorNumber.withLock { number in defer { number += 1 }; return number })
            var declare = dialect.query(sql)
            declare.sql = "DECLARE \(name) NO SCROLL CURSOR FOR " + declare.sql
            try await run(declare, table: query.table.name)
            while true {
                let rows = try await run(PostgresQuery(unsafeSQL: "FETCH FORWARD \(size) FROM \(name)"), table: query.table.name)
                if rows.isEmpty { break }
                try await body(try rows.map { try decode($0, layout) })
                if rows.count < size { break }
            }
            try await run("CLOSE \(name)", table: query.table.name)
        }

        package func selectRows(_ table: StoreTable, identifiers: [StoreValue]) async throws -> [StoredRow] {
            guard !identifiers.isEmpty else { return [] }
            let layout = try await prepare(table)
            var rows: [StoredRow] = []
            var start = 0
            while start < identifiers.count {
                let end = min(identifiers.count, start + 1000)
                let query = try select(identifiers[start..<end], layout)
                rows += try await run(query, table: table.name).map { try decode($0, layout) }
                start = end
            }
            return rows
        }

        package func selectAllColumns(_ table: StoreTable, identifier: StoreValue) async throws -> [String: StoreValue] {
            let layout = try await prepare(table)
            let columns = try await columnTypes(of: table.name)
            var bindings = PostgresBindings()
            try layout.identifierType.bind(identifier, to: &bindings)
            let sql = "SELECT \(Self.selectList(columns)) FROM \(layout.qualifiedName) "
                + "WHERE \(layout.quotedIdentifier) = \(layout.identifierType.placeholder(1))"
            guard let row = try await run(PostgresQuery(unsafeSQL: sql, binds: bindings), table: table.name).first else {
                return [:]
            }
            return try Self.values(of: row, columns: columns, table: table.name, identifier: identifier)
        }

        package func count(_ query: ResolvedQuery) async throws -> Int {
            let layout = try await prepare(query)
            var dialect = PostgresDialect(layout)
            let sql = try query.count(&dialect)
            let rows = try await run(dialect.query(sql), table: query.table.name)
            return Int(try rows.first?.decode(Int64.self) ?? 0)
        }

        package func selectValues(_ selection: ResolvedSelection) async throws -> [[StoreValue]] {
            let layout = try await prepare(selection.query)
            var dialect = PostgresDialect(layout)
            let sql = try selection.select(&dialect)
            let types = selection.outputs.map(dialect.resultType)
            return try await run(dialect.query(sql), table: layout.table.name).map { row in
                var values: [StoreValue] = []
                values.reserveCapacity(types.count)
                for (cell, type) in zip(row, types) {
                    do {
                        values.append(try type.value(of: cell))
                    } catch {
                        throw StoreError(
                            .undecodableRow, table: layout.table.name, reason: "a selected value is not a \(type.rawValue): \(error)",
                            underlying: error)
                    }
                }
                return values
            }
        }

        package func delete(_ query: ResolvedQuery) async throws -> Int {
            let layout = try await prepare(query)
            var dialect = PostgresDialect(layout)
            let sql = "WITH deleted AS (\(try query.delete(&dialect)) RETURNING 1) SELECT COUNT(*) FROM deleted"
            let rows = try await run(dialect.query(sql), table: query.table.name)
            let deleted = Int(try rows.first?.decode(Int64.self) ?? 0)
            if deleted > 0 { note(query.table.name) { $0.deleted += deleted } }
            return deleted
        }

        // MARK: Helpers

        private func select(_ identifiers: ArraySlice<StoreValue>, _ layout: PostgresTableLayout) throws -> PostgresQuery {
            do {
                return try layout.select(identifiers: identifiers)
            } catch {
                throw StoreError(.unencodableValue, table: layout.table.name, reason: "an identifier: \(error)", underlying: error)
            }
        }

        private func decode(_ row: PostgresRow, _ layout: PostgresTableLayout) throws -> StoredRow {
            do {
                return try layout.storedRow(row)
            } catch {
                throw StoreError(
                    .undecodableRow, table: layout.table.name, reason: "a row does not have the types its columns should: \(error)",
                    underlying: error)
            }
        }

        private func note(_ table: String, _ change: (inout StoreChange) -> Void) {
            state.withLock { change(&$0.changes[table, default: StoreChange(modelName: table)]) }
        }

        /// The changes made so far, by table name order.
        var changes: [StoreChange] {
            state.withLock { $0.changes.values.sorted { $0.modelName < $1.modelName } }
        }

        /// The layouts this transaction prepared, known to the store once it commits.
        var preparedLayouts: [PostgresTableLayout] {
            state.withLock { Array($0.prepared.values) }
        }
    }

    /// What a single-statement read throws at its second statement.
    struct SecondStatement: Error, CustomStringConvertible {
        var description: String { "the read needs a transaction" }
    }
#endif
