import Foundation
import ModelKit
import ModelKitRemote
import ModelKitTestSupport
import Testing

/// Credentials added to every attempt, and refreshed once after a 401, against the local server.
@Suite struct RemoteAuthorizationTests {
    /// Bearer tokens handed out in turn: `token-1`, then `token-2` after each refresh.
    actor Tokens: RemoteAuthorizer {
        private(set) var issued = 1
        private(set) var refreshes = 0
        let refreshes401: Bool

        init(refreshes401: Bool = true) {
            self.refreshes401 = refreshes401
        }

        func authorize(_ request: inout RemoteRequest) async throws {
            request.headers["Authorization"] = "Bearer token-\(issued)"
        }

        func refresh(after response: RemoteResponse, to request: RemoteRequest) async throws -> Bool {
            #expect(response.status == 401)
            refreshes += 1
            guard refreshes401 else { return false }
            issued += 1
            return true
        }
    }

    /// A route answering `[]` to `Bearer token-N` for N in `accepted`, 401 to anything else.
    static func guardedRoute(on server: TestServer, accepting accepted: Set<Int>) -> RequestCounter {
        let counter = RequestCounter()
        server.server.appendRoute("GET /readings") { request in
            _ = await counter.record(request)
            let accepts = accepted.contains { request.header("Authorization") == "Bearer token-\($0)" }
            return accepts ? HTTPResponse(statusCode: .ok, body: Data("[]".utf8)) : HTTPResponse(statusCode: .unauthorized)
        }
        return counter
    }

    @Test func anExpiredTokenIsRefreshedAndTheRequestSentOnceMore() async throws {
        try await TestServer.with { server in
            let counter = Self.guardedRoute(on: server, accepting: [2])
            let tokens = Tokens()
            let client = RemoteClient(baseURL: server.baseURL, timeout: TestServer.patience, authorizer: tokens)
            let readings = try await client.fetchAll(SensorReading.self)
            #expect(readings.isEmpty)
            expectEqual(await counter.headers.map { $0["authorization"] }, ["Bearer token-1", "Bearer token-2"])
            expectEqual(await tokens.refreshes, 1)
            // The next request carries the new token from the start.
            _ = try await client.fetchAll(SensorReading.self)
            expectEqual(await counter.count, 3)
        }
    }

    @Test func aSecond401IsTheError() async throws {
        try await TestServer.with { server in
            let counter = Self.guardedRoute(on: server, accepting: [])
            let tokens = Tokens()
            let client = RemoteClient(baseURL: server.baseURL, timeout: TestServer.patience, authorizer: tokens)
            let error = await remoteError { _ = try await client.fetchAll(SensorReading.self) }
            #expect(error?.kind == .status)
            #expect(error?.status == 401)
            #expect(error?.description == "GET '\(server.baseURL.absoluteString)/readings' failed: status 401 (2 attempts)")
            expectEqual(await counter.count, 2)
            expectEqual(await tokens.refreshes, 1)
        }
    }

    @Test func anAuthorizerThatDoesNotRefreshLeavesThe401() async throws {
        try await TestServer.with { server in
            let counter = Self.guardedRoute(on: server, accepting: [2])
            let client = RemoteClient(baseURL: server.baseURL, timeout: TestServer.patience, authorizer: Tokens(refreshes401: false))
            let error = await remoteError { _ = try await client.fetchAll(SensorReading.self) }
            #expect(error?.status == 401)
            #expect(error?.attempts == 1)
            expectEqual(await counter.count, 1)
        }
    }

    @Test func anAuthorizerThatThrowsIsAnAuthorizationError() async throws {
        struct Locked: Error, CustomStringConvertible {
            var description: String { "The keychain is locked" }
        }
        struct Failing: RemoteAuthorizer {
            func authorize(_ request: inout RemoteRequest) async throws { throw Locked() }
        }
        try await TestServer.with { server in
            let counter = Self.guardedRoute(on: server, accepting: [1])
            let client = RemoteClient(baseURL: server.baseURL, timeout: TestServer.patience, authorizer: Failing())
            let error = await remoteError { _ = try await client.fetchAll(SensorReading.self) }
            #expect(error?.kind == .authorization)
            #expect(error?.underlying is Locked)
            #expect(
                error?.description
                    == "GET '\(server.baseURL.absoluteString)/readings' failed: cannot authorize the request: the keychain is locked")
            expectEqual(await counter.count, 0)
        }
    }
}
