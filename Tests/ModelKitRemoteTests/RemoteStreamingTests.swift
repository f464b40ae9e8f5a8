import Foundation
import ModelKit
import ModelKitRemote
import ModelKitTestSupport
import Testing

/// A collection's models as its body arrives, over every transport against the local server:
/// the three layouts, a body far larger than memory should hold, and what goes wrong.
@Suite struct RemoteStreamingTests {
    static let tasks = (1...5).map { #"{"id": \#($0), "title": "task \#($0)"}"# }

    /// The layouts a collection streams in, with the route that serves the five tasks so.
    enum Layout: String, CaseIterable, Sendable {
        case array, ndjson, envelope

        func serve(on server: TestServer) {
            let (path, body, type): (String, String, String) = switch self {
            case .array: ("/readings", "[" + tasks.joined(separator: ",\n") + "]", "application/json")
            case .ndjson: ("/readings", tasks.joined(separator: "\n") + "\n", "application/x-ndjson")
            case .envelope: ("/enveloped", #"{"meta": {"count": 5}, "data": ["# + tasks.joined(separator: ",") + #"], "links": {}}"#, "application/json")
            }
            server.server.appendRoute("GET \(path)") { _ in
                HTTPResponse(statusCode: .ok, headers: [.contentType: type], body: Data(body.utf8))
            }
        }
    }

    @Test(arguments: TransportKind.allCases, Layout.allCases)
    func eachLayoutStreamsItsModels(_ transport: TransportKind, _ layout: Layout) async throws {
        try await TestServer.with { server in
            layout.serve(on: server)
            let client = RemoteClient(baseURL: server.baseURL, timeout: TestServer.patience, transport: transport.transport)
            var identifiers: [Int] = []
            if layout == .envelope {
                for try await event in try client.elements(EnvelopedEvent.self) { identifiers.append(event.id) }
            } else {
                let context = ModelContext()
                var kept: [RemoteTask] = []
                for try await task in try client.elements(RemoteTask.self, context: context) {
                    identifiers.append(task.id)
                    kept.append(task)
                }
                expectEqual(kept.map(\.title), (1...5).map { "task \($0)" })
                #expect(context.registeredModel(RemoteTask.self, id: 3) === kept[2])
            }
            expectEqual(identifiers, [1, 2, 3, 4, 5])
        }
    }

    /// An endless NDJSON body: ten models read, then the loop stops and so does the transfer.
    /// AsyncHTTPClient reads only as fast as the loop, so the server gets little past the socket
    /// buffers. FoundationNetworking does not hold back (the unread bytes are bounded by the
    /// client's `maxResponseSize`) and its cancel can wait behind the bytes arriving, so over
    /// URLSession the body is 32 MiB and the server's count is not checked.
    @Test(arguments: TransportKind.allCases)
    func anEndlessBodyStreamsInBoundedMemory(_ transport: TransportKind) async throws {
        try await TestServer.with { server in
            let line = Array(#"{"id": 7, "title": "again and again"}"#.utf8) + [0x0A]
            let chunk = Array([[UInt8]](repeating: line, count: StreamedBody.chunkSize / line.count).joined())
            let chunkCount = transport.stopsAtTheLimit ? 65_536 : 512   // 4 GiB or 32 MiB
            let body = StreamedBody { index in index < chunkCount ? chunk : nil }
            server.server.appendRoute("GET /readings") { _ in HTTPResponse(streaming: body) }
            let client = RemoteClient(
                baseURL: server.baseURL, timeout: TestServer.patience, maxResponseSize: 8 << 20, transport: transport.transport)
            var count = 0
            do {
                for try await task in try client.elements(RemoteTask.self) {
                    #expect(task.id == 7)
                    count += 1
                    if count == 10 { break }
                }
            } catch let error as RemoteError where !transport.stopsAtTheLimit && error.kind == .tooLarge {
                // FoundationNetworking delivered more than the limit before the loop read ten.
            }
            #expect(count == 10 || !transport.stopsAtTheLimit)
            if transport.stopsAtTheLimit {
                let sent = try #require(try await body.progress.sentWhenFinished())
                #expect(sent < 64 << 20, "the server sent \(sent) bytes")
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aBadElementNamesItsIndex(_ transport: TransportKind) async throws {
        try await TestServer.with { server in
            server.server.appendRoute("GET /readings") { _ in
                HTTPResponse(statusCode: .ok, body: Data(#"[{"id": 1, "title": "a"}, {"id": "two", "title": "b"}]"#.utf8))
            }
            let client = RemoteClient(baseURL: server.baseURL, timeout: TestServer.patience, transport: transport.transport)
            var read: [Int] = []
            let error = await remoteError {
                for try await task in try client.elements(RemoteTask.self) { read.append(task.id) }
            }
            expectEqual(read, [1])
            #expect(error?.kind == .mapping)
            #expect(
                error?.description
                    == "GET '\(server.baseURL.absoluteString)/readings' (status 200) failed: cannot decode element 1 at byte 26: "
                    + #"cannot map 'RemoteTask.id' at 'id': expected an integer, found "two""#)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aFailingStatusIsTheFirstError(_ transport: TransportKind) async throws {
        try await TestServer.with { server in
            server.server.appendRoute("GET /readings") { _ in HTTPResponse(statusCode: .notFound, body: Data("gone".utf8)) }
            let client = RemoteClient(baseURL: server.baseURL, timeout: TestServer.patience, transport: transport.transport)
            let error = await remoteError { for try await _ in try client.elements(RemoteTask.self) {} }
            #expect(error?.kind == .status)
            #expect(error?.status == 404)
            #expect(error?.body == Data("gone".utf8))
        }
    }

    /// A server that sends the first element and then nothing: the loop gets the element, then a
    /// timeout once nothing has come for the client's `timeout`, rather than waiting for ever.
    /// (AsyncHTTPClient's own deadline ends with the head; URLSession's idle timeout is the
    /// request's.) While the whole suite starts at once, a 1 s wait for the head can time out
    /// before the element is read (a test process on 2 cores finishes nothing for its first
    /// ~25 s), so attempts repeat until one reads the element; each must end with a timeout. The
    /// wait is short: URLSession on Linux spins a core for as long as it lasts.
    @Test(arguments: TransportKind.allCases)
    func aBodyThatStopsArrivingTimesOut(_ transport: TransportKind) async throws {
        let release = DispatchSemaphore(value: 0)
        try await TestServer.with { server in
            let body = StreamedBody { index in
                switch index {
                case 0: return Array(#"[{"id": 1, "title": "a"},"#.utf8)
                case 1:
                    _ = release.wait(timeout: .now() + 120)  // holds the connection open, silent
                    return nil
                default: return nil
                }
            }
            server.server.appendRoute("GET /readings") { _ in HTTPResponse(streaming: body) }
            let client = RemoteClient(baseURL: server.baseURL, timeout: .seconds(1), transport: transport.transport)
            let clock = ContinuousClock()
            let deadline = clock.now + .seconds(120)
            var read: [Int] = []
            repeat {
                read = []
                let start = clock.now
                let error = await remoteError {
                    for try await task in try client.elements(RemoteTask.self) { read.append(task.id) }
                }
                #expect(error?.kind == .timeout, "\(String(describing: error))")
                #expect(clock.now - start < .seconds(60))
            } while read.isEmpty && clock.now < deadline
            expectEqual(read, [1])
            for _ in 0..<100 { release.signal() }  // the connections' silent waits end
        }
    }

    /// A transport that cannot stream: the body is read whole, then split.
    @Test func aTransportThatDoesNotStreamStillGivesTheElements() async throws {
        struct Whole: HTTPTransport {
            func send(_ request: RemoteRequest) async throws -> RemoteResponse {
                RemoteResponse(status: 200, body: Data(("[" + RemoteStreamingTests.tasks.joined(separator: ",") + "]").utf8))
            }
        }
        let client = RemoteClient(baseURL: try #require(URL(string: "http://127.0.0.1:9")), transport: Whole())
        var identifiers: [Int] = []
        for try await task in try client.elements(RemoteTask.self) { identifiers.append(task.id) }
        expectEqual(identifiers, [1, 2, 3, 4, 5])
    }
}
