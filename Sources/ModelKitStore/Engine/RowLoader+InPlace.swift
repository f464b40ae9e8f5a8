import Foundation
import ModelKitCore

// Reading in place: a connection that can (SQLite) hands the loader each row while its statement
// is on it, and the model is read from the statement's columns; no row is copied into
// `StoreValue`s first. References are loaded while a row is read, through the same connection
// (its accesses are reentrant, and a statement in use is never reset by a nested load).

extension RowLoader {
    /// The models of the rows `query` selects, in its order, read in place through `context`;
    /// `ownsContext` when the context is the read's own, which goes if it fails.
    func models<M: Model>(
        _ type: M.Type, selecting query: ResolvedQuery, from rows: any InPlaceRowReading, context: ModelContext?,
        ownsContext: Bool = false, decoder: StoreModelDecoder<M>
    ) throws -> [M] {
        // A local function, not a closure value: nothing captured is boxed on the heap.
        func read() throws -> [M] {
            // The relationships are filled inside the query's access: the same snapshot, and a
            // read of one access needs no transaction.
            try rows.withRows(query) { next in
                let found: [M]
                if prefetchesReferences(of: query.table, context: context) {
                    let copied = try StoreRowColumns.copies(of: next, count: query.table.columns.count)
                    try prefetchReferences(of: copied, table: query.table)
                    found = try models(M.self, rows: copied, table: query.table, context: context, decoder: decoder)
                } else {
                    found = try models(M.self, rows: next, table: query.table, context: context, decoder: decoder)
                }
                try fillToManyNow(in: context)
                return found
            }
        }
        guard let context else { return try read() }
        // A context of the read's own goes if the read fails: undoing it would be work for nothing,
        // and a mapping run records a step per model it registers (megabytes for a hundred thousand).
        // A run that starts inside the read (a reference's load) still undoes itself.
        if ownsContext { return try read() }
        return try context.performMapping(read)
    }

    /// The models of the next rows of a cursor, at most `limit`, read in place through
    /// `context`; and whether the cursor is done.
    func models<M: Model>(
        _ type: M.Type, from cursor: any InPlaceRowCursor, limit: Int, table: StoreTable, context: ModelContext?,
        decoder: StoreModelDecoder<M>
    ) throws -> (models: [M], isDone: Bool) {
        func read() throws -> (result: [M], isDone: Bool) {
            let batch = try cursor.withNextRows(limit: limit) { next in
                try models(M.self, rows: next, table: table, context: context, decoder: decoder)
            }
            try fillToManyNow(in: context)
            return batch
        }
        let batch = try context.map { try $0.performMapping(read) } ?? read()
        return (batch.result, batch.isDone)
    }

    /// The models of the rows `next` steps to.
    private func models<M: Model>(
        _ type: M.Type, rows next: () throws -> StoreRowColumns?, table: StoreTable, context: ModelContext?,
        decoder: StoreModelDecoder<M>
    ) throws -> [M] {
        // One reader for every row, moved from row to row: no reader made and freed per row.
        var reader = StoreRowReader(columns: .values([]), table: table, context: context, loader: self)
        if !table.isClass, !table.migrates { return try decoder.decodeRows(&reader, next) }
        var models: [M] = []
        while let row = try next() {
            reader.start(row)
            let model = try self.model(
                M.self, reading: &reader, version: row.version(after: table.columns.count), table: table, context: context,
                decoder: decoder)
            decoder.append(&models, model)
        }
        return models
    }

    /// Hands `found` the model of the row stored for `identifier`, read in place through
    /// `context`; nothing when there is no such row. (No optional of the model's type here: this
    /// generic code would look its metadata up at run time on every read.)
    func model<M: Model>(
        _ type: M.Type, identifier: StoreValue, table: StoreTable, from rows: any InPlaceRowReading, context: ModelContext?,
        decoder: StoreModelDecoder<M>, found: (M) -> Void
    ) throws {
        func read() throws {
            _ = try rows.withRow(table, identifier: identifier) { row in
                found(
                    try self.model(
                        M.self, from: row, version: row.version(after: table.columns.count), table: table, context: context,
                        decoder: decoder))
                try fillToManyNow(in: context)
            }
        }
        if let context { try context.performMapping(read) } else { try read() }
    }
}
