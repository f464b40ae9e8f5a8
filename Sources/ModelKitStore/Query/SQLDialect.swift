import Foundation
import ModelKitCore

/// How one SQL engine spells what a query says: its placeholders and the values bound to them,
/// its table names, and the few operators SQLite and PostgreSQL write differently.
///
/// ``ResolvedQuery`` builds its `SELECT`, `COUNT` and `DELETE` once, over a dialect: the SQLite
/// store's (``SQLiteDialect``, the SQL ``ModelQuery/selectSQL()`` shows) and PostgreSQL's (in
/// `ModelKitPostgres`), so a query means the same on every store.
package protocol SQLDialect {
    /// The table, as SQL (quoted, and qualified where the engine needs it).
    func tableSQL(_ table: StoreTable) -> String
    /// `SELECT <the model's columns and version> FROM <table>`.
    func selectSQL(_ table: StoreTable) -> String
    /// Binds `value`, compared with or written to `column` (nil for a `LIMIT` or `OFFSET`
    /// count), and returns its placeholder.
    mutating func bind(_ value: StoreValue, column: StoreTable.Column?) throws -> String
    /// `a IS NOT b`: true when they differ, `NULL` being a value like any other.
    var isDistinctFrom: String { get }
    /// Whether `column`'s text contains, starts or ends with the text bound at `placeholder`
    /// (which is lowercased already when the match ignores case).
    func textMatch(_ match: StoreTextMatch, column: String, placeholder: String) -> String
    /// A condition that never holds (an `IN` of no values).
    var never: String { get }
    /// `LIMIT` without a bound, for an `OFFSET` alone; nil to bind a limit of -1 instead.
    var noLimit: String? { get }
    /// An `ORDER BY` term: `NULL` first when ascending and last when descending, as SQLite does.
    func orderTerm(column: String, _ order: StoreOrder) -> String
    /// Whether a row of `table` matches the full-text search whose text is bound at `placeholder`.
    func searchCondition(_ search: StoreSearch, table: StoreTable, placeholder: String) -> String
    /// An `ORDER BY` term putting the best matches of a full-text search first.
    func searchRank(_ search: StoreSearch, table: StoreTable, placeholder: String) -> String
    /// The text a full-text search binds.
    func searchText(_ search: StoreSearch) -> String
    /// The number of elements of the JSON array in `column` (`NULL` for `NULL`).
    func arrayLength(_ column: String) -> String
    /// Whether the JSON array in `column` holds the scalar bound at `placeholder`.
    func arrayHolds(_ column: String, placeholder: String) -> String
    /// A column's value as a selection reads it (see ``ResolvedSelection``).
    func valueSQL(_ column: StoreTable.Column) -> String
    /// An aggregate over a column (none for `COUNT(*)`), as a selection reads it.
    func aggregateSQL(_ function: StoreAggregateFunction, column: StoreTable.Column?) -> String
}

/// SQLite's dialect: `?` placeholders over ``StoreValue``s, SQLite's own operators.
package struct SQLiteDialect: SQLDialect {
    package private(set) var arguments: [StoreValue] = []

    package init() {}

    package func tableSQL(_ table: StoreTable) -> String { table.quotedName }
    package func selectSQL(_ table: StoreTable) -> String { table.selectSQL }

    package mutating func bind(_ value: StoreValue, column: StoreTable.Column?) -> String {
        arguments.append(value)
        return "?"
    }

    package var isDistinctFrom: String { "IS NOT" }
    package func textMatch(_ match: StoreTextMatch, column: String, placeholder: String) -> String {
        // The store's own function folds case as Swift's lowercased() does (SQLite's lower() is ASCII only).
        let subject = match.caseInsensitive ? "\(SQLiteStore.lowercaseFunction)(\(column))" : column
        // The text again, by its number: the last argument bound.
        let again = "?\(arguments.count)"
        switch match.kind {
        case .contains: return "instr(\(subject), \(placeholder)) > 0"
        // substr counts characters as length does; an empty text matches every text.
        case .prefix: return "substr(\(subject), 1, length(\(placeholder))) = \(again)"
        case .suffix: return "(length(\(placeholder)) = 0 OR substr(\(subject), -length(\(again))) = \(again))"
        }
    }

    package var never: String { "0" }
    package var noLimit: String? { nil }

    package func orderTerm(column: String, _ order: StoreOrder) -> String {
        order == .descending ? column + " DESC" : column
    }

    package func valueSQL(_ column: StoreTable.Column) -> String { quoted(column.name) }
    package func arrayLength(_ column: String) -> String { "json_array_length(\(column))" }
    package func arrayHolds(_ column: String, placeholder: String) -> String {
        "EXISTS (SELECT 1 FROM json_each(\(column)) WHERE json_each.value = \(placeholder))"
    }

    package func searchCondition(_ search: StoreSearch, table: StoreTable, placeholder: String) -> String {
        let index = quoted(table.searchIndexName)
        return "\(table.quotedName).rowid IN (SELECT rowid FROM \(index) WHERE \(index) MATCH \(placeholder))"
    }

    package func searchRank(_ search: StoreSearch, table: StoreTable, placeholder: String) -> String {
        // bm25: smaller is better.
        let index = quoted(table.searchIndexName)
        return "(SELECT bm25(\(index)) FROM \(index) WHERE \(index) MATCH \(placeholder) AND \(index).rowid = \(table.quotedName).rowid)"
    }

    package func searchText(_ search: StoreSearch) -> String { search.fts5Query }

    package func aggregateSQL(_ function: StoreAggregateFunction, column: StoreTable.Column?) -> String {
        let name = column.map { quoted($0.name) } ?? "*"
        switch function {
        case .count: return "COUNT(*)"
        case .countDistinct: return "COUNT(DISTINCT \(name))"
        // SQLite's SUM is an integer for integers (an error past 64 bits), a real for reals.
        case .sumOfIntegers, .sumOfReals: return "SUM(\(name))"
        case .min: return "MIN(\(name))"
        case .max: return "MAX(\(name))"
        case .average: return "AVG(\(name))"
        }
    }
}

extension SQLDialect {
    /// The operator of a comparison in this dialect: `!=` is "is distinct from", so `NULL` is a
    /// value like any other.
    func sqlOperator(_ comparison: StoreComparison) -> String {
        comparison == .notEqual ? isDistinctFrom : comparison.sqlOperator
    }
}

extension ResolvedQuery {
    /// The column a query names, for binding its values.
    func column(named name: String) -> StoreTable.Column? {
        table.column(named: name).map { table.columns[$0] }
    }

    /// The `SELECT` of the model's columns and version for the query.
    package func select<D: SQLDialect>(_ dialect: inout D) throws -> String {
        var sql = dialect.selectSQL(table)
        try appendClauses(to: &sql, &dialect)
        return sql
    }

    /// The `SELECT COUNT(*)` for the query.
    package func count<D: SQLDialect>(_ dialect: inout D) throws -> String {
        let tableSQL = dialect.tableSQL(table)
        guard limit != nil || offset > 0 else {
            var sql = "SELECT COUNT(*) FROM \(tableSQL)"
            try appendWhere(to: &sql, &dialect)
            return sql
        }
        var inner = "SELECT 1 FROM \(tableSQL)"
        try appendClauses(to: &inner, &dialect)
        return "SELECT COUNT(*) FROM (\(inner)) AS selected"
    }

    /// The `DELETE` of the rows the query selects.
    package func delete<D: SQLDialect>(_ dialect: inout D) throws -> String {
        let tableSQL = dialect.tableSQL(table)
        guard limit != nil || offset > 0 || !orderings.isEmpty else {
            var sql = "DELETE FROM \(tableSQL)"
            try appendWhere(to: &sql, &dialect)
            return sql
        }
        let identifier = quoted(table.columns[table.identifierColumn].name)
        var inner = "SELECT \(identifier) FROM \(tableSQL)"
        try appendClauses(to: &inner, &dialect)
        return "DELETE FROM \(tableSQL) WHERE \(identifier) IN (\(inner))"
    }

    func appendWhere<D: SQLDialect>(to sql: inout String, _ dialect: inout D) throws {
        guard let condition else { return }
        sql += " WHERE "
        try condition.appendSQL(to: &sql, query: self, &dialect)
    }

    func appendClauses<D: SQLDialect>(to sql: inout String, _ dialect: inout D) throws {
        try appendWhere(to: &sql, &dialect)
        var terms: [String] = []
        if let rank {
            let placeholder = try dialect.bind(.text(dialect.searchText(rank)), column: nil)
            terms.append(dialect.searchRank(rank, table: table, placeholder: placeholder))
        }
        terms += orderings.map { ordering in
            guard let (related, column) = ordering.through else {
                return dialect.orderTerm(column: quoted(ordering.column), ordering.order)
            }
            // The value in the row the reference leads to, aliased so that a table referring to
            // itself (a node ordered by its parent's title) is told apart.
            let alias = quoted("_ordering")
            let identifier = quoted(related.columns[related.identifierColumn].name)
            return dialect.orderTerm(
                column: "(SELECT \(alias).\(quoted(column)) FROM \(dialect.tableSQL(related)) AS \(alias) "
                    + "WHERE \(alias).\(identifier) = \(dialect.tableSQL(table)).\(quoted(ordering.column)))",
                ordering.order)
        }
        if !terms.isEmpty { sql += " ORDER BY " + terms.joined(separator: ", ") }
        guard limit != nil || offset > 0 else { return }
        if let limit {
            sql += " LIMIT " + (try dialect.bind(.integer(Int64(limit)), column: nil))
        } else if let noLimit = dialect.noLimit {
            sql += " LIMIT " + noLimit
        } else {
            sql += " LIMIT " + (try dialect.bind(.integer(-1), column: nil))
        }
        if offset > 0 {
            sql += " OFFSET " + (try dialect.bind(.integer(Int64(offset)), column: nil))
        }
    }
}

extension StoreExpression {
    /// Appends the expression as SQL in `dialect`, binding its values there.
    func appendSQL<D: SQLDialect>(to sql: inout String, query: ResolvedQuery, _ dialect: inout D) throws {
        switch self {
        case .compare(let column, let comparison, let value):
            sql += quoted(column)
            switch (comparison, value) {
            case (.equal, .null): sql += " IS NULL"
            case (.notEqual, .null): sql += " IS NOT NULL"
            default:
                let operation = dialect.sqlOperator(comparison)
                sql += " \(operation) " + (try dialect.bind(value, column: query.column(named: column)))
            }
        case .isIn(let column, let values):
            guard !values.isEmpty else {
                sql += dialect.never
                return
            }
            let target = query.column(named: column)
            let placeholders = try values.map { try dialect.bind($0, column: target) }
            sql += "\(quoted(column)) IN (\(placeholders.joined(separator: ", ")))"
        case .search(let search):
            let placeholder = try dialect.bind(.text(dialect.searchText(search)), column: nil)
            sql += dialect.searchCondition(search, table: query.table, placeholder: placeholder)
        case .text(let column, let match):
            let placeholder = try dialect.bind(.text(match.text), column: query.column(named: column))
            sql += dialect.textMatch(match, column: quoted(column), placeholder: placeholder)
        case .count(let column, let comparison, let count):
            let operation = dialect.sqlOperator(comparison)
            sql += "\(dialect.arrayLength(quoted(column))) \(operation) " + (try dialect.bind(.integer(count), column: nil))
        case .holds(let column, let identifier):
            sql += dialect.arrayHolds(quoted(column), placeholder: try dialect.bind(identifier, column: nil))
        case .related(let column, let table, let inner):
            let identifier = quoted(table.columns[table.identifierColumn].name)
            sql += "\(quoted(column)) IN (SELECT \(identifier) FROM \(dialect.tableSQL(table)) WHERE "
            let related = ResolvedQuery(table: table, condition: inner, orderings: [], limit: nil, offset: 0)
            try inner.appendSQL(to: &sql, query: related, &dialect)
            sql += ")"
        case .referrers(let referrers, let comparison, let count):
            // Aliased, so that a table referring to itself (a node's children) is told apart from
            // the row the subquery counts for; the alias says how deep it is.
            let alias = quoted("_referrer\(query.depth + 1)")
            let outer = query.depth == 0 ? dialect.tableSQL(query.table) : quoted("_referrer\(query.depth)")
            sql += "(SELECT COUNT(*) FROM \(dialect.tableSQL(referrers.table)) AS \(alias) WHERE "
                + "\(alias).\(quoted(referrers.column)) = \(outer).\(quoted(referrers.identifier))"
            if let condition = referrers.condition {
                var related = ResolvedQuery(table: referrers.table, condition: condition, orderings: [], limit: nil, offset: 0)
                related.depth = query.depth + 1
                sql += " AND ("
                try condition.appendSQL(to: &sql, query: related, &dialect)
                sql += ")"
            }
            let operation = dialect.sqlOperator(comparison)
            sql += ") \(operation) " + (try dialect.bind(.integer(count), column: nil))
        case .isNotTrue(let inner):
            sql += "("
            try inner.appendSQL(to: &sql, query: query, &dialect)
            sql += ") IS NOT TRUE"
        case .and(let lhs, let rhs), .or(let lhs, let rhs):
            sql += "("
            try lhs.appendSQL(to: &sql, query: query, &dialect)
            if case .and = self { sql += " AND " } else { sql += " OR " }
            try rhs.appendSQL(to: &sql, query: query, &dialect)
            sql += ")"
        case .not(let inner):
            sql += "NOT ("
            try inner.appendSQL(to: &sql, query: query, &dialect)
            sql += ")"
        }
    }
}
