import Foundation
import ModelKitCore

extension MemoryConnection {
    /// A selection computed in Swift with SQLite's rules: `NULL`s left out of aggregates, a
    /// sum of integers an integer (an error past 64 bits), groups in the order of their values.
    package func selectValues(_ selection: ResolvedSelection) async throws -> [[StoreValue]] {
        let query = selection.query
        let rows: [[String: StoreValue]] = state.withLock { state in
            Self.select(query, in: state.tables).compactMap { state.tables[query.table.name]?.rows[$0]?.columns }
        }
        guard selection.aggregates || !selection.groupColumns.isEmpty else {
            return rows.map { row in selection.outputs.map { Self.columnValue($0, of: row) } }
        }
        var groups: [[StoreValue]: [[String: StoreValue]]] = [:]
        var keys: [[StoreValue]] = []
        for row in rows {
            let key = selection.groupColumns.map { row[$0] ?? .null }
            if groups[key] == nil { keys.append(key) }
            groups[key, default: []].append(row)
        }
        // No groups asked for: one result row, even over no rows (a count of 0).
        if selection.groupColumns.isEmpty, keys.isEmpty { keys = [[]] }
        keys.sort { lhs, rhs in
            for (a, b) in zip(lhs, rhs) {
                let order = StoreValue.compare(a, b)
                if order != 0 { return order < 0 }
            }
            return false
        }
        return try keys.map { key in
            let members = groups[key] ?? []
            return try selection.outputs.map { output in
                switch output {
                case .column:
                    return members.first.map { Self.columnValue(output, of: $0) } ?? .null
                case .aggregate(let function, let column):
                    return try Self.aggregate(function, of: members.map { row in column.map { row[$0] ?? .null } ?? .integer(1) })
                }
            }
        }
    }

    private static func columnValue(_ output: ResolvedSelection.Output, of row: [String: StoreValue]) -> StoreValue {
        guard case .column(let name) = output else { return .null }
        return row[name] ?? .null
    }

    /// An aggregate of one column's values (`COUNT(*)` counts every row).
    private static func aggregate(_ function: StoreAggregateFunction, of values: [StoreValue]) throws -> StoreValue {
        let present = values.filter { $0 != .null }
        switch function {
        case .count:
            return .integer(Int64(values.count))
        case .countDistinct:
            return .integer(Int64(Set(present).count))
        case .sumOfIntegers, .sumOfReals:
            guard !present.isEmpty else { return .null }
            if present.allSatisfy({ $0.integer != nil }) {
                var sum: Int64 = 0
                for value in present {
                    let (result, overflow) = sum.addingReportingOverflow(value.integer ?? 0)
                    if overflow { throw StoreError(.database, reason: "integer overflow: the sum is past 64 bits") }
                    sum = result
                }
                return .integer(sum)
            }
            return .real(present.reduce(0) { $0 + ($1.real ?? 0) })
        case .min:
            return present.min { StoreValue.compare($0, $1) < 0 } ?? .null
        case .max:
            return present.max { StoreValue.compare($0, $1) < 0 } ?? .null
        case .average:
            guard !present.isEmpty else { return .null }
            return .real(present.reduce(0) { $0 + ($1.real ?? 0) } / Double(present.count))
        }
    }
}
