/// The memory a ``JSONWriter`` writes into: chunks of its own, each twice the size of the one
/// before, joined once at the end.
///
/// The writer keeps the current chunk's address and count and writes through the pointer, so a
/// value costs one capacity and uniqueness check and plain stores (an `[UInt8]` pays a
/// uniqueness check and its generic `append(contentsOf:)` machinery per append, and JSON is
/// many small appends). A full chunk is kept, not copied into a bigger one: the output is
/// copied once, into the bytes handed out, which are exactly as long as the output. Copies of a
/// writer share the storage until one of them writes (copy on write), so `JSONWriter` keeps
/// value semantics.
@usableFromInline
final class JSONWriterStorage: @unchecked Sendable {
    // @unchecked: the chunks are written only by a writer holding the only reference to the
    // storage (`JSONWriter.reserve(_:)` checks), so no two writers ever write the same memory.

    /// The full chunks, in order, each as long as what was written into it.
    var filled: [UnsafeMutableRawBufferPointer] = []
    /// How many bytes the full chunks hold together.
    var filledCount = 0
    /// The chunk being written (the writer keeps its address, capacity and count).
    var current: UnsafeMutablePointer<UInt8>

    /// Storage whose first chunk holds `capacity` bytes.
    init(firstChunk capacity: Int) {
        current = .allocate(capacity: capacity)
    }

    deinit {
        for chunk in filled { chunk.deallocate() }
        current.deallocate()
    }

    /// Keeps the first `count` bytes of the current chunk as a full chunk and starts one of
    /// `capacity` bytes.
    func startChunk(keeping count: Int, capacity: Int) -> UnsafeMutablePointer<UInt8> {
        if count > 0 {
            filled.append(UnsafeMutableRawBufferPointer(start: current, count: count))
            filledCount += count
        } else {
            current.deallocate()
        }
        current = .allocate(capacity: capacity)
        return current
    }

    /// Copies the output, the full chunks and then `count` bytes of the current one, to `target`.
    func copyOutput(currentCount count: Int, to target: UnsafeMutableRawPointer) {
        var offset = 0
        for chunk in filled {
            (target + offset).copyMemory(from: UnsafeRawPointer(chunk.baseAddress!), byteCount: chunk.count)
            offset += chunk.count
        }
        (target + offset).copyMemory(from: current, byteCount: count)
    }
}

extension JSONWriter {
    /// The whole output as one array.
    var output: [UInt8] {
        let total = storage.filledCount + count
        return [UInt8](unsafeUninitializedCapacity: total) { buffer, initialized in
            if let base = buffer.baseAddress { storage.copyOutput(currentCount: count, to: base) }
            initialized = total
        }
    }

    /// Makes room for `extra` more bytes after the `count` written in the current chunk and
    /// returns where they go; the caller stores them and adds what it stored to `count`.
    @inlinable @inline(__always)
    mutating func reserve(_ extra: Int) -> UnsafeMutablePointer<UInt8> {
        if extra > capacity &- count || !isKnownUniquelyReferenced(&storage) { startChunk(toHold: extra) }
        return base + count
    }

    /// Starts a chunk with room for `extra` bytes (twice the size of the last one, or more when
    /// that is not enough); when the storage is shared with a copy of this writer, starts
    /// storage of its own, with the output so far in its first chunk.
    @usableFromInline @inline(never)
    mutating func startChunk(toHold extra: Int) {
        precondition(extra >= 0 && extra <= Int.max / 4, "JSON output larger than memory")
        if isKnownUniquelyReferenced(&storage) {
            let size = max(extra, capacity &* 2)
            base = storage.startChunk(keeping: count, capacity: size)
            capacity = size
            count = 0
        } else {
            let written = storage.filledCount + count
            let size = max(written + extra, capacity)
            let copy = JSONWriterStorage(firstChunk: size)
            storage.copyOutput(currentCount: count, to: copy.current)
            storage = copy
            base = copy.current
            capacity = size
            count = written
        }
    }

    /// Appends one byte.
    @inlinable @inline(__always)
    mutating func append(_ byte: UInt8) {
        reserve(1).pointee = byte
        count &+= 1
    }

    /// Appends bytes.
    @inlinable @inline(__always)
    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        let length = bytes.count
        guard length > 0, let source = bytes.baseAddress else { return }
        JSONWriter.copy(source, to: reserve(length), count: length)
        count &+= length
    }

    /// Appends the bytes of `word`, lowest first, `length` of them (at most 8): short literals
    /// (`null`, `": "`) as one store.
    @inlinable @inline(__always)
    mutating func append(word: UInt64, length: Int) {
        UnsafeMutableRawPointer(reserve(8)).storeBytes(of: word.littleEndian, as: UInt64.self)
        count &+= length
    }

    /// What goes before a value, then room for `extra` more bytes, where the value goes: in
    /// compact output inside a container, the comma is stored in the same reservation.
    @inlinable @inline(__always)
    mutating func reserveValue(_ extra: Int) -> UnsafeMutablePointer<UInt8> {
        guard !isPretty && !afterKey && depth > 0 && hasElements else {
            prepareForValue()
            return reserve(extra)
        }
        let start = reserve(extra &+ 1)
        start.pointee = UInt8(ascii: ",")
        count &+= 1
        return start + 1
    }

    /// Copies `count` bytes: short runs (keys, most strings) with a few word moves instead of a
    /// call to `memcpy`.
    @inlinable @inline(__always)
    static func copy(_ source: UnsafeRawPointer, to target: UnsafeMutablePointer<UInt8>, count: Int) {
        let target = UnsafeMutableRawPointer(target)
        if count >= 8 && count <= 32 {
            // Words from the start, then the last word, which may overlap the one before.
            var offset = 0
            while offset &+ 8 < count {
                target.storeBytes(of: source.loadUnaligned(fromByteOffset: offset, as: UInt64.self), toByteOffset: offset, as: UInt64.self)
                offset &+= 8
            }
            target.storeBytes(
                of: source.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self), toByteOffset: count &- 8, as: UInt64.self)
        } else if count < 8 {
            var offset = 0
            while offset < count {
                target.storeBytes(of: source.load(fromByteOffset: offset, as: UInt8.self), toByteOffset: offset, as: UInt8.self)
                offset &+= 1
            }
        } else {
            target.copyMemory(from: source, byteCount: count)
        }
    }
}
