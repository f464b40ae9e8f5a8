internal import CModelKitRuntime
import Foundation

/// A context's identity tables split by identifier into shards, each under a lock of its own, so
/// tasks looking up different identifiers seldom wait for each other or share a written cache
/// line.
///
/// A shard holds, for each model hierarchy, the table of the identifiers that fall in it
/// (``IdentityTable``). Lookups and inserts outside a mapping run take only their shard's lock;
/// while a run is in progress (``runsActive``, set and cleared holding every shard's lock, so a
/// thread holding any one lock reads it right), they go through the context's lock instead, so
/// a run stays all or nothing: nobody sees an instance it may still take back.
final class IdentityShards {
    /// How many shards: a power of two.
    static let count = 32
    /// Bytes between two locks: one cache line each.
    private static let lockStride = 64

    /// The lock words, one cache line apart, zeroed (unlocked).
    private let locks: UnsafeMutableRawPointer
    private let shards: UnsafeMutablePointer<IdentityShard>
    /// Whether a mapping run is in progress. Read holding any shard's lock.
    @exclusivity(unchecked) private(set) var runsActive = false

    init() {
        locks = .allocate(byteCount: Self.count * Self.lockStride, alignment: Self.lockStride)
        locks.initializeMemory(as: UInt8.self, repeating: 0, count: Self.count * Self.lockStride)
        shards = .allocate(capacity: Self.count)
        shards.initialize(repeating: IdentityShard(), count: Self.count)
    }

    deinit {
        shards.deinitialize(count: Self.count)
        shards.deallocate()
        locks.deallocate()
    }

    /// The shard an identifier falls in: cheap mixes of the identifier, not a full hash.
    @inline(__always)
    static func index(of key: IdentityKey) -> Int {
        let mixed: UInt64
        switch key {
        case .integer(let value):
            return index(ofInteger: value)
        case .string(let value):
            var bits = UInt64(value.utf8.count)
            for byte in value.utf8.suffix(4) { bits = bits << 8 | UInt64(byte) }
            mixed = bits &* 0x9E37_79B9_7F4A_7C15
        case .uuid(let value):
            mixed = (UInt64(value.uuid.15) << 8 | UInt64(value.uuid.0)) &* 0x9E37_79B9_7F4A_7C15
        case .other(let value):
            mixed = UInt64(bitPattern: Int64(value.hashValue)) &* 0x9E37_79B9_7F4A_7C15
        }
        return Int(truncatingIfNeeded: mixed >> UInt64(64 - count.trailingZeroBitCount))
    }

    /// The shard an integer identifier falls in.
    @inline(__always)
    static func index(ofInteger value: Int64) -> Int {
        Int(truncatingIfNeeded: (UInt64(bitPattern: value) &* 0x9E37_79B9_7F4A_7C15) >> UInt64(64 - count.trailingZeroBitCount))
    }

    /// Takes shard `index`'s lock.
    @inline(__always)
    func lock(_ index: Int) { modelkit_lock_acquire(locks + index &* Self.lockStride) }

    /// Gives shard `index`'s lock back.
    @inline(__always)
    func unlock(_ index: Int) { modelkit_lock_release(locks + index &* Self.lockStride) }

    /// The table of `type`'s hierarchy in shard `index`. Call holding its lock.
    @inline(__always)
    func table(_ index: Int, for type: any Model.Type, creating: Bool) -> IdentityTable? {
        shards[index].table(for: type, creating: creating)?.takeUnretainedValue()
    }

    /// The table of `type`'s hierarchy in shard `index`, not retained (the shard keeps it).
    /// Call holding its lock, and use it only while holding it.
    @inline(__always)
    func unretainedTable(_ index: Int, for type: any Model.Type) -> Unmanaged<IdentityTable>? {
        shards[index].table(for: type, creating: true)
    }

    /// Runs `body` holding every shard's lock.
    func withEveryShard<T>(_ body: (UnsafeMutableBufferPointer<IdentityShard>) throws -> T) rethrows -> T {
        for index in 0..<Self.count { lock(index) }
        defer { for index in 0..<Self.count { unlock(index) } }
        return try body(UnsafeMutableBufferPointer(start: shards, count: Self.count))
    }

    /// Marks a mapping run as started or ended. Call holding the context's lock.
    func setRunsActive(_ active: Bool) {
        withEveryShard { _ in runsActive = active }
    }
}

/// The identity tables of one shard, by model hierarchy.
struct IdentityShard {
    private var tables: [ObjectIdentifier: IdentityTable] = [:]
    /// The table of each model type met so far (a subclass shares its root class's table).
    private var tablesByType: [ObjectIdentifier: IdentityTable] = [:]
    /// The last type asked for and its table (kept alive by `tables`): runs of lookups are
    /// mostly of one type, and a hit costs no retain.
    private var lastTable: (type: ObjectIdentifier, table: Unmanaged<IdentityTable>)?

    /// The table of `type`'s hierarchy, looked up by the type itself after the first time.
    @inline(__always)
    mutating func table(for type: any Model.Type, creating: Bool) -> Unmanaged<IdentityTable>? {
        let typeKey = ObjectIdentifier(type)
        if let last = lastTable, last.type == typeKey { return last.table }
        let table: IdentityTable
        if let known = tablesByType[typeKey] {
            table = known
        } else {
            let rootKey = Self.rootKey(type)
            guard let found = tables[rootKey] ?? (creating ? IdentityTable() : nil) else { return nil }
            tables[rootKey] = found
            tablesByType[typeKey] = found
            table = found
        }
        lastTable = (typeKey, .passUnretained(table))
        return .passUnretained(table)
    }

    /// How many instances of the shard are alive now.
    func liveCount() -> Int {
        tables.values.reduce(0) { $0 + $1.liveCount() }
    }

    /// Forgets every table.
    mutating func removeAll() {
        tables.removeAll()
        tablesByType.removeAll()
        lastTable = nil
    }

    /// Identity is per model hierarchy: a subclass instance answers for its root class.
    private static func rootKey(_ type: any Model.Type) -> ObjectIdentifier {
        var schema = type.modelSchema
        while let parent = schema.superschema { schema = parent }
        return ObjectIdentifier(schema.modelType)
    }
}
