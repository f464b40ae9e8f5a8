import Foundation
import ModelKitCore

// The unit of work of a context backed by a store: what changed since the last save, and
// inserting, deleting and rolling back. Saving and refreshing are in ModelContext+Saving.swift.

extension StoreEngine {
    package func makeChangeTracker(mergePolicy: ModelMergePolicy) -> any ContextChangeTracking {
        ContextTracker(store: self, mergePolicy: mergePolicy)
    }
}

extension ModelContext {
    /// The context's unit of work; throws for a context without a store.
    func unitOfWork() throws -> ContextTracker {
        guard let tracker = tracker as? ContextTracker else {
            throw StoreError(.misusedContext, reason: "it has no store: create it with 'ModelContext(store:)'")
        }
        return tracker
    }

    /// Whether anything was inserted, edited or deleted since the last save (or rollback).
    ///
    /// ```swift
    /// user.name = "Grace"
    /// context.hasChanges   // true
    /// ```
    public var hasChanges: Bool {
        guard let tracker = tracker as? ContextTracker else { return false }
        if !tracker.insertedModels.isEmpty || !tracker.deletedModels.isEmpty { return true }
        return tracker.candidates().contains { !((try? changedColumns($0.model, $0.entry)) ?? []).isEmpty }
    }

    /// The models inserted since the last save, in the order they were inserted: by
    /// ``insert(_:)``, or created by a mapping through the context.
    public var insertedModels: [any Model] {
        (tracker as? ContextTracker)?.insertedModels.map(\.model) ?? []
    }

    /// The models whose stored properties differ from the store's row as last loaded or saved.
    public var changedModels: [any Model] {
        guard let tracker = tracker as? ContextTracker else { return [] }
        return tracker.candidates().filter { !((try? changedColumns($0.model, $0.entry)) ?? []).isEmpty }.map(\.model)
    }

    /// The models deleted since the last save, in the order they were deleted.
    public var deletedModels: [any Model] {
        (tracker as? ContextTracker)?.deletedModels.map(\.model) ?? []
    }

    /// The names of `model`'s stored properties whose values differ from the store's row as last
    /// loaded or saved, in declaration order; empty for a model the context did not load.
    ///
    /// ```swift
    /// user.name = "Grace"
    /// context.changedProperties(of: user)   // ["name"]
    /// ```
    public func changedProperties<M: Model & AnyObject>(of model: M) -> [String] {
        guard let tracker = tracker as? ContextTracker, let entry = tracker.entry(of: model) else { return [] }
        let columns = (try? changedColumns(model, entry)) ?? []
        return RowEncoding.propertyNames(columns, table: entry.table)
    }

    func changedColumns(_ model: any Model, _ entry: TrackedModel) throws -> [Int] {
        RowEncoding.differingColumns(try RowEncoding.row(of: model, table: entry.table).values, entry.baseline)
    }

    /// Adds a new model to the context, to be stored by the next ``save()``; a deleted one is
    /// no longer deleted. Throws when another instance is live for its identifier.
    ///
    /// ```swift
    /// try context.insert(User(id: 7, name: "Ada"))
    /// try await context.save()
    /// ```
    public func insert<M: Model & AnyObject>(_ model: M) throws {
        let tracker = try unitOfWork()
        let pending = try PendingModel(model, order: 0)
        let live = register(model, identifier: pending.identifier)
        guard live === model else {
            throw StoreError(
                .misusedContext, table: pending.table.name, identifier: describeIdentifier(pending.identifier),
                reason: "another instance is live for this identifier in the context: edit that one, or delete it first")
        }
        tracker.insert(try PendingModel(model, order: tracker.nextOrder()))
    }

    /// Marks `model` to be deleted from the store by the next ``save()``; a model inserted and
    /// not saved yet is simply forgotten.
    ///
    /// ```swift
    /// context.delete(user)
    /// context.deletedModels.count   // 1
    /// ```
    public func delete<M: Model & AnyObject>(_ model: M) throws {
        let tracker = try unitOfWork()
        let pending = try PendingModel(model, order: tracker.nextOrder())
        if tracker.delete(pending) {
            unregister(model, type: M.self, identifier: pending.identifier)
        }
    }

    /// Undoes everything since the last save: edited instances take back the values of the
    /// store's row as last loaded or saved, inserted models are forgotten, deleted ones are no
    /// longer deleted.
    ///
    /// ```swift
    /// user.name = "typo"
    /// try context.rollback()
    /// user.name   // the saved name
    /// ```
    public func rollback() throws {
        let tracker = try unitOfWork()
        let changed = tracker.candidates()
        let (inserted, _) = tracker.clearPending()
        for pending in inserted {
            unregister(pending.object, type: type(of: pending.model), identifier: pending.identifier)
            tracker.forget(pending.object)
        }
        for (model, entry) in changed {
            try tracker.applying(model, table: entry.table) {
                try RowEncoding.apply(
                    entry.baseline, to: model, table: entry.table, context: self, loader: loader, restoringIdentifier: true)
            }
        }
    }
}
