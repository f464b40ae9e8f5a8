import Foundation

/// One live instance per (model type, identifier): the identity map models with an
/// `@Identifier` are mapped through (FDModel's weak identity cache).
///
/// Mapping a payload through a context returns the live instance for an identifier that is
/// already in memory, updated in place with the payload's values; nested identified models too.
/// The context holds instances weakly: one nobody references any more is gone from it. With a
/// store, an identifier that is not live is loaded from the store before the payload applies.
///
/// Concurrency: a context is `Sendable` and guarded by one recursive lock, held for a whole
/// mapping run (as FDModel held one lock for models, provider and store), so tasks mapping
/// overlapping payloads into one context end with exactly one instance per identifier. Mutate
/// and read shared instances inside ``withLock(_:)`` when other tasks map into the context too.
///
/// ```swift
/// let context = ModelContext()
/// let first = try Status(jsonData: data, context: context)
/// let again = try Status(jsonData: data, context: context)
/// first === again                                          // true
/// context.registeredModel(User.self, for: "42")            // the live user, if any
/// ```
public final class ModelContext: @unchecked Sendable {
    // @unchecked: `tables` is only touched under `lock`.
    private let lock = NSRecursiveLock()
    private var tables: [ObjectIdentifier: IdentityTable] = [:]
    /// Where identifiers that are not live are loaded from.
    public let store: (any ModelLoading)?

    /// A context, backed by a store when given.
    public init(store: (any ModelLoading)? = nil) {
        self.store = store
    }

    /// Runs `body` holding the context's lock (reentrant).
    public func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// The live instance of `type` for `id`, without looking in the store (SwiftData's
    /// `registeredModel(for:)`).
    public func registeredModel<M: Model & AnyObject, ID: Hashable & Sendable>(_ type: M.Type, for id: ID) -> M? {
        registeredModel(type, identifier: AnyHashable(id))
    }

    /// The live instance of `type` for `id`, or else the one the store holds, loaded and
    /// registered (SwiftData's `model(for:)`).
    public func model<M: Model & AnyObject, ID: Hashable & Sendable>(_ type: M.Type, for id: ID) throws -> M? {
        try withLock {
            if let live = registeredModel(type, identifier: AnyHashable(id)) { return live }
            return try store?.loadModel(type, identifier: AnyHashable(id), into: self)
        }
    }

    /// Makes `model` the live instance for its identifier, unless another one already is;
    /// returns the live instance.
    @discardableResult
    public func register<M: Model & AnyObject>(_ model: M) -> M {
        guard let id = model.modelIdentifier else { return model }
        return register(model, identifier: id)
    }

    /// How many instances are live in the context now.
    public var registeredCount: Int {
        withLock { tables.values.reduce(0) { $0 + $1.liveCount() } }
    }

    /// Forgets every live instance (they stay alive where they are referenced).
    public func removeAll() {
        withLock { tables.removeAll() }
    }

    // MARK: Internals shared with readers and stores

    /// The live instance of `type` for an identifier.
    public func registeredModel<M: Model>(_ type: M.Type, identifier: AnyHashable) -> M? {
        withLock { tables[Self.tableKey(M.self)]?.object(for: identifier) as? M }
    }

    /// Registers `model` under `identifier`; returns the instance live for it afterwards.
    @discardableResult
    public func register<M: Model>(_ model: M, identifier: AnyHashable) -> M {
        withLock {
            let key = Self.tableKey(M.self)
            let table = tables[key] ?? IdentityTable()
            tables[key] = table
            if let live = table.object(for: identifier) as? M { return live }
            table.insert(model as AnyObject, for: identifier)
            return model
        }
    }

    /// Identity is per model hierarchy: a subclass instance answers for its root class.
    private static func tableKey<M: Model>(_ type: M.Type) -> ObjectIdentifier {
        var schema = M.modelSchema
        while let parent = schema.superschema { schema = parent }
        return ObjectIdentifier(schema.modelType)
    }
}

/// Loads models a context does not hold from somewhere durable (a store).
public protocol ModelLoading: Sendable {
    /// The model of `type` stored for `identifier`, created through `context` (so references to
    /// other identified models resolve to their live instances) and registered in it.
    func loadModel<M: Model>(_ type: M.Type, identifier: AnyHashable, into context: ModelContext) throws -> M?
}

/// Weak references to the live instances of one model hierarchy, by identifier.
final class IdentityTable {
    private var entries: [AnyHashable: WeakObject] = [:]
    private var sweepAt = 64

    struct WeakObject {
        weak var object: AnyObject?
    }

    func object(for identifier: AnyHashable) -> AnyObject? {
        entries[identifier]?.object
    }

    func insert(_ object: AnyObject, for identifier: AnyHashable) {
        entries[identifier] = WeakObject(object: object)
        if entries.count >= sweepAt {
            // Drop the entries of instances that are gone, so the table stays as large as what lives.
            entries = entries.filter { $0.value.object != nil }
            sweepAt = max(64, entries.count * 2)
        }
    }

    func liveCount() -> Int {
        entries.values.reduce(0) { $0 + ($1.object == nil ? 0 : 1) }
    }
}
