#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Writes a `PropertyListValue` as a binary property list (`bplist00`) that Apple's
/// CFPropertyList and NSKeyedUnarchiver read.
///
/// Layout rules, following Apple's CFBinaryPList writer:
/// - Objects are numbered in depth-first pre-order from the root (index 0); a dictionary's keys
///   come before its values.
/// - Scalars are uniqued: equal strings, integers, reals, dates, data, UIDs and booleans are
///   written once and referenced wherever they occur. Equality here is exact (strings by bytes,
///   reals by width and bit pattern), so uniquing never changes a value. Arrays and dictionaries
///   are written once per occurrence.
/// - Object references and offsets use the smallest of 1, 2, 4 or 8 bytes that fits the object
///   count and the offset table's position.
/// - Strings are ASCII (`0x5n`) when every character is below U+0080, otherwise UTF-16BE (`0x6n`).
/// - Integers use the smallest of 1, 2, 4 or 8 bytes; negative values always take 8 bytes, and
///   values above `Int64.max` take the 16-byte form. Reals keep their 4- or 8-byte width.
/// - Dictionaries are written in their document order.
///
/// One difference in placement: Apple writes objects in index order; this writer writes each
/// scalar as soon as it is numbered and all arrays and dictionaries after the scalars, when the
/// object count (and so the reference size) is known. The offset table makes placement free, so
/// readers see the same objects; it saves a pass and a copy of every scalar.
///
/// The writer does not recurse, so any depth is written.
///
/// ```swift
/// let bytes = BinaryPropertyListWriter.write(["$version": 100_000])
/// ```
struct BinaryPropertyListWriter {
    /// Encodes `value` as a complete binary property list.
    static func write(_ value: PropertyListValue) -> [UInt8] {
        var writer = BinaryPropertyListWriter()
        writer.flatten(value)
        return writer.finish()
    }

    /// An array or dictionary object, written after all scalars once references have a size.
    struct Container {
        let object: Int
        let isDictionary: Bool
        /// Its references are `references[referencesStart ..< referencesStart + referenceCount]`.
        let referencesStart: Int
        let referenceCount: Int
    }

    /// A container whose children are being numbered.
    struct Frame {
        /// A dictionary's keys (empty for arrays).
        let keys: [String]
        /// An array's elements or a dictionary's values.
        let values: [PropertyListValue]
        let referencesStart: Int
        let total: Int
        var next = 0
    }

    var output = BinaryPropertyListOutput()
    /// The offset of each object, by index; containers get theirs in `finish()`.
    var offsets: [Int] = []
    var containers: [Container] = []
    var references: [Int] = []
    var scalars = ScalarTable()
    var trueIndex: Int?
    var falseIndex: Int?
    var nullIndex: Int?
    var frames: [Frame] = []

    /// Numbers every object depth-first in pre-order, writing each new scalar as it is found.
    mutating func flatten(_ root: PropertyListValue) {
        _ = add(root)
        while let top = frames.indices.last {
            let position = frames[top].next
            guard position < frames[top].total else {
                frames.removeLast()
                continue
            }
            frames[top].next = position + 1
            let slot = frames[top].referencesStart + position
            let keyCount = frames[top].keys.count
            let index: Int
            if position < keyCount {
                index = addString(frames[top].keys[position])
            } else {
                index = add(frames[top].values[position - keyCount])
            }
            references[slot] = index
        }
    }

    /// Numbers `value` and returns its object index; a non-empty container opens a frame whose
    /// children are numbered next.
    private mutating func add(_ value: PropertyListValue) -> Int {
        switch value {
        case .string(let string):
            return addString(string)
        case .integer(let integer):
            return addUniqued(.integer(integer), value)
        case .real(let real):
            return addUniqued(.real(real), value)
        case .date(let date):
            return addUniqued(.date(date.timeIntervalSinceReferenceDate.bitPattern), value)
        case .data(let data):
            return addUniqued(.data(data), value)
        case .uid(let uid):
            return addUniqued(.uid(uid), value)
        case .bool(true):
            if let trueIndex { return trueIndex }
            trueIndex = appendScalar(value)
            return offsets.count - 1
        case .bool(false):
            if let falseIndex { return falseIndex }
            falseIndex = appendScalar(value)
            return offsets.count - 1
        case .null:
            if let nullIndex { return nullIndex }
            nullIndex = appendScalar(value)
            return offsets.count - 1
        case .array(let elements):
            return addContainer(keys: [], values: elements, isDictionary: false)
        case .dictionary(let dictionary):
            return addContainer(keys: dictionary.keys, values: dictionary.values, isDictionary: true)
        }
    }

    private mutating func addContainer(keys: [String], values: [PropertyListValue], isDictionary: Bool) -> Int {
        let index = offsets.count
        let start = references.count
        let total = keys.count + values.count
        offsets.append(0)
        containers.append(
            Container(object: index, isDictionary: isDictionary, referencesStart: start, referenceCount: total))
        if total > 0 {
            references.append(contentsOf: repeatElement(0, count: total))
            frames.append(Frame(keys: keys, values: values, referencesStart: start, total: total))
        }
        return index
    }

    private mutating func addString(_ string: String) -> Int {
        addUniqued(.string(ExactStringKey(string)), .string(string))
    }

    private mutating func addUniqued(_ key: ScalarKey, _ value: PropertyListValue) -> Int {
        let next = offsets.count
        let index = scalars.findOrInsert(key, object: next)
        if index == next {
            offsets.append(output.count)
            output.appendScalar(value)
        }
        return index
    }

    private mutating func appendScalar(_ value: PropertyListValue) -> Int {
        offsets.append(output.count)
        output.appendScalar(value)
        return offsets.count - 1
    }

    /// Writes the containers, the offset table and the trailer.
    mutating func finish() -> [UInt8] {
        let referenceSize = BinaryPropertyListFormat.byteWidth(UInt64(offsets.count))
        output.reserveCapacity(containers.count * 3 + references.count * referenceSize)
        for container in containers {
            offsets[container.object] = output.count
            let start = container.referencesStart
            output.appendContainer(
                isDictionary: container.isDictionary,
                references: references[start..<(start + container.referenceCount)],
                referenceSize: referenceSize)
        }
        output.appendTrailer(offsets: offsets, referenceSize: referenceSize)
        return output.bytes
    }
}

// MARK: - Scalar uniquing

/// The identity of a uniqued scalar in the binary writer: equal keys are written once.
///
/// Equality is exact, so uniquing never changes a value: strings by bytes, reals by width and
/// bit pattern, dates by bit pattern, and an integer never matches a real of the same value.
package enum ScalarKey: Hashable {
    case string(ExactStringKey)
    case integer(PropertyListInteger)
    case real(PropertyListReal)
    case date(UInt64)
    case data(Data)
    case uid(UInt64)
}

/// An insert-or-find hash table from scalar keys to object indices, for the binary writer.
///
/// Open addressing with linear probing over a power-of-two slot array, at most half full. Each
/// entry keeps the key's hash (Swift's randomly seeded `Hasher`, so crafted keys cannot force
/// collisions), so growing the table never hashes a key twice; lookups compare stored hashes
/// before keys.
///
/// ```swift
/// var table = ScalarTable()
/// table.findOrInsert(.uid(1), object: 5)   // 5: inserted
/// table.findOrInsert(.uid(1), object: 9)   // 5: found
/// ```
package struct ScalarTable {
    /// Per slot: the hash's high 32 bits, then entry number + 1 in the low 32 bits; 0 is empty.
    /// Keeping hash bits in the slot lets most probes finish without touching the entries.
    private var slots = [UInt64](repeating: 0, count: 64)
    private var hashes: [Int] = []
    private var keys: [ScalarKey] = []
    private var objects: [Int] = []

    /// An empty table.
    package init() {}

    /// The number of distinct keys.
    package var count: Int { keys.count }

    /// Returns the object index stored for `key`, or stores `object` for it and returns `object`.
    package mutating func findOrInsert(_ key: ScalarKey, object: Int) -> Int {
        let hash = key.hashValue
        let tag = UInt64(UInt(bitPattern: hash)) & 0xFFFF_FFFF_0000_0000
        let mask = slots.count - 1
        var slot = hash & mask
        while true {
            let stored = slots[slot]
            if stored == 0 { break }
            if stored & 0xFFFF_FFFF_0000_0000 == tag {
                let entry = Int(truncatingIfNeeded: stored & 0xFFFF_FFFF) - 1
                if keys[entry] == key { return objects[entry] }
            }
            slot = (slot + 1) & mask
        }
        hashes.append(hash)
        keys.append(key)
        objects.append(object)
        slots[slot] = tag | UInt64(keys.count)
        if keys.count * 2 > slots.count {
            grow()
        }
        return object
    }

    /// Doubles the slot array and re-places every entry by its stored hash.
    private mutating func grow() {
        slots = [UInt64](repeating: 0, count: slots.count * 2)
        let mask = slots.count - 1
        for entry in hashes.indices {
            let hash = hashes[entry]
            var slot = hash & mask
            while slots[slot] != 0 {
                slot = (slot + 1) & mask
            }
            slots[slot] = UInt64(UInt(bitPattern: hash)) & 0xFFFF_FFFF_0000_0000 | UInt64(entry + 1)
        }
    }
}
