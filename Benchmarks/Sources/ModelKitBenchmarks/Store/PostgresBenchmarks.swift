import Foundation
import ModelKit
import ModelKitStore

#if PostgreSQL
    import ModelKitPostgres
    import PostgresNIO
#endif

// The PostgreSQL store against raw PostgresNIO: the same rows into the same table layout (each
// side a schema of its own), the raw side inserting with one UNNEST of column arrays, the fastest
// batch insert PostgresNIO offers short of COPY (which cannot upsert), and selecting by
// identifier with one statement per fetch. Runs with the `PostgreSQL` trait and
// MODELKIT_POSTGRES_URL set.

/// The PostgreSQL comparisons; none without the trait or a server.
func postgresComparisons() throws -> [Comparison] {
    #if PostgreSQL
        guard let url = ProcessInfo.processInfo.environment["MODELKIT_POSTGRES_URL"] else {
            print("store.*.postgres: skipped: MODELKIT_POSTGRES_URL is not set")
            return []
        }
        let count = 20_000
        let users = storeUsers(count: count)
        let store = try PostgresStore(url: url, schema: "bench_store")
        try waitFor {
            try await store.deleteAll(StoreUser.self)
            try await store.save(users)
        }
        let raw = RawPostgresUsers(client: store.client)
        try waitFor { try await raw.prepare(like: "bench_store") }
        try waitFor { try await raw.save(users) }
        let ids = (0..<2_000).map { ($0 &* 7919) % count }
        let (stored, rawUser) = try waitFor {
            (try await store.fetchOne(StoreUser.self, id: 4242), try await raw.fetch(id: 4242))
        }
        guard let stored, let rawUser, stored.id == rawUser.id, stored.name == rawUser.name,
            abs(stored.registered.timeIntervalSince(rawUser.registered)) < 0.000_001
        else { throw BenchmarkError("the two sides of the PostgreSQL comparisons do not hold the same rows") }

        return [
            Comparison(
                name: "store.save.users.postgres", baselineName: "PostgresNIO", unit: .operations(count, label: "user"),
                modelKit: {
                    try waitFor {
                        try await store.deleteAll(StoreUser.self)
                        try await store.save(users)
                    }
                },
                baseline: { try waitFor { try await raw.save(users) } },
                notes: { "\(count) users in one transaction after deleting the previous run's; raw: one INSERT ... SELECT FROM UNNEST" }),
            Comparison(
                name: "store.fetch.id.postgres", baselineName: "PostgresNIO", unit: .operations(ids.count, label: "fetch"),
                modelKit: { try waitFor { for id in ids { _ = try await store.fetchOne(StoreUser.self, id: id) } } },
                baseline: { try waitFor { for id in ids { _ = try await raw.fetch(id: id) } } },
                notes: { "one SELECT by primary key per identifier over \(count) rows, loopback server" }),
        ]
    #else
        return []
    #endif
}

#if PostgreSQL
    /// What people write by hand with PostgresNIO for the same table.
    struct RawPostgresUsers: Sendable {
        let client: PostgresClient
        let table = #""bench_raw"."StoreUser""#

        /// A table like the store's, in a schema of its own.
        func prepare(like schema: String) async throws {
            try await client.query("CREATE SCHEMA IF NOT EXISTS bench_raw")
            try await client.query(PostgresQuery(unsafeSQL: "DROP TABLE IF EXISTS \(table)"))
            try await client.query(PostgresQuery(unsafeSQL: "CREATE TABLE \(table) (LIKE \"\(schema)\".\"StoreUser\" INCLUDING ALL)"))
        }

        /// Deletes the previous rows and inserts `users`, in one transaction.
        func save(_ users: [StoreUser]) async throws {
            let ids = users.map { Int64($0.id) }
            let names = users.map(\.name)
            let emails = users.map(\.email)
            let ages = users.map { Int64($0.age) }
            let balances = users.map(\.balance)
            let active = users.map(\.isActive)
            let registered = users.map(\.registered)
            let versions = [Int64](repeating: 0, count: users.count)
            let table = table
            try await client.withTransaction(logger: Logger(label: "raw")) { connection in
                try await connection.query(PostgresQuery(unsafeSQL: "DELETE FROM \(table)"), logger: Logger(label: "raw"))
                var bindings = PostgresBindings()
                bindings.append(ids)
                bindings.append(names)
                bindings.append(emails)
                bindings.append(ages)
                bindings.append(balances)
                bindings.append(active)
                bindings.append(registered)
                bindings.append(versions)
                let sql = """
                    INSERT INTO \(table) ("id", "name", "email", "age", "balance", "isActive", "registered", "_version")
                    SELECT * FROM UNNEST($1::bigint[], $2::text[], $3::text[], $4::bigint[], $5::float8[], $6::bool[],
                        $7::timestamptz[], $8::bigint[])
                    ON CONFLICT ("id") DO UPDATE SET "name" = EXCLUDED."name", "email" = EXCLUDED."email",
                        "age" = EXCLUDED."age", "balance" = EXCLUDED."balance", "isActive" = EXCLUDED."isActive",
                        "registered" = EXCLUDED."registered", "_version" = EXCLUDED."_version"
                    """
                try await connection.query(PostgresQuery(unsafeSQL: sql, binds: bindings), logger: Logger(label: "raw"))
            }
        }

        func fetch(id: Int) async throws -> StoreUser? {
            var query = PostgresQuery(unsafeSQL:
                #"SELECT "id", "name", "email", "age", "balance", "isActive", "registered" FROM "bench_raw"."StoreUser" WHERE "id" = $1"#)
            query.binds.append(Int64(id))
            for try await row in try await client.query(query) {
                let (id, name, email, age, balance, active, registered) = try row.decode(
                    (Int64, String, String, Int64, Double, Bool, Date).self)
                return StoreUser(
                    id: Int(id), name: name, email: email, age: Int(age), balance: balance, isActive: active, registered: registered)
            }
            return nil
        }
    }
#endif
