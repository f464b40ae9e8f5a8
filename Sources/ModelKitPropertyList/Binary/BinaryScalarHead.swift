#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The first bytes of one object of a binary property list: its marker and, for numbers,
/// dates and UIDs, its whole value (at most 17 bytes: a 16-byte integer's); a string's or
/// data's content follows it. Built in place, without allocating.
///
/// Every binary writer encodes through these constructors, so the encoding rules (Apple's
/// CFBinaryPList writer's) live in one place:
/// - integers take the smallest of 1, 2, 4 or 8 bytes; negative values always take 8, values
///   above `Int64.max` the 16-byte form;
/// - reals keep their 4- or 8-byte width; dates are 8-byte reals;
/// - UIDs take the smallest of 1, 2, 4 or 8 bytes;
/// - counts below 15 sit in the marker's low nibble, larger ones follow it as an integer.
///
/// ```swift
/// let head = BinaryScalarHead.integer(300)   // 0x11 0x01 0x2C
/// head.count                                 // 3
/// ```
package struct BinaryScalarHead {
    private var storage: (UInt64, UInt64, UInt64) = (0, 0, 0)
    /// The number of bytes.
    package private(set) var count = 0

    private init() {}

    /// The bytes, as three words (bytes past ``count`` are zero), for hashing.
    package var words: (UInt64, UInt64, UInt64) { storage }

    /// Calls `body` with the bytes.
    // Lends the head's bytes in place (its words), for one copy or comparison, with no array made.
    package func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        let count = self.count
        // The three words' bytes in memory order: the head is their first `count`.
        return try Swift.withUnsafeBytes(of: storage) { try body(UnsafeRawBufferPointer(start: $0.baseAddress, count: count)) }
    }

    private mutating func append(_ byte: UInt8) {
        let position = count
        // One byte stored at `position` of the words' memory (a head is at most 17 of its 24 bytes).
        Swift.withUnsafeMutableBytes(of: &storage) { $0[position] = byte }
        count += 1
    }

    /// The low `size` bytes (1 to 8) of `value`, most significant first, in one store: the bytes
    /// past them are zero, as the storage past ``count`` is, and a head's bytes stay within 17 of
    /// the storage's 24.
    @inline(__always)
    private mutating func appendBigEndian(_ value: UInt64, size: Int) {
        let bytes = (value << UInt64(64 - 8 * size)).bigEndian
        let position = count
        // One 8-byte store at `position`, which stays within the 24 bytes (see above). `bigEndian` puts the most
        // significant byte first in memory on any host (a byte swap on a little-endian one).
        Swift.withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: bytes, toByteOffset: position, as: UInt64.self) }
        count += size
    }

    /// A head of one byte, stored as the first byte of the storage's memory.
    private static func byte(_ byte: UInt8) -> BinaryScalarHead {
        var head = BinaryScalarHead()
        head.storage.0 = UInt64(byte).littleEndian
        head.count = 1
        return head
    }

    // MARK: Constructors

    /// The null object (`0x00`).
    package static var null: BinaryScalarHead { byte(BinaryPropertyListFormat.nullMarker) }

    /// A boolean (`0x08`, `0x09`).
    package static func bool(_ flag: Bool) -> BinaryScalarHead {
        byte(flag ? BinaryPropertyListFormat.trueMarker : BinaryPropertyListFormat.falseMarker)
    }

    /// An integer in the smallest width Apple's reader accepts.
    package static func integer(_ integer: PropertyListInteger) -> BinaryScalarHead {
        if integer.needsUnsigned128BitEncoding {
            var head = byte(BinaryPropertyListFormat.int128Marker)
            head.appendBigEndian(0, size: 8)
            head.appendBigEndian(integer.bitPattern, size: 8)
            return head
        }
        if integer.isNegative {
            var head = byte(BinaryPropertyListFormat.TypeNibble.integer << 4 | 3)
            head.appendBigEndian(integer.bitPattern, size: 8)
            return head
        }
        return unsigned(integer.bitPattern)
    }

    /// A non-negative integer object of 1, 2, 4 or 8 bytes.
    package static func unsigned(_ value: UInt64) -> BinaryScalarHead {
        let size = BinaryPropertyListFormat.byteWidth(value)
        var head = byte(BinaryPropertyListFormat.TypeNibble.integer << 4 | UInt8(size.trailingZeroBitCount))
        head.appendBigEndian(value, size: size)
        return head
    }

    /// A real of its own width.
    package static func real(_ real: PropertyListReal) -> BinaryScalarHead {
        if real.width == .single {
            var head = byte(BinaryPropertyListFormat.float32Marker)
            head.appendBigEndian(real.bits, size: 4)
            return head
        }
        var head = byte(BinaryPropertyListFormat.float64Marker)
        head.appendBigEndian(real.bits, size: 8)
        return head
    }

    /// A date: seconds since 2001 as an 8-byte real.
    package static func date(_ date: Date) -> BinaryScalarHead {
        var head = byte(BinaryPropertyListFormat.dateMarker)
        head.appendBigEndian(date.timeIntervalSinceReferenceDate.bitPattern, size: 8)
        return head
    }

    /// A keyed archive's object reference (`CF$UID`).
    package static func uid(_ uid: UInt64) -> BinaryScalarHead {
        let size = BinaryPropertyListFormat.byteWidth(uid)
        var head = byte(BinaryPropertyListFormat.TypeNibble.uid << 4 | UInt8(size - 1))
        head.appendBigEndian(uid, size: size)
        return head
    }

    /// A marker of type `nibble` announcing `count` units (a string's, data's or container's),
    /// with the count in the low nibble, or `0xF` and an integer object.
    @inline(__always)
    package static func marker(_ nibble: UInt8, count: Int) -> BinaryScalarHead {
        if count < 15 { return byte(nibble << 4 | UInt8(count)) }
        // The extended count: an integer object (as `unsigned(_:)` writes it) after the marker.
        let size = BinaryPropertyListFormat.byteWidth(UInt64(count))
        var head = byte(nibble << 4 | BinaryPropertyListFormat.extendedCount)
        head.append(BinaryPropertyListFormat.TypeNibble.integer << 4 | UInt8(size.trailingZeroBitCount))
        head.appendBigEndian(UInt64(count), size: size)
        return head
    }

    // MARK: Whole values

    /// Calls `body` with the head and content of a string: ASCII (`0x5n`) when every byte is below
    /// `0x80`, otherwise UTF-16BE (`0x6n`).
    // Hands `body` the string's own UTF-8 in place when it is ASCII (no copy), else its UTF-16BE units from one array.
    package static func withString<R>(_ string: String, _ body: (BinaryScalarHead, UnsafeRawBufferPointer) throws -> R)
        rethrows -> R
    {
        var string = string
        // The string's UTF-8 in place (`withUTF8` makes a bridged string contiguous first).
        let ascii: R? = try string.withUTF8 { utf8 in
            let bytes = UnsafeRawBufferPointer(utf8)
            guard BinaryPropertyListOutput.isASCII(bytes) else { return nil }
            return try body(marker(BinaryPropertyListFormat.TypeNibble.asciiString, count: bytes.count), bytes)
        }
        if let ascii { return ascii }
        var units: [UInt8] = []
        units.reserveCapacity(string.utf8.count * 2)
        for unit in string.utf16 {
            units.append(UInt8(truncatingIfNeeded: unit >> 8))
            units.append(UInt8(truncatingIfNeeded: unit))
        }
        let head = marker(BinaryPropertyListFormat.TypeNibble.utf16String, count: units.count / 2)
        // The UTF-16BE units lent in place.
        return try units.withUnsafeBytes { try body(head, $0) }
    }

    /// Calls `body` with the head and content of data.
    // Hands `body` the data's bytes in place, for one copy into the output.
    package static func withData<R>(_ data: Data, _ body: (BinaryScalarHead, UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try data.withUnsafeBytes { try body(marker(BinaryPropertyListFormat.TypeNibble.data, count: $0.count), $0) }
    }

    /// Calls `body` with the head and content of a scalar value; nil for arrays and dictionaries,
    /// which are objects of references, not scalars.
    // The content in place, as `withString` and `withData` lend it; an empty buffer for values without content.
    package static func withScalar<R>(_ value: PropertyListValue, _ body: (BinaryScalarHead, UnsafeRawBufferPointer) throws -> R)
        rethrows -> R?
    {
        // No content: an empty buffer, so no array is made.
        let none = UnsafeRawBufferPointer(start: nil, count: 0)
        switch value {
        case .string(let string): return try withString(string, body)
        case .integer(let integer): return try body(.integer(integer), none)
        case .real(let real): return try body(.real(real), none)
        case .date(let date): return try body(.date(date), none)
        case .uid(let uid): return try body(.uid(uid), none)
        case .bool(let flag): return try body(.bool(flag), none)
        case .null: return try body(.null, none)
        case .data(let data): return try withData(data, body)
        case .array, .dictionary:
            return nil
        }
    }
}
