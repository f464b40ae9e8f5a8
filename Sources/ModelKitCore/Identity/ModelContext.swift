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
/// Concurrency: a context and its models stay in the isolation domain that made them (the main
/// actor, an actor of your own, a task), as SwiftData's do: `ModelContext` is not `Sendable`, so
/// the compiler refuses to let a context, or a model it holds, reach another domain. What
/// crosses domains is a store (`Sendable`) and identifiers; each domain that works with models
/// makes its own context over the shared store. Within its domain a context needs no lock.
///
/// ```swift
/// let context = ModelContext()
/// let first = try Status(jsonData: data, context: context)
/// let again = try Status(jsonData: data, context: context)
/// first === again                                          // true
/// context.registeredModel(User.self, id: "42")            // the live user, if any
/// ```
public final class ModelContext {
    /// The live instances, by model hierarchy and identifier. Reached only by the context's own
    /// methods, which never re-enter one another while they hold it: no access overlaps
    /// another, so none pays the runtime's exclusivity check.
    // Unchecked: every `register(_:id:)` and every identified model a reader maps looks up through it, and would
    // otherwise begin and end a dynamic access each time.
    @exclusivity(unchecked) private var tables = IdentityTables()
    /// The store the context's models live in, if any.
    public let store: (any ModelContextStore)?
    /// Where identifiers that are not live are loaded from as a mapping meets them: the store,
    /// when it loads synchronously.
    package let loader: (any ModelLoading)?
    /// What saving or refreshing does with an edited instance whose row changed in the store.
    public let mergePolicy: ModelMergePolicy
    /// The error of the last load of a relationship left for its first access that failed
    /// there (an accessor cannot throw; the relationship stays as it was, and is loaded again on
    /// its next access). `try model.loadPendingRelationships()` throws it instead.
    public internal(set) var relationshipLoadError: (any Error)?
    /// The unit of work: what was inserted, edited and deleted since the last save (stores
    /// track it; nil without a store).
    package let tracker: (any ContextChangeTracking)?
    /// How to undo what the mapping run in progress did to the context, newest last; nil
    /// outside a run.
    // Unchecked: every integer lookup reads it (`liveObject(inserting:integer:type:)`), and no access to it overlaps
    // another: each is a read, an assignment or an append, none calls code that could reach it meanwhile (undo
    // closures run over a copy).
    @exclusivity(unchecked) private var journal: [UndoStep]?
    /// How many times a live instance has stopped being the one for its identifier (forgotten,
    /// or replaced by an instance of another class of its hierarchy): a reader that remembers the
    /// instance it last found for an identifier trusts it only while this has not moved.
    package private(set) var identityRevisions = 0

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

    /// Runs `body`. A context used to be shared by tasks behind a lock; it now stays in one
    /// isolation domain, where nothing else can touch it meanwhile.
    @available(*, deprecated, message: "a context stays in one isolation domain and needs no lock: call 'body' directly")
    public func withLock<T>(_ body: () throws -> T) rethrows -> T {
        try body()
    }

    /// Runs one mapping through the context, all or nothing: when `body` throws, every live
    /// instance it updated in place gets its values back and every instance it registered is
    /// forgotten, so a payload that fails to map leaves the context as it found it. A run inside
    /// a run is part of the outer one.
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
        if journal != nil { return try body() }
        journal = []
        defer { journal = nil }
        do {
            return try body()
        } catch {
            if journal?.isEmpty == false { identityRevisions &+= 1 }
            for step in (journal ?? []).reversed() { step.undo() }
            throw error
        }
    }

    /// Records how to undo a change of the mapping run in progress (nothing outside a run).
    package func recordUndo(_ undo: @escaping () -> Void) {
        journal?.append(.run(undo))
    }

    /// How to undo one change of a mapping run. A registration, the change every model read
    /// makes, is kept as its parts rather than a closure, which would be an allocation per model.
    private enum UndoStep {
        case unregister(IdentityTable, AnyObject, IdentityKey)
        case run(() -> Void)

        func undo() {
            switch self {
            case .unregister(let table, let object, let key): table.remove(object, for: key)
            case .run(let undo): undo()
            }
        }
    }

    /// The live instance of `type` for `id`, without looking in the store (SwiftData's
    /// `registeredModel(for:)`).
    public func registeredModel<M: Model & AnyObject, ID: Hashable & Sendable>(_ type: M.Type, id: ID) -> M? {
        Self.cast(liveObject(for: IdentityKey(id), type: M.self), to: M.self)
    }

    /// The live instance of `type` for `id`, or else the one the store holds, loaded and
    /// registered (SwiftData's `model(for:)`).
    public func model<M: Model & AnyObject, ID: Hashable & Sendable>(_ type: M.Type, id: ID) throws -> M? {
        if let live = registeredModel(type, id: id) { return live }
        return try loader?.loadModel(type, id: AnyHashable(id), into: self)
    }

    /// ``model(_:id:)`` for any model type and a type-erased identifier (what readers have: the
    /// typed lookup above keys integers and strings without `AnyHashable`).
    package func liveOrLoadedModel<M: Model>(_ type: M.Type, identifier: AnyHashable) throws -> M? {
        if let live = registeredModel(type, identifier: identifier) { return live }
        return try loader?.loadModel(type, id: identifier, into: self)
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
    /// let live = context.register(Seat(number: 12), id: 12)
    /// ```
    @inlinable @discardableResult
    public func register<M: Model & AnyObject, ID: Hashable & Sendable>(_ model: M, id: ID) -> M {
        // Inlinable, so a caller's specialization skips generic copies on this hot path.
        // Returning the loaded reference itself (not `model`) saves a retain and a release.
        // Integer identifiers skip the key enum, whose copies cost more than the lookup.
        if ID.self == Int.self {
            // `ID` is `Int` here (checked above), so its bytes are an `Int`'s.
            let value = Int64(IdentityKey.reinterpret(id, as: Int.self))
            let live = liveObject(inserting: model, integer: value, type: M.self)
            // `live` is `model` itself (just compared), so it is an `M`: the downcast skips a dynamic cast.
            if live === model { return unsafeDowncast(live, to: M.self) }
            return register(model, as: model, key: .integer(value))
        }
        let key = IdentityKey(id)
        let live = liveObject(inserting: model, key: key, type: M.self)
        // As above: `live` is `model`, an `M`.
        if live === model { return unsafeDowncast(live, to: M.self) }
        return register(model, as: model, key: key)
    }

    /// Forgets `object` as the live instance for `identifier`, if it still is (a rolled-back
    /// insert, a saved delete).
    package func unregister(_ object: AnyObject, type: any Model.Type, identifier: AnyHashable) {
        identityRevisions &+= 1
        // `tables` keeps the table alive; taken as a strong reference for this call.
        tables.table(for: type, creating: false)?.takeUnretainedValue().remove(object, for: IdentityKey(identifier))
    }

    /// How many instances are live in the context now.
    public var registeredCount: Int {
        tables.liveCount()
    }

    /// Forgets every live instance (they stay alive where they are referenced).
    public func removeAll() {
        identityRevisions &+= 1
        tables.removeAll()
    }

    // MARK: Internals shared with readers and stores

    /// The live instance of `type` for an identifier, for any model type (the readers' path).
    package func registeredModel<M: Model>(_ type: M.Type, identifier: AnyHashable) -> M? {
        Self.cast(liveObject(for: IdentityKey(identifier), type: M.self), to: M.self)
    }

    /// Registers `model` under `identifier`; returns the instance live for it afterwards.
    @discardableResult
    package func register<M: Model>(_ model: M, identifier: AnyHashable) -> M {
        register(model, as: model as AnyObject, key: IdentityKey(identifier))
    }

    /// The live instance of `type` for a key a store made from a row's identifier (the key
    /// `IdentityKey(_:)` makes of the identifier).
    package func registeredModel<M: Model>(_ type: M.Type, key: IdentityKey) -> M? {
        Self.cast(liveObject(for: key, type: M.self), to: M.self)
    }

    /// The live object of `type`'s hierarchy for a key a store made from a row's identifier.
    ///
    /// For generic code that is not specialized (a store's reads): it checks the object's class
    /// itself (`isInstance(_:of:)`) and reads it as its model type, where an optional of that
    /// type, as ``registeredModel(_:key:)`` returns, would have its metadata looked up at run
    /// time on every call.
    package func registeredObject(_ type: any Model.Type, key: IdentityKey) -> AnyObject? {
        liveObject(for: key, type: type)
    }

    /// Whether `object` is an `M`: at once when it is an instance of exactly `M`, the common
    /// case, else by a dynamic cast.
    @inline(__always)
    package static func isInstance<M>(_ object: AnyObject, of _: M.Type) -> Bool {
        ObjectIdentifier(Swift.type(of: object)) == ObjectIdentifier(M.self) || object is M
    }

    /// Lookup-or-insert of `model` (which is `object`): the generic part is only the final cast.
    // Usable from inline: the inlinable `register(_:id:)` falls back to it when another instance is live.
    @usableFromInline
    package func register<M: Model>(_ model: M, as object: AnyObject, key: IdentityKey) -> M {
        let live: AnyObject
        if case .integer(let integer) = key {
            live = liveObject(inserting: object, integer: integer, type: M.self)
        } else {
            live = liveObject(inserting: object, key: key, type: M.self)
        }
        if live === object { return model }
        if Self.isInstance(live, of: M.self) {
            // An `M` (checked above), read as one without an optional of `M`, whose metadata this generic function would
            // otherwise look up on every call.
            return unsafeBitCast(live, to: M.self)
        }
        return replace(live, with: model, as: object, key: key)
    }

    /// Makes `object` (which is `model`) the live instance for `key` in place of `live`, an
    /// instance of another class of the hierarchy; undone with the mapping run.
    @inline(never)
    private func replace<M: Model>(_ live: AnyObject, with model: M, as object: AnyObject, key: IdentityKey) -> M {
        // `tables` keeps the table; taken as a strong reference, which the undo closure holds.
        guard let table = tables.table(for: M.self, creating: true)?.takeUnretainedValue() else { return model }
        identityRevisions &+= 1
        table.insert(object, for: key)
        recordUndo {
            table.remove(object, for: key)
            table.insert(live, for: key)
        }
        return model
    }

    /// The live object for `key` in `type`'s table, or `object` after inserting it.
    // Usable from inline: the inlinable `register(_:id:)` looks up or inserts every identifier that is not an `Int`
    // through it.
    @usableFromInline
    func liveObject(inserting object: AnyObject, key: IdentityKey, type: any Model.Type) -> AnyObject {
        // `tables` keeps the table; taken as a strong reference, which the undo closure holds.
        guard let table = tables.table(for: type, creating: true)?.takeUnretainedValue() else { return object }
        if let live = table.object(for: key) { return live }
        table.insert(object, for: key)
        journal?.append(.unregister(table, object, key))
        return object
    }

    /// ``liveObject(inserting:key:type:)`` for an integer identifier, the common case: the
    /// table is used without a retain (``tables`` keeps it, and nothing here changes them), and
    /// probed once.
    // Usable from inline: the inlinable `register(_:id:)` looks up every `Int` identifier through it.
    @usableFromInline
    func liveObject(inserting object: AnyObject, integer: Int64, type: any Model.Type) -> AnyObject {
        guard let table = tables.table(for: type, creating: true) else { return object }
        let live = table._withUnsafeGuaranteedRef { $0.object(forInteger: integer, inserting: object) }
        if live === object { journal?.append(.unregister(table.takeUnretainedValue(), object, .integer(integer))) }
        return live
    }

    /// The live object for `key` in `type`'s table, if any.
    func liveObject(for key: IdentityKey, type: any Model.Type) -> AnyObject? {
        // `tables` keeps the table alive; taken as a strong reference for this call.
        tables.table(for: type, creating: false)?.takeUnretainedValue().object(for: key)
    }

    /// `object` as an `M`: an instance of exactly `M` (the common case) without a dynamic cast,
    /// a subclass instance through one, and nil for an instance of another class of the hierarchy.
    @inline(__always)
    private static func cast<M>(_ object: AnyObject?, to type: M.Type) -> M? {
        guard let object else { return nil }
        if ObjectIdentifier(Swift.type(of: object)) == ObjectIdentifier(M.self) {
            // `M` is the object's own class (checked above), so the reference is an `M` as it is, without a dynamic
            // cast.
            return unsafeBitCast(object, to: M.self)
        }
        return object as? M
    }
}

// MARK: Spellings of earlier releases

extension ModelContext {
    @available(*, deprecated, renamed: "registeredModel(_:id:)")
    public func registeredModel<M: Model & AnyObject, ID: Hashable & Sendable>(_ type: M.Type, for id: ID) -> M? {
        registeredModel(type, id: id)
    }

    @available(*, deprecated, renamed: "model(_:id:)")
    public func model<M: Model & AnyObject, ID: Hashable & Sendable>(_ type: M.Type, for id: ID) throws -> M? {
        try model(type, id: id)
    }

    @available(*, deprecated, renamed: "register(_:id:)")
    @discardableResult
    public func register<M: Model & AnyObject, ID: Hashable & Sendable>(_ model: M, for id: ID) -> M {
        register(model, id: id)
    }
}

/// A context and the models it holds stay in one isolation domain: sending one to another task
/// or actor is a compile error, and so is declaring the context `Sendable` after the fact. Send a
/// store and identifiers instead, and make a context in the domain that uses them.
@available(*, unavailable, message: "a context and its models stay in one isolation domain: send the store and identifiers, and make a context there")
extension ModelContext: Sendable {}
