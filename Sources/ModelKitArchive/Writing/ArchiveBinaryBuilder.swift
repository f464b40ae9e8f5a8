import Foundation
import ModelKitPropertyList

/// The binary property list of a keyed archive, written while the archiver runs: each entry of
/// `$objects` becomes its property-list object when it is archived, with no tree of values in
/// between.
///
/// The archive's shape: the root dictionary (object 0: `$archiver`, `$objects`, `$top`,
/// `$version`), the `$objects` array, and one object per entry. A plain value (string, number,
/// data) is one scalar, written once per distinct value, and its entry's slot is given once per
/// distinct value too; an object (a model, a Foundation object) is a dictionary whose keys are
/// shared by every object that has them. A reference to entry `n` (`CF$UID`) is a scalar of its
/// own, one per entry, written when the archive is finished: entries that were only referenced
/// conditionally are dropped then, the others renumbered, and the references follow.
///
/// ```swift
/// var output = ArchiveBinaryBuilder()
/// let slot = output.stringSlot("hello")
/// let bytes = output.finish(topKeys: ["root"], topValues: [.uid(UInt64(slot))])
/// ```
struct ArchiveBinaryBuilder: ~Copyable {
    /// What a slot of `$objects` holds.
    enum SlotState: UInt8 {
        /// Written (or being written).
        case written
        /// Only referenced conditionally so far: dropped, and its references nil, unless something
        /// writes the object unconditionally.
        case conditional
    }

    private var plist = BinaryPropertyListBuilder()
    /// One slot of `$objects`: the object of its entry (-1 until written), the UID object that
    /// refers to it (-1 until something does), and its state.
    private struct Slot {
        var object: Int32 = -1
        var uid: Int32 = -1
        var state: SlotState
    }

    /// The slots, in one array: reserving a slot is one append.
    private var slots: [Slot] = []
    private(set) var conditionalCount = 0
    /// Per distinct scalar (by ``BinaryPropertyListBuilder/Scalar/index``): its slot, 0 for none.
    private var scalarSlots: [Int32] = []
    /// The root dictionary, object 0.
    private let root: Int32

    /// An archive whose slot 0 is `$null`.
    init() {
        root = plist.reserveObject()
        let null = plist.uniqueString("$null")
        slots = [Slot(object: null.object, state: .written)]
    }

    /// The number of slots so far.
    var slotCount: Int { slots.count }

    /// The state of `slot`.
    func slotState(_ slot: Int) -> SlotState {
        slots[slot].state
    }

    // MARK: Slots

    /// Reserves the next slot for an object about to be written.
    @inline(__always)
    mutating func reserveSlot(_ state: SlotState = .written) -> Int {
        slots.append(Slot(state: state))
        if state == .conditional { conditionalCount += 1 }
        return slots.count - 1
    }

    /// Marks a conditional slot as written.
    mutating func promote(_ slot: Int) {
        guard slots[slot].state == .conditional else { return }
        slots[slot].state = .written
        conditionalCount -= 1
    }

    /// Makes `object` the entry of `slot`.
    @inline(__always)
    mutating func setEntry(_ slot: Int, object: Int32) {
        slots[slot].object = object
    }

    /// The slot of a plain value (a string, number or data), given the first time it is seen.
    @inline(__always)
    mutating func plainSlot(_ scalar: BinaryPropertyListBuilder.Scalar) -> Int {
        // Scalars are numbered in order, so this mostly adds one (inline numbers, which take no
        // slot, leave gaps).
        while scalar.index >= scalarSlots.count { scalarSlots.append(0) }
        let known = Int(scalarSlots[scalar.index])
        if known != 0 { return known }
        let slot = reserveSlot()
        slots[slot].object = scalar.object
        scalarSlots[scalar.index] = Int32(truncatingIfNeeded: slot)
        return slot
    }

    /// The slot of a string, given once per distinct string.
    mutating func stringSlot(_ string: String) -> Int {
        plainSlot(plist.uniqueString(string))
    }

    /// The slot of a number or boolean, given once per distinct value.
    mutating func scalarSlot(_ head: BinaryScalarHead) -> Int {
        plainSlot(plist.uniqueScalar(head))
    }

    /// The slot of data, given once per distinct value.
    mutating func dataSlot(_ data: Data) -> Int {
        plainSlot(plist.uniqueData(data))
    }

    // MARK: Objects

    /// The object that refers to entry `slot` (its `CF$UID`), numbered the first time.
    @inline(__always)
    mutating func uidObject(_ slot: Int) -> Int32 {
        guard slot >= 0, slot < slots.count else { return plist.uniqueScalar(.uid(UInt64(truncatingIfNeeded: slot))).object }
        let known = slots[slot].uid
        if known >= 0 { return known }
        let object = plist.reserveObject()
        slots[slot].uid = object
        return object
    }

    /// The object of a value a writer wrote: a reference, or a number or boolean inline.
    @inline(__always)
    mutating func object(for value: WrittenValue) -> Int32 {
        switch value {
        case .reference(let slot): return uidObject(slot)
        case .integer(let integer): return plist.uniqueScalar(.integer(integer)).object
        case .real(let real): return plist.uniqueScalar(.real(real)).object
        case .bool(let flag): return plist.uniqueScalar(.bool(flag)).object
        }
    }

    /// The object of a number or boolean stored inline, written once per distinct value.
    mutating func scalarObject(_ head: BinaryScalarHead) -> Int32 {
        plist.uniqueScalar(head).object
    }

    /// The object of a string used as a key (or a class name).
    mutating func keyObject(_ key: String) -> Int32 {
        plist.uniqueString(key).object
    }

    /// The object of any value inside an entry: references become UID objects, scalars are
    /// uniqued, arrays and dictionaries are containers.
    mutating func object(for value: PropertyListValue) -> Int32 {
        switch value {
        case .uid(let slot):
            return uidObject(Int(truncatingIfNeeded: slot))
        case .array(let elements):
            let objects = elements.map { object(for: $0) }
            // Unsafe: the array's storage in place for `addContainer`, which takes a buffer (so that stack buffers
            // pass too) and copies it during the call.
            return objects.withUnsafeBufferPointer { plist.addContainer(isDictionary: false, references: $0) }
        case .dictionary(let dictionary):
            let objects = dictionary.keys.map { keyObject($0) } + dictionary.values.map { object(for: $0) }
            // Unsafe: the keys' and values' objects in place, as for an array.
            return objects.withUnsafeBufferPointer { plist.addContainer(isDictionary: true, references: $0) }
        default:
            return plist.uniqueScalar(value)?.object ?? 0
        }
    }

    /// A dictionary object of keys and values already numbered.
    // Unsafe: the caller's keys and values in place (a type's shared keys, a stack buffer or tuple), copied by the
    // property-list builder during the call, without joining them into an array first.
    mutating func dictionary(keys: UnsafeBufferPointer<Int32>, values: UnsafeBufferPointer<Int32>) -> Int32 {
        let object = plist.reserveObject()
        plist.setDictionary(object, keys: keys, values: values)
        return object
    }

    /// An array object of elements already numbered.
    // Unsafe: the caller's temporary buffer of element references (`encodeArray`), in place, copied during the call.
    mutating func array(_ elements: UnsafeBufferPointer<Int32>) -> Int32 {
        plist.addContainer(isDictionary: false, references: elements)
    }

    // MARK: Finishing

    /// Writes the archive: `$top` with `topKeys` and `topValues`, the references (renumbered
    /// when conditional-only entries are dropped, which then read as `$null`), `$objects` and the
    /// root dictionary.
    mutating func finish(topKeys: [String], topValues: [PropertyListValue]) -> [UInt8] {
        // Unsafe: the joined array's storage in place, copied by `addContainer` during the call.
        let top = (topKeys.map { keyObject($0) } + topValues.map { object(for: $0) })
            .withUnsafeBufferPointer { plist.addContainer(isDictionary: true, references: $0) }
        // Every reference is numbered now: write them, renumbered past dropped entries.
        var renumbered: [Int]?
        if conditionalCount > 0 {
            var map = [Int](repeating: 0, count: slots.count)
            var next = 0
            for slot in slots.indices where slots[slot].state == .written {
                map[slot] = next
                next += 1
            }
            renumbered = map
        }
        for slot in slots.indices where slots[slot].uid >= 0 {
            let uid = slots[slot].state == .written ? (renumbered?[slot] ?? slot) : 0
            plist.writeScalar(.uid(UInt64(uid)), as: slots[slot].uid)
        }
        var entries: [Int32] = []
        entries.reserveCapacity(slots.count - conditionalCount)
        for slot in slots.indices where slots[slot].state == .written {
            // A slot reserved by an encoding that then failed holds null, as it did before.
            entries.append(slots[slot].object >= 0 ? slots[slot].object : plist.uniqueScalar(.null).object)
        }
        // Unsafe: the entries' storage in place, copied by `addContainer` during the call.
        let objects = entries.withUnsafeBufferPointer { plist.addContainer(isDictionary: false, references: $0) }
        let rootReferences = ["$archiver", "$objects", "$top", "$version"].map { keyObject($0) } + [
            keyObject(KeyedArchiveDocument.archiverName), objects, top,
            plist.uniqueScalar(.integer(PropertyListInteger(KeyedArchiveDocument.formatVersion))).object,
        ]
        // Unsafe: the root's keys and values in place, copied by `setContainer` during the call.
        rootReferences.withUnsafeBufferPointer { plist.setContainer(root, isDictionary: true, references: $0) }
        return plist.finish(topObject: root)
    }
}

/// What a writer wrote at its position: a reference to an entry of `$objects` (`CF$UID`; 0 is
/// `$null`), or a number or boolean stored inline under an object's key, as `NSCoder`'s
/// `encodeInt:forKey:` stores it.
enum WrittenValue {
    case reference(Int)
    case integer(PropertyListInteger)
    case real(PropertyListReal)
    case bool(Bool)

    /// The value as it appears in an entry.
    var propertyListValue: PropertyListValue {
        switch self {
        case .reference(let slot): return .uid(UInt64(slot))
        case .integer(let integer): return .integer(integer)
        case .real(let real): return .real(real)
        case .bool(let flag): return .bool(flag)
        }
    }
}
