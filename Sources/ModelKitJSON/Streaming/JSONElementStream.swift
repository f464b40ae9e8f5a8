import Foundation
import ModelKitCore

/// How a stream of JSON values is laid out.
///
/// ```swift
/// for try await user in ModelJSON.elements(of: User.self, in: url, format: .ndjson) { ... }
/// ```
public enum JSONStreamFormat: Hashable, Sendable {
    /// A top-level array when the first non-whitespace byte is `[`, newline-delimited JSON otherwise.
    case automatic
    /// One top-level array, `[ e0, e1, ... ]`, whose elements are read one at a time.
    case array
    /// Newline-delimited JSON (NDJSON, JSON Lines): one value per line; blank lines and `\r\n`
    /// line ends are allowed.
    case ndjson
    /// An array inside an envelope of objects, at a key path (`"data.items"`): the members
    /// before and after it are checked and skipped without being kept, so memory stays near
    /// the largest element whatever the envelope holds. Keys are compared as written (a key
    /// spelled with escapes does not match).
    case nestedArray(at: String)
}

/// Decodes a stream's elements, one at a time, as models or any other `ModelValue`.
///
/// Made by `ModelJSON.elements(of:...)`: it splits a top-level JSON array or newline-delimited
/// JSON into elements with an incremental splitter and maps each through
/// `ModelJSON.decode(_:from:at:options:)`, so each element is fully checked (RFC 8259) and
/// mapped exactly as a whole document would be. Memory stays near the largest element plus one
/// chunk, whatever the stream's size. Errors are ``JSONStreamError``s naming the element's index
/// and byte offset; iteration ends after the first.
///
/// ```swift
/// for try await user in ModelJSON.elements(of: User.self, in: url) {
///     print(user.name)
/// }
/// ```
public struct JSONElementStream<Element: ModelValue, Chunks: AsyncSequence>: AsyncSequence
where Chunks.Element: Collection<UInt8> {
    let chunks: Chunks
    let format: JSONStreamFormat
    let decoding: JSONElementDecoding<Element>

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(chunks: chunks.makeAsyncIterator(), splitter: decoding.splitter(format), decoding: decoding)
    }

    /// Reads chunks until the next element is complete, and decodes it.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var chunks: Chunks.AsyncIterator
        var splitter: JSONElementSplitter
        let decoding: JSONElementDecoding<Element>
        var isFinished = false

        /// The next element, or nil at the end of the stream.
        ///
        /// Throws ``JSONStreamError``; the iteration is over after an error.
        public mutating func next() async throws -> Element? {
            try await next(isolation: nil)
        }

        /// The next element, read and mapped in the isolation domain of the loop that asks
        /// (`for try await` passes it): a stream mapping through a context stays in the
        /// context's domain.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws -> Element? {
            guard !isFinished else { return nil }
            do {
                while true {
                    switch try splitter.next() {
                    case .element(let span):
                        // Unsafe: the element is decoded where it lies in the splitter's buffer, no
                        // copy; the buffer does not change during the call.
                        return try splitter.buffer.withUnsafeBytes { try decoding.decode($0, span) }
                    case .needsInput:
                        let chunk: Chunks.Element?
                        do {
                            chunk = try await chunks.next(isolation: actor)
                        } catch {
                            throw JSONStreamError.readFailed(
                                error, elementIndex: splitter.elementCount, at: splitter.scannedOffset)
                        }
                        if let chunk { splitter.append(contentsOf: chunk) } else { splitter.endInput() }
                    case .end:
                        isFinished = true
                        return nil
                    }
                }
            } catch {
                isFinished = true
                throw error
            }
        }
    }
}

/// How each element of a stream is mapped: the options, and the identity context if any (so
/// a stream that maps through a context stays in the context's isolation domain).
package struct JSONElementDecoding<Element: ModelValue> {
    let options: MappingOptions
    let context: ModelContext?

    init(options: MappingOptions, context: ModelContext?) {
        self.options = options
        self.context = context
    }

    /// A splitter for `format` whose elements may be as large as a document may be.
    func splitter(_ format: JSONStreamFormat) -> JSONElementSplitter {
        JSONElementSplitter(format: format, maxElementSize: options.maxDocumentSize)
    }

    /// Maps the element `span` of `buffer`; its errors become ``JSONStreamError``s.
    // Unsafe: takes the splitter's buffer in place, alive during the call.
    func decode(_ buffer: UnsafeRawBufferPointer, _ span: JSONElementSpan) throws(JSONStreamError) -> Element {
        // Unsafe: the element's span, which the splitter found inside the buffer.
        let bytes = UnsafeRawBufferPointer(rebasing: buffer[span.range])
        do {
            return try ModelJSON.decode(Element.self, from: bytes, at: nil, options: options, context: context)
        } catch {
            throw JSONStreamError.invalidElement(error, span)
        }
    }
}

extension JSONElementSplitter {
    /// Adds a chunk of any contiguous or non-contiguous collection of bytes.
    package mutating func append(contentsOf chunk: some Collection<UInt8>) {
        // Unsafe: a contiguous chunk ([UInt8], Data) is appended from where it lies.
        if chunk.withContiguousStorageIfAvailable({ append(UnsafeRawBufferPointer($0)) }) == nil {
            // Unsafe: other collections are gathered into an array once, then appended from its
            // storage.
            Array(chunk).withUnsafeBytes { append($0) }
        }
    }

    /// Feeds the whole of `reader` through the splitter, calling `body` with the buffer, each
    /// element's span in it and the stream's format; returns how many elements there were.
    ///
    /// Read errors become ``JSONStreamError``s; `body`'s errors pass through unchanged.
    // Unsafe: `body` gets the splitter's buffer in place, valid during the call only (the next
    // append moves it).
    package mutating func forEachElement(
        reading reader: JSONFileReader, progress: ((Int) -> Void)? = nil,
        _ body: (UnsafeRawBufferPointer, JSONElementSpan, JSONStreamFormat) throws -> Void
    ) throws -> Int {
        while true {
            switch try next() {
            case .element(let span):
                let format = format
                // Unsafe: the buffer is lent in place for `body`, which does not keep it.
                try buffer.withUnsafeBytes { try body($0, span, format) }
            case .needsInput:
                let more: Bool
                do {
                    more = try reader.readChunk { append($0) }
                } catch {
                    throw JSONStreamError.readFailed(error, elementIndex: elementCount, at: scannedOffset)
                }
                if more { progress?(reader.bytesRead) } else { endInput() }
            case .end:
                return elementCount
            }
        }
    }
}

extension ModelJSON {
    /// The elements of a JSON array or NDJSON file, decoded one at a time as they are read.
    ///
    /// Memory stays near the largest element plus one chunk (64 KiB by default): a gigabyte
    /// file streams in a few megabytes. `format` says whether the file is a top-level array or
    /// newline-delimited JSON; by default the first non-whitespace byte decides (`[` = array).
    ///
    /// ```swift
    /// for try await user in ModelJSON.elements(of: User.self, in: url) { print(user.name) }
    /// ```
    public static func elements<T: ModelValue>(
        of type: T.Type, in url: URL, format: JSONStreamFormat = .automatic, options: MappingOptions = .default,
        context: ModelContext? = nil, chunkSize: Int = JSONFileChunks.defaultChunkSize
    ) -> JSONElementStream<T, JSONFileChunks> {
        elements(of: T.self, fromChunks: JSONFileChunks(url: url, chunkSize: chunkSize), format: format,
                 options: options, context: context)
    }

    /// The elements read from a file handle's current position to its end, one at a time.
    ///
    /// ```swift
    /// for try await event in ModelJSON.elements(of: Event.self, from: FileHandle.standardInput) { ... }
    /// ```
    public static func elements<T: ModelValue>(
        of type: T.Type, from handle: FileHandle, format: JSONStreamFormat = .automatic,
        options: MappingOptions = .default, context: ModelContext? = nil,
        chunkSize: Int = JSONFileChunks.defaultChunkSize
    ) -> JSONElementStream<T, JSONFileChunks> {
        elements(of: T.self, fromChunks: JSONFileChunks(handle: handle, chunkSize: chunkSize), format: format,
                 options: options, context: context)
    }

    /// The elements of an asynchronous sequence of bytes (such as `URLSession`'s `bytes(from:)`),
    /// gathered into chunks of `chunkSize` bytes and decoded one at a time.
    ///
    /// ```swift
    /// let (bytes, _) = try await URLSession.shared.bytes(from: url)
    /// for try await user in ModelJSON.elements(of: User.self, from: bytes) { ... }
    /// ```
    public static func elements<T: ModelValue, Bytes: AsyncSequence>(
        of type: T.Type, from bytes: Bytes, format: JSONStreamFormat = .automatic,
        options: MappingOptions = .default, context: ModelContext? = nil,
        chunkSize: Int = JSONFileChunks.defaultChunkSize
    ) -> JSONElementStream<T, JSONByteChunks<Bytes>> where Bytes.Element == UInt8 {
        elements(of: T.self, fromChunks: JSONByteChunks(bytes, chunkSize: chunkSize), format: format,
                 options: options, context: context)
    }

    /// The elements of an asynchronous sequence of byte chunks (`[UInt8]`, `Data`, ...), the
    /// fastest asynchronous input: the splitter takes each chunk whole.
    ///
    /// ```swift
    /// for try await user in ModelJSON.elements(of: User.self, fromChunks: chunks) { ... }
    /// ```
    public static func elements<T: ModelValue, Chunks: AsyncSequence>(
        of type: T.Type, fromChunks chunks: Chunks, format: JSONStreamFormat = .automatic,
        options: MappingOptions = .default, context: ModelContext? = nil
    ) -> JSONElementStream<T, Chunks> {
        JSONElementStream(chunks: chunks, format: format, decoding: JSONElementDecoding(options: options, context: context))
    }

    /// Decodes the elements of a JSON array or NDJSON file one at a time, synchronously, and
    /// calls `body` with each; returns how many there were.
    ///
    /// Memory stays near the largest element plus one chunk. Errors are ``JSONStreamError``s,
    /// except `body`'s own, which pass through unchanged.
    ///
    /// ```swift
    /// try ModelJSON.forEachElement(User.self, in: url) { user in print(user.name) }
    /// ```
    @discardableResult
    public static func forEachElement<T: ModelValue>(
        _ type: T.Type, in url: URL, format: JSONStreamFormat = .automatic, options: MappingOptions = .default,
        context: ModelContext? = nil, chunkSize: Int = JSONFileChunks.defaultChunkSize, _ body: (T) throws -> Void
    ) throws -> Int {
        try forEachElement(T.self, in: JSONFileChunks(url: url, chunkSize: chunkSize), format: format,
                           decoding: JSONElementDecoding(options: options, context: context), body)
    }

    /// Decodes the elements read from a file handle's current position, one at a time,
    /// synchronously; returns how many there were.
    ///
    /// ```swift
    /// try ModelJSON.forEachElement(Event.self, from: handle, format: .ndjson) { event in ... }
    /// ```
    @discardableResult
    public static func forEachElement<T: ModelValue>(
        _ type: T.Type, from handle: FileHandle, format: JSONStreamFormat = .automatic,
        options: MappingOptions = .default, context: ModelContext? = nil,
        chunkSize: Int = JSONFileChunks.defaultChunkSize, _ body: (T) throws -> Void
    ) throws -> Int {
        try forEachElement(T.self, in: JSONFileChunks(handle: handle, chunkSize: chunkSize), format: format,
                           decoding: JSONElementDecoding(options: options, context: context), body)
    }

    static func forEachElement<T: ModelValue>(
        _ type: T.Type, in file: JSONFileChunks, format: JSONStreamFormat, decoding: JSONElementDecoding<T>,
        _ body: (T) throws -> Void
    ) throws -> Int {
        let reader = try file.openReader(elementIndex: 0)
        var splitter = decoding.splitter(format)
        return try splitter.forEachElement(reading: reader) { buffer, span, _ in
            try body(try decoding.decode(buffer, span))
        }
    }
}

extension JSONFileChunks {
    /// Opens the file; a failure is a ``JSONStreamError`` of code `.readFailed` at byte 0.
    package func openReader(elementIndex: Int) throws(JSONStreamError) -> JSONFileReader {
        do {
            return try makeReader()
        } catch {
            throw JSONStreamError.readFailed(error, elementIndex: elementIndex, at: 0)
        }
    }
}
