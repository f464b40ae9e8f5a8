/// Slots by integer key, open addressing over raw memory, hashed by one multiplication: the
/// identity table's slots by integer identifier, and the keyed archiver's slots by object
/// address.
///
/// Integer identifiers are the common case, and a `[Int64: Int]` spends most of a lookup in
/// SipHash (seeded, collision-resistant: what a dictionary keyed by untrusted input needs, and
/// ten times the cost of the probe here). Identifiers reach this table only from the program's
/// own models, and a probe sequence stays short at the load kept here (at most one half), so a
/// multiplicative hash serves. The owner calls ``deallocate()``.
///
/// Identifiers are mostly consecutive (a table's rows, a payload's ids), and a map of a hundred
/// thousand of them is megabytes that a multiplicative hash visits at random, a cache miss per
/// lookup: so the identity table keeps nearby keys in nearby buckets (``Spread/nearby``), and
/// falls back to scattering them for good the first time an insert probes far, which keys
/// chosen to collide would make it do.
package struct IntegerSlotMap {
    /// How keys are spread over the buckets.
    package enum Spread {
        /// Consecutive keys in consecutive buckets (a key's low bits plus its higher ones): for
        /// identifiers.
        case nearby
        /// Keys spread by a multiplicative hash: for keys with patterns in their low bits, such
        /// as object addresses.
        case scattered
    }

    private static let empty = -1
    private static let removed = -2
    /// How far an insert probes before a map of nearby keys scatters them instead.
    private static let longProbe = 32

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
    private var spread: Spread

    package init(capacity: Int = 16, spread: Spread) {
        self.capacity = capacity
        self.spread = spread
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
        let bits = UInt64(bitPattern: key)
        switch spread {
        case .nearby:
            // The low bits plus the next ones up: keys below the capacity land on themselves, and
            // any run of consecutive keys at most half the capacity long on distinct consecutive
            // buckets (a run across two blocks of `capacity` keys shifts by one where it crosses).
            return Int(truncatingIfNeeded: bits &+ (bits >> UInt64(64 &- shift))) & (capacity &- 1)
        case .scattered:
            return Int(truncatingIfNeeded: (bits &* 0xD6E8_FEB8_6659_FD93) >> UInt64(shift))
        }
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
        var probes = 0
        while slots[bucket] != Self.empty {
            if slots[bucket] >= 0 && keys[bucket] == key {
                slots[bucket] = slot
                return
            }
            if slots[bucket] == Self.removed && reusable == nil { reusable = bucket }
            bucket = (bucket &+ 1) & (capacity &- 1)
            probes &+= 1
            if probes == Self.longProbe && spread == .nearby {
                spread = .scattered
                rehash(into: capacity)
                return set(slot, for: key)
            }
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
        var grown = IntegerSlotMap(capacity: newCapacity, spread: spread)
        forEach { key, slot in grown.set(slot, for: key) }
        deallocate()
        self = grown
    }
}
