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
    // @usableFromInline: read by the inlinable makeAsyncIterator().
    @usableFromInline let chunks: Chunks
    @usableFromInline let format: JSONStreamFormat
    @usableFromInline let decoding: JSONElementDecoding<Element>

    // @usableFromInline: made by the inlinable `ModelJSON.elements(of:...)`, which build the
    // element decoding where the element type is known.
    @usableFromInline
    init(chunks: Chunks, format: JSONStreamFormat, decoding: JSONElementDecoding<Element>) {
        self.chunks = chunks
        self.format = format
        self.decoding = decoding
    }

    // @inlinable: with next(isolation:), so that the iterator is specialised where the loop is.
    @inlinable
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(chunks: chunks.makeAsyncIterator(), splitter: decoding.splitter(format), decoding: decoding)
    }

    /// Reads chunks until the next element is complete, and decodes it.
    public struct AsyncIterator: AsyncIteratorProtocol {
        // @usableFromInline: the iterator's state, used by the inlinable next(isolation:).
        @usableFromInline var chunks: Chunks.AsyncIterator
        @usableFromInline var splitter: JSONElementSplitter
        @usableFromInline let decoding: JSONElementDecoding<Element>
        @usableFromInline var isFinished = false

        // @usableFromInline: made by the inlinable makeAsyncIterator().
        @usableFromInline
        init(chunks: Chunks.AsyncIterator, splitter: JSONElementSplitter, decoding: JSONElementDecoding<Element>) {
            self.chunks = chunks
            self.splitter = splitter
            self.decoding = decoding
        }

        /// The next element, or nil at the end of the stream.
        ///
        /// Throws ``JSONStreamError``; the iteration is over after an error.
        // @inlinable: see next(isolation:).
        @inlinable
        public mutating func next() async throws -> Element? {
            try await next(isolation: nil)
        }

        /// The next element, read and mapped in the isolation domain of the loop that asks
        /// (`for try await` passes it): a stream mapping through a context stays in the
        /// context's domain.
        // @inlinable: called per element; compiled where the loop is, for its element and chunk
        // types, it asks for no generic metadata per call (unspecialised, the asynchronous read of
        // json.stream.products ran about 5,000 instructions per row more than the synchronous
        // one, most of them generic metadata lookups and task allocations).
        @inlinable
        public mutating func next(isolation actor: isolated (any Actor)?) async throws -> Element? {
            guard !isFinished else { return nil }
            do {
                while true {
                    switch try splitter.next() {
                    case .element(let span):
                        var element: Element?
                        // Unsafe: the element is decoded where it lies in the splitter's buffer, no
                        // copy; the buffer does not change during the call.
                        try splitter.withBufferBytes { element = try decoding.decodeElement($0, span) }
                        if let element { return element }
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

/// How each element of a stream is mapped: the options, the identity context if any (so a
/// stream that maps through a context stays in the context's isolation domain), and the decode
/// of one element, made where the element type is known.
///
/// The streams and loops are generic over the element and stay out of line, so a decode they
/// called themselves would run unspecialised: the element's model through witness tables and
/// generic metadata looked up per value. The inlinable entry points build `decodeElement` in the
/// caller's module instead, where it is specialised as a whole document's decode is.
@usableFromInline
package struct JSONElementDecoding<Element: ModelValue> {
    // @usableFromInline: set by the inlinable init.
    @usableFromInline let options: MappingOptions
    /// Maps the element at a span of the splitter's buffer; errors are ``JSONStreamError``s.
    // Unsafe: takes the splitter's buffer in place, alive during the call.
    // @usableFromInline: set by the inlinable init.
    @usableFromInline let decodeElement: (UnsafeRawBufferPointer, JSONElementSpan) throws(JSONStreamError) -> Element

    // @inlinable: builds the element decode in the caller's module (see the type's comment).
    @inlinable
    init(options: MappingOptions, context: ModelContext?) {
        self.options = options
        decodeElement = { buffer, span throws(JSONStreamError) in
            do {
                // Unsafe: the element's span, which the splitter found inside its buffer.
                return try ModelJSON.decode(
                    Element.self, from: UnsafeRawBufferPointer(rebasing: buffer[span.range]), at: nil,
                    options: options, context: context)
            } catch {
                throw JSONStreamError.invalidElement(error, span)
            }
        }
    }

    /// A splitter for `format` whose elements may be as large as a document may be.
    // @usableFromInline: called by the inlinable makeAsyncIterator().
    @usableFromInline
    func splitter(_ format: JSONStreamFormat) -> JSONElementSplitter {
        JSONElementSplitter(format: format, maxElementSize: options.maxDocumentSize)
    }
}

extension JSONElementSplitter {
    /// Calls `body` with the buffer's bytes in place: not generic, so that the generic streams
    /// calling it per element do not run the standard library's unspecialised `withUnsafeBytes`.
    // @usableFromInline: called by the inlinable next(isolation:).
    // Unsafe: `body` gets the buffer in place, valid during the call only.
    @usableFromInline
    func withBufferBytes(_ body: (UnsafeRawBufferPointer) throws -> Void) rethrows {
        try buffer.withUnsafeBytes(body)
    }

    /// Adds a chunk of any contiguous or non-contiguous collection of bytes.
    // @usableFromInline: called by the inlinable next(isolation:), once per chunk.
    @usableFromInline
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
    // @inlinable: generic over the element; compiled where it is known, so that each element's
    // decode is specialised for it (see JSONElementDecoding).
    @inlinable
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
    // @inlinable: generic over the element; compiled where it is known, so that each element's
    // decode is specialised for it (see JSONElementDecoding).
    @inlinable
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
    // @inlinable: generic over the element; compiled where it is known, so that each element's
    // decode is specialised for it (see JSONElementDecoding).
    @inlinable
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
    // @inlinable: generic over the element; compiled where it is known, so that each element's
    // decode is specialised for it (see JSONElementDecoding).
    @inlinable
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
    // @inlinable: generic over the element; compiled where it is known, so that each element's
    // decode is specialised for it (see JSONElementDecoding).
    @inlinable
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
    // @inlinable: generic over the element; compiled where it is known, so that each element's
    // decode is specialised for it (see JSONElementDecoding).
    @inlinable
    @discardableResult
    public static func forEachElement<T: ModelValue>(
        _ type: T.Type, from handle: FileHandle, format: JSONStreamFormat = .automatic,
        options: MappingOptions = .default, context: ModelContext? = nil,
        chunkSize: Int = JSONFileChunks.defaultChunkSize, _ body: (T) throws -> Void
    ) throws -> Int {
        try forEachElement(T.self, in: JSONFileChunks(handle: handle, chunkSize: chunkSize), format: format,
                           decoding: JSONElementDecoding(options: options, context: context), body)
    }

    // @usableFromInline: called by the inlinable forEachElement entry points with the decoding they
    // built; the loop itself is not generic work, so it stays out of line.
    @usableFromInline
    static func forEachElement<T: ModelValue>(
        _ type: T.Type, in file: JSONFileChunks, format: JSONStreamFormat, decoding: JSONElementDecoding<T>,
        _ body: (T) throws -> Void
    ) throws -> Int {
        let reader = try file.openReader(elementIndex: 0)
        var splitter = decoding.splitter(format)
        return try splitter.forEachElement(reading: reader) { buffer, span, _ in
            try body(try decoding.decodeElement(buffer, span))
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
