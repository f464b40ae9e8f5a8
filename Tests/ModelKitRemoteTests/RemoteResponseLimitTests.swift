import Foundation
import ModelKit
import ModelKitRemote
import ModelKitTestSupport
import Testing

/// A reading of a sensor, served by routes whose bodies are as large as a test asks.
@Model struct SensorReading: RemoteModel {
    static let collectionPath = "/readings"
    var value: Double
}

/// The client's bound on response bodies: a body over it fails with a typed error once at most
/// the limit (and the chunks already in flight) was read, whether its length was announced or not.
@Suite struct RemoteResponseLimitTests {
    /// A body of `size` bytes fetched with a limit of `limit`, its length announced or not.
    struct Case: Sendable, CustomTestStringConvertible {
        let size: Int
        let limit: Int
        let announced: Bool
        var fits: Bool { size <= limit }
        var testDescription: String { "\(size) bytes, limit \(limit), \(announced ? "announced" : "unannounced")" }
    }

    static let boundaries: [Case] = [false, true].flatMap { announced in
        [
            Case(size: 100_000, limit: 100_000, announced: announced),
            Case(size: 100_001, limit: 100_000, announced: announced),
            Case(size: 2, limit: 2, announced: announced),
            Case(size: 3, limit: 2, announced: announced),
        ]
    }

    @Test(arguments: TransportKind.allCases, boundaries)
    func aBodyUpToTheLimitMapsAndOneByteMoreFails(_ transport: TransportKind, _ example: Case) async throws {
        try await TestServer.with { server in
            let body = StreamedBody(byteCount: example.size, announced: example.announced)
            server.server.appendRoute("GET /readings") { _ in HTTPResponse(streaming: body) }
            let client = RemoteClient(
                baseURL: server.baseURL, timeout: TestServer.patience, maxResponseSize: example.limit, transport: transport.transport)
            if example.fits {
                let readings = try await client.fetchAll(SensorReading.self)
                #expect(readings.isEmpty)
            } else {
                let error = await remoteError { _ = try await client.fetchAll(SensorReading.self) }
                #expect(error?.kind == .tooLarge)
                let url = server.baseURL.absoluteString + "/readings"
                let expected = example.announced
                    ? "GET '\(url)' (status 200) failed: the response announces \(example.size) bytes, over the limit of \(example.limit) ('maxResponseSize')"
                    : "GET '\(url)' (status 200) failed: the response is larger than the limit of \(example.limit) bytes ('maxResponseSize'); reading stopped there"
                #expect(error?.description == expected)
            }
        }
    }

    /// A server that would send gigabytes: the client fails once past the limit. AsyncHTTPClient
    /// stops at the chunk that passes the limit, so the server sees the connection end after
    /// little more than the loopback's socket buffers hold. FoundationNetworking (Linux) keeps
    /// reading when bytes arrive faster than it reads, its cancel waiting behind them (seen: from
    /// 10 MB to the whole 4 GiB), so over URLSession the body is 32 MiB and only the error is
    /// checked (the collector keeps none of the bytes past the limit).
    @Test(arguments: TransportKind.allCases, [false, true])
    func aHugeBodyStopsTheTransferEarly(_ transport: TransportKind, announced: Bool) async throws {
        try await TestServer.with { server in
            let limit = 1 << 20
            let body = StreamedBody(byteCount: transport.stopsAtTheLimit ? 4 << 30 : 32 << 20, announced: announced)
            server.server.appendRoute("GET /readings") { _ in HTTPResponse(streaming: body) }
            let client = RemoteClient(
                baseURL: server.baseURL, timeout: TestServer.patience, maxResponseSize: limit, transport: transport.transport)
            let error = await remoteError { _ = try await client.fetchAll(SensorReading.self) }
            #expect(error?.kind == .tooLarge)
            if transport.stopsAtTheLimit {
                let sent = try #require(try await body.progress.sentWhenFinished())
                #expect(sent < 64 << 20, "the server sent \(sent) bytes")
            }
        }
    }

    /// A transport that ignores the limit: the client still refuses what it returns.
    @Test func theClientChecksWhatAnyTransportReturns() async throws {
        struct Careless: HTTPTransport {
            func send(_ request: RemoteRequest) async throws -> RemoteResponse {
                RemoteResponse(status: 200, body: Data("[\(String(repeating: " ", count: 2_000))]".utf8))
            }
        }
        let baseURL = try #require(URL(string: "http://127.0.0.1:9"))
        let client = RemoteClient(baseURL: baseURL, maxResponseSize: 1_000, transport: Careless())
        let error = await remoteError { _ = try await client.fetchAll(SensorReading.self) }
        #expect(error?.kind == .tooLarge)
        #expect(error?.status == 200)
        let unlimited = RemoteClient(baseURL: baseURL, maxResponseSize: nil, transport: Careless())
        let readings = try await unlimited.fetchAll(SensorReading.self)
        #expect(readings.isEmpty)
    }

    /// A timeout longer than a deadline can hold (here about 31 million years) is a year at the
    /// transport, not a crash, whole or streamed.
    @Test(arguments: TransportKind.allCases)
    func aTimeoutBeyondWhatADeadlineHoldsStillWorks(_ transport: TransportKind) async throws {
        try await TestServer.with { server in
            server.server.appendRoute("GET /readings") { _ in HTTPResponse(streaming: StreamedBody(byteCount: 2, announced: true)) }
            let client = RemoteClient(baseURL: server.baseURL, timeout: .seconds(1e15), transport: transport.transport)
            #expect(try await client.fetchAll(SensorReading.self).isEmpty)
            var streamed = 0
            for try await _ in try client.elements(SensorReading.self) { streamed += 1 }
            expectEqual(streamed, 0)
        }
    }

    @Test func theDefaultLimitIs32MiB() throws {
        let client = RemoteClient(baseURL: try #require(URL(string: "http://127.0.0.1:9")))
        #expect(client.maxResponseSize == 32 * 1024 * 1024)
        #expect(RemoteClient.defaultMaxResponseSize == 32 * 1024 * 1024)
    }
}

/// The transports the package ships: every one passes the same tests against the local server.
enum TransportKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case urlSession
    #if AsyncHTTPClient
    case asyncHTTPClient
    #endif

    var transport: any HTTPTransport {
        switch self {
        case .urlSession: URLSessionTransport()
        #if AsyncHTTPClient
        case .asyncHTTPClient: AsyncHTTPClientTransport()
        #endif
        }
    }

    /// Whether the transport stops reading at the chunk that passes a response's limit.
    var stopsAtTheLimit: Bool { self != .urlSession }

    var testDescription: String { rawValue }
}
