#if PostgreSQL
    import Foundation
    import ModelKitStore
    import PostgresNIO

    /// A `postgres://` (or `postgresql://`) URL, as libpq and most tools take them:
    /// `postgres://user[:password]@host[:port]/database[?sslmode=disable|prefer|require&sslrootcert=path&schema=name]`.
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
            var mode = "prefer"
            var rootCertificate: String?
            var schema: String?
            for item in components.queryItems ?? [] {
                switch (item.name, item.value) {
                case ("sslmode", let value?) where ["disable", "allow", "prefer", "require"].contains(value): mode = value
                case ("sslmode", let value): throw invalid("sslmode '\(value ?? "")' is not one of disable, prefer, require")
                case ("sslrootcert", let value?) where !value.isEmpty: rootCertificate = value
                case ("schema", let value?) where !value.isEmpty: schema = value
                default: throw invalid("the option '\(item.name)' is not one the store knows (sslmode, sslrootcert, schema)")
                }
            }
            // The server's certificate is always verified, against the system's roots or the
            // `sslrootcert` file (libpq's `require` would encrypt without checking whom it talks to).
            var verified = TLSConfiguration.makeClientConfiguration()
            if let rootCertificate { verified.trustRoots = .file(rootCertificate) }
            let tls: PostgresClient.Configuration.TLS = switch mode {
            case "disable": .disable
            case "require": .require(verified)
            default: .prefer(verified)
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
