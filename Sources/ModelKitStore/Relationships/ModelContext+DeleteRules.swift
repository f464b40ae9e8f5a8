import Foundation
import ModelKitCore

extension ModelContext {
    /// Makes the live instances follow what a save's deletes did in the store: models a
    /// `.cascade` deleted leave the context, and references a `.nullify` emptied become nil (or
    /// lose the deleted models) in memory too, as the store holds them, without counting as edits.
    func follow(_ deletion: StoreDeletion, tracker: ContextTracker) throws {
        guard !deletion.deleted.isEmpty || !deletion.nullified.isEmpty else { return }
        var live: [ObjectIdentifier: [StoreValue: any Model]] = [:]
        var tables: [StoreTable] = []
        for (type, models) in tracker.liveModelsByTable() {
            let table = try StoreTable.of(type)
            tables.append(table)
            for model in models {
                guard let identifier = model.modelIdentifier else { continue }
                live[ObjectIdentifier(table), default: [:]][try table.identifierValue(identifier)] = model
            }
        }
        for (table, identifiers) in deletion.deleted {
            for identifier in identifiers {
                guard let model = live[ObjectIdentifier(table)]?[identifier], let key = model.modelIdentifier else { continue }
                unregister(model as AnyObject, type: Swift.type(of: model), identifier: key)
                tracker.forget(model as AnyObject)
            }
        }
        for (reference, identifier, value) in deletion.nullified {
            guard let model = live[ObjectIdentifier(reference.table)]?[identifier] else { continue }
            let row = try RowEncoding.row(of: model, table: reference.table).values
            try take(value, in: reference.column, of: model, row: row, table: reference.table, tracker: tracker)
        }
        // A to-many kept in its inverse's column or a join table loses the deleted models: the
        // store no longer holds their rows.
        var deleted: [ObjectIdentifier: Set<StoreValue>] = [:]
        for (table, identifiers) in deletion.deleted { deleted[ObjectIdentifier(table), default: []].formUnion(identifiers) }
        for table in tables {
            guard let models = live[ObjectIdentifier(table)] else { continue }
            for toMany in table.keptElsewhere {
                let (column, related) = (toMany.column, try toMany.relatedTable())
                guard let gone = deleted[ObjectIdentifier(related)] else { continue }
                let reference = StoreReference(table: table, column: column, target: related, isToMany: true)
                for model in models.values {
                    let row = try RowEncoding.row(of: model, table: table).values
                    let kept = try reference.value(row[column], removing: gone)
                    if kept != row[column] {
                        try take(kept, in: column, of: model, row: row, table: table, tracker: tracker)
                    }
                }
            }
        }
    }

    /// Sets one column of a live instance, whose row is `row` now, to what the store holds,
    /// baseline included: the instance keeps its other edits, and this is not one.
    private func take(
        _ value: StoreValue, in column: Int, of model: any Model, row: [StoreValue], table: StoreTable, tracker: ContextTracker
    ) throws {
        guard let entry = tracker.entry(of: model as AnyObject) else { return }
        var row = row
        row[column] = value
        var baseline = entry.baseline
        baseline[column] = value
        try tracker.applying(model, table: table) {
            try RowEncoding.apply(row, to: model, table: table, context: self, loader: loader)
        }
        try tracker.rebase(model, table: table, baseline: baseline)
        if row != baseline { tracker.markEdited(model) }
    }
}
