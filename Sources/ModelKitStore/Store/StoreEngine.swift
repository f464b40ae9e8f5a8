import Foundation
import ModelKitCore

/// One row as a store returns it: the values of the model's columns in order, and the model
/// version the row was written with.
struct StoredRow {
    var values: [StoreValue]
    var version: Int
}

/// What the SQLite and in-memory stores share: turning rows into models through contexts,
/// loading references, migration. Each store supplies the rows.
protocol StoreEngine: ModelStore {
    /// The rows a query selects, in its order.
    func selectRows(_ query: ResolvedQuery) throws -> [StoredRow]
    /// The row stored for an identifier.
    func selectRow(_ table: StoreTable, identifier: StoreValue) throws -> StoredRow?
    /// Every column of the row stored for an identifier, by name, older columns included.
    func selectAllColumns(_ table: StoreTable, identifier: StoreValue) throws -> [String: StoreValue]
    /// The loads under way, to catch references that form a cycle.
    var loadsInProgress: Locked<Set<LoadKey>> { get }
}

/// A load under way: a context, a table and an identifier.
struct LoadKey: Hashable {
    let context: ObjectIdentifier
    let table: String
    let identifier: StoreValue
}

extension StoreEngine {
    public func loadModel<M: Model>(_ type: M.Type, identifier: AnyHashable, into context: ModelContext) throws -> M? {
        let table = try StoreTable.of(M.self)
        let key = try table.identifierValue(identifier)
        guard let row = try selectRow(table, identifier: key) else { return nil }
        let load = LoadKey(context: ObjectIdentifier(context), table: table.name, identifier: key)
        guard loadsInProgress.withLock({ $0.insert(load).inserted }) else {
            throw StoreError(
                .cyclicReference, table: table.name, identifier: key.quotedDescription,
                reason: "its references lead back to it before it is loaded")
        }
        defer { _ = loadsInProgress.withLock { $0.remove(load) } }
        return try context.performMapping { try model(M.self, from: row, table: table, context: context) }
    }

    public func fetchOne<M: Model, ID: Hashable & Sendable>(_ type: M.Type, id: ID, context: ModelContext?) throws
        -> M?
    {
        let table = try StoreTable.of(M.self)
        if let context, table.isClass, let live = context.registeredModel(M.self, identifier: AnyHashable(id)) {
            return live
        }
        let key = try table.identifierValue(id)
        guard let row = try selectRow(table, identifier: key) else { return nil }
        guard let context else { return try model(M.self, from: row, table: table, context: nil) }
        return try context.performMapping { try model(M.self, from: row, table: table, context: context) }
    }

    public func fetchAll<M: Model>(_ query: ModelQuery<M>, context: ModelContext?) throws -> [M] {
        let resolved = try query.resolved()
        let rows = try selectRows(resolved)
        // One context for the whole fetch, so identity holds across its rows.
        let context = context ?? (resolved.table.isClass ? ModelContext() : nil)
        let read = { try rows.map { try self.model(M.self, from: $0, table: resolved.table, context: context) } }
        return try context?.withLock(read) ?? read()
    }

    /// The model of a row: the live instance when the context holds its identifier, or else the
    /// row read (migrated first when it is older than the model) and registered.
    func model<M: Model>(_ type: M.Type, from row: StoredRow, table: StoreTable, context: ModelContext?) throws -> M {
        var reader = StoreRowReader(row: row.values, table: table, context: context, loader: self)
        var identifier: AnyHashable?
        do {
            if table.isClass, let context {
                let id = try reader.decodeIdentifier(M.self)
                if let live = context.registeredModel(M.self, identifier: id) { return live }
                identifier = id
            }
            if row.version < table.schema.version, M.self is any ModelMigrating.Type {
                let values = try migratedRow(M.self, row: row, table: table)
                reader = StoreRowReader(row: values, table: table, context: context, loader: self)
            }
            let model = try reader.decodeUnidentified(M.self)
            guard let context, let identifier else { return model }
            return context.register(model, identifier: identifier)
        } catch {
            throw StoreError.wrapping(
                error, table: table.name, identifier: row.values[table.identifierColumn].quotedDescription)
        }
    }
}
