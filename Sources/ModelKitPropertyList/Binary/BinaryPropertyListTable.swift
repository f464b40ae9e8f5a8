#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ModelKitShared

/// A binary property list read in place: checked and indexed once, then its objects are read
/// from the bytes when asked for, with no tree of values built first. What the keyed
/// unarchiver reads archives through: a model's fields come straight from its object's
/// references.
///
/// The check (``init(validating:limits:)``) applies ``BinaryPropertyListReader``'s rules to
/// every object of the offset table, in one pass, noting each object's kind, where its content
/// starts and its count; then it walks the containers from the top object, without recursion,
/// for cycles and every limit on the tree the objects expand to. It accepts only property lists
/// whose every object is well-formed (reachable or not) and whose dictionaries have distinct
/// keys, so that reading in place finds what the tree reader's value holds; for anything else
/// it returns nil, and the caller reads the bytes with ``PropertyListValue/init(binary:limits:)``
/// for the tree, or the precise error.
///
/// Dictionary keys are numbered as the check finds them: equal strings get one number, so a key
/// is looked up by comparing numbers (``keyID(ofObject:)``, ``keyID(for:)``).
///
/// ```swift
/// guard let table = BinaryPropertyListTable(validating: bytes, limits: .default) else { ... }
/// let root = table.container(table.topObject)
/// ```
package final class BinaryPropertyListTable: @unchecked Sendable {
    // Unchecked: the bytes and the index are private, never written after `init`. A class: the
    // decoding state and the readers' helpers share one table without copying its parts.

    /// The bytes (a copy) and the index of every object: its kind, where its content starts (its
    /// marker for numbers, dates, UIDs and booleans), and its count (elements or entries, code
    /// units, bytes; a UID's value; a number's byte width).
    final class Storage {
        // A copy of the input in memory of its own, kept for the table's life: objects are read from it in place
        // whenever asked for, long after the caller's bytes are gone.
        let bytes: UnsafeMutableRawBufferPointer
        // The index, one entry per object in memory of its own (as the three below): read for every object looked up,
        // with no array to retain or check.
        let kinds: UnsafeMutableBufferPointer<ObjectKind>
        // Part of the index, like `kinds`.
        let starts: UnsafeMutableBufferPointer<Int>
        // Part of the index, like `kinds`.
        let counts: UnsafeMutableBufferPointer<Int>
        /// The key shape of each dictionary (see ``Container/keyShape``); unset for other objects.
        // Part of the index, like `kinds`.
        let keyShapes: UnsafeMutableBufferPointer<Int32>

        /// The index is left unset: the check sets every object's entry before anything reads
        /// one, and a table whose check fails is never used (the kinds are trivial values, so
        /// memory set this way needs no deinitializing either).
        // The caller's bytes, in place for this copy only: the table outlives them.
        init(copying source: UnsafeRawBufferPointer, objectCount: Int) {
            // One copy of the input (at least one byte, so that an empty input has an address too).
            bytes = .allocate(byteCount: max(source.count, 1), alignment: 8)
            if let base = source.baseAddress { bytes.baseAddress!.copyMemory(from: base, byteCount: source.count) }
            // Left unset on purpose: see above.
            kinds = .allocate(capacity: objectCount)
            starts = .allocate(capacity: objectCount)
            counts = .allocate(capacity: objectCount)
            keyShapes = .allocate(capacity: objectCount)
        }

        deinit {
            bytes.deallocate()
            kinds.deallocate()
            starts.deallocate()
            counts.deallocate()
            keyShapes.deallocate()
        }
    }

    /// An object's kind in the index.
    enum ObjectKind: UInt8 {
        case null, bool, integer, real, date, data, ascii, utf16, uid, array, dictionary
    }

    /// A container object: its references (a dictionary's keys, then its values).
    package struct Container {
        package let isDictionary: Bool
        /// Elements, or entries of a dictionary.
        package let count: Int
        let referencesStart: Int
        /// For a dictionary, a number shared by dictionaries with the same keys in the same order
        /// (the same key references): facts about a dictionary's keys can be kept by this number
        /// and reused for the next dictionary of the shape. Dictionaries with the same keys may
        /// still have different numbers. -1 for an array (and for a dictionary past the last
        /// number, in a list of some two billion dictionaries).
        package let keyShape: Int32
    }

    private let storage: Storage
    /// A reader over the stored bytes, for their layout and their scalars.
    private let reader: BinaryPropertyListReader
    /// The key number of each object used as a dictionary key, -1 for the others.
    private let keyIDs: [Int32]
    /// Key numbers by key string.
    private let keyNumbers: [ExactStringKey: Int32]
    /// The largest UID any object holds (0 for none): a keyed archive whose `$objects` has more
    /// entries has every reference in range, wherever it is.
    package let largestUID: UInt64
    /// The number of key shapes (``Container/keyShape`` is below it).
    package let keyShapeCount: Int

    /// The number of objects.
    package var objectCount: Int { reader.objectCount }
    /// The root object.
    package var topObject: Int { reader.topObject }

    /// Checks `bytes` and keeps a copy; nil when they are not a binary property list whose every
    /// object the tree reader reads with `limits`, or when a dictionary repeats a key.
    // The caller's bytes in place, checked there once and then copied (`Storage`).
    package convenience init?(validating bytes: UnsafeRawBufferPointer, limits: PropertyListLimits) {
        self.init(bytes, limits: limits, checksContent: true)
    }

    /// Indexes the bytes ``PropertyListValue/binaryData()`` wrote for a value (within no limit:
    /// the value is in memory already), keeping a copy; their strings were Swift strings and
    /// their containers a tree, so only their layout is checked.
    // The bytes just written, in place, indexed and copied (`Storage`).
    package convenience init?(writtenFrom bytes: UnsafeRawBufferPointer) {
        let unlimited = PropertyListLimits(
            maxDepth: .max, maxObjectCount: .max, maxCollectionCount: .max, maxStringLength: .max, maxDataLength: .max,
            maxTotalLength: .max)
        self.init(bytes, limits: unlimited, checksContent: false)
    }

    // Reads the header from the caller's bytes in place, then everything else from the table's own copy.
    private init?(_ bytes: UnsafeRawBufferPointer, limits: PropertyListLimits, checksContent: Bool) {
        guard let header = try? BinaryPropertyListReader(bytes: bytes, limits: limits) else { return nil }
        let storage = Storage(copying: bytes, objectCount: header.objectCount)
        // The table's own copy, which lives as long as the table: the reader kept for later reads points here.
        let stored = UnsafeRawBufferPointer(start: storage.bytes.baseAddress, count: bytes.count)
        guard let reader = try? BinaryPropertyListReader(bytes: stored, limits: limits) else { return nil }
        var check = TableCheck(reader: reader, storage: storage, checksContent: checksContent)
        guard (try? check.run()) != nil else { return nil }
        self.storage = storage
        self.reader = reader
        self.keyIDs = check.keyIDs
        self.keyNumbers = check.keyNumbers
        self.largestUID = check.largestUID
        self.keyShapeCount = Int(check.keyShapeCount)
    }

    // MARK: Objects

    /// What an object is.
    package enum Kind: Equatable {
        case null, bool, integer, real, date, data, string, uid, array, dictionary
    }

    /// The kind of `object`; nil for a number outside the table.
    @inline(__always)
    package func kind(of object: Int) -> Kind? {
        guard object >= 0, object < reader.objectCount else { return nil }
        switch storage.kinds[object] {
        case .null: return .null
        case .bool: return .bool
        case .integer: return .integer
        case .real: return .real
        case .date: return .date
        case .data: return .data
        case .ascii, .utf16: return .string
        case .uid: return .uid
        case .array: return .array
        case .dictionary: return .dictionary
        }
    }

    /// The UID `object` holds, when it is one.
    @inline(__always)
    package func uid(_ object: Int) -> UInt64? {
        guard object >= 0, object < reader.objectCount, storage.kinds[object] == .uid else { return nil }
        return UInt64(bitPattern: Int64(storage.counts[object]))
    }

    /// The shape of `object`, from the index.
    private func shape(of object: Int) -> BinaryPropertyListReader.Shape {
        let start = storage.starts[object]
        let count = storage.counts[object]
        switch storage.kinds[object] {
        case .null: return .null
        case .bool: return .bool(reader.bytes[start] == BinaryPropertyListFormat.trueMarker)
        case .integer: return .integer(size: count)
        case .real: return .real(size: count)
        case .date: return .date
        case .data: return .data(count: count, contentStart: start)
        case .ascii: return .ascii(count: count, contentStart: start)
        case .utf16: return .utf16(count: count, contentStart: start)
        case .uid: return .uid(size: Int(reader.bytes[start] & 0x0F) + 1)
        case .array: return .container(isDictionary: false, count: count, referencesStart: start)
        case .dictionary: return .container(isDictionary: true, count: count, referencesStart: start)
        }
    }

    /// The scalar value of `object`, or its whole tree for an array or dictionary, as the tree
    /// reader reads it.
    package func value(of object: Int) -> PropertyListValue {
        guard object >= 0, object < reader.objectCount else { return .null }
        switch storage.kinds[object] {
        case .uid: return .uid(UInt64(bitPattern: Int64(storage.counts[object])))
        case .ascii: return .string(asciiString(at: storage.starts[object], count: storage.counts[object]))
        // Numbers and booleans without the shape and decoded object the other scalars go
        // through: read for every number under a model's keys.
        case .bool: return .bool(reader.bytes[storage.starts[object]] == BinaryPropertyListFormat.trueMarker)
        case .integer:
            if let integer = try? reader.readInteger(at: storage.starts[object] + 1, size: storage.counts[object]) {
                return .integer(integer)
            }
            return .null
        case .real: return .real(reader.readReal(at: storage.starts[object], size: storage.counts[object]))
        case .array, .dictionary: return tree(object)
        default: return scalar(object)
        }
    }

    /// The ASCII string of `count` bytes at `start` (checked when the table was made: the bytes
    /// are the string's). One of at most 15 bytes is made in the small form from two loads: an
    /// object's content is followed by at least the 32 bytes of the trailer, so they stay within
    /// the bytes.
    @inline(__always)
    private func asciiString(at start: Int, count: Int) -> String {
        if count <= SmallASCIIString.maxCount, start + 16 <= reader.bytes.count, let base = reader.bytes.baseAddress,
           let string = SmallASCIIString.make(
               low: UInt64(littleEndian: base.loadUnaligned(fromByteOffset: start, as: UInt64.self)),
               high: UInt64(littleEndian: base.loadUnaligned(fromByteOffset: start + 8, as: UInt64.self)), count: count)
        {
            return string
        }
        // The string's bytes in place (checked ASCII when the table was made), copied straight into the new String's
        // storage.
        let content = UnsafeRawBufferPointer(rebasing: reader.bytes[start..<(start + count)])
        return String(unsafeUninitializedCapacity: count) { buffer in
            UnsafeMutableRawBufferPointer(buffer).copyMemory(from: content)
            return count
        }
    }

    /// A scalar, checked when the table was made.
    private func scalar(_ object: Int) -> PropertyListValue {
        if case .scalar(let value, _)? = try? reader.decodeScalar(shape(of: object), at: storage.starts[object]) {
            return value
        }
        return .null
    }

    /// The string `object` holds, when it is one.
    package func string(_ object: Int) -> String? {
        guard object >= 0, object < reader.objectCount else { return nil }
        switch storage.kinds[object] {
        case .ascii:
            return asciiString(at: storage.starts[object], count: storage.counts[object])
        case .utf16:
            if case .string(let string) = scalar(object) { return string }
            return nil
        default:
            return nil
        }
    }

    /// The array or dictionary `object` is, when it is one.
    @inline(__always)
    package func container(_ object: Int) -> Container? {
        guard object >= 0, object < reader.objectCount else { return nil }
        let kind = storage.kinds[object]
        guard kind == .array || kind == .dictionary else { return nil }
        let isDictionary = kind == .dictionary
        return Container(
            isDictionary: isDictionary, count: storage.counts[object], referencesStart: storage.starts[object],
            keyShape: isDictionary ? storage.keyShapes[object] : -1)
    }

    /// Reference `index` of `container` (for a dictionary, its keys come first, then its values).
    // Reads in place: the container's references were checked to lie in the object area when it was indexed, and the
    // caller passes an index below its reference count (a dictionary's: twice its entries).
    @inline(__always)
    package func reference(_ container: Container, _ index: Int) -> Int {
        let offset = container.referencesStart + index * reader.referenceSize
        return Int(truncatingIfNeeded: BinaryPropertyListReader.readUInt(reader.bytes, at: offset, size: reader.referenceSize))
    }

    /// The value of reference `index` of `container`: `value(of: reference(container, index))` in
    /// one call from another module (an array's every element is read so).
    package func value(at index: Int, of container: Container) -> PropertyListValue {
        value(of: reference(container, index))
    }

    /// The reference of the value of entry `position` of `dictionary` (its keys' references come
    /// first, then its values').
    @inline(__always)
    package func valueReference(ofEntry position: Int, in dictionary: Container) -> Int {
        reference(dictionary, dictionary.count + position)
    }

    /// The value of entry `position` of `dictionary`, in one call from another module (a model's
    /// every field is read so).
    package func value(ofEntry position: Int, in dictionary: Container) -> PropertyListValue {
        value(of: valueReference(ofEntry: position, in: dictionary))
    }

    /// The first value of `dictionary` from entry `position` on that is neither a scalar nor a
    /// UID below `limit`: a container, or a UID out of range, for the caller to look at; nil
    /// when there is none. One call checks an object's references in the common case.
    package func firstValueToCheck(in dictionary: Container, from position: Int, uidsBelow limit: UInt64) -> Int? {
        for position in position..<dictionary.count {
            let value = valueReference(ofEntry: position, in: dictionary)
            guard value >= 0, value < reader.objectCount else { return position }
            switch storage.kinds[value] {
            case .uid:
                if UInt64(bitPattern: Int64(storage.counts[value])) >= limit { return position }
            case .array, .dictionary:
                return position
            default:
                continue
            }
        }
        return nil
    }

    // MARK: Keys

    /// The number of the key `object` holds (equal keys have one number), -1 for an object that
    /// is no dictionary's key.
    @inline(__always)
    package func keyID(ofObject object: Int) -> Int32 {
        object >= 0 && object < keyIDs.count ? keyIDs[object] : -1
    }

    /// The number of the key `string`, nil when no dictionary has it.
    package func keyID(for string: String) -> Int32? {
        keyNumbers[ExactStringKey(string)]
    }

    /// The position among `dictionary`'s entries of the key numbered `key`.
    package func position(ofKey key: Int32, in dictionary: Container) -> Int? {
        for position in 0..<dictionary.count where keyID(ofObject: reference(dictionary, position)) == key {
            return position
        }
        return nil
    }

    /// The object `dictionary` holds under the key numbered `key`.
    package func object(forKey key: Int32, in dictionary: Container) -> Int? {
        position(ofKey: key, in: dictionary).map { valueReference(ofEntry: $0, in: dictionary) }
    }

    // MARK: Trees

    /// The tree below a container, built without recursion, as the tree reader builds it.
    private func tree(_ root: Int) -> PropertyListValue {
        struct Frame {
            let container: Container
            var next = 0
            var keys: [String] = []
            var values: [PropertyListValue] = []
        }
        var stack: [Frame] = []
        func open(_ object: Int) -> PropertyListValue? {
            guard let container = container(object) else { return value(of: object) }
            var frame = Frame(container: container)
            if container.isDictionary { frame.keys.reserveCapacity(container.count) }
            frame.values.reserveCapacity(container.count)
            stack.append(frame)
            return nil
        }
        var current = open(root)
        while let top = stack.indices.last {
            if let value = current {
                let position = stack[top].next - 1
                if stack[top].container.isDictionary && position < stack[top].container.count {
                    if case .string(let key) = value { stack[top].keys.append(key) }
                } else {
                    stack[top].values.append(value)
                }
                current = nil
            }
            let container = stack[top].container
            let total = container.isDictionary ? container.count * 2 : container.count
            if stack[top].next < total {
                stack[top].next += 1
                current = open(reference(container, stack[top].next - 1))
                continue
            }
            let frame = stack.removeLast()
            current =
                frame.container.isDictionary
                ? .dictionary(PropertyListDictionary(trustedKeys: frame.keys, values: frame.values)) : .array(frame.values)
            if stack.isEmpty { break }
        }
        return current ?? .null
    }
}
