#if AsyncHTTPClient
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// The transport over AsyncHTTPClient (swift-server's HTTP client on SwiftNIO), with the package's
/// `AsyncHTTPClient` trait: the ``RemoteClient``'s default transport on Linux when the trait is on.
///
/// It reads a body as it arrives: one whose `Content-Length` is over the request's
/// ``RemoteRequest/maxResponseSize`` fails before a byte of it is read, and one that passes the
/// limit as it arrives fails at the chunk that passes it, the connection closed, so memory stays
/// bounded by the limit. Cancelling the calling task cancels the request.
///
/// ```swift
/// let transport = AsyncHTTPClientTransport()   // AsyncHTTPClientTransport.sharedClient
/// let client = RemoteClient(baseURL: URL(string: "https://api.example.com")!, transport: transport)
/// ```
public struct AsyncHTTPClientTransport: StreamingHTTPTransport {
    /// The client requests go through.
    public let client: HTTPClient

    /// A transport over `client`, ``sharedClient`` unless given (whoever makes a client shuts it down).
    public init(client: HTTPClient = AsyncHTTPClientTransport.sharedClient) {
        self.client = client
    }

    /// The client transports share unless given one, for the life of the process: AsyncHTTPClient's
    /// singleton configuration, except that a connection that cannot be established fails the
    /// request at once. (AsyncHTTPClient would try again until the request's deadline, so a server
    /// that is down would look like one that is slow; ``RemoteClient``'s own retries decide.)
    public static let sharedClient: HTTPClient = {
        var configuration = HTTPClient.Configuration.singletonConfiguration
        configuration.connectionPool.retryConnectionEstablishment = false
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()

    public func send(_ request: RemoteRequest) async throws -> RemoteResponse {
        let response = try await execute(request)
        let status = Int(response.status.code)
        if let limit = request.maxResponseSize, let announced = response.headers.first(name: "content-length").flatMap(Int.init),
            announced > limit
        {
            throw RemoteError.tooLarge(request, status: status, announced: announced)
        }
        var body = Data()
        for try await chunk in response.body {
            // Leaving the loop drops the body's iterator, which cancels the request and closes
            // the connection: no byte past this chunk is read.
            if let limit = request.maxResponseSize, body.count + chunk.readableBytes > limit {
                throw RemoteError.tooLarge(request, status: status, announced: nil)
            }
            body.append(contentsOf: chunk.readableBytesView)
        }
        return RemoteResponse(status: status, headers: Self.fields(of: response), body: body)
    }

    /// Sends `request` and returns once the head has arrived; the body is AsyncHTTPClient's own
    /// stream, which reads from the connection only as fast as the caller reads it (one chunk
    /// ahead). A read that waits longer than the request's timeout for a byte fails with a
    /// timeout, as URLSession's does: AsyncHTTPClient's deadline ends with the head.
    public func stream(_ request: RemoteRequest) async throws -> RemoteStreamedResponse {
        let response = try await execute(request)
        let chunks = response.body.map { Data($0.readableBytesView) }
        let body: RemoteBody
        if request.timeout > 0 {
            let timed = IdleTimeoutBody(chunks, idleTimeout: .nanoseconds(Self.timeoutNanoseconds(request)))
            body = RemoteBody { try await timed.next() }
        } else {
            body = RemoteBody(chunks)
        }
        return RemoteStreamedResponse(status: Int(response.status.code), headers: Self.fields(of: response), body: body)
    }

    /// Sends `request` through the client, within its timeout.
    private func execute(_ request: RemoteRequest) async throws -> HTTPClientResponse {
        var outgoing = HTTPClientRequest(url: request.url.absoluteString)
        outgoing.method = HTTPMethod(rawValue: request.method.rawValue)
        for (name, value) in request.headers { outgoing.headers.add(name: name, value: value) }
        if let body = request.body { outgoing.body = .bytes(ByteBuffer(bytes: body)) }
        return try await client.execute(outgoing, timeout: .nanoseconds(Self.timeoutNanoseconds(request)))
    }

    /// The request's timeout in nanoseconds, rounded up; a year when it has none (0) or a longer
    /// one, which a deadline could not hold.
    private static func timeoutNanoseconds(_ request: RemoteRequest) -> Int64 {
        let year = Int64(365 * 24 * 3600) * 1_000_000_000
        guard request.timeout > 0 else { return year }
        let nanoseconds = (request.timeout * 1e9).rounded(.up)
        return nanoseconds < Double(year) ? Int64(nanoseconds) : year
    }

    /// A response's header fields by name, repeated fields joined with `, `.
    private static func fields(of response: HTTPClientResponse) -> [String: String] {
        var headers: [String: String] = [:]
        for (name, value) in response.headers {
            headers[name] = headers[name].map { $0 + ", " + value } ?? value
        }
        return headers
    }
}
#endif
