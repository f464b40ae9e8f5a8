import Foundation
import ModelKitCore

/// An SQL statement and the values bound to its `?` placeholders.
///
/// ```swift
/// let statement = try ModelQuery(Status.self).filter(\Status.lang == "ja").countSQL()
/// statement.sql        // SELECT COUNT(*) FROM "Status" WHERE "lang" = ?
/// statement.arguments  // [.text("ja")]
/// ```
public struct StoreSQL: Hashable, Sendable, CustomStringConvertible {
    /// The SQL text, with `?` for each argument.
    public let sql: String
    /// The arguments, in placeholder order.
    public let arguments: [StoreValue]

    public var description: String {
        arguments.isEmpty ? sql : "\(sql) [\(arguments.map(\.sqlLiteral).joined(separator: ", "))]"
    }
}

extension ModelQuery {
    /// The `SELECT` the SQLite store runs for the query: the model's columns and version, the
    /// condition, the order, the limit and the offset.
    public func selectSQL() throws -> StoreSQL {
        try resolved().selectSQL()
    }

    /// The `SELECT COUNT(*)` the SQLite store runs for the query.
    public func countSQL() throws -> StoreSQL {
        try resolved().countSQL()
    }

    /// The `DELETE` the SQLite store runs for the query.
    public func deleteSQL() throws -> StoreSQL {
        try resolved().deleteSQL()
    }
}

extension ResolvedQuery {
    /// Whether the query keeps every row in storage order.
    var isUnrestricted: Bool {
        condition == nil && orderings.isEmpty && limit == nil && offset == 0
    }

    func selectSQL() -> StoreSQL {
        sqlite { try select(&$0) }
    }

    func countSQL() -> StoreSQL {
        sqlite { try count(&$0) }
    }

    func deleteSQL() -> StoreSQL {
        sqlite { try delete(&$0) }
    }

    /// A statement in SQLite's dialect, whose binding never throws.
    private func sqlite(_ build: (inout SQLiteDialect) throws -> String) -> StoreSQL {
        var dialect = SQLiteDialect()
        // SQLiteDialect binds values as they are: nothing in it throws.
        let sql = (try? build(&dialect)) ?? ""
        return StoreSQL(sql: sql, arguments: dialect.arguments)
    }
}
