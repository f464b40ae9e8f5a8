#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The check of a ``BinaryPropertyListTable``: every object of the offset table checked with the
/// tree reader's rules and indexed; every container's references checked to be in range, and a
/// dictionary's keys to be distinct strings, numbered; then one walk from the top object over
/// the containers it reaches, with the expanded size, string and data length and height of each
/// computed from its children's, as ``BinaryPropertyListReader`` computes them.
struct TableCheck {
    typealias ObjectKind = BinaryPropertyListTable.ObjectKind

    let reader: BinaryPropertyListReader
    // The table's index (the memory of its `Storage`), filled here once per object; the three below likewise.
    let kinds: UnsafeMutableBufferPointer<ObjectKind>
    // Part of the table's index, like `kinds`.
    let starts: UnsafeMutableBufferPointer<Int>
    // Part of the table's index, like `kinds`.
    let counts: UnsafeMutableBufferPointer<Int>
    // Part of the table's index, like `kinds`.
    let keyShapes: UnsafeMutableBufferPointer<Int32>
    /// Whether strings' contents and the tree (cycles, limits) are checked: not for bytes written
    /// from a value.
    let checksContent: Bool
    var keyIDs: [Int32]
    /// The largest UID an object holds (0 for none).
    var largestUID: UInt64 = 0
    var keyNumbers: [ExactStringKey: Int32] = .init(minimumCapacity: 32)
    /// Per key number, the last dictionary that used it, to find a repeated key.
    private var lastUse: [Int] = []
    /// The key references of the last few dictionaries checked (the most recent first), with
    /// their key shape: dictionaries of one kind share them, and an archive's objects come in a
    /// few kinds.
    // Views of key references in the table's own bytes, which outlive the check: compared with each next dictionary's
    // in place, without copies.
    private var checkedKeys: [(bytes: UnsafeRawBufferPointer, shape: Int32)] = []
    /// The number of key shapes given so far.
    var keyShapeCount: Int32 = 0
    /// Per key shape, the code units of its keys together (saturating; their objects are
    /// distinct strings, so within the bytes): what the walk adds for a dictionary's keys
    /// without visiting them.
    private var keyLengths: [Int] = []

    /// The check failed; the tree reader says why, or reads what this check does not accept.
    struct Rejected: Error {}

    init(reader: BinaryPropertyListReader, storage: BinaryPropertyListTable.Storage, checksContent: Bool) {
        self.reader = reader
        self.checksContent = checksContent
        kinds = storage.kinds
        starts = storage.starts
        counts = storage.counts
        keyShapes = storage.keyShapes
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

    /// Numbers the keys of dictionary `object` (strings), checks that none repeats, and gives
    /// the dictionary its key shape: that of a recent dictionary with the same key references,
    /// or a new one.
    private mutating func numberKeys(of object: Int) throws {
        let width = reader.referenceSize
        let start = starts[object]
        let count = counts[object]
        // The dictionary's key references in place (in the object area, checked when it was indexed).
        let keys = UnsafeRawBufferPointer(rebasing: reader.bytes[start..<(start + count * width)])
        for checked in checkedKeys where checked.bytes.count == keys.count && ExactString.bytesEqual(checked.bytes, keys) {
            keyShapes[object] = checked.shape
            return
        }
        let stamp = object + 1
        var length = 0
        for position in 0..<count {
            let key = try reference(at: start + position * width)
            let id = try keyID(key)
            guard lastUse[Int(id)] != stamp else { throw Rejected() }
            lastUse[Int(id)] = stamp
            let (sum, overflow) = length.addingReportingOverflow(counts[key])
            length = overflow ? .max : sum
        }
        // Past the last number, dictionaries get none (-1), and their readers keep no facts.
        let shape = keyShapeCount < Int32.max ? keyShapeCount : -1
        if shape >= 0 {
            keyShapeCount += 1
            keyLengths.append(length)
        }
        if checkedKeys.count == 8 { checkedKeys.removeLast() }
        checkedKeys.insert((keys, shape), at: 0)
        keyShapes[object] = shape
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
        // One entry per object for the walk, freed below: updated per container and passed to `open` without an array's
        // copy-on-write checks.
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
        var frame = try open(top, totals: totals, limits: limits)
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
                    frame = try open(container, totals: totals, limits: limits)
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
        // The references in place, read a width at a time with unaligned loads (big-endian, at any offset).
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

    /// Opens container `object` for the walk. A dictionary with a key shape starts past its keys,
    /// their totals added at once: its keys are strings (checked when they were numbered), leaves
    /// the walk would only count, and the same for every dictionary of the shape.
    // The walk's table (see `walk()`), passed without a copy.
    private func open(_ object: Int, totals: UnsafeMutableBufferPointer<Totals>, limits: PropertyListLimits) throws -> Frame {
        totals[object].state = .active
        guard kinds[object] == .dictionary else { return Frame(object: object, total: counts[object]) }
        var frame = Frame(object: object, total: counts[object] * 2)
        let shape = Int(keyShapes[object])
        if shape >= 0 {
            let keys = Totals(size: counts[object], length: keyLengths[shape], height: 0, state: .done)
            try add(keys, to: &frame.totals, limits: limits)
            frame.next = counts[object]
        }
        return frame
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
