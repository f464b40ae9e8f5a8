import Foundation
import ModelKitCore

/// What one ``ModelContext/save()`` writes: the rows of the inserted and changed models (and of
/// new models they refer to), the deletes, all encoded before the transaction opens, so a model
/// that cannot be encoded leaves the store and the context as they were.
struct ContextSavePlan {
    struct Insert {
        let model: any Model
        let table: StoreTable
        let row: [StoreValue]
    }

    struct Change {
        let model: any Model
        let entry: TrackedModel
        let row: [StoreValue]
        let columns: [Int]
    }

    /// A changed model the store's newer row wins over (``ModelMergePolicy/storeWins``): the
    /// stored row, or nil when it was deleted there.
    struct StoreWin: Sendable {
        let change: Int
        let stored: [StoreValue]?
    }

    private(set) var inserts: [Insert] = []
    private(set) var changes: [Change] = []
    private(set) var deletes: [PendingModel] = []

    var isEmpty: Bool { inserts.isEmpty && changes.isEmpty && deletes.isEmpty }

    /// The plan of everything `tracker` holds.
    init(context: ModelContext, tracker: ContextTracker) throws {
        var planned: Set<ObjectIdentifier> = []
        var references: [any Model] = []
        for pending in tracker.insertedModels {
            try Self.checkIdentifier(of: pending.model, registeredAs: pending.identifier, table: pending.table)
            let (row, refs) = try RowEncoding.row(of: pending.model, table: pending.table, saving: true)
            inserts.append(Insert(model: pending.model, table: pending.table, row: row))
            planned.insert(ObjectIdentifier(pending.object))
            references += refs
        }
        for (model, entry) in tracker.candidates() {
            let (row, refs) = try RowEncoding.row(of: model, table: entry.table, saving: true)
            let columns = RowEncoding.differingColumns(row, entry.baseline)
            guard !columns.isEmpty else { continue }
            if columns.contains(entry.table.identifierColumn) {
                throw Self.identifierChanged(entry.table, from: entry.identifier.quotedDescription, to: row[entry.table.identifierColumn].quotedDescription)
            }
            changes.append(Change(model: model, entry: entry, row: row, columns: columns))
            planned.insert(ObjectIdentifier(model as AnyObject))
            references += refs
        }
        deletes = tracker.deletedModels
        for pending in deletes { planned.insert(ObjectIdentifier(pending.object)) }
        // Models the saved rows refer to that the context does not track are new: they are
        // inserted too (and their own references), as a save through the store would.
        while let reference = references.popLast() {
            let object = reference as AnyObject
            guard planned.insert(ObjectIdentifier(object)).inserted, tracker.entry(of: object) == nil else { continue }
            let table = try RowEncoding.table(of: reference)
            let (row, refs) = try RowEncoding.row(of: reference, table: table, saving: true)
            inserts.append(Insert(model: reference, table: table, row: row))
            if let identifier = reference.modelIdentifier { context.register(reference, identifier: identifier) }
            references += refs
        }
    }

    private static func checkIdentifier(of model: any Model, registeredAs identifier: AnyHashable, table: StoreTable) throws {
        guard let current = model.modelIdentifier, current != identifier else { return }
        throw identifierChanged(table, from: describeIdentifier(identifier), to: describeIdentifier(current))
    }

    private static func identifierChanged(_ table: StoreTable, from old: String, to new: String) -> StoreError {
        StoreError(
            .identifierChanged, table: table.name, identifier: old,
            reason: "its identifier was changed to \(new) while the context holds it under \(old); an identifier "
                + "is fixed once registered: insert a new model and delete this one, or roll back")
    }

    // MARK: Writing

    /// Checks the changed models against the store, then writes every row and delete in `tx`.
    /// Returns the changes the store wins; throws a conflict under ``ModelMergePolicy/error``.
    func write(in tx: StoreTransaction, policy: ModelMergePolicy) async throws -> (storeWins: [StoreWin], deletions: [StoreDeletion]) {
        var storeWins: [StoreWin] = []
        var skipped: Set<Int> = []
        for (table, indices) in grouped(changes.indices, table: { changes[$0].entry.table }) {
            let identifiers = indices.map { changes[$0].entry.identifier }
            let rows = try await tx.connection.selectRows(table, identifiers: identifiers)
            var stored: [StoreValue: [StoreValue]] = [:]
            for row in rows { stored[row.values[table.identifierColumn]] = row.values }
            for index in indices {
                let change = changes[index]
                let row = stored[change.entry.identifier]
                let storeColumns = row.map { RowEncoding.changedColumns(stored: $0, baseline: change.entry.baseline, table: table) }
                guard storeColumns?.isEmpty != true else { continue }
                switch policy {
                case .memoryWins: continue
                case .storeWins:
                    skipped.insert(index)
                    storeWins.append(StoreWin(change: index, stored: row))
                case .error:
                    throw Self.conflict(change, storeColumns: storeColumns)
                }
            }
        }
        var upserts: [(table: StoreTable, rows: [[StoreValue]])] = []
        var position: [ObjectIdentifier: Int] = [:]
        func add(_ table: StoreTable, _ row: [StoreValue]) {
            let key = ObjectIdentifier(table)
            if let at = position[key] {
                upserts[at].rows.append(row)
            } else {
                position[key] = upserts.count
                upserts.append((table, [row]))
            }
        }
        for insert in inserts { add(insert.table, insert.row) }
        for (index, change) in changes.enumerated() where !skipped.contains(index) { add(change.entry.table, change.row) }
        for upsert in upserts { try await tx.connection.store(upsert.table, rows: upsert.rows) }
        var deletions: [StoreDeletion] = []
        for (table, indices) in grouped(deletes.indices, table: { deletes[$0].table }) {
            let identifiers = try indices.map { try table.identifierValue(deletes[$0].identifier) }
            deletions.append(try await tx.deleteFollowingRules(table.rows(identifiedBy: identifiers)))
        }
        return (storeWins, deletions)
    }

    /// Indices grouped by table, tables in the order met.
    private func grouped(_ indices: Range<Int>, table: (Int) -> StoreTable) -> [(StoreTable, [Int])] {
        var groups: [(StoreTable, [Int])] = []
        var position: [ObjectIdentifier: Int] = [:]
        for index in indices {
            let key = ObjectIdentifier(table(index))
            if let at = position[key] {
                groups[at].1.append(index)
            } else {
                position[key] = groups.count
                groups.append((table(index), [index]))
            }
        }
        return groups
    }

    /// The error of a changed model whose row changed in the store too (nil columns: deleted there).
    static func conflict(_ change: Change, storeColumns: [Int]?) -> StoreError {
        let table = change.entry.table
        let here = RowEncoding.propertyNames(change.columns, table: table)
        let there = storeColumns.map { RowEncoding.propertyNames($0, table: table) }
        let quoted = { (names: [String]) in names.map { "'\($0)'" }.joined(separator: ", ") }
        let reason: String
        if let there {
            reason = "its row changed in the store since the context loaded it (there: \(quoted(there)); here: "
                + "\(quoted(here))): refresh it, or save with another merge policy"
        } else {
            reason = "its row was deleted from the store since the context loaded it (edited here: \(quoted(here))): "
                + "refresh it, or save with another merge policy"
        }
        var error = StoreError(.conflict, table: table.name, identifier: change.entry.identifier.quotedDescription, reason: reason)
        let all = Set(change.columns).union(storeColumns ?? [])
        error.properties = RowEncoding.propertyNames(all.sorted(), table: table)
        return error
    }

    // MARK: After the commit

    /// Makes what was written the context's new baseline.
    func commit(_ storeWins: [StoreWin], context: ModelContext, tracker: ContextTracker) throws {
        let won = Set(storeWins.map(\.change))
        for (index, change) in changes.enumerated() where !won.contains(index) {
            try rebase(change.model, table: change.entry.table, written: change.row, tracker: tracker)
        }
        for insert in inserts {
            try rebase(insert.model, table: insert.table, written: insert.row, tracker: tracker)
        }
        for pending in deletes {
            context.unregister(pending.object, type: type(of: pending.model), identifier: pending.identifier)
            tracker.forget(pending.object)
        }
        for win in storeWins {
            let change = changes[win.change]
            guard let stored = win.stored else {
                if let identifier = change.model.modelIdentifier {
                    context.unregister(change.model as AnyObject, type: type(of: change.model), identifier: identifier)
                }
                tracker.forget(change.model as AnyObject)
                continue
            }
            try tracker.applying(change.model, table: change.entry.table) {
                try RowEncoding.apply(stored, to: change.model, table: change.entry.table, context: context, loader: context.loader)
            }
        }
    }

    /// The row written is the model's baseline; a model edited again while the save was under
    /// way stays edited.
    private func rebase(_ model: any Model, table: StoreTable, written: [StoreValue], tracker: ContextTracker) throws {
        try tracker.rebase(model, table: table, baseline: written)
        if try RowEncoding.row(of: model, table: table).values != written { tracker.markEdited(model) }
    }
}
