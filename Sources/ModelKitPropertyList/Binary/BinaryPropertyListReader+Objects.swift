#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension BinaryPropertyListReader {
    /// One object, decoded as far as its marker allows without visiting references.
    enum DecodedObject {
        /// A complete scalar value, and its string code units or data bytes (0 for others).
        case scalar(PropertyListValue, length: Int)
        /// An array, set or dictionary: its entry count and where its references start; the
        /// references are known to fit before the offset table.
        case container(isDictionary: Bool, count: Int, referencesStart: Int)
    }

    /// Reads a big-endian unsigned integer of 1 to 8 bytes; the caller has checked the range.
    // Unaligned loads in place: the format's integers are big-endian at any offset, and the caller checked that `size`
    // bytes lie at `offset`.
    @inline(__always)
    static func readUInt(_ bytes: UnsafeRawBufferPointer, at offset: Int, size: Int) -> UInt64 {
        switch size {
        case 1:
            return UInt64(bytes[offset])
        case 2:
            return UInt64(UInt16(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt16.self)))
        case 4:
            return UInt64(UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
        case 8:
            return UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        default:
            var value: UInt64 = 0
            for index in offset..<(offset + size) {
                value = value << 8 | UInt64(bytes[index])
            }
            return value
        }
    }

    /// What an object is, as far as its marker tells: its type and where its content lies, every
    /// byte of it checked to lie before the offset table and its counts checked against the
    /// limits, its content not read yet.
    enum Shape {
        case null
        case bool(Bool)
        /// An integer of `size` bytes (1, 2, 4, 8 or 16) after the marker.
        case integer(size: Int)
        /// A real of `size` bytes (4 or 8) after the marker.
        case real(size: Int)
        case date
        case data(count: Int, contentStart: Int)
        case ascii(count: Int, contentStart: Int)
        case utf16(count: Int, contentStart: Int)
        /// A UID of `size` bytes (1 to 16) after the marker.
        case uid(size: Int)
        /// An array, set or dictionary: its entry count and where its references start.
        case container(isDictionary: Bool, count: Int, referencesStart: Int)
    }

    /// The shape of the object that starts at `start` (inside the object area).
    @inline(__always)
    func shape(at start: Int) throws(PropertyListError) -> Shape {
        typealias Nibble = BinaryPropertyListFormat.TypeNibble
        let marker = bytes[start]
        let low = marker & 0x0F
        switch marker >> 4 {
        case Nibble.simple:
            switch marker {
            case BinaryPropertyListFormat.nullMarker: return .null
            case BinaryPropertyListFormat.falseMarker: return .bool(false)
            case BinaryPropertyListFormat.trueMarker: return .bool(true)
            default: throw Self.error(.invalidMarker(marker), at: start)
            }

        case Nibble.integer:
            guard low <= 4 else { throw Self.error(.invalidMarker(marker), at: start) }
            let size = 1 << Int(low)
            try requireBytes(size, after: start, marker: marker)
            return .integer(size: size)

        case Nibble.real:
            let size: Int
            switch marker {
            case BinaryPropertyListFormat.float32Marker: size = 4
            case BinaryPropertyListFormat.float64Marker: size = 8
            default: throw Self.error(.invalidMarker(marker), at: start)
            }
            try requireBytes(size, after: start, marker: marker)
            return .real(size: size)

        case Nibble.date:
            guard marker == BinaryPropertyListFormat.dateMarker else {
                throw Self.error(.invalidMarker(marker), at: start)
            }
            try requireBytes(8, after: start, marker: marker)
            return .date

        case Nibble.data:
            let (count, contentStart) = try readCount(marker: marker, at: start, unitSize: 1)
            guard count <= limits.maxDataLength else {
                throw Self.error(
                    .limitExceeded(.maxDataLength, limit: limits.maxDataLength, found: UInt64(count)), at: start)
            }
            return .data(count: count, contentStart: contentStart)

        case Nibble.asciiString:
            let (count, contentStart) = try readCount(marker: marker, at: start, unitSize: 1)
            try checkStringLength(count, at: start)
            return .ascii(count: count, contentStart: contentStart)

        case Nibble.utf16String:
            let (count, contentStart) = try readCount(marker: marker, at: start, unitSize: 2)
            try checkStringLength(count, at: start)
            return .utf16(count: count, contentStart: contentStart)

        case Nibble.uid:
            let size = Int(low) + 1
            try requireBytes(size, after: start, marker: marker)
            return .uid(size: size)

        case Nibble.array, Nibble.set:
            let (count, referencesStart) = try readCount(marker: marker, at: start, unitSize: referenceSize)
            try checkCollectionCount(count, at: start)
            return .container(isDictionary: false, count: count, referencesStart: referencesStart)

        case Nibble.dictionary:
            let (count, referencesStart) = try readCount(marker: marker, at: start, unitSize: 2 * referenceSize)
            try checkCollectionCount(count, at: start)
            return .container(isDictionary: true, count: count, referencesStart: referencesStart)

        default:
            throw Self.error(.invalidMarker(marker), at: start)
        }
    }

    /// Decodes the object that starts at `start` (inside the object area).
    func decodeObject(at start: Int) throws(PropertyListError) -> DecodedObject {
        let shape = try shape(at: start)
        if case let .container(isDictionary, count, referencesStart) = shape {
            return .container(isDictionary: isDictionary, count: count, referencesStart: referencesStart)
        }
        return try decodeScalar(shape, at: start)
    }

    /// Decodes a scalar of a known shape that starts at `start`.
    func decodeScalar(_ shape: Shape, at start: Int) throws(PropertyListError) -> DecodedObject {
        switch shape {
        case .null: return .scalar(.null, length: 0)
        case .bool(let flag): return .scalar(.bool(flag), length: 0)
        case .integer(let size): return .scalar(.integer(try readInteger(at: start + 1, size: size)), length: 0)
        case .real(let size):
            return .scalar(.real(readReal(at: start, size: size)), length: 0)
        case .date:
            let seconds = Double(bitPattern: Self.readUInt(bytes, at: start + 1, size: 8))
            return .scalar(.date(Date(timeIntervalSinceReferenceDate: seconds)), length: 0)
        case let .data(count, contentStart):
            // The data's bytes in place (checked by `readCount` to lie before the offset table), copied once: into the
            // Data.
            let content = UnsafeRawBufferPointer(rebasing: bytes[contentStart..<(contentStart + count)])
            return .scalar(.data(Data(content)), length: count)
        case let .ascii(count, contentStart):
            return .scalar(.string(try decodeASCII(at: contentStart, count: count)), length: count)
        case let .utf16(count, contentStart):
            return .scalar(.string(try decodeUTF16(at: contentStart, count: count)), length: count)
        case .uid(let size):
            return .scalar(.uid(try readUID(at: start, size: size)), length: 0)
        case let .container(isDictionary, count, referencesStart):
            return .container(isDictionary: isDictionary, count: count, referencesStart: referencesStart)
        }
    }

    /// Checks a scalar of a known shape as ``decodeScalar(_:at:)`` would, without making its
    /// value (no string or data is allocated); returns its string code units or data bytes.
    func checkScalar(_ shape: Shape, at start: Int) throws(PropertyListError) -> Int {
        switch shape {
        case .integer(let size):
            _ = try readInteger(at: start + 1, size: size)
            return 0
        case .uid(let size):
            _ = try readUID(at: start, size: size)
            return 0
        case let .data(count, _):
            return count
        case let .ascii(count, contentStart):
            try checkASCII(at: contentStart, count: count)
            return count
        case let .utf16(count, contentStart):
            if let failure = firstUnpairedSurrogate(at: contentStart, count: count) {
                throw Self.error(.invalidUTF16(codeUnit: failure.unit), at: failure.offset)
            }
            return count
        case .null, .bool, .real, .date, .container:
            return 0
        }
    }

    /// A UID of `size` bytes after the marker at `start`; Apple writes at most 4 bytes, and longer
    /// ones must still fit in 64 bits.
    func readUID(at start: Int, size: Int) throws(PropertyListError) -> UInt64 {
        if size > 8 {
            for index in (start + 1)..<(start + 1 + size - 8) where bytes[index] != 0 {
                throw Self.error(.uidOutOfRange, at: start)
            }
            return Self.readUInt(bytes, at: start + 1 + size - 8, size: 8)
        }
        return Self.readUInt(bytes, at: start + 1, size: size)
    }

    /// Reads the count in a marker's low nibble, or the integer object after it when the nibble is
    /// `0xF`, and checks that `count * unitSize` bytes follow before the offset table. Returns the
    /// count and where the content starts.
    @inline(__always)
    private func readCount(
        marker: UInt8, at start: Int, unitSize: Int
    ) throws(PropertyListError) -> (count: Int, contentStart: Int) {
        var count = UInt64(marker & 0x0F)
        var contentStart = start + 1
        if marker & 0x0F == BinaryPropertyListFormat.extendedCount {
            try requireBytes(1, after: start, marker: marker)
            let lengthMarker = bytes[start + 1]
            let exponent = lengthMarker & 0x0F
            guard lengthMarker >> 4 == BinaryPropertyListFormat.TypeNibble.integer, exponent <= 3 else {
                throw Self.error(.invalidLength(marker: marker, lengthMarker: lengthMarker), at: start + 1)
            }
            let size = 1 << Int(exponent)
            try requireBytes(1 + size, after: start, marker: marker)
            count = Self.readUInt(bytes, at: start + 2, size: size)
            contentStart = start + 2 + size
        }
        // Compare in division form: `count * unitSize` may not fit in 64 bits.
        let available = offsetTableStart - contentStart
        guard count <= UInt64(available / unitSize) else {
            let needed = count.multipliedReportingOverflow(by: UInt64(unitSize))
            throw Self.error(
                .truncatedObject(
                    marker: marker, needed: needed.overflow ? UInt64.max : needed.partialValue,
                    available: available),
                at: start)
        }
        return (Int(count), contentStart)
    }

    /// Checks that `count` bytes follow the marker at `start` before the offset table.
    @inline(__always)
    private func requireBytes(_ count: Int, after start: Int, marker: UInt8) throws(PropertyListError) {
        let available = offsetTableStart - start - 1
        guard count <= available else {
            throw Self.error(.truncatedObject(marker: marker, needed: UInt64(count), available: available), at: start)
        }
    }

    @inline(__always)
    private func checkStringLength(_ count: Int, at start: Int) throws(PropertyListError) {
        guard count <= limits.maxStringLength else {
            throw Self.error(
                .limitExceeded(.maxStringLength, limit: limits.maxStringLength, found: UInt64(count)), at: start)
        }
    }

    @inline(__always)
    private func checkCollectionCount(_ count: Int, at start: Int) throws(PropertyListError) {
        guard count <= limits.maxCollectionCount else {
            throw Self.error(
                .limitExceeded(.maxCollectionCount, limit: limits.maxCollectionCount, found: UInt64(count)),
                at: start)
        }
    }

    /// Reads a 1-, 2-, 4-, 8- or 16-byte integer. Sizes up to 4 are unsigned, 8 is signed, and 16
    /// is a signed 128-bit value that must fit in the signed or unsigned 64-bit range.
    /// The real of `size` bytes (4 or 8) after the marker at `start`.
    func readReal(at start: Int, size: Int) -> PropertyListReal {
        PropertyListReal(width: size == 4 ? .single : .double, bits: Self.readUInt(bytes, at: start + 1, size: size))
    }

    func readInteger(at offset: Int, size: Int) throws(PropertyListError) -> PropertyListInteger {
        switch size {
        case 8:
            return PropertyListInteger(Int64(bitPattern: Self.readUInt(bytes, at: offset, size: 8)))
        case 16:
            let high = Self.readUInt(bytes, at: offset, size: 8)
            let low = Self.readUInt(bytes, at: offset + 8, size: 8)
            if high == 0 { return PropertyListInteger(low) }
            if high == UInt64.max, low >= UInt64(1) << 63 {
                return PropertyListInteger(Int64(bitPattern: low))
            }
            throw Self.error(.integerOutOfRange, at: offset - 1)
        default:
            return PropertyListInteger(Self.readUInt(bytes, at: offset, size: size))
        }
    }

    /// Checks that `count` bytes are ASCII, eight at a time.
    private func checkASCII(at start: Int, count: Int) throws(PropertyListError) {
        // The string's bytes in place (checked by `readCount`), tested eight at a time with unaligned loads: a string
        // may start at any offset.
        let content = UnsafeRawBufferPointer(rebasing: bytes[start..<(start + count)])
        var index = 0
        while index + 8 <= count {
            if content.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { break }
            index += 8
        }
        while index < count {
            let byte = content[index]
            guard byte < 0x80 else { throw Self.error(.invalidASCII(byte: byte), at: start + index) }
            index += 1
        }
    }

    /// Decodes `count` ASCII bytes, rejecting bytes above `0x7F`.
    private func decodeASCII(at start: Int, count: Int) throws(PropertyListError) -> String {
        if count == 0 { return "" }
        try checkASCII(at: start, count: count)
        // The same bytes, checked ASCII above, copied straight into the new String's storage with no array in between.
        let content = UnsafeRawBufferPointer(rebasing: bytes[start..<(start + count)])
        return String(unsafeUninitializedCapacity: count) { buffer in
            UnsafeMutableRawBufferPointer(buffer).copyMemory(from: content)
            return count
        }
    }

    /// The first unpaired surrogate among `count` big-endian UTF-16 code units, with its offset.
    // Reads the big-endian code units in place with unaligned loads (a string may start at any offset); `readCount`
    // checked that `2 * count` bytes lie at `start`.
    private func firstUnpairedSurrogate(at start: Int, count: Int) -> (unit: UInt16, offset: Int)? {
        var index = 0
        while index < count {
            let unitOffset = start + 2 * index
            let unit = UInt16(bigEndian: bytes.loadUnaligned(fromByteOffset: unitOffset, as: UInt16.self))
            index += 1
            guard unit & 0xF800 == 0xD800 else { continue }
            guard unit < 0xDC00, index < count else { return (unit, unitOffset) }
            let next = UInt16(bigEndian: bytes.loadUnaligned(fromByteOffset: unitOffset + 2, as: UInt16.self))
            guard next & 0xFC00 == 0xDC00 else { return (unit, unitOffset) }
            index += 1
        }
        return nil
    }

    /// Decodes `count` big-endian UTF-16 code units, rejecting unpaired surrogates.
    private func decodeUTF16(at start: Int, count: Int) throws(PropertyListError) -> String {
        if count == 0 { return "" }
        if let failure = firstUnpairedSurrogate(at: start, count: count) {
            throw Self.error(.invalidUTF16(codeUnit: failure.unit), at: failure.offset)
        }
        let bytes = self.bytes
        // UTF-8 written straight into the new String's storage, read from the bytes in place: a code unit makes at most
        // 3 bytes (a pair of them, 4), so `count * 3` is room enough.
        return String(unsafeUninitializedCapacity: count * 3) { output in
            var written = 0
            var index = 0
            while index < count {
                let unitOffset = start + 2 * index
                var scalar = UInt32(UInt16(bigEndian: bytes.loadUnaligned(fromByteOffset: unitOffset, as: UInt16.self)))
                index += 1
                if scalar & 0xF800 == 0xD800 {
                    // Paired: checked above.
                    let next = UInt16(bigEndian: bytes.loadUnaligned(fromByteOffset: unitOffset + 2, as: UInt16.self))
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (UInt32(next) - 0xDC00)
                    index += 1
                }
                written += UTF8Encoding.encode(scalar, into: output, at: written)
            }
            return written
        }
    }
}

/// Writes Unicode scalars as UTF-8.
enum UTF8Encoding {
    /// Writes `scalar` (a valid Unicode scalar value) at `offset` and returns the bytes written
    /// (1 to 4); the buffer must have room for 4 bytes at `offset` when `scalar >= 0x10000`.
    // Writes into storage being initialized in place (a new String's, an array's), whose size the caller computed for
    // the worst case.
    @inline(__always)
    static func encode(_ scalar: UInt32, into output: UnsafeMutableBufferPointer<UInt8>, at offset: Int) -> Int {
        if scalar < 0x80 {
            output[offset] = UInt8(truncatingIfNeeded: scalar)
            return 1
        }
        if scalar < 0x800 {
            output[offset] = UInt8(truncatingIfNeeded: 0xC0 | (scalar >> 6))
            output[offset + 1] = UInt8(truncatingIfNeeded: 0x80 | (scalar & 0x3F))
            return 2
        }
        if scalar < 0x10000 {
            output[offset] = UInt8(truncatingIfNeeded: 0xE0 | (scalar >> 12))
            output[offset + 1] = UInt8(truncatingIfNeeded: 0x80 | ((scalar >> 6) & 0x3F))
            output[offset + 2] = UInt8(truncatingIfNeeded: 0x80 | (scalar & 0x3F))
            return 3
        }
        output[offset] = UInt8(truncatingIfNeeded: 0xF0 | (scalar >> 18))
        output[offset + 1] = UInt8(truncatingIfNeeded: 0x80 | ((scalar >> 12) & 0x3F))
        output[offset + 2] = UInt8(truncatingIfNeeded: 0x80 | ((scalar >> 6) & 0x3F))
        output[offset + 3] = UInt8(truncatingIfNeeded: 0x80 | (scalar & 0x3F))
        return 4
    }
}
