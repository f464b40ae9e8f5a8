import Foundation
import ModelKitStore

#if PostgreSQL
    import ModelKitPostgres
#endif

/// Where a command keeps its models: an SQLite file, or a PostgreSQL database named by a
/// `postgres://` URL (with the package's `PostgreSQL` trait).
struct StoreLocation {
    let text: String

    /// Whether the location is a PostgreSQL URL.
    var isPostgres: Bool {
        text.hasPrefix("postgres://") || text.hasPrefix("postgresql://")
    }

    /// The location as messages show it (a URL without its password).
    var displayName: String {
        guard isPostgres, var components = URLComponents(string: text), components.password != nil else { return text }
        components.password = "***"
        return components.string ?? text
    }

    /// Opens the store; `schema` places a PostgreSQL store's tables.
    func open(schema: String? = nil) throws -> OpenedStore {
        guard isPostgres else { return OpenedStore(store: try SQLiteStore(path: text), close: {}) }
        #if PostgreSQL
            let store = try PostgresStore(url: text, schema: schema)
            return OpenedStore(store: store, close: { await store.close() })
        #else
            throw ToolFailure(
                "'\(displayName)' is a PostgreSQL database, and this modelkit was built without PostgreSQL: "
                    + "build it with 'swift build --traits PostgreSQL'")
        #endif
    }
}

/// A store a command opened, and how to close it when the command is done.
struct OpenedStore {
    let store: any ModelStore
    let close: @Sendable () async -> Void
}
