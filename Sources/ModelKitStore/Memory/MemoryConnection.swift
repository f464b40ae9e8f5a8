import Foundation
import ModelKitCore

/// The memory store's rows inside one transaction: its own copy of the tables, and the changes
/// made to them, handed back to the store when a write commits.
package final class MemoryConnection: StoreConnection, SynchronousRowReading {
    typealias Table = MemoryStore.Table
    typealias Row = MemoryStore.Row

    let state: Locked<(tables: [String: Table], changes: [String: StoreChange])>
    package let readsSynchronously: Bool

    init(tables: [String: Table], readsInRounds: Bool) {
        self.state = Locked((tables, [:]))
        self.readsSynchronously = !readsInRounds
    }

    package func upsert(_ table: StoreTable, rows: [[StoreValue]]) async throws {
        try state.withLock { state in
            var stored = state.tables[table.name] ?? Table()
            Self.addColumns(of: table, to: &stored)
            for unique in table.uniqueIndexes { try Self.check(unique, of: table, rows: rows, against: stored) }
            for values in rows {
                var columns: [String: StoreValue] = [:]
                for (index, column) in table.columns.enumerated() { columns[column.name] = values[index] }
                let key = values[table.identifierColumn]
                if var existing = stored.rows[key] {
                    existing.columns.merge(columns) { $1 }
                    existing.version = table.schema.version
                    stored.rows[key] = existing
                } else {
                    stored.rows[key] = Row(columns: columns, version: table.schema.version, sequence: stored.nextSequence)
                    stored.nextSequence += 1
                }
            }
            state.tables[table.name] = stored
            state.changes[table.name, default: StoreChange(modelName: table.name)].saved += rows.count
        }
    }

    /// Adds the columns of `table` that `stored` lacks.
    static func addColumns(of table: StoreTable, to stored: inout Table) {
        guard stored.columns.count < table.columns.count || !table.columns.allSatisfy({ stored.columns.contains($0.name) }) else {
            return
        }
        for column in table.columns where !stored.columns.contains(column.name) { stored.columns.append(column.name) }
    }

    /// Refuses `rows` when one would hold the values of `unique` that another row holds (stored
    /// or earlier in `rows`), as SQL's unique index does: values with a `NULL` never clash.
    private static func check(
        _ unique: (index: ModelIndex, columns: [Int]), of table: StoreTable, rows: [[StoreValue]], against stored: Table
    ) throws {
        let names = unique.index.properties
        var owners: [[StoreValue]: StoreValue] = [:]
        for (key, row) in stored.rows {
            let values = names.map { row.columns[$0] ?? .null }
            if !values.contains(.null) { owners[values] = key }
        }
        for row in rows {
            let key = row[table.identifierColumn]
            if let old = stored.rows[key] {
                let values = names.map { old.columns[$0] ?? .null }
                if owners[values] == key { owners[values] = nil }
            }
            let values = unique.columns.map { row[$0] }
            guard !values.contains(.null) else { continue }
            if let owner = owners[values], owner != key {
                throw StoreError.uniqueViolation(unique.index, table: table, identifier: key, values: values, underlying: nil)
            }
            owners[values] = key
        }
    }

    package func selectRows(_ query: ResolvedQuery) async throws -> [StoredRow] {
        selectRowsNow(query)
    }

    package func selectRowsNow(_ query: ResolvedQuery) -> [StoredRow] {
        state.withLock { state in
            Self.select(query, in: state.tables).compactMap { key in
                state.tables[query.table.name]?.rows[key].map { Self.storedRow($0, table: query.table) }
            }
        }
    }

    /// The keys the query selects, then their rows a batch at a time, from the transaction's
    /// copy of the tables.
    package func selectRows(
        _ query: ResolvedQuery, inBatchesOf size: Int, _ body: ([StoredRow]) async throws -> Void
    ) async throws {
        let keys = state.withLock { Self.select(query, in: $0.tables) }
        var start = 0
        while start < keys.count {
            let end = min(keys.count, start + size)
            let rows = state.withLock { state in
                keys[start..<end].compactMap { key in state.tables[query.table.name]?.rows[key].map { Self.storedRow($0, table: query.table) } }
            }
            try await body(rows)
            start = end
        }
    }

    package func selectRows(_ table: StoreTable, identifiers: [StoreValue]) async throws -> [StoredRow] {
        try identifiers.compactMap { try selectRowNow(table, identifier: $0) }
    }

    package func selectAllColumns(_ table: StoreTable, identifier: StoreValue) async throws -> [String: StoreValue] {
        try selectAllColumnsNow(table, identifier: identifier)
    }

    package func count(_ query: ResolvedQuery) async throws -> Int {
        state.withLock { Self.select(query, in: $0.tables).count }
    }

    package func delete(_ query: ResolvedQuery) async throws -> Int {
        let name = query.table.name
        return state.withLock { state in
            let keys = Self.select(query, in: state.tables)
            for key in keys { state.tables[name]?.rows.removeValue(forKey: key) }
            if !keys.isEmpty { state.changes[name, default: StoreChange(modelName: name)].deleted += keys.count }
            return keys.count
        }
    }

    package func selectRowNow(_ table: StoreTable, identifier: StoreValue) throws -> StoredRow? {
        state.withLock { $0.tables[table.name]?.rows[identifier].map { Self.storedRow($0, table: table) } }
    }

    package func selectAllColumnsNow(_ table: StoreTable, identifier: StoreValue) throws -> [String: StoreValue] {
        state.withLock { $0.tables[table.name]?.rows[identifier]?.columns ?? [:] }
    }

    /// The identifiers of the rows a query selects, in its order, as SQLite would return them.
    static func select(_ query: ResolvedQuery, in tables: [String: Table]) -> [StoreValue] {
        guard let table = tables[query.table.name] else { return [] }
        // The rows of many identifiers (the loader's reads of references and to-many
        // relationships): a set of them, where SQLite's equality is plain equality (integers
        // and text), rather than a scan of the identifiers for every row.
        var exact: (column: String, values: Set<StoreValue>)?
        if case .isIn(let column, let values)? = query.condition, values.count > 8,
            values.allSatisfy({ if case .integer = $0 { return true } else if case .text = $0 { return true } else { return false } })
        {
            exact = (column, Set(values))
        }
        var rows = table.rows.values.filter { row in
            if let exact, let stored = row.columns[exact.column] {
                switch stored {
                case .integer, .text, .null: return exact.values.contains(stored)
                default: break
                }
            }
            guard let condition = query.condition else { return true }
            return condition.matches(
                { row.columns[$0] ?? .null }, related: { tables[$0.name]?.rows[$1]?.columns },
                referring: { table, column, identifier in
                    guard identifier != .null else { return [] }
                    return tables[table.name]?.rows.values.compactMap { $0.columns[column] == identifier ? $0.columns : nil } ?? []
                }) == true
        }
        let scores: [Int: Int] = query.rank.map { rank in
            Dictionary(uniqueKeysWithValues: rows.map { row in (row.sequence, rank.score { row.columns[$0] ?? .null }) })
        } ?? [:]
        rows.sort { lhs, rhs in
            if query.rank != nil, scores[lhs.sequence] != scores[rhs.sequence] {
                return scores[lhs.sequence, default: 0] > scores[rhs.sequence, default: 0]
            }
            func value(_ row: Row, _ ordering: StoreOrdering) -> StoreValue {
                let stored = row.columns[ordering.column] ?? .null
                guard let (related, column) = ordering.through else { return stored }
                return tables[related.name]?.rows[stored]?.columns[column] ?? .null
            }
            for ordering in query.orderings {
                let order = StoreValue.compare(value(lhs, ordering), value(rhs, ordering))
                if order != 0 { return ordering.order == .ascending ? order < 0 : order > 0 }
            }
            return lhs.sequence < rhs.sequence
        }
        let identifier = query.table.columns[query.table.identifierColumn].name
        var keys = rows.map { $0.columns[identifier] ?? .null }
        keys.removeFirst(min(query.offset, keys.count))
        if let limit = query.limit, limit < keys.count { keys.removeLast(keys.count - limit) }
        return keys
    }

    private static func storedRow(_ row: Row, table: StoreTable) -> StoredRow {
        StoredRow(values: table.columns.map { row.columns[$0.name] ?? .null }, version: row.version)
    }
}
