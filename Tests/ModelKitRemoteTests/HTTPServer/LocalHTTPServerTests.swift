import Foundation
import ModelKitTestSupport
import Testing

/// The tests' HTTP server itself: reading requests, and answering over a raw socket.
@Suite struct LocalHTTPServerTests {
    /// One request the parser rejects, and what the 400 says.
    struct Malformed: Sendable, CustomTestStringConvertible {
        let request: String
        let reason: String

        var testDescription: String { reason }
    }

    static let malformed: [Malformed] = [
        Malformed(request: "GET /users HTTP/2.0\r\n\r\n", reason: "the request line 'GET /users HTTP/2.0' is not 'METHOD /path HTTP/1.1'"),
        Malformed(request: "GET  /users HTTP/1.1\r\n\r\n", reason: "the request line 'GET  /users HTTP/1.1' is not 'METHOD /path HTTP/1.1'"),
        Malformed(request: "GET http://a/b HTTP/1.1\r\n\r\n", reason: "the request line 'GET http://a/b HTTP/1.1' is not 'METHOD /path HTTP/1.1'"),
        Malformed(request: "GET /users HTTP/1.1\r\nHost 127.0.0.1\r\n\r\n", reason: "the header line 'Host 127.0.0.1' is not 'Name: value'"),
        Malformed(request: "GET /users HTTP/1.1\r\nA: b\r\n folded\r\n\r\n", reason: "the header line ' folded' is not 'Name: value'"),
        Malformed(
            request: "POST /users HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n",
            reason: "transfer-encoding 'chunked' is not supported: send a content-length"),
        Malformed(
            request: "POST /users HTTP/1.1\r\nContent-Length: -1\r\n\r\n",
            reason: "the content-length '-1' is not a number up to 16777216"),
        Malformed(request: "GET /users?limit=%zz HTTP/1.1\r\n\r\n", reason: "the query item 'limit=%zz' has a bad percent-encoding"),
        Malformed(request: "GET /a%ff HTTP/1.1\r\n\r\n", reason: "the path '/a%ff' has a bad percent-encoding"),
        Malformed(request: "GET /" + String(repeating: "a", count: 70_000), reason: "the header is longer than 65536 bytes"),
    ]

    @Test func aRequestArrivingByteByByteIsReadOnceItsBodyIsComplete() throws {
        let text = "POST /users/a%20b?limit=7&name=J%C3%BCrgen&flag&sum=1+2 HTTP/1.1\r\n"
            + "Host: 127.0.0.1\r\ncontent-TYPE:  application/json \r\nContent-Length: 4\r\nAccept: a\r\naccept: b\r\n\r\n{}{}extra"
        let bytes = Array(text.utf8)
        var parser = HTTPRequestParser()
        var request: HTTPRequest?
        var used = 0
        while request == nil, used < bytes.count {
            request = try parser.append(bytes[used...used])
            used += 1
        }
        let read = try #require(request)
        expectEqual(used, bytes.count - "extra".utf8.count)
        #expect(read.method == "POST" && read.path == "/users/a%20b")
        #expect(
            read.query == [
                HTTPRequest.QueryItem(name: "limit", value: "7"), HTTPRequest.QueryItem(name: "name", value: "Jürgen"),
                HTTPRequest.QueryItem(name: "flag", value: nil), HTTPRequest.QueryItem(name: "sum", value: "1+2"),
            ])
        #expect(read.query["name"] == "Jürgen" && read.query["missing"] == nil)
        #expect(read.header("Content-Type") == "application/json" && read.header("ACCEPT") == "a, b")
        expectEqual(read.body, Data("{}{}".utf8))
    }

    @Test(arguments: malformed)
    func aMalformedRequestIsRejectedSayingWhy(_ example: Malformed) {
        var parser = HTTPRequestParser()
        let error = #expect(throws: MalformedRequest.self) { try parser.append(Array(example.request.utf8)) }
        #expect(error?.description == example.reason)
    }

    @Test func answersCarryTheirStatusLengthAndConnectionClose() async throws {
        let server = try LocalHTTPServer()
        server.appendRoute("GET /hello/*") { request in
            HTTPResponse(statusCode: .ok, headers: [.contentType: "text/plain"], body: Data("hello \(request.path)".utf8))
        }
        server.appendRoute("POST /echo") { request in HTTPResponse(statusCode: .created, body: request.body) }
        server.appendRoute("DELETE /fail") { _ in throw CancellationError() }
        server.appendRoute("/any") { _ in HTTPResponse(statusCode: .noContent) }
        let port = server.port

        let hello = try await exchange("GET /hello/a%2Fb?x=1 HTTP/1.1\r\nHost: x\r\n\r\n", port: port)
        expectEqual(hello, "HTTP/1.1 200 OK\r\nContent-Length: 18\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\nhello /hello/a%2Fb")
        let echo = try await exchange("POST /echo HTTP/1.1\r\nContent-Length: 3\r\n\r\nabc", port: port)
        expectEqual(echo, "HTTP/1.1 201 Created\r\nContent-Length: 3\r\nConnection: close\r\n\r\nabc")
        try await expectEqual(exchange("PUT /any HTTP/1.1\r\n\r\n", port: port), "HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n")
        #expect(try await exchange("DELETE /fail HTTP/1.1\r\n\r\n", port: port).hasPrefix("HTTP/1.1 500 Internal Server Error\r\n"))
        for unrouted in ["GET /hello HTTP/1.1\r\n\r\n", "POST /hello/a HTTP/1.1\r\n\r\n", "GET /echo HTTP/1.1\r\n\r\n"] {
            #expect(try await exchange(unrouted, port: port).hasPrefix("HTTP/1.1 404 Not Found\r\n"))
        }
        let bad = try await exchange("POST /echo HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n", port: port)
        #expect(bad.hasPrefix("HTTP/1.1 400 Bad Request\r\n"))
        #expect(bad.hasSuffix("\r\n\r\ntransfer-encoding 'chunked' is not supported: send a content-length"))
        await server.stop()
    }

    @Test func aClientExpectingContinueGetsItBeforeItSendsTheBody() async throws {
        let server = try LocalHTTPServer()
        server.appendRoute("POST /echo") { request in HTTPResponse(statusCode: .ok, body: request.body) }
        let port = server.port
        let (interim, final) = try await offCooperativeThreads {
            let socket = try RawClient(port: port)
            defer { socket.close() }
            try socket.send("POST /echo HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n")
            let interim = try socket.receive(until: "\r\n\r\n")
            try socket.send("hello")
            return (interim, try socket.receiveToEnd())
        }
        expectEqual(interim, "HTTP/1.1 100 Continue\r\n\r\n")
        expectEqual(final, "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello")
        await server.stop()
    }

    @Test func stopDropsOpenConnectionsAtOnceAndRefusesNewOnes() async throws {
        let server = try LocalHTTPServer()
        let started = StartedFlag()
        server.appendRoute("GET /slow") { _ in
            await started.set()
            try await Task.sleep(for: TestServer.slowDelay)
            return HTTPResponse(statusCode: .ok)
        }
        let port = server.port
        let busy = try RawClient(port: port)
        let idle = try RawClient(port: port)
        defer {
            busy.close()
            idle.close()
        }
        try busy.send("GET /slow HTTP/1.1\r\n\r\n")
        #expect(await eventually { await started.isSet })
        let clock = ContinuousClock()

        let stopping = clock.now
        await server.stop()
        // Both connections end without an answer, long before the handler would have answered.
        let answers = try await offCooperativeThreads { [try busy.receiveToEnd(), try idle.receiveToEnd()] }
        expectEqual(answers, ["", ""])
        #expect(clock.now - stopping < .seconds(60))
        #expect(throws: SocketError.self) { _ = try RawClient(port: port) }
    }

    /// Sends `request` on a new connection and reads the answer to its end.
    private func exchange(_ request: String, port: UInt16) async throws -> String {
        try await offCooperativeThreads {
            let socket = try RawClient(port: port)
            defer { socket.close() }
            try socket.send(request)
            return try socket.receiveToEnd()
        }
    }

    /// Runs blocking socket calls on a thread of their own: the handlers they wait for need the
    /// cooperative threads.
    private func offCooperativeThreads<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try body() }) }.start()
        }
    }
}

/// Whether a handler started.
private actor StartedFlag {
    private(set) var isSet = false

    func set() {
        isSet = true
    }
}

/// A blocking client socket speaking raw bytes; a call gives up after 60 s (a guard against hanging,
/// not a time limit the tests check).
private struct RawClient: Sendable {
    let descriptor: Int32

    init(port: UInt16) throws {
        let descriptor = try SocketCalls.connectToLoopback(port: port)
        try SocketCalls.closing(descriptor) { try SocketCalls.setTimeout(descriptor, seconds: 60) }
        self.descriptor = descriptor
    }

    func send(_ text: String) throws {
        try SocketCalls.sendAll(descriptor, Array(text.utf8))
    }

    /// What arrives until `marker` has (or the end of the stream).
    func receive(until marker: String) throws -> String {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1)
        while !String(decoding: received, as: UTF8.self).hasSuffix(marker), try SocketCalls.receive(descriptor, into: &buffer) > 0 {
            received += buffer
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// What arrives until the server closes; a reset counts as the end.
    func receiveToEnd() throws -> String {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count: Int
            do {
                count = try SocketCalls.receive(descriptor, into: &buffer)
            } catch let error as SocketError where error.isConnectionReset {
                count = 0
            }
            if count == 0 { return String(decoding: received, as: UTF8.self) }
            received += buffer[..<count]
        }
    }

    func close() {
        SocketCalls.closeDescriptor(descriptor)
    }
}
