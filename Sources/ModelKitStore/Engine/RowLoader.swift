import Foundation
import ModelKitCore

/// Turns rows into models for one store operation, loading the rows their references and
/// migrations need: at once from a connection that reads without suspending (SQLite, memory),
/// or in rounds from one that cannot (PostgreSQL).
///
/// Reading is synchronous, in the context's isolation domain, so the identity map's guarantee
/// holds: the live instance for an identifier is found, or the new one registered, without a
/// suspension point in between. When a row it needs is not at hand, the loader notes it and the read fails;
/// ``models(_:rows:table:context:connection:)`` then fetches every row noted (one query per
/// table), and reads again. The failed read registered nothing (a context's mapping run is all or
/// nothing), so each round starts clean; reference chains take one round per link.
final class RowLoader: ModelLoading, @unchecked Sendable {
    // @unchecked: a loader serves one operation of one task, and is reached only through it.
    private struct RowKey: Hashable {
        let table: String
        let identifier: StoreValue
    }

    /// A row the loader has looked for: found, or known to be absent.
    private enum Lookup {
        case found(StoredRow)
        case absent
    }

    let synchronous: (any SynchronousRowReading)?
    private var rows: [RowKey: Lookup] = [:]
    private var allColumns: [RowKey: [String: StoreValue]] = [:]
    /// Rows a read needed and did not find at hand, by table, for the next round.
    private var missingRows: [String: (table: StoreTable, identifiers: Set<StoreValue>)] = [:]
    private var missingColumns: [RowKey: StoreTable] = [:]
    /// The loads of referenced rows under way: a reference back to one of them closes a cycle.
    var loadsInProgress: Set<LoadKey> = []
    /// The same loads, in the order they began.
    var loadStack: [LoadKey] = []
    /// Models a reference defers to even when no load of them is under way: each closed a cycle
    /// through a reference that cannot wait, so the cycle must be entered through another.
    var deferredTargets: Set<LoadKey> = []
    /// Whether the outermost load should read again, with more ``deferredTargets``.
    var retriesCycle = false
    /// The rows (as read) whose reads deferred a reference to a load under way, in read order;
    /// each read of an identified model takes the ones its own row added (``RowLoader+Cycles``).
    var deferringRows: [[StoreValue]] = []
    /// Live instances with references to set once the outermost load ends: their rows, read
    /// again then, when every model of the cycle is registered.
    var cycleFixups: [CycleFixup] = []
    /// Owners registered whose to-many relationships kept through an inverse are still to
    /// fill, in the order they were read (``RowLoader+ToMany``).
    var ownersToFill: [OwnerToFill] = []
    /// Each table's relationships split into those filled now and those left for first access,
    /// by table (``RowLoader+ToMany``).
    var relationshipSplits: [ObjectIdentifier: RelationshipSplit] = [:]

    /// Where the relationships this read leaves for first access load from (the store), and
    /// the ones of the operation's own table it fills now anyway (`ModelQuery.prefetching(_:)`);
    /// nil to fill every relationship now.
    let lazy: LazyRelationships?

    init(synchronous: (any SynchronousRowReading)?, lazy: LazyRelationships? = nil) {
        self.synchronous = synchronous
        self.lazy = lazy
    }

    /// The models of `rows`, in their order, read through `context`.
    func models<M: Model>(
        _ type: M.Type, rows: [StoredRow], table: StoreTable, context: ModelContext?, connection: any StoreConnection,
        decoder: StoreModelDecoder<M>
    ) async throws -> [M] {
        if prefetchesReferences(of: table, context: context) { try prefetchReferences(of: rows, table: table) }
        var models: [M]
        while true {
            let mark = ownersToFill.count
            do {
                func read() throws -> [M] { try self.models(M.self, rows: rows, table: table, context: context, decoder: decoder) }
                guard let context else { return try read() }
                models = try context.performMapping(read)
                break
            } catch {
                // The round registered nothing: whatever it deferred or noted goes with it.
                forgetCycles()
                forgetOwners(since: mark)
                guard hasMissing else { throw error }
                try await fetchMissing(from: connection)
            }
        }
        try await fillToMany(in: context, connection: connection)
        return models
    }

    /// The models of `rows`, or the first error; when a row's references are not at hand, the
    /// other rows are still read, so one round fetches what all of them need.
    func models<M: Model>(
        _ type: M.Type, rows: [StoredRow], table: StoreTable, context: ModelContext?, decoder: StoreModelDecoder<M>
    ) throws -> [M] {
        var models: [M] = []
        models.reserveCapacity(rows.count)
        var firstError: (any Error)?
        var reader = StoreRowReader(columns: .values([]), table: table, context: context, loader: self)
        for row in rows {
            do {
                reader.start(.values(row.values))
                let model = try model(
                    M.self, reading: &reader, version: row.version, table: table, context: context, decoder: decoder)
                decoder.append(&models, model)
            } catch {
                // Without rows to fetch, the error is the answer; with some, the next round may
                // read this row too.
                guard hasMissing else { throw error }
                firstError = firstError ?? error
            }
        }
        if let firstError { throw firstError }
        return models
    }

    // MARK: ModelLoading

    func loadModel<M: Model>(_ type: M.Type, id identifier: AnyHashable, into context: ModelContext) throws -> M? {
        let table = try StoreTable.of(M.self)
        let key = try table.identifierValue(identifier)
        guard let row = try row(table, identifier: key) else { return nil }
        let load = LoadKey(context: ObjectIdentifier(context), table: table.name, identifier: key)
        guard loadsInProgress.insert(load).inserted else { throw cycleThatCannotWait(to: load, table: table) }
        loadStack.append(load)
        defer {
            loadsInProgress.remove(load)
            loadStack.removeLast()
        }
        let isOutermost = loadsInProgress.count == 1
        while true {
            let mark = ownersToFill.count
            do {
                return try context.performMapping {
                    var reader = StoreRowReader(
                        columns: .values(row.values), table: table, context: context, loader: self, defersCyclicReferences: true)
                    let model = try model(
                        M.self, reading: &reader, version: row.version, table: table, context: context, decoder: StoreModelDecoder())
                    if isOutermost { try closeCycles(in: context) }
                    return model
                }
            } catch {
                guard isOutermost else { throw error }
                forgetCycles()
                forgetOwners(since: mark)
                // A cycle closed through a reference that cannot wait: read again, deferring the
                // references that lead into it (the read registered nothing).
                guard retriesCycle else { throw error }
                retriesCycle = false
            }
        }
    }

    // MARK: Reading

    /// The model of a row written at model version `version`: the live instance when the context
    /// holds its identifier, or else the row read (migrated first when it is older than the
    /// model) by `decoder` and registered.
    func model<M: Model>(
        _ type: M.Type, from columns: StoreRowColumns, version: @autoclosure () -> Int, table: StoreTable,
        context: ModelContext?, decoder: StoreModelDecoder<M>
    ) throws -> M {
        var reader = StoreRowReader(columns: columns, table: table, context: context, loader: self)
        return try model(M.self, reading: &reader, version: version(), table: table, context: context, decoder: decoder)
    }

    /// The model of the row `reader` is at (a reader this loader made for `table` and
    /// `context`, moved from row to row by a loop over many). The version is read only when it
    /// matters: for a model that migrates, or a live instance a tracking context may bring up
    /// to date.
    func model<M: Model>(
        _ type: M.Type, reading reader: inout StoreRowReader, version: @autoclosure () -> Int, table: StoreTable,
        context: ModelContext?, decoder: StoreModelDecoder<M>
    ) throws -> M {
        let columns = reader.columns
        do {
            if table.isClass, let context {
                return try identifiedModel(M.self, reading: &reader, version: version, table: table, context: context, decoder: decoder)
            }
            // A value, or a class read without identity: no optional or other generic value of the
            // model's type on this path, so nothing generic is looked up per row.
            try migrateIfOlder(M.self, &reader, version: version, table: table, context: context)
            return try decoder.decode(&reader)
        } catch {
            throw StoreError.wrapping(
                error, table: table.name, identifier: columns[table.identifierColumn].quotedDescription)
        }
    }

    /// The model of a row of an identified class, through `context`: the live instance for its
    /// identifier (brought up to date when the context tracks changes), or the row read and
    /// registered.
    private func identifiedModel<M: Model>(
        _ type: M.Type, reading reader: inout StoreRowReader, version: () -> Int, table: StoreTable, context: ModelContext,
        decoder: StoreModelDecoder<M>
    ) throws -> M {
        let stored = reader.columns[table.identifierColumn]
        // Keyed from the stored value where it can be: `AnyHashable` and its casts were a third
        // of reading a related model in generic code.
        let key = try IdentityKey(stored: stored, identifierType: table.identifierType)
            ?? IdentityKey(reader.decodeIdentifier(M.self))
        if let object = context.registeredObject(M.self, key: key), ModelContext.isInstance(object, of: M.self) {
            // An `M` (checked above), read as one without an optional of `M` (see `registeredObject`).
            let live = unsafeBitCast(object, to: M.self)
            if let tracker = context.tracker as? ContextTracker {
                try refreshLive(live, from: reader.columns, version: version(), table: table, context: context, tracker: tracker)
            }
            return live
        }
        try migrateIfOlder(M.self, &reader, version: version, table: table, context: context)
        let deferredBefore = deferringRows.count
        let model = try decoder.decode(&reader)
        // Unsafe: the table is a class's (`isClass`, checked by the caller), so `model` is one
        // reference, which this reinterprets without `as AnyObject`'s dynamic check.
        let object = unsafeBitCast(model, to: AnyObject.self)
        let live = context.register(model, as: object, key: key)
        let isNew = unsafeBitCast(live, to: AnyObject.self) === object
        if deferringRows.count > deferredBefore { noteDeferred(by: live, registered: model, table: table, since: deferredBefore) }
        if isNew, !table.relationshipsKeptElsewhere.isEmpty { noteOwner(live, table: table, identifier: stored, context: context) }
        if isNew, let tracker = context.tracker as? ContextTracker { try tracker.didLoad(model, table: table, context: context) }
        return live
    }

    /// Moves `reader` to the row's values brought up to date by the model's migration hook, when
    /// the row is older than the model and the model migrates.
    private func migrateIfOlder<M: Model>(
        _ type: M.Type, _ reader: inout StoreRowReader, version: () -> Int, table: StoreTable, context: ModelContext?
    ) throws {
        guard table.migrates else { return }
        let version = version()
        guard version < table.schema.version else { return }
        let stored = try self.columns(table, identifier: reader.columns[table.identifierColumn])
        reader.start(.values(try migratedRow(M.self, columns: stored, version: version, table: table)))
    }

    /// Brings a live instance of a tracking context up to date with its row, when the row
    /// changed since the context last loaded or saved it: an instance not edited takes the
    /// stored values; an edited one keeps its edits (a save will meet the conflict), unless a
    /// refresh targets it, which follows the context's merge policy.
    private func refreshLive<M: Model>(
        _ live: M, from columns: StoreRowColumns, version: Int, table: StoreTable, context: ModelContext,
        tracker: ContextTracker
    ) throws {
        guard version >= table.schema.version, let entry = tracker.entry(of: live as AnyObject) else { return }
        let stored = columns.values
        let storeColumns = RowEncoding.changedColumns(stored: stored, baseline: entry.baseline, table: table)
        guard !storeColumns.isEmpty else { return }
        let edits = try context.changedColumns(live, entry)
        if !edits.isEmpty {
            guard tracker.isRefreshing(live as AnyObject) else { return }
            switch tracker.mergePolicy {
            case .storeWins: break
            case .memoryWins:
                // The edits stay, over the new row: saving writes them without a conflict.
                try tracker.rebase(live, table: table, baseline: stored)
                tracker.markEdited(live)
                return
            case .error:
                let row = try RowEncoding.row(of: live, table: table).values
                throw ContextSavePlan.conflict(
                    .init(model: live, entry: entry, row: row, columns: edits), storeColumns: storeColumns)
            }
        }
        try tracker.applying(live, table: table) {
            try RowEncoding.apply(stored, to: live, table: table, context: context, loader: self)
        }
    }

    // MARK: Rows at hand

    /// The row stored for an identifier, or nil; notes it as missing (and throws) when it is not
    /// at hand yet.
    private func row(_ table: StoreTable, identifier: StoreValue) throws -> StoredRow? {
        let key = RowKey(table: table.name, identifier: identifier)
        switch rows[key] {
        case .found(let row): return row
        case .absent: return nil
        case nil: break
        }
        if let synchronous {
            let row = try synchronous.selectRowNow(table, identifier: identifier)
            rows[key] = row.map(Lookup.found) ?? .absent
            return row
        }
        missingRows[table.name, default: (table, [])].identifiers.insert(identifier)
        throw RowNotAtHand()
    }

    /// Every column of a stored row, by name; noted as missing (and throws) when not at hand.
    private func columns(_ table: StoreTable, identifier: StoreValue) throws -> [String: StoreValue] {
        let key = RowKey(table: table.name, identifier: identifier)
        if let columns = allColumns[key] { return columns }
        if let synchronous {
            let columns = try synchronous.selectAllColumnsNow(table, identifier: identifier)
            allColumns[key] = columns
            return columns
        }
        missingColumns[key] = table
        throw RowNotAtHand()
    }

    /// Whether the row for an identifier has been looked for already (found or absent).
    func isAtHand(_ table: StoreTable, identifier: StoreValue) -> Bool {
        rows[RowKey(table: table.name, identifier: identifier)] != nil
    }

    /// Keeps a row read ahead, for a read that will need it.
    func keepAtHand(_ table: StoreTable, _ row: StoredRow) {
        rows[RowKey(table: table.name, identifier: row.values[table.identifierColumn])] = .found(row)
    }

    /// Notes that no row is stored for an identifier (until ``keepAtHand(_:_:)`` says otherwise).
    func markAbsent(_ table: StoreTable, identifier: StoreValue) {
        rows[RowKey(table: table.name, identifier: identifier)] = .absent
    }

    var hasMissing: Bool {
        !missingRows.isEmpty || !missingColumns.isEmpty
    }

    /// Fetches every row noted as missing: one query per table.
    func fetchMissing(from connection: any StoreConnection) async throws {
        let wanted = missingRows
        let columns = missingColumns
        missingRows = [:]
        missingColumns = [:]
        for (table, identifiers) in wanted.values {
            let found = try await connection.selectRows(table, identifiers: Array(identifiers))
            for identifier in identifiers { rows[RowKey(table: table.name, identifier: identifier)] = .absent }
            for row in found {
                rows[RowKey(table: table.name, identifier: row.values[table.identifierColumn])] = .found(row)
            }
        }
        for (key, table) in columns {
            allColumns[key] = try await connection.selectAllColumns(table, identifier: key.identifier)
        }
    }
}

/// What a read throws when a row it needs is still to be fetched (the loader's next round).
struct RowNotAtHand: Error, CustomStringConvertible {
    var description: String { "a referenced row is still to be fetched" }
}

/// A load under way: a context, a table and an identifier.
struct LoadKey: Hashable {
    let context: ObjectIdentifier
    let table: String
    let identifier: StoreValue
}
