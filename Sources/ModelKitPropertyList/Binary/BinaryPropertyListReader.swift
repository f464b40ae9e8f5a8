// MARK: - Format

/// Constants of the binary property list format (`bplist00`).
///
/// Layout: an 8-byte header `bplist00`, the objects, an offset table (one big-endian offset of
/// `offsetSize` bytes per object), and a 32-byte trailer: 5 unused bytes, a sort version byte,
/// the offset size, the object reference size, then three big-endian 64-bit integers: the object
/// count, the top object's index, and the offset table's position.
///
/// Each object starts with a marker byte: the high nibble is the type, the low nibble a size or
/// a count (`0xF`: the count follows as an integer object).
package enum BinaryPropertyListFormat {
    /// `bplist00`.
    package static let header: [UInt8] = Array("bplist00".utf8)
    /// The size of the trailer at the end of the file.
    package static let trailerSize = 32
    /// The header plus the trailer: the shortest possible file, without its objects.
    package static let minimumSize = 40

    /// Type nibbles (high four bits of a marker).
    package enum TypeNibble {
        static let simple: UInt8 = 0x0 // null 0x00, false 0x08, true 0x09, fill 0x0F
        static let integer: UInt8 = 0x1 // 0x1n: 2^n bytes, n = 0...4
        static let real: UInt8 = 0x2 // 0x22: 4 bytes, 0x23: 8 bytes
        static let date: UInt8 = 0x3 // 0x33: 8-byte double
        static let data: UInt8 = 0x4
        static let asciiString: UInt8 = 0x5
        static let utf16String: UInt8 = 0x6
        static let uid: UInt8 = 0x8 // 0x8n: n + 1 bytes
        static let array: UInt8 = 0xA
        static let set: UInt8 = 0xC
        static let dictionary: UInt8 = 0xD
    }

    package static let nullMarker: UInt8 = 0x00
    package static let falseMarker: UInt8 = 0x08
    package static let trueMarker: UInt8 = 0x09
    package static let float32Marker: UInt8 = 0x22
    package static let float64Marker: UInt8 = 0x23
    package static let dateMarker: UInt8 = 0x33
    package static let int128Marker: UInt8 = 0x14

    /// The low nibble that announces an extended count.
    package static let extendedCount: UInt8 = 0x0F

    /// The number of bytes, 1, 2, 4 or 8, needed to store `value` as an unsigned integer; Apple's
    /// writer uses this for offsets, object references and counts.
    ///
    /// ```swift
    /// BinaryPropertyListFormat.byteWidth(255)   // 1
    /// BinaryPropertyListFormat.byteWidth(256)   // 2
    /// ```
    package static func byteWidth(_ value: UInt64) -> Int {
        if value <= 0xFF { return 1 }
        if value <= 0xFFFF { return 2 }
        if value <= 0xFFFF_FFFF { return 4 }
        return 8
    }

    /// A lowercase type name for a marker byte, used when a dictionary key has the wrong type.
    package static func typeName(ofMarker marker: UInt8) -> String {
        switch marker >> 4 {
        case TypeNibble.simple:
            switch marker {
            case nullMarker: return "null"
            case falseMarker, trueMarker: return "bool"
            default: return "unknown"
            }
        case TypeNibble.integer: return "integer"
        case TypeNibble.real: return "real"
        case TypeNibble.date: return "date"
        case TypeNibble.data: return "data"
        case TypeNibble.asciiString, TypeNibble.utf16String: return "string"
        case TypeNibble.uid: return "uid"
        case TypeNibble.array: return "array"
        case TypeNibble.set: return "set"
        case TypeNibble.dictionary: return "dictionary"
        default: return "unknown"
        }
    }
}

// MARK: - Reader

/// Reads a binary property list (`bplist00`) into a `PropertyListValue`.
///
/// The reader treats its input as hostile. The trailer is validated before anything else is
/// read; every offset, count and object reference is range-checked before use, and counts are
/// compared with the bytes that remain before anything is allocated. Objects are decoded once
/// and shared (a binary property list is a DAG: equal strings and numbers are usually stored
/// once), without recursion: an explicit stack walks the containers, rejects reference cycles,
/// and enforces `PropertyListLimits.maxDepth` on the value it returns. The number of values in
/// the expanded tree is bounded by `maxObjectCount`, so a small file whose containers reference
/// each other many times cannot expand into an enormous value.
///
/// ```swift
/// let value = try bytes.withUnsafeBytes { try BinaryPropertyListReader.read($0, limits: .default) }
/// ```
struct BinaryPropertyListReader {
    /// Decodes a whole binary property list.
    // The caller's bytes in place (its `withUnsafeBytes`), read without a copy for the length of the call.
    static func read(
        _ bytes: UnsafeRawBufferPointer,
        limits: PropertyListLimits
    ) throws(PropertyListError) -> PropertyListValue {
        var reader = try BinaryPropertyListReader(bytes: bytes, limits: limits)
        return try reader.readTopObject()
    }

    /// The whole input.
    // The input, borrowed for the reader's life: every offset, count and reference is checked against the bytes before
    // it is read (see the type), so reads then go straight to them.
    let bytes: UnsafeRawBufferPointer
    let limits: PropertyListLimits
    /// Bytes per offset-table entry (1...8).
    let offsetSize: Int
    /// Bytes per object reference (1...8).
    let referenceSize: Int
    /// Objects in the offset table.
    let objectCount: Int
    /// The index of the root object.
    let topObject: Int
    /// Where the offset table starts; objects lie in `8 ..< offsetTableStart`.
    let offsetTableStart: Int

    /// Per-object decoding state, indexed by object number.
    struct ObjectInfo {
        /// Values in the object's expanded tree (at most `maxObjectCount`).
        var size = 0
        /// String code units and data bytes in the expanded tree (at most `maxTotalLength`).
        var length = 0
        /// Container nesting of the object: 0 for scalars, 1 for `[1]`.
        var height: Int32 = 0
        /// `unvisited`, `active` (a container being decoded) or `done`.
        var state = State.unvisited

        enum State: UInt8 {
            case unvisited, active, done
        }
    }

    /// A container being decoded.
    struct Frame {
        let object: Int
        let offset: Int
        let isDictionary: Bool
        /// Position of the first object reference.
        let referencesStart: Int
        /// References to visit: the element count, or twice the entry count (keys, then values).
        let referenceCount: Int
        /// The next reference to visit.
        var next = 0
        /// Values in the container's expanded tree so far, itself included.
        var size = 1
        /// String code units and data bytes in the container's expanded tree so far.
        var length = 0
        /// The largest child height so far.
        var childHeight: Int32 = 0
        /// Decoded keys (dictionaries only).
        var keys: [String] = []
        /// Decoded elements or values.
        var values: [PropertyListValue] = []
    }

    var info: [ObjectInfo] = []
    var memo: [PropertyListValue] = []
    var stack: [Frame] = []

    /// Validates the header and the trailer.
    // Keeps the caller's bytes (see `bytes`); the header and trailer are read at offsets within `minimumSize`, checked
    // first.
    init(bytes: UnsafeRawBufferPointer, limits: PropertyListLimits) throws(PropertyListError) {
        self.bytes = bytes
        self.limits = limits
        let length = bytes.count
        guard length >= BinaryPropertyListFormat.minimumSize else {
            throw Self.error(.tooShort(length: length), at: 0)
        }
        for index in 0..<6 where bytes[index] != BinaryPropertyListFormat.header[index] {
            throw Self.error(.notBinaryPropertyList, at: 0)
        }
        guard bytes[6] == UInt8(ascii: "0"), bytes[7] == UInt8(ascii: "0") else {
            let version = String(decoding: [bytes[6], bytes[7]], as: UTF8.self)
            throw Self.error(.unsupportedVersion(version), at: 6)
        }

        let trailer = length - BinaryPropertyListFormat.trailerSize
        let offsetSize = Int(bytes[trailer + 6])
        guard (1...8).contains(offsetSize) else {
            throw Self.error(.invalidOffsetSize(offsetSize), at: trailer + 6)
        }
        let referenceSize = Int(bytes[trailer + 7])
        guard (1...8).contains(referenceSize) else {
            throw Self.error(.invalidReferenceSize(referenceSize), at: trailer + 7)
        }
        let count = Self.readUInt(bytes, at: trailer + 8, size: 8)
        let top = Self.readUInt(bytes, at: trailer + 16, size: 8)
        let tableOffset = Self.readUInt(bytes, at: trailer + 24, size: 8)

        guard count > 0 else { throw Self.error(.noObjects, at: trailer + 8) }
        // At least one object byte lies between the header and the table.
        guard tableOffset > 8, tableOffset <= UInt64(trailer) else {
            throw Self.error(.offsetTableOutOfRange(tableOffset), at: trailer + 24)
        }
        let tableStart = Int(tableOffset)
        let room = (trailer - tableStart) / offsetSize
        guard count <= UInt64(room) else {
            throw Self.error(.objectCountExceedsData(count: count, room: room), at: trailer + 8)
        }
        let objectCount = Int(count)
        guard objectCount <= limits.maxObjectCount else {
            throw Self.error(
                .limitExceeded(.maxObjectCount, limit: limits.maxObjectCount, found: count), at: trailer + 8)
        }
        if referenceSize < 8, count > UInt64(1) << UInt64(8 * referenceSize) {
            throw Self.error(.referenceSizeTooSmall(size: referenceSize, objects: objectCount), at: trailer + 7)
        }
        guard top < count else {
            throw Self.error(.topObjectOutOfRange(top, objects: objectCount), at: trailer + 16)
        }

        self.offsetSize = offsetSize
        self.referenceSize = referenceSize
        self.objectCount = objectCount
        self.topObject = Int(top)
        self.offsetTableStart = tableStart
    }

    /// Decodes the top object and everything it references.
    mutating func readTopObject() throws(PropertyListError) -> PropertyListValue {
        info = [ObjectInfo](repeating: ObjectInfo(), count: objectCount)
        memo = [PropertyListValue](repeating: .null, count: objectCount)
        if let scalar = try enter(topObject, depth: 0) {
            return scalar
        }
        while let top = stack.indices.last {
            // Fields are read one by one: copying the frame would retain its child arrays.
            let next = stack[top].next
            if next < stack[top].referenceCount {
                let referenceOffset = stack[top].referencesStart + next * referenceSize
                let reference = Self.readUInt(bytes, at: referenceOffset, size: referenceSize)
                guard reference < UInt64(objectCount) else {
                    throw Self.error(
                        .objectReferenceOutOfRange(reference, objects: objectCount), at: referenceOffset)
                }
                let child = Int(reference)
                let isKey = stack[top].isDictionary && next < stack[top].referenceCount / 2
                if isKey {
                    try checkKey(child, referencedAt: referenceOffset)
                }
                stack[top].next = next + 1
                if let value = try enter(child, depth: stack.count) {
                    try append(value, object: child, isKey: isKey)
                }
            } else {
                let frame = stack.removeLast()
                let value: PropertyListValue
                if frame.isDictionary {
                    value = .dictionary(PropertyListDictionary(trustedKeys: frame.keys, values: frame.values))
                } else {
                    value = .array(frame.values)
                }
                memo[frame.object] = value
                let height = frame.childHeight == Int32.max ? Int32.max : frame.childHeight + 1
                info[frame.object] = ObjectInfo(size: frame.size, length: frame.length, height: height, state: .done)
                if stack.isEmpty { return value }
                try append(value, object: frame.object, isKey: false)
            }
        }
        // Unreachable: the loop returns when the root container completes.
        return memo[topObject]
    }

    /// Returns the value of `object` when it is a scalar or already decoded, or opens a frame for
    /// a container (returning `nil`). `depth` is the number of open containers.
    private mutating func enter(_ object: Int, depth: Int) throws(PropertyListError) -> PropertyListValue? {
        switch info[object].state {
        case .done:
            let nested = depth + Int(info[object].height)
            guard nested <= limits.maxDepth else {
                throw Self.error(
                    .limitExceeded(.maxDepth, limit: limits.maxDepth, found: UInt64(nested)),
                    at: (try? offset(of: object)) ?? 0)
            }
            return memo[object]
        case .active:
            throw Self.error(.referenceCycle(object: object), at: (try? offset(of: object)) ?? 0)
        case .unvisited:
            break
        }
        let start = try offset(of: object)
        switch try decodeObject(at: start) {
        case let .scalar(value, length):
            guard length <= limits.maxTotalLength else {
                throw Self.error(
                    .limitExceeded(.maxTotalLength, limit: limits.maxTotalLength, found: UInt64(length)), at: start)
            }
            memo[object] = value
            info[object] = ObjectInfo(size: 1, length: length, height: 0, state: .done)
            return value
        case let .container(isDictionary, count, referencesStart):
            guard depth + 1 <= limits.maxDepth else {
                throw Self.error(
                    .limitExceeded(.maxDepth, limit: limits.maxDepth, found: UInt64(depth + 1)), at: start)
            }
            if count == 0 {
                let value: PropertyListValue = isDictionary ? .dictionary(PropertyListDictionary()) : .array([])
                memo[object] = value
                info[object] = ObjectInfo(size: 1, length: 0, height: 1, state: .done)
                return value
            }
            info[object].state = .active
            var frame = Frame(
                object: object, offset: start, isDictionary: isDictionary,
                referencesStart: referencesStart, referenceCount: isDictionary ? count * 2 : count)
            // `count` was checked against the bytes that hold its references.
            if isDictionary { frame.keys.reserveCapacity(count) }
            frame.values.reserveCapacity(count)
            stack.append(frame)
            return nil
        }
    }

    /// Adds a decoded child to the innermost open container, enforcing `maxObjectCount` and
    /// `maxTotalLength` on the expanded tree.
    private mutating func append(_ value: PropertyListValue, object: Int, isKey: Bool) throws(PropertyListError) {
        let top = stack.count - 1
        // Both stay within their limits, but a limit may be `Int.max`: add without trapping.
        let (size, sizeOverflow) = stack[top].size.addingReportingOverflow(info[object].size)
        guard !sizeOverflow, size <= limits.maxObjectCount else {
            throw exceeded(.maxObjectCount, found: sizeOverflow ? nil : size, at: stack[top].offset)
        }
        let (length, lengthOverflow) = stack[top].length.addingReportingOverflow(info[object].length)
        guard !lengthOverflow, length <= limits.maxTotalLength else {
            throw exceeded(.maxTotalLength, found: lengthOverflow ? nil : length, at: stack[top].offset)
        }
        stack[top].size = size
        stack[top].length = length
        stack[top].childHeight = max(stack[top].childHeight, info[object].height)
        if isKey {
            // checkKey guaranteed a string.
            if case .string(let key) = value { stack[top].keys.append(key) }
        } else {
            stack[top].values.append(value)
        }
    }

    /// Checks that `object`, used as a dictionary key, is a string, without decoding containers.
    private func checkKey(_ object: Int, referencedAt referenceOffset: Int) throws(PropertyListError) {
        let typeName: String
        switch info[object].state {
        case .done:
            if case .string = memo[object] { return }
            typeName = memo[object].kindName
        case .active:
            typeName = "array or dictionary"
        case .unvisited:
            let marker = bytes[try offset(of: object)]
            let nibble = marker >> 4
            if nibble == BinaryPropertyListFormat.TypeNibble.asciiString
                || nibble == BinaryPropertyListFormat.TypeNibble.utf16String
            {
                return
            }
            typeName = BinaryPropertyListFormat.typeName(ofMarker: marker)
        }
        throw Self.error(.nonStringKey(typeName), at: referenceOffset)
    }

    /// The start of `object`, read from the offset table and checked against the object area.
    @inline(__always)
    func offset(of object: Int) throws(PropertyListError) -> Int {
        let entry = offsetTableStart + object * offsetSize
        let value = Self.readUInt(bytes, at: entry, size: offsetSize)
        guard value >= 8, value < UInt64(offsetTableStart) else {
            throw Self.error(.objectOffsetOutOfRange(object: object, offset: value), at: entry)
        }
        return Int(value)
    }

    /// A `limitExceeded` error for `limit`, reporting the size found when known.
    func exceeded(_ limit: PropertyListLimits.Limit, found: Int?, at offset: Int) -> PropertyListError {
        Self.error(.limitExceeded(limit, limit: limits.value(of: limit), found: found.map { UInt64($0) }), at: offset)
    }

    /// A reading error at a byte offset.
    static func error(_ kind: PropertyListError.Kind, at offset: Int) -> PropertyListError {
        PropertyListError(kind, at: .byte(offset), while: .readingBinary)
    }
}
