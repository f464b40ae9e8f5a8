#if PostgreSQL
    import Foundation
    import Logging
    import ModelKitCore
    import ModelKitStore
    import PostgresNIO

    /// A store in a PostgreSQL database that many processes share: a table per model type, through
    /// PostgresNIO's connection pool.
    ///
    /// The layout is `SQLiteStore`'s with PostgreSQL's types (`bigint`, `boolean`,
    /// `double precision`, `text`, `bytea`, `timestamptz`, `numeric`, `uuid`, `jsonb`), in a schema
    /// of its own choosing (`public` by default). Tables are created, and columns added, the first
    /// time a store meets a type. Write transactions run concurrently on the server; rows are
    /// written in identifier order, so writers saving overlapping models do not deadlock. A read
    /// transaction is one `REPEATABLE READ` snapshot. ``changes(to:)`` sees every commit to the
    /// schema, from this store, other stores and other processes (`LISTEN`/`NOTIFY`).
    ///
    /// ```swift
    /// let store = try PostgresStore(url: "postgres://app@127.0.0.1:5432/models")
    /// try await store.save(timeline.statuses)
    /// let ja = try await store.fetchAll(ModelQuery(Status.self).filter(\Status.lang == "ja"))
    /// await store.close()
    /// ```
    public final class PostgresStore: ModelStore, StoreEngine, OnceReading, Sendable {
        /// The connection pool, for raw SQL next to the store.
        public let client: PostgresClient
        /// The schema the store's tables are in.
        public let schema: String
        /// How long a call waits for a connection before it fails (the server down or unreachable,
        /// or every connection busy): a `StoreError` of kind `.database` then, not a hang.
        public let connectionTimeout: Duration
        let logger: Logger
        private let runner: Task<Void, Never>
        private let hub: StoreChangeHub
        private let listener: PostgresChangeListener
        /// The layouts of tables known to exist with every column, by table name.
        let prepared = Locked<[String: PostgresTableLayout]>([:])
        private let isClosed = Locked(false)
        /// Tells this store's own notifications from other stores' and processes'.
        let origin: String

        /// The first key of the advisory locks taken while a table is created or altered (the
        /// second is the table's name hashed).
        static let definitionLock: Int32 = 0x4D4B_5354  // "MKST"
        /// Set once the schema is known to exist.
        private let schemaExists = Locked(false)
        /// The channel commits are announced on.
        static let channel = "modelkit_changes"

        /// A store on the database a `postgres://` URL names, its tables in `schema`.
        ///
        /// The URL is `postgres://user[:password]@host[:port]/database`, with `?sslmode=disable`,
        /// `prefer` (the default) or `require` (the server's certificate verified, against
        /// `&sslrootcert=path` when given), and `?schema=name` in place of the argument.
        ///
        /// ```swift
        /// let store = try PostgresStore(url: "postgres://app@127.0.0.1:5432/models?sslmode=disable")
        /// ```
        public convenience init(
            url: String, schema: String? = nil, maximumConnections: Int = 20, connectionTimeout: Duration = .seconds(10)
        ) throws {
            let parsed = try PostgresURL(url)
            var configuration = parsed.configuration
            configuration.options.maximumConnections = maximumConnections
            self.init(configuration: configuration, schema: schema ?? parsed.schema ?? "public", connectionTimeout: connectionTimeout)
        }

        /// A store over a PostgresNIO client configuration, its tables in `schema` (created when
        /// missing).
        public init(configuration: PostgresClient.Configuration, schema: String = "public", connectionTimeout: Duration = .seconds(10)) {
            self.connectionTimeout = connectionTimeout
            var logger = Logger(label: "ModelKitPostgres")
            logger.logLevel = .critical
            let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
            self.client = client
            self.schema = schema
            self.logger = logger
            self.runner = Task { await client.run() }
            let origin = UUID().uuidString
            self.origin = origin
            let listener = PostgresChangeListener(client: client, schema: schema, origin: origin, logger: logger)
            self.listener = listener
            self.hub = StoreChangeHub { hub in listener.start(posting: hub) }
        }

        deinit {
            listener.stop()
            runner.cancel()
        }

        public func changes<M: Model>(to type: M.Type) -> StoreChanges {
            hub.subscribe(table: M.modelSchema.storeTableName)
        }

        /// Returns once the store listens for other stores' and processes' commits, starting to
        /// listen if no ``changes(to:)`` sequence has yet: a commit made elsewhere after this
        /// returns is seen by every sequence.
        ///
        /// ```swift
        /// let changes = store.changes(to: Status.self)
        /// try await store.listening()
        /// // another process saves a status: `changes` yields it
        /// ```
        public func listening() async throws {
            listener.start(posting: hub)
            try await listener.ready()
        }

        /// Closes the pool and stops listening: later calls throw `StoreError` of kind `.closed`,
        /// and the change sequences end. Calling it twice is harmless.
        public func close() async {
            guard isClosed.withLock({ closed in defer { closed = true }; return !closed }) else { return }
            listener.stop()
            hub.finish()
            runner.cancel()
            await runner.value
        }

        func checkOpen() throws {
            if isClosed.withLock({ $0 }) { throw StoreError(.closed, reason: "it was closed") }
        }

        /// The error for a call that got no connection within ``connectionTimeout``.
        func unreachable(_ error: PostgresUnreachable) -> StoreError {
            StoreError(
                .database,
                reason: "no connection to the PostgreSQL server within \(error.limit) (it is down, unreachable, or every connection is busy)")
        }

        // MARK: Tables

        /// Creates the store's schema if it is missing, once, before the store's first transaction
        /// and outside it (an empty schema harms nothing; waiting for another transaction's
        /// uncommitted schema would).
        func createSchema() async throws {
            if schemaExists.withLock({ $0 }) { return }
            let sql = "CREATE SCHEMA IF NOT EXISTS \(postgresQuoted(schema))"
            do {
                let lease = try await PostgresLease.take(from: client, within: connectionTimeout)
                defer { lease.release() }
                try await lease.connection.query(PostgresQuery(unsafeSQL: sql), logger: logger)
            } catch let error as PSQLError where ["23505", "42P06"].contains(error.serverInfo?[.sqlState] ?? "") {
                // Another process created it at the same moment.
            } catch let error as PostgresUnreachable {
                throw unreachable(error)
            } catch {
                throw Self.storeError(error, table: nil, sql: sql)
            }
            schemaExists.withLock { $0 = true }
        }

        /// The layout of a table already prepared in this store, if any.
        func preparedLayout(_ table: StoreTable) -> PostgresTableLayout? {
            prepared.withLock { $0[table.name] }.flatMap { $0.table === table ? $0 : nil }
        }

        /// A layout of `table` in the store's schema.
        func layout(of table: StoreTable) -> PostgresTableLayout {
            preparedLayout(table) ?? PostgresTableLayout(table, schema: schema)
        }

        // MARK: Transactions

        package func transaction<T>(_ kind: StoreTransactionKind, _ body: (PostgresRows) async throws -> T)
            async throws -> T
        {
            try checkOpen()
            // Before the transaction takes a connection: creating it needs one of its own.
            try await createSchema()
            let lease: PostgresLease
            do {
                lease = try await PostgresLease.take(from: client, within: connectionTimeout)
            } catch let error as PSQLError {
                throw Self.storeError(error, table: nil, sql: nil)
            } catch let error as PostgresUnreachable {
                throw unreachable(error)
            }
            defer { lease.release() }
            let connection = lease.connection
            if kind == .readOnce {
                // One statement is a snapshot by itself: no BEGIN, no COMMIT. A body that needs a
                // second statement runs again, in a read transaction.
                let rows = PostgresRows(store: self, connection: connection, singleStatement: true)
                do {
                    return try await body(rows)
                } catch where rows.neededTransaction {}
            }
            return try await run(kind, on: connection, body)
        }

        /// Runs `body` between `BEGIN` and `COMMIT` on `connection`.
        ///
        /// The `BEGIN` is sent without waiting, so it shares the first statement's round trip; a
        /// write's `NOTIFY`s and `COMMIT` go together too, and the commit is awaited (a failed
        /// `NOTIFY` aborts the transaction, so its error is the commit's). A read's `COMMIT` only
        /// ends the snapshot: it is sent, and the connection's next user queues behind it.
        private func run<T>(
            _ kind: StoreTransactionKind, on connection: PostgresConnection, _ body: (PostgresRows) async throws -> T
        ) async throws -> T {
            let rows = PostgresRows(store: self, connection: connection)
            let begin = rows.send(
                kind == .write ? "BEGIN ISOLATION LEVEL READ COMMITTED" : "BEGIN ISOLATION LEVEL REPEATABLE READ")
            // (A `.readOnce` body arrives here when it needed more than one statement.)
            let result: T
            let changes: [StoreChange]
            do {
                result = try await body(rows)
                try await wait(for: begin, sql: "BEGIN")
                changes = rows.changes
                if kind == .write {
                    let notifications = changes.map { rows.send(announcement(of: $0)) }
                    let commit = rows.send("COMMIT")
                    for notification in notifications { try await wait(for: notification, sql: "NOTIFY") }
                    // A transaction an error aborted answers COMMIT with ROLLBACK (a statement's
                    // error the closure caught and went on from).
                    if try await wait(for: commit, sql: "COMMIT") == "ROLLBACK" {
                        throw StoreError(
                            .database, sql: "COMMIT",
                            reason: "the server rolled the transaction back: a statement in it failed earlier")
                    }
                } else {
                    let logger = logger
                    rows.send("COMMIT").whenFailure { logger.debug("ending a read transaction failed: \($0)") }
                }
            } catch {
                _ = try? await begin.get()
                do {
                    try await rows.run("ROLLBACK")
                } catch {
                    // The connection is in no state to serve another transaction.
                    try? await connection.close()
                }
                throw error
            }
            let layouts = rows.preparedLayouts
            if !layouts.isEmpty {
                prepared.withLock { prepared in for layout in layouts { prepared[layout.table.name] = layout } }
            }
            hub.post(changes)
            return result
        }

        /// Waits for a statement sent without waiting; its command tag (`COMMIT`, `ROLLBACK`, ...).
        @discardableResult
        private func wait(for statement: EventLoopFuture<PostgresQueryResult>, sql: String) async throws -> String {
            do {
                return try await statement.get().metadata.command
            } catch {
                throw Self.storeError(error, table: nil, sql: sql)
            }
        }

        /// The `NOTIFY` announcing `change` to the stores listening, which PostgreSQL delivers
        /// when, and only if, the transaction commits.
        private func announcement(of change: StoreChange) -> PostgresQuery {
            var query = PostgresQuery(unsafeSQL: "SELECT pg_notify($1, $2)")
            query.binds.append(Self.channel)
            query.binds.append(PostgresChangeListener.payload(change, schema: schema, origin: origin))
            return query
        }

        // MARK: Errors

        /// What PostgresNIO threw, as a ``StoreError`` naming the server's message.
        static func storeError(_ error: any Error, table: String?, sql: String?) -> StoreError {
            if let error = error as? StoreError { return error }
            guard let error = error as? PSQLError else { return StoreError.wrapping(error, table: table, sql: sql) }
            var reason: String
            if let message = error.serverInfo?[.message] {
                reason = "PostgreSQL error \(error.serverInfo?[.sqlState] ?? "?"): \(message)"
                if let detail = error.serverInfo?[.detail] { reason += " (\(detail))" }
            } else {
                reason = "PostgreSQL connection: \(error.code)"
                if let underlying = error.underlying { reason += ": \(underlying)".lowercasedFirst }
            }
            let kind: StoreError.Kind = error.code == .poolClosed ? .closed : .database
            return StoreError(kind, table: table, sql: sql, reason: reason, underlying: error)
        }
    }
#endif
