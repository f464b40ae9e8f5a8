import Foundation

/// The live instances of one model hierarchy, by identifier: references that do not keep them
/// alive (``InstanceReference``).
///
/// The references sit in one buffer of slots and are loaded where they are (a lookup neither
/// copies a reference nor retains a box); one map per kind of key finds an identifier's slot, so
/// the common identifiers (integers, strings, UUIDs) hash and compare as themselves, integers
/// without a dictionary at all (``IntegerSlotMap``).
///
/// A table belongs to one context, which stays in one isolation domain, and its methods call
/// nothing that could reach the table again: no two accesses to its properties can overlap, so
/// they skip the runtime's exclusivity checks (`@exclusivity(unchecked)`; a lookup would
/// otherwise begin and end a dynamic access on every property it reads).
final class IdentityTable {
    /// The references, `used` of `capacity` initialized; manual memory so that a lookup loads a
    /// reference where it is, and a non-copyable reference needs no box.
    // Unchecked (see the type): every lookup loads its reference from here (`object(for:)`, `object(forInteger:)`).
    @exclusivity(unchecked) private var slots: UnsafeMutablePointer<InstanceReference>
    // Unchecked (see the type): read by every `append`, that is every insert of a new identifier.
    @exclusivity(unchecked) private var capacity = 16
    // Unchecked (see the type): read by every `append` and by each insert's sweep test.
    @exclusivity(unchecked) private var used = 0
    // Unchecked (see the type): every integer lookup probes it, the common case of `object(forInteger:)`.
    @exclusivity(unchecked) private var integers = IntegerSlotMap(spread: .nearby)
    // Unchecked (see the type): every lookup of a string identifier reads it.
    @exclusivity(unchecked) private var strings: [String: Int] = [:]
    // Unchecked (see the type): every lookup of a UUID identifier reads it.
    @exclusivity(unchecked) private var uuids: [UUID: Int] = [:]
    // Unchecked (see the type): every lookup of another identifier type reads it.
    @exclusivity(unchecked) private var others: [AnyHashable: Int] = [:]
    // Unchecked (see the type): read by every insert.
    @exclusivity(unchecked) private var sweepAt = 64

    init() {
        // The slots' memory (see `slots`), grown by `append` and freed in `deinit`.
        slots = .allocate(capacity: capacity)
    }

    deinit {
        integers.deallocate()
        slots.deinitialize(count: used)
        slots.deallocate()
    }

    /// The live instance for `identifier`, strongly referenced.
    @inline(__always)
    func object(for identifier: IdentityKey) -> AnyObject? {
        guard let slot = slot(for: identifier) else { return nil }
        return slots[slot].load()
    }

    /// The live instance for an integer identifier, strongly referenced.
    @inline(__always)
    func object(forInteger identifier: Int64) -> AnyObject? {
        guard let slot = integers.slot(for: identifier) else { return nil }
        return slots[slot].load()
    }

    /// The live instance for an integer identifier, or else `object`, made the instance for it
    /// (in the slot of a gone instance, if any): a lookup-or-insert with one probe.
    @inline(__always)
    func object(forInteger identifier: Int64, inserting object: AnyObject) -> AnyObject {
        if let slot = integers.slot(for: identifier) {
            if let live = slots[slot].load() { return live }
            slots[slot] = InstanceReference(object)
            return object
        }
        integers.set(append(InstanceReference(object)), for: identifier)
        if used >= sweepAt { sweep() }
        return object
    }

    /// Makes `object` the instance for `identifier` (reusing the slot of a gone instance).
    func insert(_ object: AnyObject, for identifier: IdentityKey) {
        if let slot = slot(for: identifier) {
            slots[slot] = InstanceReference(object)
            return
        }
        let slot = append(InstanceReference(object))
        switch identifier {
        case .integer(let value): integers.set(slot, for: value)
        case .string(let value): strings[value] = slot
        case .uuid(let value): uuids[value] = slot
        case .other(let value): others[value] = slot
        }
        if used >= sweepAt { sweep() }
    }

    /// Forgets `object` as the instance for `identifier`, if it still is (the undo of `insert`).
    func remove(_ object: AnyObject, for identifier: IdentityKey) {
        guard let slot = slot(for: identifier), slots[slot].load() === object else { return }
        switch identifier {
        case .integer(let value): integers.remove(value)
        case .string(let value): strings[value] = nil
        case .uuid(let value): uuids[value] = nil
        case .other(let value): others[value] = nil
        }
    }

    /// How many instances are alive now.
    func liveCount() -> Int {
        (0..<used).reduce(0) { $0 + (slots[$1].isLive ? 1 : 0) }
    }

    @inline(__always)
    private func slot(for identifier: IdentityKey) -> Int? {
        switch identifier {
        case .integer(let value): integers.slot(for: value)
        case .string(let value): strings[value]
        case .uuid(let value): uuids[value]
        case .other(let value): others[value]
        }
    }

    private func append(_ reference: consuming InstanceReference) -> Int {
        if used == capacity {
            // Grown by hand: the non-copyable references are moved into memory twice the size, not copied.
            let grown = UnsafeMutablePointer<InstanceReference>.allocate(capacity: capacity * 2)
            grown.moveInitialize(from: slots, count: used)
            slots.deallocate()
            slots = grown
            capacity *= 2
        }
        (slots + used).initialize(to: reference)
        used += 1
        return used - 1
    }

    /// Drops the slots of instances that are gone (and with them the memory those keep), so the
    /// table stays as large as what lives.
    private func sweep() {
        // A table that grows as a read registers its models is mostly alive at each sweep:
        // rebuilding it then would move every reference for the few it drops, at every doubling.
        var gone = 0
        for slot in 0..<used where !slots[slot].isLive { gone += 1 }
        if gone * 4 < used {
            sweepAt = max(64, used * 2)
            return
        }
        var live: [AnyObject] = []
        func kept<K>(_ entries: [K: Int]) -> [K: Int] {
            var result: [K: Int] = [:]
            for (key, slot) in entries {
                guard let object = slots[slot].load() else { continue }
                result[key] = live.count
                live.append(object)
            }
            return result
        }
        var keptIntegers = IntegerSlotMap(spread: .nearby)
        integers.forEach { key, slot in
            guard let object = slots[slot].load() else { return }
            keptIntegers.set(live.count, for: key)
            live.append(object)
        }
        integers.deallocate()
        integers = keptIntegers
        strings = kept(strings)
        uuids = kept(uuids)
        others = kept(others)
        slots.deinitialize(count: used)
        used = 0
        for object in live { _ = append(InstanceReference(object)) }
        sweepAt = max(64, used * 2)
    }
}
