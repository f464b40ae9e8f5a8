#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

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
    fileprivate final class Storage {
        let bytes: UnsafeMutableRawBufferPointer
        let kinds: UnsafeMutableBufferPointer<ObjectKind>
        let starts: UnsafeMutableBufferPointer<Int>
        let counts: UnsafeMutableBufferPointer<Int>

        /// The index is left unset: the check sets every object's entry before anything reads
        /// one, and a table whose check fails is never used (the kinds are trivial values, so
        /// memory set this way needs no deinitializing either).
        init(copying source: UnsafeRawBufferPointer, objectCount: Int) {
            bytes = .allocate(byteCount: max(source.count, 1), alignment: 8)
            if let base = source.baseAddress { bytes.baseAddress!.copyMemory(from: base, byteCount: source.count) }
            kinds = .allocate(capacity: objectCount)
            starts = .allocate(capacity: objectCount)
            counts = .allocate(capacity: objectCount)
        }

        deinit {
            bytes.deallocate()
            kinds.deallocate()
            starts.deallocate()
            counts.deallocate()
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

    /// The number of objects.
    package var objectCount: Int { reader.objectCount }
    /// The root object.
    package var topObject: Int { reader.topObject }

    /// Checks `bytes` and keeps a copy; nil when they are not a binary property list whose every
    /// object the tree reader reads with `limits`, or when a dictionary repeats a key.
    package convenience init?(validating bytes: UnsafeRawBufferPointer, limits: PropertyListLimits) {
        self.init(bytes, limits: limits, checksContent: true)
    }

    /// Indexes the bytes ``PropertyListValue/binaryData()`` wrote for a value (within no limit:
    /// the value is in memory already), keeping a copy; their strings were Swift strings and
    /// their containers a tree, so only their layout is checked.
    package convenience init?(writtenFrom bytes: UnsafeRawBufferPointer) {
        let unlimited = PropertyListLimits(
            maxDepth: .max, maxObjectCount: .max, maxCollectionCount: .max, maxStringLength: .max, maxDataLength: .max,
            maxTotalLength: .max)
        self.init(bytes, limits: unlimited, checksContent: false)
    }

    private init?(_ bytes: UnsafeRawBufferPointer, limits: PropertyListLimits, checksContent: Bool) {
        guard let header = try? BinaryPropertyListReader(bytes: bytes, limits: limits) else { return nil }
        let storage = Storage(copying: bytes, objectCount: header.objectCount)
        let stored = UnsafeRawBufferPointer(start: storage.bytes.baseAddress, count: bytes.count)
        guard let reader = try? BinaryPropertyListReader(bytes: stored, limits: limits) else { return nil }
        var check = TableCheck(reader: reader, storage: storage, checksContent: checksContent)
        guard (try? check.run()) != nil else { return nil }
        self.storage = storage
        self.reader = reader
        self.keyIDs = check.keyIDs
        self.keyNumbers = check.keyNumbers
        self.largestUID = check.largestUID
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
        case .ascii:
            // Checked when the table was made: the bytes are the string's.
            let count = storage.counts[object]
            let content = UnsafeRawBufferPointer(rebasing: reader.bytes[storage.starts[object]..<(storage.starts[object] + count)])
            return .string(String(unsafeUninitializedCapacity: count) { buffer in
                UnsafeMutableRawBufferPointer(buffer).copyMemory(from: content)
                return count
            })
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
        case .ascii, .utf16:
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
        return Container(isDictionary: kind == .dictionary, count: storage.counts[object], referencesStart: storage.starts[object])
    }

    /// Reference `index` of `container` (for a dictionary, its keys come first, then its values).
    @inline(__always)
    package func reference(_ container: Container, _ index: Int) -> Int {
        let offset = container.referencesStart + index * reader.referenceSize
        return Int(truncatingIfNeeded: BinaryPropertyListReader.readUInt(reader.bytes, at: offset, size: reader.referenceSize))
    }

    /// The bytes of `container`'s key references: two dictionaries whose key references are the
    /// same bytes have the same keys in the same order.
    package func keyReferenceBytes(_ container: Container) -> UnsafeRawBufferPointer {
        let count = container.isDictionary ? container.count : 0
        let start = container.referencesStart
        return UnsafeRawBufferPointer(rebasing: reader.bytes[start..<(start + count * reader.referenceSize)])
    }

    /// The first value of `dictionary` from entry `position` on that is neither a scalar nor a
    /// UID below `limit`: a container, or a UID out of range, for the caller to look at; nil
    /// when there is none. One call checks an object's references in the common case.
    package func firstValueToCheck(in dictionary: Container, from position: Int, uidsBelow limit: UInt64) -> Int? {
        for position in position..<dictionary.count {
            let value = reference(dictionary, dictionary.count + position)
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
        position(ofKey: key, in: dictionary).map { reference(dictionary, dictionary.count + $0) }
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

/// The check of a ``BinaryPropertyListTable``: every object of the offset table checked with the
/// tree reader's rules and indexed; every container's references checked to be in range, and a
/// dictionary's keys to be distinct strings, numbered; then one walk from the top object over
/// the containers it reaches, with the expanded size, string and data length and height of each
/// computed from its children's, as ``BinaryPropertyListReader`` computes them.
private struct TableCheck {
    typealias ObjectKind = BinaryPropertyListTable.ObjectKind

    let reader: BinaryPropertyListReader
    let kinds: UnsafeMutableBufferPointer<ObjectKind>
    let starts: UnsafeMutableBufferPointer<Int>
    let counts: UnsafeMutableBufferPointer<Int>
    /// Whether strings' contents and the tree (cycles, limits) are checked: not for bytes written
    /// from a value.
    let checksContent: Bool
    var keyIDs: [Int32]
    /// The largest UID an object holds (0 for none).
    var largestUID: UInt64 = 0
    var keyNumbers: [ExactStringKey: Int32] = .init(minimumCapacity: 32)
    /// Per key number, the last dictionary that used it, to find a repeated key.
    private var lastUse: [Int] = []
    /// The key references of the last few dictionaries checked (the most recent first):
    /// dictionaries of one kind share them, and an archive's objects come in a few kinds.
    private var checkedKeys: [UnsafeRawBufferPointer] = []

    /// The check failed; the tree reader says why, or reads what this check does not accept.
    struct Rejected: Error {}

    init(reader: BinaryPropertyListReader, storage: BinaryPropertyListTable.Storage, checksContent: Bool) {
        self.reader = reader
        self.checksContent = checksContent
        kinds = storage.kinds
        starts = storage.starts
        counts = storage.counts
        keyIDs = [Int32](repeating: -1, count: reader.objectCount)
    }

    mutating func run() throws {
        for object in 0..<reader.objectCount { try index(object) }
        // Apart from indexing, which this slowed by more than the loop costs.
        for object in 0..<reader.objectCount where kinds[object] == .uid {
            largestUID = max(largestUID, UInt64(bitPattern: Int64(counts[object])))
        }
        for object in 0..<reader.objectCount where kinds[object] == .dictionary { try numberKeys(of: object) }
        if checksContent { try walk() }
    }

    /// Checks object `object` as the tree reader checks it when it reaches it, and indexes it.
    private mutating func index(_ object: Int) throws {
        let start = try reader.offset(of: object)
        let shape = try reader.shape(at: start)
        switch shape {
        case .null:
            (kinds[object], starts[object], counts[object]) = (.null, start, 0)
        case .bool:
            (kinds[object], starts[object], counts[object]) = (.bool, start, 0)
        case .integer(let size):
            _ = try reader.checkScalar(shape, at: start)
            (kinds[object], starts[object], counts[object]) = (.integer, start, size)
        case .real(let size):
            (kinds[object], starts[object], counts[object]) = (.real, start, size)
        case .date:
            (kinds[object], starts[object], counts[object]) = (.date, start, 0)
        case let .data(count, contentStart):
            (kinds[object], starts[object], counts[object]) = (.data, contentStart, count)
        case let .ascii(count, contentStart):
            if checksContent { _ = try reader.checkScalar(shape, at: start) }
            (kinds[object], starts[object], counts[object]) = (.ascii, contentStart, count)
        case let .utf16(count, contentStart):
            if checksContent { _ = try reader.checkScalar(shape, at: start) }
            (kinds[object], starts[object], counts[object]) = (.utf16, contentStart, count)
        case .uid(let size):
            let uid = try reader.readUID(at: start, size: size)
            (kinds[object], starts[object], counts[object]) = (.uid, start, Int(truncatingIfNeeded: Int64(bitPattern: uid)))
        case let .container(isDictionary, count, referencesStart):
            (kinds[object], starts[object], counts[object]) = (isDictionary ? .dictionary : .array, referencesStart, count)
        }
    }

    /// A reference of a container, checked to be in range.
    @inline(__always)
    private func reference(at offset: Int) throws -> Int {
        let reference = BinaryPropertyListReader.readUInt(reader.bytes, at: offset, size: reader.referenceSize)
        guard reference < UInt64(reader.objectCount) else { throw Rejected() }
        return Int(reference)
    }

    /// Numbers the keys of dictionary `object` (strings) and checks that none repeats.
    private mutating func numberKeys(of object: Int) throws {
        let width = reader.referenceSize
        let start = starts[object]
        let count = counts[object]
        let keys = UnsafeRawBufferPointer(rebasing: reader.bytes[start..<(start + count * width)])
        for checked in checkedKeys where checked.count == keys.count && ExactString.bytesEqual(checked, keys) { return }
        let stamp = object + 1
        for position in 0..<count {
            let id = try keyID(try reference(at: start + position * width))
            guard lastUse[Int(id)] != stamp else { throw Rejected() }
            lastUse[Int(id)] = stamp
        }
        if checkedKeys.count == 8 { checkedKeys.removeLast() }
        checkedKeys.insert(keys, at: 0)
    }

    /// The number of the string `object` as a key, given the first time its string is seen.
    private mutating func keyID(_ object: Int) throws -> Int32 {
        if keyIDs[object] >= 0 { return keyIDs[object] }
        guard kinds[object] == .ascii || kinds[object] == .utf16,
              case .scalar(.string(let key), _) = try reader.decodeObject(at: try reader.offset(of: object))
        else { throw Rejected() }
        let id: Int32
        if let known = keyNumbers[ExactStringKey(key)] {
            id = known
        } else {
            id = Int32(keyNumbers.count)
            keyNumbers[ExactStringKey(key)] = id
            lastUse.append(0)
        }
        keyIDs[object] = id
        return id
    }

    // MARK: The tree

    /// What the walk knows of each container.
    private struct Totals {
        var size = 0
        var length = 0
        var height: Int32 = 0
        var state = State.unvisited

        enum State: UInt8 { case unvisited, active, done }
    }

    /// A container being walked.
    private struct Frame {
        let object: Int
        /// References to visit: the elements, or a dictionary's keys and values.
        let total: Int
        var next = 0
        var totals = Totals(size: 1, length: 0, height: 0, state: .active)
    }

    /// Walks the containers from the top object: no cycle, and the depth, the expanded size and
    /// the string and data length of the tree within the limits. The open containers are a stack
    /// whose top is kept in `frame`.
    private func walk() throws {
        let limits = reader.limits
        let totals = UnsafeMutableBufferPointer<Totals>.allocate(capacity: reader.objectCount)
        totals.initialize(repeating: Totals())
        defer { totals.deallocate() }
        let top = reader.topObject
        guard kinds[top] == .array || kinds[top] == .dictionary else {
            guard leaf(top).length <= limits.maxTotalLength else { throw Rejected() }
            return
        }
        guard limits.maxDepth >= 1 else { throw Rejected() }
        var stack: [Frame] = []
        var frame = open(top, totals: totals)
        let width = reader.referenceSize
        while true {
            if frame.next < frame.total {
                // The scalars up to the next container, counted together: the totals only grow,
                // so the limits reject the same trees as when checked after each.
                var leaves = Totals(size: 0, length: 0, height: 0, state: .done)
                let container: Int
                switch width {
                case 1: container = try countLeaves(UInt8.self, of: &frame, into: &leaves, limits: limits)
                case 2: container = try countLeaves(UInt16.self, of: &frame, into: &leaves, limits: limits)
                case 4: container = try countLeaves(UInt32.self, of: &frame, into: &leaves, limits: limits)
                default: container = try countLeaves(of: &frame, into: &leaves, limits: limits)
                }
                if leaves.size > 0 { try add(leaves, to: &frame.totals, limits: limits) }
                guard container >= 0 else { continue }
                let depth = stack.count + 1
                switch totals[container].state {
                case .done:
                    // A shared container: nested here, it must still fit the depth limit.
                    guard depth + Int(totals[container].height) <= limits.maxDepth else { throw Rejected() }
                    try add(totals[container], to: &frame.totals, limits: limits)
                case .active:
                    throw Rejected()
                case .unvisited:
                    guard depth + 1 <= limits.maxDepth else { throw Rejected() }
                    stack.append(frame)
                    frame = open(container, totals: totals)
                }
                continue
            }
            frame.totals.height = frame.totals.height == Int32.max ? Int32.max : frame.totals.height + 1
            frame.totals.state = .done
            totals[frame.object] = frame.totals
            guard var parent = stack.popLast() else { return }
            try add(frame.totals, to: &parent.totals, limits: limits)
            frame = parent
        }
    }

    /// Counts into `leaves` the scalars among `frame`'s references from `frame.next` on, up to
    /// the next container, which it returns (past it), or -1 when the references run out; for
    /// references of `W`'s width, read without the width's switch.
    @inline(__always)
    private func countLeaves<W: FixedWidthInteger & UnsignedInteger>(
        _ width: W.Type, of frame: inout Frame, into leaves: inout Totals, limits: PropertyListLimits
    ) throws -> Int {
        // In locals, without overflow checks: the container's references were checked to lie
        // within the bytes when it was indexed, and its counts are far from overflowing.
        guard let bytes = reader.bytes.baseAddress else { throw Rejected() }
        let references = bytes + starts[frame.object]
        let objectCount = UInt64(reader.objectCount)
        let total = frame.total
        var next = frame.next
        defer { frame.next = next }
        while next < total {
            let raw = W(bigEndian: references.loadUnaligned(fromByteOffset: next &* MemoryLayout<W>.size, as: W.self))
            next &+= 1
            guard UInt64(raw) < objectCount else { throw Rejected() }
            if try countLeaf(Int(raw), into: &leaves, limits: limits) { return Int(raw) }
        }
        return -1
    }

    /// ``countLeaves(_:of:into:limits:)`` for references of any width.
    private func countLeaves(of frame: inout Frame, into leaves: inout Totals, limits: PropertyListLimits) throws -> Int {
        while frame.next < frame.total {
            let child = try reference(at: starts[frame.object] + frame.next * reader.referenceSize)
            frame.next += 1
            if try countLeaf(child, into: &leaves, limits: limits) { return child }
        }
        return -1
    }

    /// Counts `child` into `leaves` when it is a scalar; true when it is a container.
    @inline(__always)
    private func countLeaf(_ child: Int, into leaves: inout Totals, limits: PropertyListLimits) throws -> Bool {
        switch kinds[child] {
        case .array, .dictionary:
            return true
        case .data, .ascii, .utf16:
            let (length, overflow) = leaves.length.addingReportingOverflow(counts[child])
            guard !overflow, length <= limits.maxTotalLength else { throw Rejected() }
            leaves.length = length
        default:
            break
        }
        // At most one per reference: no overflow.
        leaves.size &+= 1
        return false
    }

    private func open(_ object: Int, totals: UnsafeMutableBufferPointer<Totals>) -> Frame {
        totals[object].state = .active
        return Frame(object: object, total: kinds[object] == .dictionary ? counts[object] * 2 : counts[object])
    }

    /// The totals of a scalar: one value, and its code units or bytes.
    @inline(__always)
    private func leaf(_ object: Int) -> Totals {
        switch kinds[object] {
        case .data, .ascii, .utf16: return Totals(size: 1, length: counts[object], height: 0, state: .done)
        default: return Totals(size: 1, length: 0, height: 0, state: .done)
        }
    }

    /// Adds a complete child to its container's totals, within the limits.
    @inline(__always)
    private func add(_ child: Totals, to totals: inout Totals, limits: PropertyListLimits) throws {
        let (size, sizeOverflow) = totals.size.addingReportingOverflow(child.size)
        let (length, lengthOverflow) = totals.length.addingReportingOverflow(child.length)
        guard !sizeOverflow, size <= limits.maxObjectCount, !lengthOverflow, length <= limits.maxTotalLength else {
            throw Rejected()
        }
        totals.size = size
        totals.length = length
        totals.height = max(totals.height, child.height)
    }
}
