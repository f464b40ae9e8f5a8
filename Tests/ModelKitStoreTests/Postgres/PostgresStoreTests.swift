#if PostgreSQL
    import Foundation
    import ModelKit
    import ModelKitPostgres
    import ModelKitStore
    import ModelKitTestSupport
    import PostgresNIO
    import Testing

    /// What only PostgreSQL's store does: its column types, other stores' and processes' commits,
    /// many writers at once, and a writer killed in the middle of a transaction.
    @Suite(.enabled(if: PostgresTestServer.isAvailable, "needs MODELKIT_POSTGRES_URL"))
    struct PostgresStoreTests {
        @Test func columnsHavePostgreSQLsOwnTypes() async throws {
            let store = try PostgresTestServer.makeStore()
            try await store.save(makeBook(author: Author(id: 1, name: "Ada")))
            var query = PostgresQuery(unsafeSQL: "SELECT column_name::text, data_type::text FROM information_schema.columns "
                + "WHERE table_schema = $1 AND table_name = 'Book'")
            query.binds.append(store.schema)
            let rows = try await store.client.query(query).collect()
            let types = Dictionary(uniqueKeysWithValues: try rows.map { try $0.decode((String, String).self) })
            expectEqual(types, [
                "isbn": "text", "title": "text", "author": "bigint", "editor": "bigint", "pages": "bigint",
                "price": "numeric", "cover": "bytea", "published": "timestamp with time zone", "ratings": "jsonb",
                "chapters": "jsonb", "link": "text", "code": "uuid", "format": "text", "kind": "text", "_version": "bigint",
            ])
            var primary = PostgresQuery(unsafeSQL: "SELECT a.attname::text FROM pg_index i JOIN pg_attribute a "
                + "ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey) WHERE i.indrelid = ($1 || '.\"Book\"')::regclass AND i.indisprimary")
            primary.binds.append("\"" + store.schema + "\"")
            try await expectEqual(store.client.query(primary).collect().map { try $0.decode(String.self) }, ["isbn"])
            await store.close()
        }

        /// A date keeps its microseconds (timestamptz's precision), rounded to the nearest; a
        /// date query binds a timestamptz, so `<` compares instants.
        @Test func datesKeepMicroseconds() async throws {
            let store = try PostgresTestServer.makeStore()
            let base = Date(timeIntervalSince1970: 1_700_000_000)
            let stamps = [0.000_001, 0.000_002_4, 0.000_002_6, 0.5].enumerated().map {
                Stamp(id: $0.offset, at: base.addingTimeInterval($0.element))
            }
            try await store.save(stamps)
            let read = try await store.fetchAll(ModelQuery(Stamp.self).order(by: \Stamp.at))
            let microseconds = read.map { Int(($0.at.timeIntervalSince(base) * 1_000_000).rounded()) }
            expectEqual(microseconds, [1, 2, 3, 500_000])
            try await expectEqual(store.fetchCount(ModelQuery(Stamp.self).filter(\Stamp.at > base.addingTimeInterval(0.000_002))), 2)
            await store.close()
        }

        @Test func aBadURLIsAClearError() {
            let error = #expect(throws: StoreError.self) { try PostgresStore(url: "postgres://x@h/db?colour=red") }
            #expect(error?.description == "cannot open the store: 'postgres://x@h/db?colour=red' is not a PostgreSQL URL: "
                + "the option 'colour' is not one the store knows (sslmode, sslrootcert, schema)")
            #expect(throws: StoreError.self) { try PostgresStore(url: "mysql://x@h/db") }
        }

        @Test func aClosedStoreRefusesWork() async throws {
            let store = try PostgresTestServer.makeStore()
            await store.close()
            let error = await #expect(throws: StoreError.self) { try await store.fetchCount(Counter.self) }
            #expect(error?.kind == .closed)
        }

        /// A table an older version of the app wrote: its rows go through the model's migration
        /// hooks (every column read by name, the old ones too), and the new columns are added.
        @Test func olderRowsGoThroughTheMigrationHook() async throws {
            let store = try PostgresTestServer.makeStore()
            let table = "\"\(store.schema)\".\"Person\""
            for sql in [
                "CREATE SCHEMA \"\(store.schema)\"",
                "CREATE TABLE \(table) (\"id\" bigint PRIMARY KEY, \"name\" text, \"nick\" text, \"nickname\" text, "
                    + "\"age\" bigint, \"born\" date, \"_version\" bigint NOT NULL DEFAULT 0)",
                "INSERT INTO \(table) (\"id\", \"name\", \"nick\", \"age\", \"born\", \"_version\") "
                    + "VALUES (1, 'Ada Lovelace', 'ada', 36, '1815-12-10', 0)",
                "INSERT INTO \(table) (\"id\", \"name\", \"nickname\", \"_version\") VALUES (2, 'Grace Brewster Hopper', 'amazing grace', 1)",
                "INSERT INTO \(table) (\"id\", \"name\", \"_version\") VALUES (3, '', 0)",
            ] {
                try await store.client.query(PostgresQuery(unsafeSQL: sql))
            }
            let ada = try #require(try await store.fetchOne(Person.self, id: 1))
            #expect(ada.firstName == "Ada" && ada.lastName == "Lovelace" && ada.nickname == "ada" && ada.age == 36)
            let people = try await store.fetchAll(ModelQuery(Person.self).filter(\Person.id < 3).order(by: \Person.id))
            #expect(people.map(\.lastName) == ["Lovelace", "Brewster Hopper"] && people[1].nickname == "amazing grace")
            let error = await #expect(throws: StoreError.self) { try await store.fetchOne(Person.self, id: 3) }
            #expect(error?.kind == .migrationFailed)

            var columns = PostgresQuery(unsafeSQL: "SELECT column_name::text FROM information_schema.columns "
                + "WHERE table_schema = $1 AND table_name = 'Person' ORDER BY ordinal_position")
            columns.binds.append(store.schema)
            let names = try await store.client.query(columns).collect().map { try $0.decode(String.self) }
            expectEqual(names, ["id", "name", "nick", "nickname", "age", "born", "_version", "firstName", "lastName"])
            try await store.save(ada)
            #expect(try await store.fetchOne(Person.self, id: 1)?.lastName == "Lovelace")
            await store.close()
        }

        /// `modelkit demo --db postgres://...` maps the payload into the database and edits it
        /// through a context, and a second run loads the first run's models and edits back.
        @Test func theDemoRunsOnPostgreSQL() async throws {
            let server = try #require(PostgresTestServer.url)
            let url = server + (server.contains("?") ? "&" : "?") + "schema=" + PostgresTestServer.newSchema()
            let first = await (try ModelKitTool.start(["demo", "--db", url])).finish()
            #expect(first.status == 0, "\(first.errorOutput)")
            #expect(first.output.contains("was empty\n") && first.output.contains(" statuses and 115 users in "))
            #expect(first.output.contains("after mapping the payload: hasChanges true, 230 inserted, 0 changed, 0 deleted\n"))
            let second = await (try ModelKitTool.start(["demo", "--db", url])).finish()
            #expect(second.status == 0, "\(second.errorOutput)")
            #expect(second.output.contains(" statuses by 115 users from the store in "), "\(second.output)")
            #expect(second.output.contains("mapping the payload updated the loaded instances in place: true\n"))
            #expect(second.output.hasPrefix("the last run's edits, loaded back:\n  status "), "\(second.output)")
            #expect(second.output.contains("after mapping the payload: hasChanges true, 0 inserted, 6 changed, 0 deleted\n"))
        }

        // MARK: Observing other stores and processes

        /// A context kept in step with the database (`refreshOnStoreChanges`, in a task of the
        /// test's actor) sees another store's commits, which reach it as another process's would:
        /// through LISTEN/NOTIFY.
        @MainActor @Test func aContextTakesAnotherStoresCommitsOnItsUneditedInstances() async throws {
            let schema = PostgresTestServer.newSchema()
            let mine = try PostgresTestServer.makeStore(schema: schema)
            let other = try PostgresTestServer.makeStore(schema: schema)
            try await mine.save([Author(id: 1, name: "Ada"), Author(id: 2, name: "Grace")])
            let context = ModelContext(store: mine)
            let authors = try await mine.fetchAll(ModelQuery(Author.self).order(by: \Author.id), context: context)
            let (ada, grace) = (authors[0], authors[1])
            grace.rating = 1   // edited here: the other store's value must not replace it
            try await mine.listening()
            let refreshing = Task { try await context.refreshOnStoreChanges(of: [Author.self]) }
            defer { refreshing.cancel() }
            var attempts = 0
            while ada.name != "Ada Lovelace", attempts < 200 {
                if attempts % 20 == 0 {
                    try await other.save([Author(id: 1, name: "Ada Lovelace"), Author(id: 2, name: "Grace Hopper")])
                }
                attempts += 1
                try await Task.sleep(for: .milliseconds(25))
            }
            expectEqual(ada.name, "Ada Lovelace")
            #expect((grace.name, grace.rating) == ("Grace", 1))
            expectEqual(context.changedModels.count, 1)
        }

        /// Another store on the same database, and another process, commit: this store's change
        /// sequence yields both, and nothing for a transaction that rolled back.
        @Test func changesCommittedByAnotherStoreAndAnotherProcessAreSeen() async throws {
            let schema = PostgresTestServer.newSchema()
            let observer = try PostgresTestServer.makeStore(schema: schema)
            let writer = try PostgresTestServer.makeStore(schema: schema)
            let changes = observer.changes(to: BatchItem.self)
            try await observer.listening()
            var iterator = changes.makeAsyncIterator()

            // A rollback in the other store: nothing.
            await #expect(throws: StoreTransactionTests.Refusal.self) {
                try await writer.write { tx in
                    try await tx.save(BatchItem(id: 1, batch: 0, payload: "rolled back"))
                    throw StoreTransactionTests.Refusal()
                }
            }
            try await writer.save((1...3).map { BatchItem(id: $0, batch: 1, payload: "store") })
            let first = await iterator.next()
            expectEqual(first, StoreChange(modelName: "BatchItem", saved: 3))

            // Another process: `modelkit store write-batch` against the same schema.
            let process = try ModelKitTool.start([
                "store", "write-batch", "--db", try #require(PostgresTestServer.url), "--schema", schema,
                "--count", "5", "--batch", "2",
            ])
            let result = await process.finish()
            #expect(result.status == 0, "\(result.errorOutput)")
            let second = await iterator.next()
            expectEqual(second, StoreChange(modelName: "BatchItem", saved: 5))
            try await expectEqual(observer.fetchCount(BatchItem.self), 8)

            // observe(_:) re-runs its query on another process's commit too.
            let observation = observer.observe(ModelQuery(BatchItem.self).filter(\BatchItem.batch == 3))
            var results = observation.makeAsyncIterator()
            #expect(try await results.next()?.count == 0)
            let third = await (try ModelKitTool.start([
                "store", "write-batch", "--db", try #require(PostgresTestServer.url), "--schema", schema,
                "--count", "4", "--batch", "3",
            ])).finish()
            #expect(third.status == 0, "\(third.errorOutput)")
            #expect(try await results.next()?.count == 4)
            await observer.close()
            await writer.close()
        }

        // MARK: Many writers

        /// Eight tasks and two processes save overlapping identified models, 300 operations each:
        /// afterwards every identifier is one row, holding one writer's complete values.
        @Test func concurrentWritersLeaveWholeRows() async throws {
            let schema = PostgresTestServer.newSchema()
            let url = try #require(PostgresTestServer.url)
            let store = try PostgresTestServer.makeStore(schema: schema)
            let ids = 150
            let operations = 300
            // The table exists before the writers race to create it.
            try await store.save(LoadItem(id: 0, writer: "setup", sequence: 0))

            let processes = try (1...2).map { number in
                try ModelKitTool.start([
                    "store", "write-load", "--db", url, "--schema", schema, "--writer", "process\(number)",
                    "--ids", "\(ids)", "--operations", "\(operations)", "--seed", "\(number * 7919)",
                ])
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for task in 1...8 {
                    group.addTask {
                        var random = SeededGenerator(seed: UInt64(task * 104_729))
                        var done = 0
                        while done < operations {
                            let size = min(operations - done, 1 + Int(random.next() % 5))
                            let items = (0..<size).map {
                                LoadItem(id: Int(random.next() % UInt64(ids)), writer: "task\(task)", sequence: done + $0)
                            }
                            try await store.write { tx in try await tx.save(items) }
                            done += size
                        }
                    }
                }
                try await group.waitForAll()
            }
            for process in processes {
                let result = await process.finish()
                #expect(result.status == 0 && result.output == "done \(operations)\n", "\(result.errorOutput)")
            }

            let rows = try await store.fetchAll(LoadItem.self)
            #expect(Set(rows.map(\.id)).count == rows.count, "an identifier has two rows")
            #expect(rows.count == ids, "\(rows.count) rows")
            let torn = rows.filter { !$0.isWhole }
            #expect(torn.isEmpty, "rows mixing writers: \(torn.prefix(3))")
            #expect(Set(rows.map(\.writer)).count > 2, "\(Set(rows.map(\.writer)))")
            var count = PostgresQuery(unsafeSQL: "SELECT COUNT(*) FROM \"\(schema)\".\"LoadItem\"")
            count.binds = PostgresBindings()
            #expect(try await store.client.query(count).collect().first?.decode(Int64.self) == Int64(ids))
            await store.close()
        }

        // MARK: A killed writer

        /// A writer killed (SIGKILL) inside an open `write { }` leaves none of that transaction,
        /// and everything committed before it stays; the store goes on working.
        @Test func aWriterKilledInsideATransactionLosesNothingCommitted() async throws {
            let schema = PostgresTestServer.newSchema()
            let url = try #require(PostgresTestServer.url)
            let store = try PostgresTestServer.makeStore(schema: schema)
            let first = try Writer.start(["--db", url, "--schema", schema, "--count", "1000", "--batch", "1"])
            try first.waitForOutput("saved 1000 items of batch 1")
            expectEqual(first.wait(), 0)

            let second = try Writer.start([
                "--db", url, "--schema", schema, "--count", "20000", "--batch", "2", "--pause-after", "10000",
            ])
            try second.waitForOutput("paused after 10000")
            // Its open transaction is invisible to others meanwhile.
            try await expectEqual(batches(store), [1: 1000])
            second.killNow()
            // The server ends the dead client's transaction; none of it ever shows.
            try await expectEqual(batches(store), [1: 1000])

            // Batches committed one after another, killed at a moment while running.
            let running = try Writer.start([
                "--db", url, "--schema", schema, "--count", "500", "--batch", "3", "--batches", "0",
            ])
            // What the wait read counts too: a loaded machine may end no batch between it and the kill.
            let seen = try running.waitForOutput("saved 500 items of batch 4")
            try await Task.sleep(for: .milliseconds(120))
            let output = seen + running.killAndDrain()
            let reported = output.split(separator: "\n").compactMap { line -> Int? in
                line.hasPrefix("saved 500 items of batch ") ? Int(line.split(separator: " ").last ?? "") : nil
            }.max() ?? 0
            let rows = try await batches(store)
            #expect(rows[1] == 1000 && rows[2] == nil)
            let newest = rows.keys.max() ?? 0
            #expect(newest == reported || newest == reported + 1, "batches up to \(newest), reported \(reported)")
            #expect((3...newest).allSatisfy { rows[$0] == 500 }, "a partial batch: \(rows)")

            let third = try Writer.start(["--db", url, "--schema", schema, "--count", "10", "--batch", "100"])
            try third.waitForOutput("saved 10 items of batch 100")
            expectEqual(third.wait(), 0)
            try await expectEqual(batches(store)[100], 10)
            await store.close()
        }

        /// Rows per batch.
        func batches(_ store: PostgresStore) async throws -> [Int: Int] {
            let query = PostgresQuery(unsafeSQL: "SELECT batch, COUNT(*) FROM \"\(store.schema)\".\"BatchItem\" GROUP BY batch")
            let rows = try await store.client.query(query).collect()
            return Dictionary(uniqueKeysWithValues: try rows.map { row in
                let (batch, count) = try row.decode((Int64, Int64).self)
                return (Int(batch), Int(count))
            })
        }
    }

    /// The row `modelkit store write-load` writes (the tool declares the same model).
    @Model struct LoadItem {
        @Identifier var id: Int
        var writer: String
        var sequence: Int
        var label: String
        var weight: Double
        var flags: [String]

        init(id: Int, writer: String, sequence: Int) {
            self.id = id
            self.writer = writer
            self.sequence = sequence
            self.label = "\(writer)#\(sequence)"
            self.weight = Double(sequence) + Double(writer.utf8.count) / 8
            self.flags = [writer, String(sequence)]
        }

        /// Whether every value is the one its writer and sequence give: no value from another writer.
        var isWhole: Bool {
            label == "\(writer)#\(sequence)" && weight == Double(sequence) + Double(writer.utf8.count) / 8
                && flags == [writer, String(sequence)]
        }
    }

#endif
