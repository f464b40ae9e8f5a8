#if PostgreSQL
    import Foundation
    import ModelKitPostgres
    import ModelKitStore

    /// The PostgreSQL server the tests use: the one `MODELKIT_POSTGRES_URL` names (`.ci/run`
    /// starts one and sets it). Without it the PostgreSQL tests are skipped, with a printed
    /// reason, except in CI (`CI` set), where they run and fail for want of it.
    enum PostgresTestServer {
        static let url = ProcessInfo.processInfo.environment["MODELKIT_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
        static let inCI = ProcessInfo.processInfo.environment["CI"].map { !$0.isEmpty && $0 != "false" } ?? false

        /// Whether the PostgreSQL tests run; says once why not.
        static let isAvailable: Bool = {
            if url != nil || inCI { return true }
            print(
                "skipping the PostgreSQL store tests: MODELKIT_POSTGRES_URL is not set "
                    + "(.ci/postgres.sh start DIR starts a server and prints the URL)")
            return false
        }()

        /// A store on the test server, in a schema of its own, so tests running at once never
        /// see each other's rows.
        static func makeStore(schema: String = newSchema()) throws -> PostgresStore {
            guard let url else {
                throw StoreError(.cannotOpen, reason: "MODELKIT_POSTGRES_URL is not set: CI must start a server and set it")
            }
            return try PostgresStore(url: url, schema: schema, maximumConnections: 8)
        }

        /// A schema name no other test uses.
        static func newSchema() -> String {
            "test_" + UUID().uuidString.prefix(13).lowercased().replacingOccurrences(of: "-", with: "")
        }
    }
#endif
