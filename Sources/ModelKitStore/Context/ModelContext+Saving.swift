import Foundation
import ModelKitCore

// Saving a context's unit of work, and refreshing its instances from the store.

extension ModelContext {
    /// Writes exactly what changed since the last save, in one store transaction, all or
    /// nothing: the inserted models (and new models they refer to), the changed ones, the deletes.
    ///
    /// An edited model whose row changed in the store since the context loaded it is a conflict
    /// the context's `mergePolicy` resolves: the store's values win, the edits win, or
    /// (`ModelMergePolicy.error`, the default) nothing is saved and a ``StoreError/Kind/conflict``
    /// names the model, identifier and properties. A model whose identifier was changed after it
    /// was registered is refused (``StoreError/Kind/identifierChanged``).
    ///
    /// ```swift
    /// let user = try context.model(User.self, id: 42)
    /// user?.name = "Grace"
    /// try await context.save()   // one UPDATE of one row
    /// ```
    public func save() async throws {
        let tracker = try unitOfWork()
        let plan = try ContextSavePlan(context: self, tracker: tracker)
        guard !plan.isEmpty else { return }
        let policy = mergePolicy
        let written = try await tracker.store.write { tx in try await plan.write(in: tx, policy: policy) }
        try plan.commit(written.storeWins, context: self, tracker: tracker)
        for deletion in written.deletions { try follow(deletion, tracker: tracker) }
    }

    /// Reads `model`'s row again: an instance not edited takes the stored values; an edited one
    /// follows the context's merge policy (the store's values, the edits kept over the new row,
    /// or a ``StoreError/Kind/conflict``). Returns false when the row is no longer stored.
    ///
    /// ```swift
    /// try await context.refresh(user)
    /// ```
    @discardableResult
    public func refresh<M: Model & AnyObject>(_ model: M) async throws -> Bool {
        let tracker = try unitOfWork()
        guard let identifier = model.modelIdentifier else { throw StoreError.notIdentified(M.modelSchema) }
        return try await tracker.refreshing([model]) {
            try await refetch(M.self, identifiers: [identifier], tracker: tracker) == 1
        }
    }

    /// Reads the rows of every live instance of `types` again (one query per type), as
    /// ``refresh(_:)`` does for one; the default is every type the context holds instances of.
    ///
    /// ```swift
    /// try await context.refreshAll()
    /// ```
    public func refreshAll(_ types: [any Model.Type]? = nil) async throws {
        let tracker = try unitOfWork()
        let live = tracker.liveModelsByTable()
        let wanted = types.map { Set($0.map { ObjectIdentifier($0) }) }
        for (type, objects) in live where wanted?.contains(ObjectIdentifier(type)) ?? true {
            _ = try await tracker.refreshing(objects.map { $0 as AnyObject }) {
                try await refetch(type, identifiers: objects.compactMap(\.modelIdentifier), tracker: tracker)
            }
        }
    }

    /// Fetches the rows of `identifiers` through the context; returns how many are stored.
    @discardableResult
    private func refetch<M: Model>(_ type: M.Type, identifiers: [AnyHashable], tracker: ContextTracker) async throws -> Int {
        let table = try StoreTable.of(M.self)
        let keys = try identifiers.map { try table.identifierValue($0) }
        let query = ModelQuery(M.self).filter(
            ModelPredicate(.success(.isIn(column: table.columns[table.identifierColumn].name, keys))))
        return try await tracker.store.read { tx in try await tx.fetchAll(query, context: self) }.count
    }

    /// Keeps the context's unedited instances of `types` up to date until the task is
    /// cancelled: after every transaction committed to their tables (by another context, or by
    /// another process on PostgreSQL), their rows are read again, as ``refreshAll(_:)`` does.
    ///
    /// Run it in a task of its own:
    ///
    /// ```swift
    /// let refreshing = Task { try await context.refreshOnStoreChanges(of: [User.self]) }
    /// // ...
    /// refreshing.cancel()
    /// ```
    public func refreshOnStoreChanges(of types: [any Model.Type]) async throws {
        let tracker = try unitOfWork()
        let (signals, signal) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let forwarders = types.map { type in
            let changes = Self.changes(of: type, in: tracker.store)
            return Task {
                for await _ in changes { signal.yield() }
            }
        }
        defer {
            forwarders.forEach { $0.cancel() }
            signal.finish()
        }
        // The stream ends its iteration when the task is cancelled. (No cancellation handler:
        // its operation would run as a closure away from the context's actor.)
        for await _ in signals {
            try Task.checkCancellation()
            try await refreshAll(types)
        }
    }

    private static func changes(of type: any Model.Type, in store: any ModelStore) -> StoreChanges {
        func changes<M: Model>(_ type: M.Type) -> StoreChanges { store.changes(to: M.self) }
        return changes(type)
    }

    /// Saves the context after each quiet interval that follows an edit, insert or delete,
    /// until the task is cancelled or a save throws.
    ///
    /// ```swift
    /// let autosave = Task { try await context.autosave(after: .seconds(2)) }
    /// ```
    public func autosave(after quietInterval: Duration) async throws {
        let tracker = try unitOfWork()
        for await _ in tracker.activityStream {
            var seen = tracker.activityCount
            while true {
                try await Task.sleep(for: quietInterval)
                let now = tracker.activityCount
                if now == seen { break }
                seen = now
            }
            if hasChanges { try await save() }
        }
    }
}
