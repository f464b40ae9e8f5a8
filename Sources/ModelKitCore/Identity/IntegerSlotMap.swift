/// Slots by integer key, open addressing over raw memory, hashed by one multiplication: the
/// identity table's slots by integer identifier, and the keyed archiver's slots by object
/// address.
///
/// Integer identifiers are the common case, and a `[Int64: Int]` spends most of a lookup in
/// SipHash (seeded, collision-resistant: what a dictionary keyed by untrusted input needs, and
/// ten times the cost of the probe here). Identifiers reach this table only from the program's
/// own models, and a probe sequence stays short at the load kept here (at most one half), so a
/// multiplicative hash serves. The owner calls ``deallocate()``.
package struct IntegerSlotMap {
    private static let empty = -1
    private static let removed = -2

    // Raw memory, with `slots`: probed on every lookup (the identity table's integer identifiers, the keyed
    // archiver's objects) with no array to retain or bounds to check; the owner frees it (`deallocate()`).
    private var keys: UnsafeMutablePointer<Int64>
    // Raw memory like `keys`.
    private var slots: UnsafeMutablePointer<Int>
    private var capacity: Int
    /// 64 minus log2 of the capacity: a hash's top bits pick the bucket.
    private var shift: Int
    /// Buckets in use, by a slot or by a removal mark.
    private var occupied = 0

    package init(capacity: Int = 16) {
        self.capacity = capacity
        shift = 64 - capacity.trailingZeroBitCount
        // Both tables in memory of their own (see `keys`); the owner frees them.
        keys = .allocate(capacity: capacity)
        slots = .allocate(capacity: capacity)
        slots.initialize(repeating: Self.empty, count: capacity)
    }

    /// Frees the memory (the map is unusable afterwards).
    package func deallocate() {
        keys.deallocate()
        slots.deallocate()
    }

    @inline(__always)
    private func home(of key: Int64) -> Int {
        Int(truncatingIfNeeded: (UInt64(bitPattern: key) &* 0xD6E8_FEB8_6659_FD93) >> UInt64(shift))
    }

    /// The slot recorded for `key`, if any.
    @inline(__always)
    package func slot(for key: Int64) -> Int? {
        var bucket = home(of: key)
        while true {
            let slot = slots[bucket]
            if slot == Self.empty { return nil }
            if slot >= 0 && keys[bucket] == key { return slot }
            bucket = (bucket &+ 1) & (capacity &- 1)
        }
    }

    /// Records `slot` for `key`, replacing what was recorded.
    package mutating func set(_ slot: Int, for key: Int64) {
        if (occupied + 1) * 2 > capacity { rehash(into: capacity * 2) }
        var bucket = home(of: key)
        var reusable: Int?
        while slots[bucket] != Self.empty {
            if slots[bucket] >= 0 && keys[bucket] == key {
                slots[bucket] = slot
                return
            }
            if slots[bucket] == Self.removed && reusable == nil { reusable = bucket }
            bucket = (bucket &+ 1) & (capacity &- 1)
        }
        if let reusable { bucket = reusable } else { occupied += 1 }
        keys[bucket] = key
        slots[bucket] = slot
    }

    /// Forgets `key`.
    mutating func remove(_ key: Int64) {
        var bucket = home(of: key)
        while slots[bucket] != Self.empty {
            if slots[bucket] >= 0 && keys[bucket] == key {
                slots[bucket] = Self.removed
                return
            }
            bucket = (bucket &+ 1) & (capacity &- 1)
        }
    }

    /// Calls `body` with each key and its slot.
    func forEach(_ body: (Int64, Int) throws -> Void) rethrows {
        for bucket in 0..<capacity where slots[bucket] >= 0 { try body(keys[bucket], slots[bucket]) }
    }

    /// Moves the entries into a table of `newCapacity` buckets, dropping removal marks.
    private mutating func rehash(into newCapacity: Int) {
        var grown = IntegerSlotMap(capacity: newCapacity)
        forEach { key, slot in grown.set(slot, for: key) }
        deallocate()
        self = grown
    }
}
