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
    /// The table of each model type met so far (a subclass shares its root class's table).
    private var tablesByType: [ObjectIdentifier: IdentityTable] = [:]
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
        let key = IdentityKey(id)
        return withLock { Self.cast(table(for: M.self, creating: false)?.object(for: key), to: M.self) }
    }

    /// The live instance of `type` for `id`, or else the one the store holds, loaded and
    /// registered (SwiftData's `model(for:)`).
    public func model<M: Model & AnyObject, ID: Hashable & Sendable>(_ type: M.Type, for id: ID) throws -> M? {
        try withLock {
            if let live = registeredModel(type, for: id) { return live }
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
        let key = IdentityKey(id)
        let live = liveObject(inserting: model, key: key, type: M.self)
        if live === model { return unsafeDowncast(live, to: M.self) }
        return register(model, as: model, key: key)
    }

    /// How many instances are live in the context now.
    public var registeredCount: Int {
        withLock { tables.values.reduce(0) { $0 + $1.liveCount() } }
    }

    /// Forgets every live instance (they stay alive where they are referenced).
    public func removeAll() {
        withLock {
            tables.removeAll()
            tablesByType.removeAll()
        }
    }

    // MARK: Internals shared with readers and stores

    /// The live instance of `type` for an identifier.
    public func registeredModel<M: Model>(_ type: M.Type, identifier: AnyHashable) -> M? {
        let key = IdentityKey(identifier)
        return withLock { Self.cast(table(for: M.self, creating: false)?.object(for: key), to: M.self) }
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
        withLock { table(for: M.self, creating: true)?.insert(object, for: key) }
        return model
    }

    /// The live object for `key` in `type`'s table, or `object` after inserting it.
    @usableFromInline
    func liveObject(inserting object: AnyObject, key: IdentityKey, type: any Model.Type) -> AnyObject {
        lock.lock()
        defer { lock.unlock() }
        guard let table = table(for: type, creating: true) else { return object }
        if let live = table.object(for: key) { return live }
        table.insert(object, for: key)
        return object
    }

    /// The table of `type`'s hierarchy, looked up by the type itself after the first time.
    /// Call holding the lock.
    private func table(for type: any Model.Type, creating: Bool) -> IdentityTable? {
        let typeKey = ObjectIdentifier(type)
        if let table = tablesByType[typeKey] { return table }
        let key = Self.tableKey(type)
        let table = tables[key] ?? (creating ? IdentityTable() : nil)
        if let table {
            tables[key] = table
            tablesByType[typeKey] = table
        }
        return table
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

    /// Identity is per model hierarchy: a subclass instance answers for its root class.
    private static func tableKey(_ type: any Model.Type) -> ObjectIdentifier {
        var schema = type.modelSchema
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

/// An identifier as the identity map keys it: the common identifier types directly, anything else
/// as `AnyHashable`.
///
/// `AnyHashable`'s hashing and equality go through dynamic casts (integers of different widths
/// compare equal), which made them most of the cost of a lookup; integers, strings and UUIDs skip
/// that, and integers of any width still meet (`Int64(12)` finds what `12` registered).
@usableFromInline
enum IdentityKey: Hashable {
    case integer(Int64)
    case string(String)
    case uuid(UUID)
    case other(AnyHashable)

    /// The key of an identifier of a known type: a comparison of metatypes, not a dynamic cast.
    @inlinable
    init<ID: Hashable>(_ id: ID) {
        if ID.self == Int.self {
            self = .integer(Int64(Self.reinterpret(id, as: Int.self)))
        } else if ID.self == String.self {
            self = .string(Self.reinterpret(id, as: String.self))
        } else if ID.self == UUID.self {
            self = .uuid(Self.reinterpret(id, as: UUID.self))
        } else {
            // An `AnyHashable` stays itself: `AnyHashable(_:)` does not wrap one twice.
            self.init(AnyHashable(id))
        }
    }

    /// `value` as `T`, which is its own type (checked by the caller).
    @inlinable @inline(__always)
    static func reinterpret<ID, T>(_ value: ID, as type: T.Type) -> T {
        withUnsafePointer(to: value) { $0.withMemoryRebound(to: T.self, capacity: 1) { $0.pointee } }
    }

    /// The key of a type-erased identifier.
    @usableFromInline
    init(_ id: AnyHashable) {
        switch id.base {
        case let value as String: self = .string(value)
        case let value as Int: self = .integer(Int64(value))
        case let value as UUID: self = .uuid(value)
        case let value as Int64: self = .integer(value)
        case let value as Int32: self = .integer(Int64(value))
        case let value as Int16: self = .integer(Int64(value))
        case let value as Int8: self = .integer(Int64(value))
        case let value as UInt32: self = .integer(Int64(value))
        case let value as UInt16: self = .integer(Int64(value))
        case let value as UInt8: self = .integer(Int64(value))
        case let value as UInt64 where value <= UInt64(Int64.max): self = .integer(Int64(value))
        case let value as UInt where value <= UInt(Int64.max): self = .integer(Int64(value))
        default: self = .other(id)
        }
    }
}

/// Weak references to the live instances of one model hierarchy, by identifier.
///
/// The weak references sit in one buffer of slots and are loaded where they are (a lookup
/// neither copies a weak reference nor retains a box); one small dictionary per kind of key maps
/// an identifier to its slot, so the common identifiers (integers, strings, UUIDs) hash and
/// compare as themselves. Callers hold the context's lock.
final class IdentityTable {
    private var slots: UnsafeMutablePointer<WeakSlot>
    private var capacity = 16
    private var used = 0
    private var integers: [Int64: Int] = [:]
    private var strings: [String: Int] = [:]
    private var uuids: [UUID: Int] = [:]
    private var others: [AnyHashable: Int] = [:]
    private var sweepAt = 64

    struct WeakSlot {
        weak var object: AnyObject?
    }

    init() {
        slots = .allocate(capacity: capacity)
    }

    deinit {
        slots.deinitialize(count: used)
        slots.deallocate()
    }

    func object(for identifier: IdentityKey) -> AnyObject? {
        guard let slot = slot(for: identifier) else { return nil }
        return slots[slot].object
    }

    /// Makes `object` the instance for `identifier` (reusing the slot of a gone instance).
    func insert(_ object: AnyObject, for identifier: IdentityKey) {
        if let slot = slot(for: identifier) {
            slots[slot].object = object
            return
        }
        let slot = append(object)
        switch identifier {
        case .integer(let value): integers[value] = slot
        case .string(let value): strings[value] = slot
        case .uuid(let value): uuids[value] = slot
        case .other(let value): others[value] = slot
        }
        if used >= sweepAt { sweep() }
    }

    func liveCount() -> Int {
        (0..<used).reduce(0) { $0 + (slots[$1].object == nil ? 0 : 1) }
    }

    private func slot(for identifier: IdentityKey) -> Int? {
        switch identifier {
        case .integer(let value): integers[value]
        case .string(let value): strings[value]
        case .uuid(let value): uuids[value]
        case .other(let value): others[value]
        }
    }

    private func append(_ object: AnyObject) -> Int {
        if used == capacity {
            let grown = UnsafeMutablePointer<WeakSlot>.allocate(capacity: capacity * 2)
            grown.moveInitialize(from: slots, count: used)
            slots.deallocate()
            slots = grown
            capacity *= 2
        }
        (slots + used).initialize(to: WeakSlot(object: object))
        used += 1
        return used - 1
    }

    /// Drops the slots of instances that are gone, so the table stays as large as what lives.
    private func sweep() {
        var live: [AnyObject] = []
        func kept<K>(_ entries: [K: Int]) -> [K: Int] {
            var result: [K: Int] = [:]
            for (key, slot) in entries {
                guard let object = slots[slot].object else { continue }
                result[key] = live.count
                live.append(object)
            }
            return result
        }
        integers = kept(integers)
        strings = kept(strings)
        uuids = kept(uuids)
        others = kept(others)
        slots.deinitialize(count: used)
        used = 0
        for object in live { _ = append(object) }
        sweepAt = max(64, used * 2)
    }
}
