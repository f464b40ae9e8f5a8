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
// @usableFromInline: the type of JSONWriter.storage, which the inlinable reserve(_:) checks for
// uniqueness before every write.
@usableFromInline
final class JSONWriterStorage: @unchecked Sendable {
    // @unchecked: the chunks are written only by a writer holding the only reference to the
    // storage (`JSONWriter.reserve(_:)` checks), so no two writers ever write the same memory.

    /// The full chunks, in order, each as long as what was written into it.
    // Unsafe: the full chunks, owned by this storage (allocated here, freed in deinit), kept as
    // they are so that the output is copied only once, at the end.
    var filled: [UnsafeMutableRawBufferPointer] = []
    /// How many bytes the full chunks hold together.
    var filledCount = 0
    /// The chunk being written (the writer keeps its address, capacity and count).
    // Unsafe: the chunk being written, owned by this storage; the writer stores through its copy of
    // this address (see the type's documentation).
    var current: UnsafeMutablePointer<UInt8>

    /// Storage whose first chunk holds `capacity` bytes.
    init(firstChunk capacity: Int) {
        // Unsafe: allocated by hand so that the writer can store through a pointer; deinit frees
        // it.
        current = .allocate(capacity: capacity)
    }

    deinit {
        // Unsafe: the storage owns every chunk and frees them with itself; writers hold the storage
        // while they write, so none writes after this.
        for chunk in filled { chunk.deallocate() }
        current.deallocate()
    }

    /// Keeps the first `count` bytes of the current chunk as a full chunk and starts one of
    /// `capacity` bytes.
    // Unsafe: returns the new chunk's address for the writer to store through; the chunk lives as
    // long as this storage.
    func startChunk(keeping count: Int, capacity: Int) -> UnsafeMutablePointer<UInt8> {
        if count > 0 {
            // Unsafe: the full chunk is kept as the `count` bytes written into it, not copied;
            // never empty.
            filled.append(UnsafeMutableRawBufferPointer(start: current, count: count))
            filledCount += count
        } else {
            // Unsafe: a chunk with nothing written is freed rather than kept.
            current.deallocate()
        }
        // Unsafe: the next chunk, owned by this storage like the others.
        current = .allocate(capacity: capacity)
        return current
    }

    /// Copies the output, the full chunks and then `count` bytes of the current one, to `target`.
    // Unsafe: copies into memory the caller has sized for the whole output (`filledCount + count`).
    func copyOutput(currentCount count: Int, to target: UnsafeMutableRawPointer) {
        var offset = 0
        for chunk in filled {
            // Unsafe: each full chunk whole, at its offset; full chunks are never empty, so their
            // base address is not nil.
            (target + offset).copyMemory(from: UnsafeRawPointer(chunk.baseAddress!), byteCount: chunk.count)
            offset += chunk.count
        }
        // Unsafe: then the `count` bytes written into the current chunk.
        (target + offset).copyMemory(from: current, byteCount: count)
    }
}

extension JSONWriter {
    /// The whole output as one array.
    var output: [UInt8] {
        let total = storage.filledCount + count
        // Unsafe: the output is copied once, straight into the array handed out, which is exactly
        // its length; copyOutput(currentCount:to:) initializes all `total` bytes.
        return [UInt8](unsafeUninitializedCapacity: total) { buffer, initialized in
            if let base = buffer.baseAddress { storage.copyOutput(currentCount: count, to: base) }
            initialized = total
        }
    }

    /// Makes room for `extra` more bytes after the `count` written in the current chunk and
    /// returns where they go; the caller stores them and adds what it stored to `count`.
    // @inlinable: the capacity and uniqueness check before every write of the inlinable writers,
    // compiled into them (see Performance in JSONWriter's documentation).
    // Unsafe: returns where the next `extra` bytes go, inside the current chunk; callers store at
    // most that many and add what they stored to `count`.
    @inlinable @inline(__always)
    mutating func reserve(_ extra: Int) -> UnsafeMutablePointer<UInt8> {
        if extra > capacity &- count || !isKnownUniquelyReferenced(&storage) { startChunk(toHold: extra) }
        return base + count
    }

    /// Starts a chunk with room for `extra` bytes (twice the size of the last one, or more when
    /// that is not enough); when the storage is shared with a copy of this writer, starts
    /// storage of its own, with the output so far in its first chunk.
    // @usableFromInline: called by the inlinable reserve(_:) when the chunk is full or shared;
    // rare, so out of line.
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
    // @inlinable: called by the inlinable separator and structure methods for every comma, bracket
    // and brace.
    @inlinable @inline(__always)
    mutating func append(_ byte: UInt8) {
        // Unsafe: one byte into the one byte reserved.
        reserve(1).pointee = byte
        count &+= 1
    }

    /// Appends bytes.
    // @inlinable: called by the inlinable appendKey(quoted:) for pretty output, and by the string
    // and number writers; the copy of a short run is compiled into them.
    // Unsafe: copies from wherever the bytes lie; they only need to live during the call.
    @inlinable @inline(__always)
    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        let length = bytes.count
        guard length > 0, let source = bytes.baseAddress else { return }
        // Unsafe: `length` bytes into the `length` bytes reserved.
        JSONWriter.copy(source, to: reserve(length), count: length)
        count &+= length
    }

    /// Appends the bytes of `word`, lowest first, `length` of them (at most 8): short literals
    /// (`null`, `": "`) as one store.
    // @inlinable: called by the inlinable finishKey() after every key in pretty output, and by the
    // escape and number writers; one store, compiled into them.
    @inlinable @inline(__always)
    mutating func append(word: UInt64, length: Int) {
        // Unsafe: stores a whole word into eight reserved bytes but counts only `length` of them;
        // what comes next writes over the rest.
        UnsafeMutableRawPointer(reserve(8)).storeBytes(of: word.littleEndian, as: UInt64.self)
        count &+= length
    }

    /// What goes before a value, then room for `extra` more bytes, where the value goes: in
    /// compact output inside a container, the comma is stored in the same reservation.
    // @inlinable: the reservation of every inlinable scalar writer (writeBool(_:), writeInt64(_:),
    // writeString(utf8:), ...), compiled into them.
    // Unsafe: returns where the value goes, `extra` bytes inside the current chunk, after the comma
    // it may have stored.
    @inlinable @inline(__always)
    mutating func reserveValue(_ extra: Int) -> UnsafeMutablePointer<UInt8> {
        guard !isPretty && !afterKey && depth > 0 && hasElements else {
            prepareForValue()
            return reserve(extra)
        }
        let start = reserve(extra &+ 1)
        // Unsafe: the comma takes the first of the `extra + 1` bytes reserved.
        start.pointee = UInt8(ascii: ",")
        count &+= 1
        return start + 1
    }

    /// Copies `count` bytes: short runs (keys, most strings) with a few word moves instead of a
    /// call to `memcpy`.
    // @inlinable: called by the inlinable appendKey(quoted:) and append(_:) for every key and run
    // of bytes; compiled into them, so that a short run is a few word moves.
    // Unsafe: copies between raw memory its callers reserved or lent: `count` bytes at both ends,
    // which the loads and stores below keep to.
    @inlinable @inline(__always)
    static func copy(_ source: UnsafeRawPointer, to target: UnsafeMutablePointer<UInt8>, count: Int) {
        // Unsafe: the target as raw memory, to store unaligned words.
        let target = UnsafeMutableRawPointer(target)
        if count >= 8 && count <= 32 {
            // Words from the start, then the last word, which may overlap the one before.
            var offset = 0
            while offset &+ 8 < count {
                // Unsafe: whole words while another starts before `count`; the last word, below,
                // ends at `count`.
                target.storeBytes(of: source.loadUnaligned(fromByteOffset: offset, as: UInt64.self), toByteOffset: offset, as: UInt64.self)
                offset &+= 8
            }
            // Unsafe: the last word ends exactly at `count`, which is at least 8 here; it may
            // overlap the one before.
            target.storeBytes(
                of: source.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self), toByteOffset: count &- 8, as: UInt64.self)
        } else if count < 8 {
            var offset = 0
            while offset < count {
                // Unsafe: byte by byte, below `count`.
                target.storeBytes(of: source.load(fromByteOffset: offset, as: UInt8.self), toByteOffset: offset, as: UInt8.self)
                offset &+= 1
            }
        } else {
            // Unsafe: long runs go to memcpy, `count` bytes.
            target.copyMemory(from: source, byteCount: count)
        }
    }
}
