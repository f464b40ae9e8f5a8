#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The bytes of a binary property list being written: scalar objects, container markers, the
/// offset table and the trailer, encoded the way Apple's CFBinaryPList writer encodes them (see
/// ``BinaryScalarHead``).
///
/// ``BinaryPropertyListBuilder`` numbers objects and appends their bytes through this type.
/// Each object is appended in one or two bulk copies (its head, then its content), and a
/// container's references in one pass over the output's memory, never byte by byte.
///
/// ```swift
/// var output = BinaryPropertyListOutput()
/// output.appendScalar(.string("$null"))
/// ```
package struct BinaryPropertyListOutput: ~Copyable {
    /// The bytes so far, starting with the `bplist00` header, in memory of its own: appending
    /// an object is one capacity check and a copy, with none of an array's uniqueness checks.
    // See above: grown by `grow(to:)`, freed in `deinit`.
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// The number of bytes so far: the offset of the next object.
    package private(set) var count: Int

    /// An output holding the header.
    package init() {
        capacity = 4_096
        // The first block, grown by `grow(to:)`.
        base = .allocate(capacity: capacity)
        count = BinaryPropertyListFormat.header.count
        // The header copied in from the array's storage.
        BinaryPropertyListFormat.header.withUnsafeBufferPointer { header in
            base.initialize(from: header.baseAddress!, count: header.count)
        }
    }

    deinit {
        base.deallocate()
    }

    /// The bytes written.
    package var bytes: [UInt8] {
        // The bytes written, copied once into the array returned.
        Array(UnsafeBufferPointer(start: base, count: count))
    }

    package mutating func reserveCapacity(_ extra: Int) {
        if count + extra > capacity { grow(to: count + extra) }
    }

    /// Moves the bytes to memory of at least `minimum` bytes, growing geometrically.
    private mutating func grow(to minimum: Int) {
        let newCapacity = max(minimum, capacity * 2)
        // Grown by hand: the bytes are copied into a larger block before the old one is freed.
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.initialize(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    /// Appends raw bytes.
    // Raw bytes from the caller's memory in place, copied in one go after one capacity check.
    private mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        if count + bytes.count > capacity { grow(to: count + bytes.count) }
        UnsafeMutableRawPointer(base + count).copyMemory(from: source, byteCount: bytes.count)
        count += bytes.count
    }

    /// Writes an object: its head, then its content (a string's or data's bytes), after one
    /// capacity check. The head goes as its three words, whose bytes past its count the content
    /// (or the next object) overwrites: the room checked covers them.
    // The content is the caller's memory in place (see `BinaryScalarHead.withScalar`); one store of the head's words
    // and one copy.
    @inline(__always)
    package mutating func append(_ head: BinaryScalarHead, content: UnsafeRawBufferPointer) {
        let total = head.count + content.count
        let room = max(total, MemoryLayout<(UInt64, UInt64, UInt64)>.size)
        if count + room > capacity { grow(to: count + room) }
        let start = UnsafeMutableRawPointer(base + count)
        start.storeBytes(of: head.words, as: (UInt64, UInt64, UInt64).self)
        if let source = content.baseAddress, !content.isEmpty {
            (start + head.count).copyMemory(from: source, byteCount: content.count)
        }
        count += total
    }

    /// Whether the bytes at `offset` are `head` followed by `content` (the caller knows that the
    /// object there has their total length).
    // Compares in place against the bytes written for an entry: the caller knows an object of this total length lies at
    // `offset`.
    package func matches(at offset: Int, _ head: BinaryScalarHead, content: UnsafeRawBufferPointer) -> Bool {
        let written = UnsafeRawBufferPointer(start: base + offset, count: head.count + content.count)
        return head.withUnsafeBytes { head in
            ExactString.bytesEqual(UnsafeRawBufferPointer(rebasing: written[..<head.count]), head)
        } && ExactString.bytesEqual(UnsafeRawBufferPointer(rebasing: written[head.count...]), content)
    }

    /// Writes a scalar object (anything but an array or a dictionary, which have no scalar form).
    package mutating func appendScalar(_ value: PropertyListValue) {
        BinaryScalarHead.withScalar(value) { head, content in append(head, content: content) }
    }

    /// Writes an array or dictionary object: its marker and its references (a dictionary's keys,
    /// then its values), each `referenceSize` bytes, big-endian.
    // The builder's references, in place.
    package mutating func appendContainer(
        isDictionary: Bool, references: UnsafeBufferPointer<Int32>, referenceSize: Int
    ) {
        typealias Nibble = BinaryPropertyListFormat.TypeNibble
        let count = isDictionary ? references.count / 2 : references.count
        append(.marker(isDictionary ? Nibble.dictionary : Nibble.array, count: count), content: .init(start: nil, count: 0))
        // As unsigned numbers, in place (a lazy map cost some four instructions a reference).
        // `Int32` and `UInt32` share size and alignment, and object numbers are not negative: the references are read
        // as unsigned numbers in place, with no conversion pass.
        references.withMemoryRebound(to: UInt32.self) { appendBigEndian($0, size: referenceSize) }
    }

    /// Writes the offset table and the trailer.
    // The builder's offsets, in place.
    package mutating func appendTrailer(offsets: UnsafeBufferPointer<Int>, topObject: Int, referenceSize: Int) {
        let tableStart = count
        let offsetSize = BinaryPropertyListFormat.byteWidth(UInt64(tableStart))
        reserveCapacity(offsets.count * offsetSize + 32)
        // `Int` and `UInt` share their layout, and offsets are not negative: read as unsigned numbers in place.
        offsets.withMemoryRebound(to: UInt.self) { appendBigEndian($0, size: offsetSize) }
        let trailer: [UInt8] = [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(referenceSize)]
        // The trailer's first eight bytes, copied in one go.
        trailer.withUnsafeBytes { append($0) }
        appendBigEndian(CollectionOfOne(UInt64(offsets.count)), size: 8)
        appendBigEndian(CollectionOfOne(UInt64(topObject)), size: 8)
        appendBigEndian(CollectionOfOne(UInt64(tableStart)), size: 8)
    }

    /// Appends each value's low `size` bytes, most significant first, in one pass.
    private mutating func appendBigEndian<Values: Collection>(_ values: Values, size: Int)
    where Values.Element: FixedWidthInteger & UnsignedInteger {
        reserveCapacity(values.count * size)
        // Stores big-endian values at any offset, into the room reserved above.
        let output = UnsafeMutableRawPointer(base)
        var position = count
        switch size {
        case 1:
            for value in values {
                base[position] = UInt8(truncatingIfNeeded: value)
                position += 1
            }
        case 2:
            for value in values {
                output.storeBytes(of: UInt16(truncatingIfNeeded: value).bigEndian, toByteOffset: position, as: UInt16.self)
                position += 2
            }
        case 4:
            for value in values {
                output.storeBytes(of: UInt32(truncatingIfNeeded: value).bigEndian, toByteOffset: position, as: UInt32.self)
                position += 4
            }
        default:
            for value in values {
                var shift = (size - 1) * 8
                while shift >= 0 {
                    base[position] = UInt8(truncatingIfNeeded: UInt64(value) >> UInt64(shift))
                    position += 1
                    shift -= 8
                }
            }
        }
        count = position
    }

    /// Whether every byte is below `0x80`.
    // The bytes in place, tested eight at a time with unaligned loads: a string's UTF-8 may start at any offset.
    @inline(__always)
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
