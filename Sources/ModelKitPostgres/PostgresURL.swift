#if PostgreSQL
    import Foundation
    import ModelKitStore
    import PostgresNIO

    /// A `postgres://` (or `postgresql://`) URL, as libpq and most tools take them:
    /// `postgres://user[:password]@host[:port]/database[?sslmode=disable|prefer|require&schema=name]`.
    struct PostgresURL {
        let configuration: PostgresClient.Configuration
        /// The `schema` query item, if any.
        let schema: String?

        init(_ text: String) throws {
            func invalid(_ why: String) -> StoreError {
                StoreError(.cannotOpen, reason: "'\(PostgresURL.redacted(text))' is not a PostgreSQL URL: \(why)")
            }
            guard let components = URLComponents(string: text) else { throw invalid("it does not parse as a URL") }
            guard let scheme = components.scheme, scheme == "postgres" || scheme == "postgresql" else {
                throw invalid("it should start with 'postgres://'")
            }
            guard let host = components.host, !host.isEmpty else { throw invalid("it names no host") }
            let user = components.user ?? ProcessInfo.processInfo.environment["USER"] ?? "postgres"
            let database = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
            var tls = PostgresClient.Configuration.TLS.prefer(.makeClientConfiguration())
            var schema: String?
            for item in components.queryItems ?? [] {
                switch (item.name, item.value) {
                case ("sslmode", "disable"): tls = .disable
                case ("sslmode", "prefer"), ("sslmode", "allow"): tls = .prefer(.makeClientConfiguration())
                case ("sslmode", "require"): tls = .require(.makeClientConfiguration())
                case ("sslmode", let value): throw invalid("sslmode '\(value ?? "")' is not one of disable, prefer, require")
                case ("schema", let value?) where !value.isEmpty: schema = value
                default: throw invalid("the option '\(item.name)' is not one the store knows (sslmode, schema)")
                }
            }
            self.configuration = PostgresClient.Configuration(
                host: host, port: components.port ?? 5432, username: user, password: components.password,
                database: database.isEmpty ? nil : database, tls: tls)
            self.schema = schema
        }

        /// The URL without its password, for messages.
        static func redacted(_ text: String) -> String {
            guard var components = URLComponents(string: text), components.password != nil else { return text }
            components.password = "***"
            return components.string ?? text
        }
    }
#endif
