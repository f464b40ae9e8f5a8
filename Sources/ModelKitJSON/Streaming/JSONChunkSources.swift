import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a file in chunks with POSIX `read`, never holding more than one chunk.
///
/// Opened from a URL it owns its handle and closes it when released; given a `FileHandle` it
/// reads from the handle's current position and leaves it open.
package final class JSONFileReader {
    let handle: FileHandle
    let closesHandle: Bool
    var scratch: [UInt8]
    /// How many bytes have been read.
    package private(set) var bytesRead = 0

    /// Opens the file at `url`.
    package init(url: URL, chunkSize: Int) throws {
        handle = try FileHandle(forReadingFrom: url)
        closesHandle = true
        scratch = [UInt8](repeating: 0, count: max(1, chunkSize))
    }

    /// Reads from `handle`, which the caller keeps open.
    package init(handle: FileHandle, chunkSize: Int) {
        self.handle = handle
        closesHandle = false
        scratch = [UInt8](repeating: 0, count: max(1, chunkSize))
    }

    deinit {
        if closesHandle { try? handle.close() }
    }

    /// Calls `body` with the next chunk, or returns false at the end of the file.
    ///
    /// Throws the `POSIXError` of a failed read.
    // Unsafe: `body` gets the chunk in the scratch array, in place; valid during the call only, as
    // the next read writes over it.
    package func readChunk(_ body: (UnsafeRawBufferPointer) -> Void) throws -> Bool {
        let descriptor = handle.fileDescriptor
        // Unsafe: read(2) fills the scratch array in place, at most `buffer.count` bytes; the array
        // is never empty (its size is at least 1), so the base address is not nil.
        let count = try scratch.withUnsafeMutableBytes { buffer -> Int in
            while true {
                let count = read(descriptor, buffer.baseAddress, buffer.count)
                if count >= 0 { return count }
                if errno != EINTR { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            }
        }
        guard count > 0 else { return false }
        bytesRead += count
        // Unsafe: only the `count` bytes read(2) filled are handed out, in place.
        scratch.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
        return true
    }
}

/// The chunks of a file, read with POSIX `read`: the input of
/// `ModelJSON.elements(of:in:)` and `ModelJSON.elements(of:from:)` for files.
///
/// The reads block their thread briefly (one chunk from a local file); the file is opened when
/// iteration starts and closed when the iterator is released.
///
/// ```swift
/// for try await chunk in JSONFileChunks(url: url) { hash.update(chunk) }
/// ```
public struct JSONFileChunks: AsyncSequence, Sendable {
    /// The chunk size the streaming readers use unless told otherwise: 64 KiB.
    public static let defaultChunkSize = 65_536

    enum Source {
        case url(URL)
        case handle(FileHandle)
    }

    let source: Source
    let chunkSize: Int

    /// The chunks of the file at `url`.
    public init(url: URL, chunkSize: Int = defaultChunkSize) {
        source = .url(url)
        self.chunkSize = Swift.max(1, chunkSize)
    }

    /// The chunks read from `handle`'s current position to its end; the handle stays open.
    public init(handle: FileHandle, chunkSize: Int = defaultChunkSize) {
        source = .handle(handle)
        self.chunkSize = Swift.max(1, chunkSize)
    }

    /// Opens the file for a synchronous reader.
    package func makeReader() throws -> JSONFileReader {
        switch source {
        case .url(let url): try JSONFileReader(url: url, chunkSize: chunkSize)
        case .handle(let handle): JSONFileReader(handle: handle, chunkSize: chunkSize)
        }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(chunks: self)
    }

    /// Reads the file one chunk per call.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let chunks: JSONFileChunks
        var reader: JSONFileReader?
        var isFinished = false

        /// The next chunk, or nil at the end of the file.
        public mutating func next() async throws -> [UInt8]? {
            try readChunk()
        }

        /// The next chunk, read in the isolation domain of the caller: the read blocks only
        /// briefly, so leaving an actor for it and coming back (what `next()` does, as a
        /// nonisolated function) costs more than it (json.stream.products.actor read 0.91x the
        /// synchronous loop that way).
        public mutating func next(isolation actor: isolated (any Actor)?) async throws -> [UInt8]? {
            try readChunk()
        }

        mutating func readChunk() throws -> [UInt8]? {
            guard !isFinished else { return nil }
            let reader = try self.reader ?? chunks.makeReader()
            self.reader = reader
            var chunk: [UInt8]?
            if try !reader.readChunk({ chunk = Array($0) }) {
                isFinished = true
                self.reader = nil
            }
            return chunk
        }
    }
}

extension JSONFileChunks.Source: Sendable {}

/// An asynchronous sequence of bytes gathered into chunks, so the splitter works a chunk at a
/// time: the input of
/// `ModelJSON.elements(of:from:)` for a byte sequence.
///
/// ```swift
/// let (bytes, _) = try await URLSession.shared.bytes(from: url)
/// for try await chunk in JSONByteChunks(bytes) { ... }
/// ```
public struct JSONByteChunks<Base: AsyncSequence>: AsyncSequence where Base.Element == UInt8 {
    let base: Base
    let chunkSize: Int

    /// Gathers `base` into chunks of up to `chunkSize` bytes.
    public init(_ base: Base, chunkSize: Int = JSONFileChunks.defaultChunkSize) {
        self.base = base
        self.chunkSize = Swift.max(1, chunkSize)
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: base.makeAsyncIterator(), chunkSize: chunkSize)
    }

    /// Gathers up to `chunkSize` bytes per call.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: Base.AsyncIterator
        let chunkSize: Int

        /// The next chunk, or nil once the bytes are over.
        public mutating func next() async throws -> [UInt8]? {
            var chunk: [UInt8] = []
            chunk.reserveCapacity(chunkSize)
            while chunk.count < chunkSize, let byte = try await base.next(isolation: #isolation) { chunk.append(byte) }
            return chunk.isEmpty ? nil : chunk
        }
    }
}

extension JSONByteChunks: Sendable where Base: Sendable {}
