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
    @discardableResult
    public func register<M: Model & AnyObject, ID: Hashable & Sendable>(_ model: M, for id: ID) -> M {
        register(model, key: IdentityKey(id))
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
        register(model, key: IdentityKey(identifier))
    }

    private func register<M: Model>(_ model: M, key identifier: IdentityKey) -> M {
        withLock {
            guard let table = table(for: M.self, creating: true) else { return model }
            if let live = Self.cast(table.object(for: identifier), to: M.self) { return live }
            table.insert(model as AnyObject, for: identifier)
            return model
        }
    }

    /// The table of `type`'s hierarchy, looked up by the type itself after the first time.
    /// Call holding the lock.
    private func table<M: Model>(for type: M.Type, creating: Bool) -> IdentityTable? {
        let typeKey = ObjectIdentifier(M.self)
        if let table = tablesByType[typeKey] { return table }
        let key = Self.tableKey(M.self)
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

/// An identifier as the identity map keys it: the common identifier types directly, anything else
/// as `AnyHashable`.
///
/// `AnyHashable`'s hashing and equality go through dynamic casts (integers of different widths
/// compare equal), which made them most of the cost of a lookup; integers, strings and UUIDs skip
/// that, and integers of any width still meet (`Int64(12)` finds what `12` registered).
enum IdentityKey: Hashable {
    case integer(Int64)
    case string(String)
    case uuid(UUID)
    case other(AnyHashable)

    /// The key of an identifier of a known type: a comparison of metatypes, not a dynamic cast.
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
    @inline(__always)
    private static func reinterpret<ID, T>(_ value: ID, as type: T.Type) -> T {
        withUnsafePointer(to: value) { $0.withMemoryRebound(to: T.self, capacity: 1) { $0.pointee } }
    }

    /// The key of a type-erased identifier.
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
/// One dictionary per kind of key, so the common identifiers (integers, strings, UUIDs) hash and
/// compare as themselves; each entry is a box holding the weak reference, so a lookup loads the
/// reference in place instead of copying it.
final class IdentityTable {
    private var integers: [Int64: WeakBox] = [:]
    private var strings: [String: WeakBox] = [:]
    private var uuids: [UUID: WeakBox] = [:]
    private var others: [AnyHashable: WeakBox] = [:]
    /// Entries, live or not, across the four dictionaries.
    private var count = 0
    private var sweepAt = 64

    final class WeakBox {
        weak var object: AnyObject?
        init(_ object: AnyObject) { self.object = object }
    }

    func object(for identifier: IdentityKey) -> AnyObject? {
        box(for: identifier)?.object
    }

    /// Makes `object` the instance for `identifier` (reusing the entry of a gone instance).
    func insert(_ object: AnyObject, for identifier: IdentityKey) {
        if let box = box(for: identifier) {
            box.object = object
            return
        }
        let box = WeakBox(object)
        switch identifier {
        case .integer(let value): integers[value] = box
        case .string(let value): strings[value] = box
        case .uuid(let value): uuids[value] = box
        case .other(let value): others[value] = box
        }
        count += 1
        if count >= sweepAt { sweep() }
    }

    func liveCount() -> Int {
        func live<K>(_ entries: [K: WeakBox]) -> Int { entries.values.reduce(0) { $0 + ($1.object == nil ? 0 : 1) } }
        return live(integers) + live(strings) + live(uuids) + live(others)
    }

    private func box(for identifier: IdentityKey) -> WeakBox? {
        switch identifier {
        case .integer(let value): integers[value]
        case .string(let value): strings[value]
        case .uuid(let value): uuids[value]
        case .other(let value): others[value]
        }
    }

    /// Drops the entries of instances that are gone, so the table stays as large as what lives.
    private func sweep() {
        integers = integers.filter { $0.value.object != nil }
        strings = strings.filter { $0.value.object != nil }
        uuids = uuids.filter { $0.value.object != nil }
        others = others.filter { $0.value.object != nil }
        count = integers.count + strings.count + uuids.count + others.count
        sweepAt = max(64, count * 2)
    }
}
