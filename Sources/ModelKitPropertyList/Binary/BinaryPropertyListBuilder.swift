#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Numbers the objects of a binary property list and writes their bytes: what both binary
/// writers share (``BinaryPropertyListWriter`` for any value, the keyed archiver for archives).
///
/// - Scalars are written as soon as they are numbered, each distinct value once
///   (``uniqueScalar(_:content:)``): two scalars are the same when their encoded bytes are, so
///   uniquing is exact (strings by bytes, reals by width and bit pattern, and an integer never
///   matches a real or a date).
/// - Containers get their number first (``reserveObject()``) and their references when known;
///   they are written by ``finish(topObject:)``, when the object count, and so the reference
///   size, is known. A caller may also reserve a number for a scalar whose value it only knows
///   at the end (``writeScalar(_:as:)``), as the archiver does for references to entries it may
///   renumber.
///
/// Placement differs from Apple's writer (which writes objects in number order): scalars come
/// first, containers after them. The offset table makes placement free, so readers see the same
/// objects; it saves a pass and a copy of every scalar.
///
/// ```swift
/// var builder = BinaryPropertyListBuilder()
/// let root = builder.reserveObject()
/// let key = builder.uniqueString("name").object
/// let value = builder.uniqueString("Ada").object
/// builder.setContainer(root, isDictionary: true, references: [key, value])
/// let bytes = builder.finish(topObject: root)
/// ```
package struct BinaryPropertyListBuilder: ~Copyable {
    /// A scalar numbered by ``uniqueScalar(_:content:)``: its object, and its position among the
    /// distinct scalars (0, 1, 2, ... in order of first appearance), for callers that keep facts
    /// per distinct value.
    package struct Scalar {
        package let object: Int32
        package let index: Int
    }

    /// A container's references: `references[start ..< start + count]`.
    private struct Container {
        let object: Int32
        let isDictionary: Bool
        let start: Int
        let count: Int
    }

    /// One distinct scalar: where its bytes are, and its hash; for a scalar of at most 16 bytes,
    /// the bytes themselves (zero-padded), which a lookup compares instead of the output's.
    private struct Entry {
        let hash: UInt64
        let offset: Int
        let length: Int
        let object: Int32
        let short: (UInt64, UInt64)
    }

    private var output = BinaryPropertyListOutput()
    /// The offset of each object; containers (and scalars written late) get theirs when written.
    private var offsets = BinaryPropertyListBuffer<Int>()
    private var containers = BinaryPropertyListBuffer<Container>()
    private var references = BinaryPropertyListBuffer<Int32>()
    /// Open addressing over `entries`: per bucket, the hash's high 32 bits, then the entry
    /// number + 1 in the low 32 bits; 0 is empty. At most half full. Both in memory of their
    /// own, read for every scalar written (arrays checked uniqueness and bounds on each access).
    // See above: probed for every scalar written, with no array uniqueness or bounds check; freed in `deinit`.
    private var buckets: UnsafeMutablePointer<UInt64>
    private var bucketMask = 63
    // Memory of its own like `buckets`: read for every candidate a probe meets.
    private var entries: UnsafeMutablePointer<Entry>
    private var entryCount = 0
    private var entryCapacity = 64
    /// A per-process random seed: the values come from the program, but a seeded hash keeps
    /// crafted strings from forcing collisions.
    private let seed = BinaryPropertyListBuilder.processSeed

    private static let processSeed: UInt64 = {
        var hasher = Hasher()
        hasher.combine(0x6270_6C69_7374)
        return UInt64(UInt(bitPattern: hasher.finalize()))
    }()

    /// An empty property list (the header only).
    package init() {
        // Both tables, freed in `deinit`; the buckets start empty (zero), the entries uninitialized until made.
        buckets = .allocate(capacity: bucketMask + 1)
        buckets.initialize(repeating: 0, count: bucketMask + 1)
        entries = .allocate(capacity: entryCapacity)
    }

    deinit {
        // Entries are plain values: nothing to deinitialize.
        buckets.deallocate()
        entries.deallocate()
    }

    /// The number of objects numbered so far.
    package var objectCount: Int { offsets.count }

    /// The bytes written so far (scalars only, until ``finish(topObject:)``).
    package var byteCount: Int { output.count }

    // MARK: Numbering

    /// Numbers an object whose bytes come later: a container, or a scalar written with
    /// ``writeScalar(_:as:)``.
    @inline(__always)
    package mutating func reserveObject() -> Int32 {
        offsets.append(0)
        return Int32(truncatingIfNeeded: offsets.count - 1)
    }

    /// Writes a scalar for an object numbered by ``reserveObject()``, not uniqued.
    package mutating func writeScalar(_ head: BinaryScalarHead, as object: Int32) {
        offsets[Int(object)] = output.count
        // No content: an empty buffer, so no array is made.
        output.append(head, content: UnsafeRawBufferPointer(start: nil, count: 0))
    }

    /// The scalar `head` + `content`, written and numbered the first time it is seen.
    // The content in place (a string's UTF-8, data's bytes), borrowed for the call: hashed, compared and copied into
    // the output with no array made.
    package mutating func uniqueScalar(_ head: BinaryScalarHead, content: UnsafeRawBufferPointer) -> Scalar {
        let length = head.count + content.count
        // Numbers, booleans, UIDs and short strings (most of an archive's scalars) are compared
        // and hashed as two words; longer scalars by their bytes.
        let short = length <= 16 ? Self.shortBytes(head, content) : (0, 0)
        let hash = length <= 16 ? Self.hash(short, seed: seed) : Self.hash(head, content, seed: seed)
        let tag = hash & 0xFFFF_FFFF_0000_0000
        var bucket = Int(truncatingIfNeeded: hash) & bucketMask
        while true {
            let stored = buckets[bucket]
            if stored == 0 { break }
            if stored & 0xFFFF_FFFF_0000_0000 == tag {
                // A bucket holds only numbers of entries already made.
                let index = Int(truncatingIfNeeded: stored & 0xFFFF_FFFF) - 1
                // A bucket holds only numbers of entries already made (see above), so `index < entryCount`.
                let entry = entries + index
                if entry.pointee.length == length
                    && (length <= 16
                        ? entry.pointee.short == short : output.matches(at: entry.pointee.offset, head, content: content))
                {
                    return Scalar(object: entry.pointee.object, index: index)
                }
            }
            bucket = (bucket + 1) & bucketMask
        }
        let object = Int32(truncatingIfNeeded: offsets.count)
        offsets.append(output.count)
        if entryCount == entryCapacity { growEntries() }
        // Room was made on the line above (`growEntries`).
        (entries + entryCount).initialize(
            to: Entry(hash: hash, offset: output.count, length: length, object: object, short: short))
        entryCount += 1
        output.append(head, content: content)
        buckets[bucket] = tag | UInt64(entryCount)
        if entryCount * 2 > bucketMask + 1 { grow() }
        return Scalar(object: object, index: entryCount - 1)
    }

    /// A scalar without content (a number, a boolean, a date, a UID), written once.
    package mutating func uniqueScalar(_ head: BinaryScalarHead) -> Scalar {
        // No content: an empty buffer, so no array is made.
        uniqueScalar(head, content: UnsafeRawBufferPointer(start: nil, count: 0))
    }

    /// A string, written once per distinct value. An ASCII string (the common case) is looked
    /// up from its bytes here, without the layers of closures `withString` goes through.
    package mutating func uniqueString(_ string: String) -> Scalar {
        // The UTF-8 in place, borrowed: `withUTF8` mutates, and its copy of the string cost a
        // retain and a release. (A string without contiguous UTF-8, bridged, goes the long way.)
        let ascii: Scalar?? = string.utf8.withContiguousStorageIfAvailable { utf8 in
            let bytes = UnsafeRawBufferPointer(utf8)
            guard BinaryPropertyListOutput.isASCII(bytes) else { return nil }
            return uniqueScalar(.marker(BinaryPropertyListFormat.TypeNibble.asciiString, count: bytes.count), content: bytes)
        }
        if case .some(.some(let scalar)) = ascii { return scalar }
        return BinaryScalarHead.withString(string) { head, content in uniqueScalar(head, content: content) }
    }

    /// Data, written once per distinct value.
    package mutating func uniqueData(_ data: Data) -> Scalar {
        BinaryScalarHead.withData(data) { head, content in uniqueScalar(head, content: content) }
    }

    /// A scalar value, written once per distinct value; nil for arrays and dictionaries.
    package mutating func uniqueScalar(_ value: PropertyListValue) -> Scalar? {
        BinaryScalarHead.withScalar(value) { head, content in uniqueScalar(head, content: content) }
    }

    /// Sets aside `count` references for the container `object` (numbered by
    /// ``reserveObject()``); fill them with ``setReference(_:to:)`` from the position returned.
    package mutating func reserveContainer(_ object: Int32, isDictionary: Bool, count: Int) -> Int {
        let start = references.count
        references.append(repeating: 0, count: count)
        containers.append(Container(object: object, isDictionary: isDictionary, start: start, count: count))
        return start
    }

    /// Sets the reference at `position` (of ``reserveContainer(_:isDictionary:count:)``).
    package mutating func setReference(_ position: Int, to object: Int32) {
        references[position] = object
    }

    /// Gives the container `object` its references (a dictionary's keys, then its values).
    // The references in place in the caller's memory (its array's storage or a buffer), copied in one go.
    package mutating func setContainer(_ object: Int32, isDictionary: Bool, references: UnsafeBufferPointer<Int32>) {
        let start = self.references.count
        containers.append(Container(object: object, isDictionary: isDictionary, start: start, count: references.count))
        self.references.append(references)
    }

    /// Gives the dictionary `object` its keys and values (each side's references in order),
    /// copied in place without joining them first.
    // Both sides in place in the caller's memory, each copied in one go, without joining them first.
    @inline(__always)
    package mutating func setDictionary(_ object: Int32, keys: UnsafeBufferPointer<Int32>, values: UnsafeBufferPointer<Int32>) {
        let start = references.count
        containers.append(Container(object: object, isDictionary: true, start: start, count: keys.count + values.count))
        references.append(keys)
        references.append(values)
    }

    /// Numbers a container whose references are known.
    // The references in place in the caller's memory, as `setContainer`.
    package mutating func addContainer(isDictionary: Bool, references: UnsafeBufferPointer<Int32>) -> Int32 {
        let object = reserveObject()
        setContainer(object, isDictionary: isDictionary, references: references)
        return object
    }

    // MARK: Finishing

    /// Writes the containers, the offset table and the trailer, and returns the bytes.
    package mutating func finish(topObject: Int32) -> [UInt8] {
        let referenceSize = BinaryPropertyListFormat.byteWidth(UInt64(offsets.count))
        output.reserveCapacity(containers.count * 3 + references.count * referenceSize + offsets.count * 4 + 40)
        // The references and the containers lent in place for the one pass that writes every container.
        references.withUnsafeBufferPointer { references in
            containers.withUnsafeBufferPointer { containers in
                for container in containers {
                    offsets[Int(container.object)] = output.count
                    output.appendContainer(
                        isDictionary: container.isDictionary,
                        // The container's references: a slice of the buffer lent above, passed without a copy.
                        references: UnsafeBufferPointer(rebasing: references[container.start..<(container.start + container.count)]),
                        referenceSize: referenceSize)
                }
            }
        }
        // The offsets lent in place for the offset table.
        offsets.withUnsafeBufferPointer { offsets in
            output.appendTrailer(offsets: offsets, topObject: Int(topObject), referenceSize: referenceSize)
        }
        return output.bytes
    }

    // MARK: Hashing

    /// Doubles the buckets and re-places every entry by its stored hash.
    private mutating func grow() {
        let count = (bucketMask + 1) * 2
        buckets.deallocate()
        // Twice the buckets, refilled from the entries' stored hashes: the old ones held nothing else.
        buckets = .allocate(capacity: count)
        buckets.initialize(repeating: 0, count: count)
        bucketMask = count - 1
        for index in 0..<entryCount {
            let hash = entries[index].hash
            var bucket = Int(truncatingIfNeeded: hash) & bucketMask
            while buckets[bucket] != 0 { bucket = (bucket + 1) & bucketMask }
            buckets[bucket] = hash & 0xFFFF_FFFF_0000_0000 | UInt64(index + 1)
        }
    }

    /// Doubles the room for entries.
    private mutating func growEntries() {
        let newCapacity = entryCapacity * 2
        // Grown by hand: the plain entries are moved into a block twice the size.
        let newEntries = UnsafeMutablePointer<Entry>.allocate(capacity: newCapacity)
        newEntries.moveInitialize(from: entries, count: entryCount)
        entries.deallocate()
        entries = newEntries
        entryCapacity = newCapacity
    }

    /// Folds the high and low halves of a full product.
    @inline(__always)
    private static func mix(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let product = a.multipliedFullWidth(by: b)
        return product.high ^ product.low
    }

    /// The encoded bytes of a scalar of at most 16 bytes, zero-padded, as two words.
    // The two words as raw bytes, the content copied in after the head's bytes: the caller checked that head and
    // content fit in 16 bytes.
    @inline(__always)
    private static func shortBytes(_ head: BinaryScalarHead, _ content: UnsafeRawBufferPointer) -> (UInt64, UInt64) {
        let words = head.words
        var bytes = (words.0, words.1)
        if let source = content.baseAddress, !content.isEmpty {
            withUnsafeMutableBytes(of: &bytes) { bytes in
                (bytes.baseAddress! + head.count).copyMemory(from: source, byteCount: content.count)
            }
        }
        return bytes
    }

    /// A seeded hash of a short scalar's two words (see ``shortBytes(_:_:)``).
    @inline(__always)
    private static func hash(_ short: (UInt64, UInt64), seed: UInt64) -> UInt64 {
        mix(mix(short.0 ^ seed, 0xA076_1D64_78BD_642F) ^ short.1, 0xE703_7ED1_A0B4_28DB)
    }

    /// A seeded hash of the encoded bytes, eight at a time.
    // The content in place, read eight bytes at a time with unaligned loads: it may start at any offset.
    private static func hash(_ head: BinaryScalarHead, _ content: UnsafeRawBufferPointer, seed: UInt64) -> UInt64 {
        let words = head.words
        var hash = mix(words.0 ^ seed, 0xA076_1D64_78BD_642F) ^ mix(words.1 ^ 0xE703_7ED1_A0B4_28DB, words.2 ^ seed)
        var offset = 0
        let count = content.count
        while offset + 8 <= count {
            hash = mix(hash ^ content.loadUnaligned(fromByteOffset: offset, as: UInt64.self), 0x8EBC_6AF0_9C88_C6E3)
            offset += 8
        }
        if offset < count {
            // The last eight bytes (overlapping the words before) when there are eight; otherwise
            // the few there are, a byte at a time.
            var tail: UInt64 = 0
            if count >= 8 {
                tail = content.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
            } else {
                for index in offset..<count { tail = tail << 8 | UInt64(content[index]) }
            }
            hash = mix(hash ^ tail, 0x5899_65CC_7537_4CC3)
        }
        return mix(hash ^ UInt64(count), 0x1D8E_4E27_C47D_124F)
    }
}
