import Foundation
import ModelKitCore

// Values instead of models: aggregates, groups and projections, each one statement the store
// computes (SQL on SQLite and PostgreSQL, the same rules in Swift in memory), no model read.

extension StoreTransaction {
    /// An aggregate over the rows a query selects.
    ///
    /// ```swift
    /// let retweets = try await tx.fetchAggregate(ModelQuery(Status.self), .sum(\.retweetCount))
    /// ```
    public func fetchAggregate<M: Model, V>(_ query: ModelQuery<M>, _ aggregate: StoreAggregate<M, V>) async throws -> V {
        let selection = try query.selection(groups: [], outputs: [try aggregate.output()])
        let rows = try await values(selection)
        return try decode(selection, column: nil) { try aggregate.decode(rows.first?.first ?? .null) }
    }

    /// An aggregate for each group of the rows a query selects that share the values of some
    /// properties, in the order of those values (`nil` first).
    ///
    /// ```swift
    /// let perLanguage = try await tx.fetchGroups(ModelQuery(Status.self), by: \.lang, aggregate: .count)
    /// // [(keys: "en", value: 98), (keys: "ja", value: 2)]
    /// ```
    public func fetchGroups<M: Model, each K: ModelValue, V>(
        _ query: ModelQuery<M>, by keyPaths: repeat KeyPath<M, each K>, aggregate: StoreAggregate<M, V>
    ) async throws -> [(keys: (repeat each K), value: V)] {
        var groups: [AnyKeyPath] = []
        for keyPath in repeat each keyPaths { groups.append(keyPath) }
        let resolved = try query.selection(groups: groups, outputs: [])
        let selection = ResolvedSelection(
            query: resolved.query, groupColumns: resolved.groupColumns,
            outputs: resolved.groupColumns.map { .column($0) } + [try aggregate.output()])
        return try await values(selection).map { row in
            var index = 0
            func next<T: ModelValue>(_ type: T.Type) throws -> T {
                defer { index += 1 }
                return try decode(selection, column: selection.groupColumns[index]) {
                    try StoreRowReader.decodeColumn(T.self, from: row[index])
                }
            }
            let keys = (repeat try next((each K).self))
            let value = try decode(selection, column: nil) { try aggregate.decode(row[row.count - 1]) }
            return (keys: keys, value: value)
        }
    }

    /// Some properties of each model a query selects, in its order, without reading the models.
    ///
    /// ```swift
    /// let names = try await tx.fetchAll(ModelQuery(User.self).order(by: \User.name), select: \.id, \.name)
    /// ```
    public func fetchAll<M: Model, each V: ModelValue>(
        _ query: ModelQuery<M>, select keyPaths: repeat KeyPath<M, each V>
    ) async throws -> [(repeat each V)] {
        var selected: [AnyKeyPath] = []
        for keyPath in repeat each keyPaths { selected.append(keyPath) }
        let selection = try query.projection(selected)
        let columns = selection.outputs.map { output -> String? in
            if case .column(let name) = output { return name }
            return nil
        }
        return try await values(selection).map { row in
            var index = 0
            func next<T: ModelValue>(_ type: T.Type) throws -> T {
                defer { index += 1 }
                return try decode(selection, column: columns[index]) { try StoreRowReader.decodeColumn(T.self, from: row[index]) }
            }
            return (repeat try next((each V).self))
        }
    }

    /// Runs a selection through the connection.
    private func values(_ selection: ResolvedSelection) async throws -> [[StoreValue]] {
        try checkUsable(writing: false, table: selection.query.table.name)
        return try await connection.selectValues(selection)
    }

    /// `body`'s value, its error as a ``StoreError`` naming the table and the column.
    private func decode<T>(_ selection: ResolvedSelection, column: String?, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as StoreError {
            throw error
        } catch {
            let subject = column.map { "'\($0)'" } ?? "the aggregate"
            throw StoreError(.undecodableRow, table: selection.query.table.name, reason: "\(subject): \(error)", underlying: error)
        }
    }
}

extension ModelStore {
    /// An aggregate over the rows a query selects, in one statement: a count, a count of distinct
    /// values, a sum, the smallest or largest value, an average.
    ///
    /// ```swift
    /// let retweets = try await store.fetchAggregate(ModelQuery(Status.self), .sum(\.retweetCount))
    /// let newest = try await store.fetchAggregate(ModelQuery(Status.self), .max(\.createdAt))
    /// ```
    public func fetchAggregate<M: Model, V>(_ query: ModelQuery<M>, _ aggregate: StoreAggregate<M, V>) async throws -> V {
        try await fetching { try await $0.fetchAggregate(query, aggregate) }
    }

    /// An aggregate for each group of rows that share the values of one or more properties, in
    /// the order of those values (`nil` first).
    ///
    /// ```swift
    /// let perLanguage = try await store.fetchGroups(ModelQuery(Status.self), by: \.lang, aggregate: .count)
    /// for (lang, count) in perLanguage { print(lang, count) }
    /// ```
    public func fetchGroups<M: Model, each K: ModelValue, V>(
        _ query: ModelQuery<M>, by keyPaths: repeat KeyPath<M, each K>, aggregate: StoreAggregate<M, V>
    ) async throws -> [(keys: (repeat each K), value: V)] {
        try await fetching { try await $0.fetchGroups(query, by: repeat each keyPaths, aggregate: aggregate) }
    }

    /// Some properties of each model a query selects, in its order, as tuples: no model is read.
    ///
    /// ```swift
    /// for (id, name) in try await store.fetchAll(ModelQuery(User.self), select: \.id, \.name) { print(id, name) }
    /// ```
    public func fetchAll<M: Model, each V: ModelValue>(
        _ query: ModelQuery<M>, select keyPaths: repeat KeyPath<M, each V>
    ) async throws -> [(repeat each V)] {
        try await fetching { try await $0.fetchAll(query, select: repeat each keyPaths) }
    }
}
