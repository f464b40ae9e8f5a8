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

    /// Decodes the object that starts at `start` (inside the object area).
    func decodeObject(at start: Int) throws(PropertyListError) -> DecodedObject {
        typealias Nibble = BinaryPropertyListFormat.TypeNibble
        let marker = bytes[start]
        let low = marker & 0x0F
        switch marker >> 4 {
        case Nibble.simple:
            switch marker {
            case BinaryPropertyListFormat.nullMarker: return .scalar(.null, length: 0)
            case BinaryPropertyListFormat.falseMarker: return .scalar(.bool(false), length: 0)
            case BinaryPropertyListFormat.trueMarker: return .scalar(.bool(true), length: 0)
            default: throw Self.error(.invalidMarker(marker), at: start)
            }

        case Nibble.integer:
            guard low <= 4 else { throw Self.error(.invalidMarker(marker), at: start) }
            let size = 1 << Int(low)
            try requireBytes(size, after: start, marker: marker)
            return .scalar(.integer(try readInteger(at: start + 1, size: size)), length: 0)

        case Nibble.real:
            switch marker {
            case BinaryPropertyListFormat.float32Marker:
                try requireBytes(4, after: start, marker: marker)
                let bits = Self.readUInt(bytes, at: start + 1, size: 4)
                return .scalar(.real(PropertyListReal(width: .single, bits: bits)), length: 0)
            case BinaryPropertyListFormat.float64Marker:
                try requireBytes(8, after: start, marker: marker)
                let bits = Self.readUInt(bytes, at: start + 1, size: 8)
                return .scalar(.real(PropertyListReal(width: .double, bits: bits)), length: 0)
            default:
                throw Self.error(.invalidMarker(marker), at: start)
            }

        case Nibble.date:
            guard marker == BinaryPropertyListFormat.dateMarker else {
                throw Self.error(.invalidMarker(marker), at: start)
            }
            try requireBytes(8, after: start, marker: marker)
            let seconds = Double(bitPattern: Self.readUInt(bytes, at: start + 1, size: 8))
            return .scalar(.date(Date(timeIntervalSinceReferenceDate: seconds)), length: 0)

        case Nibble.data:
            let (count, contentStart) = try readCount(marker: marker, at: start, unitSize: 1)
            guard count <= limits.maxDataLength else {
                throw Self.error(
                    .limitExceeded(.maxDataLength, limit: limits.maxDataLength, found: UInt64(count)), at: start)
            }
            let content = UnsafeRawBufferPointer(rebasing: bytes[contentStart..<(contentStart + count)])
            return .scalar(.data(Data(content)), length: count)

        case Nibble.asciiString:
            let (count, contentStart) = try readCount(marker: marker, at: start, unitSize: 1)
            try checkStringLength(count, at: start)
            return .scalar(.string(try decodeASCII(at: contentStart, count: count)), length: count)

        case Nibble.utf16String:
            let (count, contentStart) = try readCount(marker: marker, at: start, unitSize: 2)
            try checkStringLength(count, at: start)
            return .scalar(.string(try decodeUTF16(at: contentStart, count: count)), length: count)

        case Nibble.uid:
            let size = Int(low) + 1
            try requireBytes(size, after: start, marker: marker)
            if size > 8 {
                // Apple writes at most 4 bytes; longer UIDs must still fit in 64 bits.
                for index in (start + 1)..<(start + 1 + size - 8) where bytes[index] != 0 {
                    throw Self.error(.uidOutOfRange, at: start)
                }
                return .scalar(.uid(Self.readUInt(bytes, at: start + 1 + size - 8, size: 8)), length: 0)
            }
            return .scalar(.uid(Self.readUInt(bytes, at: start + 1, size: size)), length: 0)

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

    /// Reads the count in a marker's low nibble, or the integer object after it when the nibble is
    /// `0xF`, and checks that `count * unitSize` bytes follow before the offset table. Returns the
    /// count and where the content starts.
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
    private func requireBytes(_ count: Int, after start: Int, marker: UInt8) throws(PropertyListError) {
        let available = offsetTableStart - start - 1
        guard count <= available else {
            throw Self.error(.truncatedObject(marker: marker, needed: UInt64(count), available: available), at: start)
        }
    }

    private func checkStringLength(_ count: Int, at start: Int) throws(PropertyListError) {
        guard count <= limits.maxStringLength else {
            throw Self.error(
                .limitExceeded(.maxStringLength, limit: limits.maxStringLength, found: UInt64(count)), at: start)
        }
    }

    private func checkCollectionCount(_ count: Int, at start: Int) throws(PropertyListError) {
        guard count <= limits.maxCollectionCount else {
            throw Self.error(
                .limitExceeded(.maxCollectionCount, limit: limits.maxCollectionCount, found: UInt64(count)),
                at: start)
        }
    }

    /// Reads a 1-, 2-, 4-, 8- or 16-byte integer. Sizes up to 4 are unsigned, 8 is signed, and 16
    /// is a signed 128-bit value that must fit in the signed or unsigned 64-bit range.
    private func readInteger(at offset: Int, size: Int) throws(PropertyListError) -> PropertyListInteger {
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

    /// Decodes `count` ASCII bytes, rejecting bytes above `0x7F`.
    private func decodeASCII(at start: Int, count: Int) throws(PropertyListError) -> String {
        if count == 0 { return "" }
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
        return String(unsafeUninitializedCapacity: count) { buffer in
            UnsafeMutableRawBufferPointer(buffer).copyMemory(from: content)
            return count
        }
    }

    /// Decodes `count` big-endian UTF-16 code units, rejecting unpaired surrogates.
    private func decodeUTF16(at start: Int, count: Int) throws(PropertyListError) -> String {
        if count == 0 { return "" }
        var failure: (unit: UInt16, offset: Int)?
        let bytes = self.bytes
        let string = String(unsafeUninitializedCapacity: count * 3) { output in
            var written = 0
            var index = 0
            while index < count {
                let unitOffset = start + 2 * index
                let unit = UInt16(bigEndian: bytes.loadUnaligned(fromByteOffset: unitOffset, as: UInt16.self))
                index += 1
                var scalar = UInt32(unit)
                if unit & 0xF800 == 0xD800 {
                    guard unit < 0xDC00, index < count else {
                        failure = (unit, unitOffset)
                        return 0
                    }
                    let next = UInt16(
                        bigEndian: bytes.loadUnaligned(fromByteOffset: unitOffset + 2, as: UInt16.self))
                    guard next & 0xFC00 == 0xDC00 else {
                        failure = (unit, unitOffset)
                        return 0
                    }
                    index += 1
                    scalar = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(next) - 0xDC00)
                }
                written += UTF8Encoding.encode(scalar, into: output, at: written)
            }
            return written
        }
        if let failure {
            throw Self.error(.invalidUTF16(codeUnit: failure.unit), at: failure.offset)
        }
        return string
    }
}

/// Writes Unicode scalars as UTF-8.
enum UTF8Encoding {
    /// Writes `scalar` (a valid Unicode scalar value) at `offset` and returns the bytes written
    /// (1 to 4); the buffer must have room for 4 bytes at `offset` when `scalar >= 0x10000`.
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
