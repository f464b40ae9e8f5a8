import Foundation
import ModelKitCore

/// A store that keeps rows in memory: the same rows, queries, references, versions and change
/// notifications as ``SQLiteStore``, without a database. For tests and caches.
///
/// Rows are encoded and decoded exactly as the SQLite store does it, so a model saved here reads
/// back as it would from a file; queries follow SQLite's comparison rules.
///
/// Concurrency: one lock guards the tables; models are read outside it, under the context's lock.
///
/// ```swift
/// let store = MemoryStore()
/// try store.save(users)
/// try store.fetchCount(TwitterUser.self)   // users.count
/// ```
public final class MemoryStore: ModelStore, StoreEngine, Sendable {
    /// One table: rows by identifier, with the order they were first saved in.
    struct Table {
        var rows: [StoreValue: Row] = [:]
        var nextSequence = 0
    }

    /// One row: every column by name (older columns included), the version, the insertion order.
    struct Row {
        var columns: [String: StoreValue]
        var version: Int
        var sequence: Int
    }

    private let tables = Locked<[String: Table]>([:])
    let loadsInProgress = Locked<Set<LoadKey>>([])
    private let hub = StoreChangeHub()

    /// An empty store.
    public init() {}

    public func changes<M: Model>(to type: M.Type) -> StoreChanges {
        hub.subscribe(table: M.modelSchema.modelName)
    }

    public func save<S: Sequence>(_ models: S) throws where S.Element: Model {
        // Encode everything first, so a failure leaves the store as it was.
        var batch: [(table: StoreTable, values: [StoreValue])] = []
        var encoder = RowEncoder { table, values in batch.append((table, values)) }
        try encoder.encode(models)
        let changes = tables.withLock { tables in
            var changes: [String: StoreChange] = [:]
            for (table, values) in batch {
                var columns: [String: StoreValue] = [:]
                for (index, column) in table.columns.enumerated() { columns[column.name] = values[index] }
                var stored = tables[table.name] ?? Table()
                let key = values[table.identifierColumn]
                if var existing = stored.rows[key] {
                    existing.columns.merge(columns) { $1 }
                    existing.version = table.schema.version
                    stored.rows[key] = existing
                } else {
                    stored.rows[key] = Row(columns: columns, version: table.schema.version, sequence: stored.nextSequence)
                    stored.nextSequence += 1
                }
                tables[table.name] = stored
                changes[table.name, default: StoreChange(modelName: table.name)].saved += 1
            }
            return changes
        }
        hub.post(changes.values.sorted { $0.modelName < $1.modelName })
    }

    public func fetchCount<M: Model>(_ query: ModelQuery<M>) throws -> Int {
        try selectKeys(query.resolved()).count
    }

    @discardableResult
    public func deleteOne<M: Model, ID: Hashable & Sendable>(_ type: M.Type, id: ID) throws -> Bool {
        let table = try StoreTable.of(M.self)
        let key = try table.identifierValue(id)
        let deleted = tables.withLock { $0[table.name]?.rows.removeValue(forKey: key) != nil }
        if deleted { hub.post([StoreChange(modelName: table.name, deleted: 1)]) }
        return deleted
    }

    @discardableResult
    public func deleteAll<M: Model>(_ query: ModelQuery<M>) throws -> Int {
        let resolved = try query.resolved()
        let name = resolved.table.name
        let count = tables.withLock { tables in
            let keys = select(resolved, in: tables)
            for key in keys { tables[name]?.rows.removeValue(forKey: key) }
            return keys.count
        }
        if count > 0 { hub.post([StoreChange(modelName: name, deleted: count)]) }
        return count
    }

    // MARK: Rows for the engine

    func selectRows(_ query: ResolvedQuery) throws -> [StoredRow] {
        tables.withLock { tables in
            select(query, in: tables).compactMap { key in
                tables[query.table.name]?.rows[key].map { storedRow($0, table: query.table) }
            }
        }
    }

    func selectRow(_ table: StoreTable, identifier: StoreValue) throws -> StoredRow? {
        tables.withLock { $0[table.name]?.rows[identifier].map { storedRow($0, table: table) } }
    }

    func selectAllColumns(_ table: StoreTable, identifier: StoreValue) throws -> [String: StoreValue] {
        tables.withLock { $0[table.name]?.rows[identifier]?.columns ?? [:] }
    }

    private func selectKeys(_ query: ResolvedQuery) -> [StoreValue] {
        tables.withLock { select(query, in: $0) }
    }

    /// The identifiers of the rows a query selects, in its order, as SQLite would return them.
    private func select(_ query: ResolvedQuery, in tables: [String: Table]) -> [StoreValue] {
        guard let table = tables[query.table.name] else { return [] }
        var rows = table.rows.values.filter { row in
            guard let condition = query.condition else { return true }
            return condition.matches { row.columns[$0] ?? .null } == true
        }
        rows.sort { lhs, rhs in
            for ordering in query.orderings {
                let order = StoreValue.compare(lhs.columns[ordering.column] ?? .null, rhs.columns[ordering.column] ?? .null)
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

    private func storedRow(_ row: Row, table: StoreTable) -> StoredRow {
        StoredRow(values: table.columns.map { row.columns[$0.name] ?? .null }, version: row.version)
    }
}
