import Foundation

/// One live instance per (model type, identifier): the identity map models with an
/// `@Identifier` are mapped through (FDModel's weak identity cache).
///
/// Mapping a payload through a context returns the live instance for an identifier that is
/// already in memory, updated in place with the payload's values; nested identified models too.
/// The context holds instances weakly: one nobody references any more is gone from it (it keeps
/// an unowned reference, not a Swift `weak` one, so the instances' own retains and releases stay
/// fast; see `InstanceReference`). With a store, an identifier that is not live is loaded from
/// the store before the payload applies.
///
/// Concurrency: a context is `Sendable`. A mapping run holds the context's recursive lock from
/// start to end (as FDModel held one lock for models, provider and store), so tasks mapping
/// overlapping payloads into one context end with exactly one instance per identifier. Outside a
/// run, a lookup or registration takes only the lock of the identifier's shard, so tasks
/// working on different identifiers do not queue behind one lock. Mutate and read shared
/// instances inside ``withLock(_:)`` when other tasks map into the context too.
///
/// ```swift
/// let context = ModelContext()
/// let first = try Status(jsonData: data, context: context)
/// let again = try Status(jsonData: data, context: context)
/// first === again                                          // true
/// context.registeredModel(User.self, for: "42")            // the live user, if any
/// ```
public final class ModelContext: @unchecked Sendable {
    // @unchecked: `journal` is only touched under `lock`; each shard of `shards` under its own
    // lock (see IdentityShards).
    private let lock = NSRecursiveLock()
    /// The live instances, by identifier, in shards.
    private let shards = IdentityShards()
    /// The store the context's models live in, if any.
    public let store: (any ModelContextStore)?
    /// Where identifiers that are not live are loaded from as a mapping meets them: the store,
    /// when it loads synchronously.
    package let loader: (any ModelLoading)?
    /// What saving or refreshing does with an edited instance whose row changed in the store.
    public let mergePolicy: ModelMergePolicy
    /// The unit of work: what was inserted, edited and deleted since the last save (stores
    /// track it; nil without a store).
    package let tracker: (any ContextChangeTracking)?
    /// How to undo what the mapping run in progress did to the context, newest last; nil
    /// outside a run.
    private var journal: [() -> Void]?

    /// A context, backed by a store when given; `mergePolicy` decides what saving does with an
    /// edited instance whose row changed in the store meanwhile.
    ///
    /// ```swift
    /// let context = ModelContext(store: store, mergePolicy: .storeWins)
    /// ```
    public init(store: (any ModelContextStore)? = nil, mergePolicy: ModelMergePolicy = .error) {
        self.store = store
        self.loader = store as? any ModelLoading
        self.mergePolicy = mergePolicy
        self.tracker = (store as? any ChangeTrackingStore)?.makeChangeTracker(mergePolicy: mergePolicy)
    }

    /// Runs `body` holding the context's lock (reentrant).
    public func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// Runs one mapping through the context, holding its lock, all or nothing: when `body`
    /// throws, every live instance it updated in place gets its values back and every instance
    /// it registered is forgotten, so a payload that fails to map leaves the context as it found
    /// it. A run inside a run is part of the outer one.
    ///
    /// The mapping initializers that take a context run in one; call it yourself to make several
    /// mappings one unit:
    ///
    /// ```swift
    /// try context.performMapping {
    ///     _ = try [User](jsonData: users, context: context)
    ///     _ = try [Status](jsonData: statuses, context: context)
    /// }
    /// ```
    public func performMapping<T>(_ body: () throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        if journal != nil { return try body() }
        journal = []
        shards.setRunsActive(true)
        defer {
            journal = nil
            shards.setRunsActive(false)
        }
        do {
            return try body()
        } catch {
            for undo in (journal ?? []).reversed() { undo() }
            throw error
        }
    }

    /// Records how to undo a change of the mapping run in progress (nothing outside a run).
    /// Call holding the lock.
    package func recordUndo(_ undo: @escaping () -> Void) {
        journal?.append(undo)
    }

    /// The live instance of `type` for `id`, without looking in the store (SwiftData's
    /// `registeredModel(for:)`).
    public func registeredModel<M: Model & AnyObject, ID: Hashable & Sendable>(_ type: M.Type, for id: ID) -> M? {
        Self.cast(liveObject(for: IdentityKey(id), type: M.self), to: M.self)
    }

    /// The live instance of `type` for `id`, or else the one the store holds, loaded and
    /// registered (SwiftData's `model(for:)`).
    public func model<M: Model & AnyObject, ID: Hashable & Sendable>(_ type: M.Type, for id: ID) throws -> M? {
        try withLock {
            if let live = registeredModel(type, for: id) { return live }
            return try loader?.loadModel(type, identifier: AnyHashable(id), into: self)
        }
    }

    /// Makes `model` the live instance for its identifier, unless another one already is;
    /// returns the live instance.
    @discardableResult
    public func register<M: Model & AnyObject>(_ model: M) -> M {
        guard let id = model.modelIdentifier else { return model }
        return register(model, identifier: id)
    }

    /// Makes `model` the live instance for `id`, unless another one already is; returns the live
    /// instance (lookup-or-insert).
    ///
    /// ```swift
    /// let live = context.register(Seat(number: 12), for: 12)
    /// ```
    @inlinable @discardableResult
    public func register<M: Model & AnyObject, ID: Hashable & Sendable>(_ model: M, for id: ID) -> M {
        // Inlinable, so a caller's specialization skips generic copies on this hot path.
        // Returning the loaded reference itself (not `model`) saves a retain and a release.
        // Integer identifiers skip the key enum, whose copies cost more than the lookup.
        if ID.self == Int.self {
            let value = Int64(IdentityKey.reinterpret(id, as: Int.self))
            let live = liveObject(inserting: model, integer: value, type: M.self)
            if live === model { return unsafeDowncast(live, to: M.self) }
            return register(model, as: model, key: .integer(value))
        }
        let key = IdentityKey(id)
        let live = liveObject(inserting: model, key: key, type: M.self)
        if live === model { return unsafeDowncast(live, to: M.self) }
        return register(model, as: model, key: key)
    }

    /// Forgets `object` as the live instance for `identifier`, if it still is (a rolled-back
    /// insert, a saved delete).
    package func unregister(_ object: AnyObject, type: any Model.Type, identifier: AnyHashable) {
        let key = IdentityKey(identifier)
        withShard(of: key) { shard in shards.table(shard, for: type, creating: false)?.remove(object, for: key) }
    }

    /// How many instances are live in the context now.
    public var registeredCount: Int {
        withLock { shards.withEveryShard { $0.reduce(0) { $0 + $1.liveCount() } } }
    }

    /// Forgets every live instance (they stay alive where they are referenced).
    public func removeAll() {
        withLock {
            shards.withEveryShard { shards in
                for index in shards.indices { shards[index].removeAll() }
            }
        }
    }

    // MARK: Internals shared with readers and stores

    /// The live instance of `type` for an identifier.
    public func registeredModel<M: Model>(_ type: M.Type, identifier: AnyHashable) -> M? {
        Self.cast(liveObject(for: IdentityKey(identifier), type: M.self), to: M.self)
    }

    /// Registers `model` under `identifier`; returns the instance live for it afterwards.
    @discardableResult
    public func register<M: Model>(_ model: M, identifier: AnyHashable) -> M {
        register(model, as: model as AnyObject, key: IdentityKey(identifier))
    }

    /// Lookup-or-insert of `model` (which is `object`): the generic part is only the final cast.
    @usableFromInline
    func register<M: Model>(_ model: M, as object: AnyObject, key: IdentityKey) -> M {
        let live = liveObject(inserting: object, key: key, type: M.self)
        if live === object { return model }
        if let live = Self.cast(live, to: M.self) { return live }
        // The live instance is of another class of the hierarchy: the new one takes its place.
        withShard(of: key) { shard in
            guard let table = shards.table(shard, for: M.self, creating: true) else { return }
            table.insert(object, for: key)
            if journal != nil {
                journal?.append {
                    table.remove(object, for: key)
                    table.insert(live, for: key)
                }
            }
        }
        return model
    }

    /// The live object for `key` in `type`'s table, or `object` after inserting it.
    @usableFromInline
    func liveObject(inserting object: AnyObject, key: IdentityKey, type: any Model.Type) -> AnyObject {
        inShard(IdentityShards.index(of: key)) { shard, underContextLock in
            guard let table = shards.table(shard, for: type, creating: true) else { return object }
            if let live = table.object(for: key) { return live }
            table.insert(object, for: key)
            if underContextLock, journal != nil { journal?.append { table.remove(object, for: key) } }
            return object
        }
    }

    /// ``liveObject(inserting:key:type:)`` for an integer identifier, the common case.
    @usableFromInline
    func liveObject(inserting object: AnyObject, integer: Int64, type: any Model.Type) -> AnyObject {
        let shard = IdentityShards.index(ofInteger: integer)
        shards.lock(shard)
        if !shards.runsActive, let table = shards.unretainedTable(shard, for: type) {
            defer { shards.unlock(shard) }
            return table._withUnsafeGuaranteedRef { table in
                if let live = table.object(forInteger: integer) { return live }
                table.insert(object, for: .integer(integer))
                return object
            }
        }
        shards.unlock(shard)
        return liveObject(inserting: object, key: .integer(integer), type: type)
    }

    /// The live object for `key` in `type`'s table, if any.
    func liveObject(for key: IdentityKey, type: any Model.Type) -> AnyObject? {
        inShard(IdentityShards.index(of: key)) { shard, _ in
            shards.table(shard, for: type, creating: false)?.object(for: key)
        }
    }

    /// Runs `body` holding shard `shard`'s lock and, while a mapping run is in progress, the
    /// context's lock first (so it waits for another thread's run, or joins this thread's);
    /// `body` learns which, as only under the context's lock may it record an undo.
    private func inShard<T>(_ shard: Int, _ body: (_ shard: Int, _ underContextLock: Bool) throws -> T) rethrows -> T {
        shards.lock(shard)
        if !shards.runsActive {
            defer { shards.unlock(shard) }
            return try body(shard, false)
        }
        shards.unlock(shard)
        lock.lock()
        defer { lock.unlock() }
        shards.lock(shard)
        defer { shards.unlock(shard) }
        return try body(shard, true)
    }

    /// Runs `body` with the shard of `key`, holding the context's lock and the shard's: for
    /// changes a mapping run may have to undo.
    private func withShard<T>(of key: IdentityKey, _ body: (Int) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        let shard = IdentityShards.index(of: key)
        shards.lock(shard)
        defer { shards.unlock(shard) }
        return try body(shard)
    }

    /// `object` as an `M`: an instance of exactly `M` (the common case) without a dynamic cast,
    /// a subclass instance through one, and nil for an instance of another class of the hierarchy.
    @inline(__always)
    private static func cast<M>(_ object: AnyObject?, to type: M.Type) -> M? {
        guard let object else { return nil }
        if ObjectIdentifier(Swift.type(of: object)) == ObjectIdentifier(M.self) {
            return unsafeBitCast(object, to: M.self)
        }
        return object as? M
    }
}
