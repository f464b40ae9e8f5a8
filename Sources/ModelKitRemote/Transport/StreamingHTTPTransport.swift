import Foundation

/// A transport that hands over a response's body as it arrives: what
/// ``RemoteClient/elements(_:query:context:)`` streams through.
///
/// ``URLSessionTransport`` and the AsyncHTTPClient transport are both; with a transport that is
/// not, the client reads the whole body first (within its `maxResponseSize`) and splits it then.
public protocol StreamingHTTPTransport: HTTPTransport {
    /// Sends `request` and returns once the response's head has arrived; the body follows as the
    /// caller reads it. Leaving the body unread cancels the transfer. A transport should keep no
    /// more than the request's ``RemoteRequest/maxResponseSize`` of bytes the caller has not read
    /// yet (and throw ``RemoteError/tooLarge(_:status:announced:)`` past it).
    func stream(_ request: RemoteRequest) async throws -> RemoteStreamedResponse
}

/// A response whose body is read as it arrives.
///
/// ```swift
/// let response = try await transport.stream(request)
/// for try await chunk in response.body { consume(chunk) }
/// ```
public struct RemoteStreamedResponse {
    /// The status code.
    public var status: Int
    /// The header fields, by name as the server sent them.
    public var headers: [String: String]
    /// The body, chunk by chunk, read once.
    public var body: RemoteBody

    /// Creates a response.
    public init(status: Int, headers: [String: String] = [:], body: RemoteBody) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The value of a header field, its name compared without case.
    public func header(_ name: String) -> String? {
        headers.field(name)
    }
}

/// A response body as it arrives, chunk by chunk: one pass, whoever iterates it.
///
/// ```swift
/// let body = RemoteBody(chunks)   // any asynchronous sequence of `Data`
/// ```
public struct RemoteBody: AsyncSequence {
    public typealias Element = Data

    private let nextChunk: () async throws -> Data?

    /// A body whose chunks `nextChunk` returns in turn, nil at the end.
    public init(_ nextChunk: @escaping () async throws -> Data?) {
        self.nextChunk = nextChunk
    }

    /// A body whose chunks are `chunks`' elements.
    public init<Chunks: AsyncSequence>(_ chunks: Chunks) where Chunks.Element == Data {
        let iterator = IteratorBox(chunks.makeAsyncIterator())
        self.init { try await iterator.next() }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(nextChunk: nextChunk)
    }

    /// Reads the next chunk.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let nextChunk: () async throws -> Data?

        public mutating func next() async throws -> Data? {
            try await nextChunk()
        }
    }

    /// The whole body as one response (for a status error's text), failing past `limit` bytes.
    func collected(status: Int, headers: [String: String], request: RemoteRequest) async throws -> RemoteResponse {
        var data = Data()
        for try await chunk in self {
            if let limit = request.maxResponseSize, data.count + chunk.count > limit {
                throw RemoteError.tooLarge(request, status: status, announced: nil)
            }
            data.append(chunk)
        }
        return RemoteResponse(status: status, headers: headers, body: data)
    }
}

/// An iterator kept in one place, so that a body's copies read one stream.
private final class IteratorBox<Base: AsyncIteratorProtocol> where Base.Element == Data {
    private var base: Base

    init(_ base: Base) {
        self.base = base
    }

    func next() async throws -> Data? {
        try await base.next(isolation: #isolation)
    }
}
