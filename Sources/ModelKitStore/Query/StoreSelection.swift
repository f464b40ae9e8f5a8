import Foundation
import ModelKitCore

/// Values a query computes instead of models: chosen columns of each row it selects (a
/// projection), or aggregates over those rows, grouped by columns or not.
///
/// The one primitive behind ``ModelStore/fetchAggregate(_:_:)``,
/// ``ModelStore/fetchGroups(_:by:aggregate:)`` and ``ModelStore/fetchAll(_:select:)``: every
/// store answers it with rows of ``StoreValue``s, which the verbs decode.
package struct ResolvedSelection {
    /// One value of each result row.
    package enum Output {
        /// A column's value: of each row, or of each group when it is a group column.
        case column(String)
        /// An aggregate of the rows (of each group).
        case aggregate(StoreAggregateFunction, column: String?)
    }

    /// The rows the values are computed from: the query's filter, order, limit and offset.
    package let query: ResolvedQuery
    /// The columns whose values make the groups, in order; empty for none.
    package let groupColumns: [String]
    /// What each result row holds, in order.
    package let outputs: [Output]

    /// Whether the outputs are aggregates, so the result is one row (or one per group).
    var aggregates: Bool {
        outputs.contains { if case .aggregate = $0 { return true } else { return false } }
    }

    /// The selection's `SELECT` in `dialect`. A projection keeps the query's order and limit;
    /// an aggregate reads the rows the query selects (a subquery when it has a limit or an
    /// offset), and groups come in the order of their values, `NULL` first.
    package func select<D: SQLDialect>(_ dialect: inout D) throws -> String {
        let table = query.table
        func column(_ name: String) throws -> StoreTable.Column {
            guard let index = table.column(named: name) else {
                throw StoreError(.unknownKeyPath, table: table.name, reason: "'\(name)' is not one of its columns")
            }
            return table.columns[index]
        }
        let values = try outputs.map { output -> String in
            switch output {
            case .column(let name): return dialect.valueSQL(try column(name))
            case .aggregate(let function, let name): return dialect.aggregateSQL(function, column: try name.map(column))
            }
        }
        var sql = "SELECT \(values.joined(separator: ", ")) FROM "
        guard aggregates || !groupColumns.isEmpty else {
            sql += dialect.tableSQL(table)
            try query.appendClauses(to: &sql, &dialect)
            return sql
        }
        if query.limit != nil || query.offset > 0 {
            var inner = "SELECT * FROM \(dialect.tableSQL(table))"
            try query.appendClauses(to: &inner, &dialect)
            sql += "(\(inner)) AS selected"
        } else {
            sql += dialect.tableSQL(table)
            try query.appendWhere(to: &sql, &dialect)
        }
        guard !groupColumns.isEmpty else { return sql }
        sql += " GROUP BY " + groupColumns.map(quoted).joined(separator: ", ")
        sql += " ORDER BY " + groupColumns.map { dialect.orderTerm(column: quoted($0), .ascending) }.joined(separator: ", ")
        return sql
    }
}

extension ModelQuery {
    /// A selection of `outputs` over the rows this query selects, grouped by `groups`.
    func selection(groups: [AnyKeyPath], outputs: [ResolvedSelection.Output]) throws -> ResolvedSelection {
        let groupColumns = try groups.map { try ModelPredicate<M>.column(of: $0) }
        return ResolvedSelection(query: try resolved(), groupColumns: groupColumns, outputs: outputs)
    }

    /// A projection of the columns of `keyPaths`.
    func projection(_ keyPaths: [AnyKeyPath]) throws -> ResolvedSelection {
        try selection(groups: [], outputs: keyPaths.map { .column(try ModelPredicate<M>.column(of: $0)) })
    }
}

extension StoreAggregate {
    /// The aggregate as a selection's output.
    func output() throws -> ResolvedSelection.Output {
        .aggregate(function, column: try column.get())
    }
}
