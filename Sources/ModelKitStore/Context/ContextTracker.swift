import Foundation
import ModelKitCore
import Observation

/// The unit of work of one context: the row each instance it loaded or saved had then (its
/// baseline), the models inserted and deleted since, and the observable instances edited since.
///
/// A model's changes are the columns where its row, encoded now, differs from its baseline, so
/// writing a value back, or mapping a payload with the same values, is no change. An observable
/// instance is watched (one-shot `withObservationTracking` over its properties): the first write
/// marks it edited and the tracker holds it strongly until it is saved or rolled back, so an
/// edit is not lost with the last reference to the instance; only edited instances are encoded
/// to find changes. Instances of a `@Model(observable: false)` class are compared every time, and
/// held weakly like every unedited instance.
///
/// A tracker belongs to one context and stays in its isolation domain, as the context does.
package final class ContextTracker: ContextChangeTracking {
    let store: any ModelStore
    let mergePolicy: ModelMergePolicy
    private var entries: [ObjectIdentifier: TrackedModel] = [:]
    private var inserted: [ObjectIdentifier: PendingModel] = [:]
    private var deleted: [ObjectIdentifier: PendingModel] = [:]
    /// Observable instances written since their baseline, held strongly.
    private var edited: [ObjectIdentifier: AnyObject] = [:]
    /// Instances whose values the tracker itself is setting: their writes are no edits.
    private var applying: Set<ObjectIdentifier> = []
    /// Instances a refresh targets: a row read for them follows the merge policy.
    private var refreshing: Set<ObjectIdentifier> = []
    private var order = 0
    /// When to drop the entries of instances that are gone (as the entries grow).
    private var sweepAt = 256
    /// Counts inserts, deletes and edits, for autosave's quiet interval.
    private var activity = 0
    private let activitySignal: AsyncStream<Void>.Continuation
    let activityStream: AsyncStream<Void>

    init(store: any ModelStore, mergePolicy: ModelMergePolicy) {
        self.store = store
        self.mergePolicy = mergePolicy
        (activityStream, activitySignal) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    deinit {
        activitySignal.finish()
    }

    // MARK: What the context reports

    package func contextDidCreate(_ model: any Model, in context: ModelContext) {
        guard let pending = try? PendingModel(model, order: nextOrder()) else { return }
        let id = ObjectIdentifier(pending.object)
        inserted[id] = pending
        context.recordUndo { [weak self] in _ = self?.inserted.removeValue(forKey: id) }
        noteActivity()
    }

    /// The store gave the context `model` (a row read and registered): its row is its baseline.
    func didLoad(_ model: any Model, table: StoreTable, context: ModelContext) throws {
        let row = try RowEncoding.row(of: model, table: table).values
        let object = model as AnyObject
        let id = ObjectIdentifier(object)
        entries[id] = TrackedModel(object: object, table: table, baseline: row)
        inserted[id] = nil
        if entries.count >= sweepAt {
            entries = entries.filter { $0.value.object != nil }
            sweepAt = max(256, entries.count * 2)
        }
        context.recordUndo { [weak self] in _ = self?.entries.removeValue(forKey: id) }
        watch(model, table: table)
    }

    /// Called on the first write to a watched instance since it was watched.
    private func noteEdit(_ id: ObjectIdentifier) {
        guard !applying.contains(id), let object = entries[id]?.object else { return }
        edited[id] = object
        noteActivity()
    }

    private func noteActivity() {
        activity += 1
        activitySignal.yield()
    }

    /// How many inserts, deletes and edits the context has seen.
    var activityCount: Int { activity }

    /// A number ordering inserts and deletes.
    func nextOrder() -> Int {
        order += 1
        return order
    }

    // MARK: Watching observable instances

    /// Arms a one-shot observation of every property of an observable instance.
    private func watch(_ model: any Model, table: StoreTable) {
        guard let observable = model as? any ObservableModel else { return }
        let id = ObjectIdentifier(observable)
        // Observation types `onChange` `@Sendable`, but calls it synchronously from the
        // property's `willSet`, on the thread writing the model; a model is not `Sendable`, so
        // only its own isolation domain writes it, and that is the tracker's domain too.
        nonisolated(unsafe) weak let tracker = self
        // Read to be watched, not used: what the store left for first access stays there.
        let faults = observable._modelKitFaults
        observable._modelKitFaults = nil
        withObservationTracking {
            for property in table.schema.properties { _ = observable[keyPath: property.keyPath] }
        } onChange: {
            tracker?.noteEdit(id)
        }
        observable._modelKitFaults = faults
    }

    // MARK: Lookups for the context

    /// The tracked entry of a live instance.
    func entry(of object: AnyObject) -> TrackedModel? {
        guard let entry = entries[ObjectIdentifier(object)], entry.object === object else { return nil }
        return entry
    }

    /// The live tracked instances, by model type.
    func liveModelsByTable() -> [(type: any Model.Type, models: [any Model])] {
        var groups: [ObjectIdentifier: (type: any Model.Type, models: [any Model])] = [:]
        for entry in entries.values {
            guard let model = entry.object as? any Model else { continue }
            let type = Swift.type(of: model)
            groups[ObjectIdentifier(type), default: (type, [])].models.append(model)
        }
        return Array(groups.values)
    }

    func isInserted(_ object: AnyObject) -> Bool { inserted[ObjectIdentifier(object)] != nil }
    func isDeleted(_ object: AnyObject) -> Bool { deleted[ObjectIdentifier(object)] != nil }
    func isRefreshing(_ object: AnyObject) -> Bool { refreshing.contains(ObjectIdentifier(object)) }

    var insertedModels: [PendingModel] { inserted.values.sorted { $0.order < $1.order } }
    var deletedModels: [PendingModel] { deleted.values.sorted { $0.order < $1.order } }

    /// The instances that may have changed: every edited observable one, every live one that is
    /// not observable; not those deleted.
    func candidates() -> [(model: any Model, entry: TrackedModel)] {
        entries = entries.filter { $0.value.object != nil }
        return entries.compactMap { id, entry in
            guard deleted[id] == nil, let object = entry.object, let model = object as? any Model else { return nil }
            if object is any ObservableModel, edited[id] == nil { return nil }
            return (model, entry)
        }
    }

    // MARK: Changing what is tracked

    func insert(_ pending: PendingModel) {
        let id = ObjectIdentifier(pending.object)
        if deleted.removeValue(forKey: id) == nil, entries[id]?.object !== pending.object { inserted[id] = pending }
        noteActivity()
    }

    /// Marks `model` deleted; a model inserted and not saved is simply forgotten. Returns whether
    /// it was a pending insert.
    func delete(_ pending: PendingModel) -> Bool {
        defer { noteActivity() }
        let id = ObjectIdentifier(pending.object)
        if inserted.removeValue(forKey: id) != nil { return true }
        deleted[id] = pending
        return false
    }

    /// Sets values on `model` without counting them as edits, then takes `model`'s row as its
    /// new baseline and watches it again.
    func applying<T>(_ model: any Model, table: StoreTable, _ body: () throws -> T) throws -> T {
        let object = model as AnyObject
        let id = ObjectIdentifier(object)
        applying.insert(id)
        defer { applying.remove(id) }
        let result = try body()
        try rebase(model, table: table)
        return result
    }

    /// Takes `model`'s row now as its baseline: saved, or refreshed. It is no longer edited.
    func rebase(_ model: any Model, table: StoreTable) throws {
        let row = try RowEncoding.row(of: model, table: table).values
        try rebase(model, table: table, baseline: row)
    }

    /// Takes `baseline` as `model`'s baseline (the row the store holds); `model` is no longer
    /// edited, inserted or deleted.
    func rebase(_ model: any Model, table: StoreTable, baseline: [StoreValue]) throws {
        let object = model as AnyObject
        let id = ObjectIdentifier(object)
        entries[id] = TrackedModel(object: object, table: table, baseline: baseline)
        edited[id] = nil
        inserted[id] = nil
        deleted[id] = nil
        watch(model, table: table)
    }

    /// Marks `model` edited again: it changed while a save of its earlier values was under way.
    func markEdited(_ model: any Model) {
        let object = model as AnyObject
        edited[ObjectIdentifier(object)] = object
    }

    /// Forgets `object` entirely (a saved delete, a rolled-back insert).
    func forget(_ object: AnyObject) {
        let id = ObjectIdentifier(object)
        entries[id] = nil
        edited[id] = nil
        inserted[id] = nil
        deleted[id] = nil
    }

    /// Forgets every insert and delete; edited instances are no longer edited.
    func clearPending() -> (inserted: [PendingModel], edited: [AnyObject]) {
        defer {
            inserted = [:]
            deleted = [:]
            edited = [:]
        }
        return (Array(inserted.values), Array(edited.values))
    }

    /// Runs `body` with `objects` marked as the targets of a refresh.
    func refreshing<T>(_ objects: [AnyObject], _ body: () async throws -> T) async rethrows -> T {
        let ids = objects.map(ObjectIdentifier.init)
        refreshing.formUnion(ids)
        defer { refreshing.subtract(ids) }
        return try await body()
    }
}

/// An instance a context loaded or saved, and its row then.
final class TrackedModel {
    weak var object: AnyObject?
    let table: StoreTable
    let baseline: [StoreValue]

    init(object: AnyObject, table: StoreTable, baseline: [StoreValue]) {
        self.object = object
        self.table = table
        self.baseline = baseline
    }

    /// The identifier the row was stored under.
    var identifier: StoreValue { baseline[table.identifierColumn] }
}

/// A model inserted or deleted and not saved yet, held strongly.
struct PendingModel {
    let model: any Model
    let table: StoreTable
    /// The identifier it was registered under.
    let identifier: AnyHashable
    let order: Int

    var object: AnyObject { model as AnyObject }

    init(_ model: any Model, order: Int) throws {
        self.model = model
        self.table = try RowEncoding.table(of: model)
        guard let identifier = model.modelIdentifier else { throw StoreError.notIdentified(table.schema) }
        self.identifier = identifier
        self.order = order
    }
}
