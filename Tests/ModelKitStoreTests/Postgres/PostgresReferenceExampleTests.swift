#if PostgreSQL
    // snippet: reference-postgres-start
    import ModelKit
    import ModelKitPostgres
    import ModelKitStore
    // snippet: reference-postgres-end
    import ModelKitTestSupport
    import Testing

    // The example ModelKitPostgres's reference page starts from (see `DocumentationArticleTests`):
    // the module has no test target of its own, as it builds only with the `PostgreSQL` trait, so
    // its example runs here, against the test server, and what it prints is checked against the
    // comments it shows.

    /// Collects the example's prints (outside `ExampleOutput.capture` it prints as usual).
    private func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
        ExampleOutput.print(items, separator: separator, terminator: terminator)
    }

    // snippet: reference-postgres-start
    @Model final class Reading {
        @Identifier var id: Int
        var sensor: String
        var celsius: Double
    }
    // snippet: reference-postgres-end

    @Suite(.enabled(if: PostgresTestServer.isAvailable, "needs MODELKIT_POSTGRES_URL"))
    struct PostgresReferenceExampleTests {
        @Test func postgres() async throws {
            // The page's URL names a database of the reader's; here, the test server's, in a
            // schema no other test uses.
            let databaseURL = try #require(PostgresTestServer.url)
            let schema = PostgresTestServer.newSchema()
            let output = try await ExampleOutput.capture {
                // snippet: reference-postgres-start
                let store = try PostgresStore(url: databaseURL, schema: schema)  // postgres://user@host:5432/database
                let changes = store.changes(to: Reading.self)   // commits from any process sharing the schema
                try await store.listening()

                let context = ModelContext(store: store)
                try context.insert(Reading(id: 1, sensor: "attic", celsius: 24.5))
                try context.insert(Reading(id: 2, sensor: "cellar", celsius: 11))
                try await context.save()                        // one transaction

                let warm = try await store.fetchAll(ModelQuery(Reading.self).filter(\Reading.celsius > 20))
                print(warm.map(\.sensor))                       // ["attic"]
                for await change in changes {
                    print(change)                               // saved 2 rows of 'Reading'
                    break
                }
                await store.close()
                // snippet: reference-postgres-end
            }
            #expect(
                output
                    == DocumentationExamples.commentedOutput(
                        of: try DocumentationExamples.snippet("reference-postgres", inFile: #filePath)),
                "printed:\n\(output.joined(separator: "\n"))")
        }
    }
#endif
