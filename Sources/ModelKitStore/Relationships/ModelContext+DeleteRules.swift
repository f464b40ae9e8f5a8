import Foundation
import ModelKitCore

extension ModelContext {
    /// Makes the live instances follow what a save's deletes did in the store: models a
    /// `.cascade` deleted leave the context, and references a `.nullify` emptied become nil (or
    /// lose the deleted models) in memory too, as the store holds them, without counting as edits.
    func follow(_ deletion: StoreDeletion, tracker: ContextTracker) throws {
        guard !deletion.deleted.isEmpty || !deletion.nullified.isEmpty else { return }
        var live: [ObjectIdentifier: [StoreValue: any Model]] = [:]
        for (type, models) in tracker.liveModelsByTable() {
            let table = try StoreTable.of(type)
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
            let table = reference.table
            guard let model = live[ObjectIdentifier(table)]?[identifier], let entry = tracker.entry(of: model as AnyObject)
            else { continue }
            // The instance keeps its other edits: only the reference's column takes the stored value.
            var row = try RowEncoding.row(of: model, table: table).values
            row[reference.column] = value
            var baseline = entry.baseline
            baseline[reference.column] = value
            try tracker.applying(model, table: table) {
                try RowEncoding.apply(row, to: model, table: table, context: self, loader: loader)
            }
            try tracker.rebase(model, table: table, baseline: baseline)
            if row != baseline { tracker.markEdited(model) }
        }
    }
}
