#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The bytes of a binary property list being written: scalar objects, container markers, the
/// offset table and the trailer, encoded the way Apple's CFBinaryPList writer encodes them.
///
/// Both binary writers (``BinaryPropertyListWriter`` for any value, ``ArchiveBinaryWriter`` for
/// keyed archives) number objects their own way and append every byte through this type.
///
/// ```swift
/// var output = BinaryPropertyListOutput()
/// output.appendScalar(.string("$null"))
/// ```
package struct BinaryPropertyListOutput {
    /// The bytes so far, starting with the `bplist00` header.
    package private(set) var bytes: [UInt8] = BinaryPropertyListFormat.header

    /// An output holding the header.
    package init() {}

    /// The number of bytes so far: the offset of the next object.
    package var count: Int { bytes.count }

    package mutating func reserveCapacity(_ extra: Int) {
        bytes.reserveCapacity(bytes.count + extra)
    }

    /// Writes a scalar object (anything but an array or a dictionary, which have no scalar form).
    package mutating func appendScalar(_ value: PropertyListValue) {
        switch value {
        case .string(let string):
            appendString(string)
        case .integer(let integer):
            appendInteger(integer)
        case .real(let real):
            if real.width == .single {
                bytes.append(BinaryPropertyListFormat.float32Marker)
                appendBigEndian(real.bits, size: 4)
            } else {
                bytes.append(BinaryPropertyListFormat.float64Marker)
                appendBigEndian(real.bits, size: 8)
            }
        case .date(let date):
            bytes.append(BinaryPropertyListFormat.dateMarker)
            appendBigEndian(date.timeIntervalSinceReferenceDate.bitPattern, size: 8)
        case .data(let data):
            appendMarker(BinaryPropertyListFormat.TypeNibble.data, count: data.count)
            bytes.append(contentsOf: data)
        case .uid(let uid):
            let size = BinaryPropertyListFormat.byteWidth(uid)
            bytes.append(BinaryPropertyListFormat.TypeNibble.uid << 4 | UInt8(size - 1))
            appendBigEndian(uid, size: size)
        case .bool(let flag):
            bytes.append(flag ? BinaryPropertyListFormat.trueMarker : BinaryPropertyListFormat.falseMarker)
        case .null:
            bytes.append(BinaryPropertyListFormat.nullMarker)
        case .array, .dictionary:
            // Containers are objects of their own, written with `appendContainer`.
            break
        }
    }

    /// Writes an array or dictionary object: its marker and its references.
    ///
    /// A concrete slice, not a generic collection: the keyed archiver calls this from another
    /// module, where a generic would run unspecialised (a tenth of an archive's writing time).
    package mutating func appendContainer(isDictionary: Bool, references: ArraySlice<Int>, referenceSize: Int) {
        typealias Nibble = BinaryPropertyListFormat.TypeNibble
        let count = isDictionary ? references.count / 2 : references.count
        appendMarker(isDictionary ? Nibble.dictionary : Nibble.array, count: count)
        switch referenceSize {
        case 1:
            bytes.append(contentsOf: references.lazy.map { UInt8(truncatingIfNeeded: $0) })
        case 2:
            for reference in references {
                bytes.append(UInt8(truncatingIfNeeded: reference >> 8))
                bytes.append(UInt8(truncatingIfNeeded: reference))
            }
        default:
            for reference in references {
                appendBigEndian(UInt64(reference), size: referenceSize)
            }
        }
    }

    /// Writes the offset table and the trailer; the top object is object 0.
    package mutating func appendTrailer(offsets: [Int], referenceSize: Int) {
        let tableStart = bytes.count
        let offsetSize = BinaryPropertyListFormat.byteWidth(UInt64(tableStart))
        bytes.reserveCapacity(bytes.count + offsets.count * offsetSize + 32)
        for offset in offsets {
            appendBigEndian(UInt64(offset), size: offsetSize)
        }
        bytes.append(contentsOf: repeatElement(0, count: 6))
        bytes.append(UInt8(offsetSize))
        bytes.append(UInt8(referenceSize))
        appendBigEndian(UInt64(offsets.count), size: 8)
        appendBigEndian(0, size: 8)
        appendBigEndian(UInt64(tableStart), size: 8)
    }

    /// Strings are ASCII (`0x5n`) when every byte is below `0x80`, otherwise UTF-16BE (`0x6n`).
    private mutating func appendString(_ string: String) {
        var string = string
        let ascii = string.withUTF8 { Self.isASCII(UnsafeRawBufferPointer($0)) }
        if ascii {
            appendMarker(BinaryPropertyListFormat.TypeNibble.asciiString, count: string.utf8.count)
            bytes.append(contentsOf: string.utf8)
            return
        }
        appendMarker(BinaryPropertyListFormat.TypeNibble.utf16String, count: string.utf16.count)
        for unit in string.utf16 {
            bytes.append(UInt8(truncatingIfNeeded: unit >> 8))
            bytes.append(UInt8(truncatingIfNeeded: unit))
        }
    }

    /// An integer in the smallest width Apple's reader accepts: negative values take 8 bytes,
    /// values above `Int64.max` the 16-byte form.
    private mutating func appendInteger(_ integer: PropertyListInteger) {
        if integer.needsUnsigned128BitEncoding {
            bytes.append(BinaryPropertyListFormat.int128Marker)
            appendBigEndian(0, size: 8)
            appendBigEndian(integer.bitPattern, size: 8)
        } else if integer.isNegative {
            bytes.append(BinaryPropertyListFormat.TypeNibble.integer << 4 | 3)
            appendBigEndian(integer.bitPattern, size: 8)
        } else {
            appendUnsigned(integer.bitPattern)
        }
    }

    /// A non-negative integer object of 1, 2, 4 or 8 bytes.
    private mutating func appendUnsigned(_ value: UInt64) {
        let size = BinaryPropertyListFormat.byteWidth(value)
        let exponent: UInt8 = size == 1 ? 0 : size == 2 ? 1 : size == 4 ? 2 : 3
        bytes.append(BinaryPropertyListFormat.TypeNibble.integer << 4 | exponent)
        appendBigEndian(value, size: size)
    }

    /// A marker with its count in the low nibble, or `0xF` and an integer object.
    private mutating func appendMarker(_ nibble: UInt8, count: Int) {
        if count < 15 {
            bytes.append(nibble << 4 | UInt8(count))
        } else {
            bytes.append(nibble << 4 | BinaryPropertyListFormat.extendedCount)
            appendUnsigned(UInt64(count))
        }
    }

    /// The low `size` bytes of `value`, most significant first.
    private mutating func appendBigEndian(_ value: UInt64, size: Int) {
        // Byte by byte: appending a slice of the value's bytes went through the generic
        // slice-copying path, a call per byte.
        var shift = (size - 1) * 8
        while shift >= 0 {
            bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
            shift -= 8
        }
    }

    /// Whether every byte is below `0x80`.
    package static func isASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var index = 0
        let count = bytes.count
        while index + 8 <= count {
            if bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 {
                return false
            }
            index += 8
        }
        while index < count {
            if bytes[index] >= 0x80 { return false }
            index += 1
        }
        return true
    }
}
