import Foundation
import ModelKit
import ModelKitRemote
import ModelKitTestSupport
import Testing

/// Every way a request fails, as a typed error naming the method, URL and status.
@Suite struct RemoteErrorTests {
    /// One failing instance fetch: the identifier the server treats specially, and what the error says.
    struct Case: Sendable, CustomTestStringConvertible {
        let id: String
        let kind: RemoteError.Kind
        let status: Int
        /// The message after `GET 'http://127.0.0.1:PORT/users/ID'`.
        let message: String

        var testDescription: String { id }
    }

    static let cases: [Case] = [
        Case(id: "missing", kind: .status, status: 404, message: " failed: status 404"),
        Case(id: "crash", kind: .status, status: 500, message: " failed: status 500"),
        Case(
            id: "garbage", kind: .notJSON, status: 200,
            message: " (status 200) failed: the body is not JSON: invalid JSON at line 1, column 1 (byte 0): expected a value, found '<'"),
        Case(id: "empty", kind: .notJSON, status: 200, message: " (status 200) failed: the body is not JSON: it is empty"),
        Case(
            id: "mismatch", kind: .mapping, status: 200,
            message: " (status 200) failed: cannot map 'TwitterUser.followersCount' at 'followers_count': expected an integer, found \"many\""),
    ]

    @Test(arguments: cases)
    func anInstanceFetchFailsWithItsTypedError(_ example: Case) async throws {
        try await TestServer.with { server in
            let url = server.baseURL.absoluteString + "/users/" + example.id
            let error = await remoteError { _ = try await server.client().fetchOne(TwitterUser.self, id: example.id) }
            #expect(error?.kind == example.kind)
            #expect(error?.status == example.status)
            #expect(error?.method == .get)
            #expect(error?.url == url)
            #expect(error?.description == "GET '\(url)'" + example.message)
        }
    }

    @Test func aMappingErrorInsideTheEnvelopeNamesTheFullPath() async throws {
        try await TestServer.with { server in
            let query = [URLQueryItem(name: "limit", value: "5"), URLQueryItem(name: "broken", value: "3")]
            let error = await remoteError { _ = try await server.client().fetchAll(TwitterUser.self, query: query) }
            #expect(error?.kind == .mapping)
            #expect(error?.underlying is ModelError)
            #expect(
                error?.description
                    == "GET '\(server.baseURL.absoluteString)/users?limit=5&broken=3' (status 200) failed: "
                    + "cannot map 'TwitterUser.id' at 'data.items[3].id_str': expected a string, found 42")
        }
    }

    @Test func aSlowResponsePastTheTimeoutIsATimeout() async throws {
        try await TestServer.with { server in
            let clock = ContinuousClock()
            let start = clock.now
            let error = await remoteError {
                _ = try await server.client(timeout: .milliseconds(300)).fetchOne(TwitterUser.self, id: "slow")
            }
            let elapsed = clock.now - start
            #expect(error?.kind == .timeout)
            #expect(error?.status == nil)
            #expect(error?.description == "GET '\(server.baseURL.absoluteString)/users/slow' failed: no response within 0.3 s")
            // A timeout, not the user the server sends after `slowDelay`, so the client did not wait for
            // it. No upper bound on the time: on a loaded 2-core machine other tests can hold
            // the task pool for longer than the server's delay before this task resumes.
            #expect(elapsed >= .milliseconds(300))
        }
    }

    @Test func cancellingTheCallingTaskCancelsTheRequest() async throws {
        try await TestServer.with { server in
            let client = server.client()
            let task = Task { _ = try await client.fetchOne(TwitterUser.self, id: "slow") }
            // Wait until the server has the request, then cancel.
            _ = await eventually { await !server.log.entries.isEmpty }
            task.cancel()
            let result = await task.result
            // An error, not the user the server sends after `slowDelay`: the request was cancelled.
            #expect(throws: RemoteError.self) { try result.get() }
            if case .failure(let error as RemoteError) = result {
                expectEqual(error.kind, .cancelled)
                expectEqual(error.description, "GET '\(server.baseURL.absoluteString)/users/slow' failed: cancelled")
            }
        }
    }

    @Test func aTaskCancelledBeforehandSendsNothing() async throws {
        try await TestServer.with { server in
            let client = server.client()
            let task = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                _ = try await client.fetchAll(TwitterUser.self)
            }
            let result = await task.result
            if case .failure(let error as RemoteError) = result { expectEqual(error.kind, .cancelled) } else {
                Issue.record("expected a cancelled RemoteError, got \(result)")
            }
            #expect(await server.log.entries.isEmpty)
        }
    }

    @Test func anOperationTheModelDoesNotAllowSendsNothing() async throws {
        try await TestServer.with { server in
            let status = try #require(try await server.client().fetchAll(Status.self).first)
            let error = await remoteError { try await server.client().delete(status) }
            #expect(error?.kind == .notAllowed)
            #expect(
                error?.description
                    == "DELETE '\(server.baseURL.absoluteString)/statuses/\(status.id)' failed: 'Status' does not allow delete (it allows read)"
            )
            await expectEqual(server.log.entries.count, 1)
        }
    }

    @Test func noServerIsATransportError() async throws {
        // A port nothing listens on, and nothing else can take while the test runs (a stopped
        // server's port went to another test's server once, which answered 404).
        let (descriptor, port) = try SocketCalls.bindToLoopbackWithoutListening()
        defer { SocketCalls.closeDescriptor(descriptor) }
        let client = RemoteClient(baseURL: try #require(URL(string: "http://127.0.0.1:\(port)")), timeout: TestServer.patience)
        let error = await remoteError { _ = try await client.fetchAll(TwitterUser.self) }
        #expect(error?.kind == .transport)
        #expect(error?.underlying != nil)
    }
}
