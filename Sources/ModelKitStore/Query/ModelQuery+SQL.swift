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
        var sql = table.selectSQL
        var arguments: [StoreValue] = []
        appendClauses(to: &sql, arguments: &arguments)
        return StoreSQL(sql: sql, arguments: arguments)
    }

    func countSQL() -> StoreSQL {
        var arguments: [StoreValue] = []
        guard limit != nil || offset > 0 else {
            var sql = table.countSQL
            appendWhere(to: &sql, arguments: &arguments)
            return StoreSQL(sql: sql, arguments: arguments)
        }
        var inner = "SELECT 1 FROM \(table.quotedName)"
        appendClauses(to: &inner, arguments: &arguments)
        return StoreSQL(sql: "SELECT COUNT(*) FROM (\(inner))", arguments: arguments)
    }

    func deleteSQL() -> StoreSQL {
        var arguments: [StoreValue] = []
        guard limit != nil || offset > 0 || !orderings.isEmpty else {
            var sql = table.deleteAllSQL
            appendWhere(to: &sql, arguments: &arguments)
            return StoreSQL(sql: sql, arguments: arguments)
        }
        let identifier = quoted(table.columns[table.identifierColumn].name)
        var inner = "SELECT \(identifier) FROM \(table.quotedName)"
        appendClauses(to: &inner, arguments: &arguments)
        return StoreSQL(sql: "\(table.deleteAllSQL) WHERE \(identifier) IN (\(inner))", arguments: arguments)
    }

    private func appendWhere(to sql: inout String, arguments: inout [StoreValue]) {
        guard let condition else { return }
        sql += " WHERE "
        condition.appendSQL(to: &sql, arguments: &arguments)
    }

    private func appendClauses(to sql: inout String, arguments: inout [StoreValue]) {
        appendWhere(to: &sql, arguments: &arguments)
        if !orderings.isEmpty {
            sql += " ORDER BY "
            sql += orderings.map { quoted($0.column) + ($0.order == .descending ? " DESC" : "") }
                .joined(separator: ", ")
        }
        if limit != nil || offset > 0 {
            sql += " LIMIT ?"
            arguments.append(.integer(Int64(limit ?? -1)))
            if offset > 0 {
                sql += " OFFSET ?"
                arguments.append(.integer(Int64(offset)))
            }
        }
    }
}
