import Foundation
import ModelKit
import ModelKitRemote
import ModelKitTestSupport
import Testing

/// Requests sent again after failures that say nothing was done, over every transport against
/// the local server: how many times, how long apart, and which never.
@Suite struct RemoteRetryTests {
    /// Waits short enough for tests.
    static let quick = RemoteRetryPolicy(maxAttempts: 3, initialDelay: .milliseconds(10), maxDelay: .milliseconds(40))

    /// How a failing attempt fails.
    enum Failure: String, CaseIterable, Sendable {
        case serviceUnavailable, tooManyRequests, droppedConnection

        var response: HTTPResponse {
            switch self {
            case .serviceUnavailable: HTTPResponse(statusCode: .serviceUnavailable)
            case .tooManyRequests: HTTPResponse(statusCode: .tooManyRequests)
            case .droppedConnection: .dropped
            }
        }

        /// What the caller sees once the attempts are spent.
        var kind: RemoteError.Kind { self == .droppedConnection ? .transport : .status }
    }

    /// Routes for the collection and its instances that fail their first `failures` requests as
    /// `failure` and then answer `[]`, counting requests.
    static func flakyRoute(on server: TestServer, failing failures: Int, as failure: Failure) -> RequestCounter {
        let counter = RequestCounter()
        for pattern in ["/readings", "/readings/*"] {
            server.server.appendRoute(pattern) { request in
                let number = await counter.record(request)
                if number <= failures { return failure.response }
                return HTTPResponse(statusCode: .ok, headers: [.contentType: "application/json"], body: Data("[]".utf8))
            }
        }
        return counter
    }

    @Test(arguments: TransportKind.allCases, Failure.allCases)
    func aFailingServerIsAskedAgainUntilItAnswers(_ transport: TransportKind, _ failure: Failure) async throws {
        try await TestServer.with { server in
            let counter = Self.flakyRoute(on: server, failing: 2, as: failure)
            let client = RemoteClient(baseURL: server.baseURL, timeout: TestServer.patience, retryPolicy: Self.quick, transport: transport.transport)
            let readings = try await client.fetchAll(SensorReading.self)
            #expect(readings.isEmpty)
            expectEqual(await counter.count, 3)
        }
    }

    @Test(arguments: TransportKind.allCases, Failure.allCases)
    func theLastFailureIsTheErrorOnceTheAttemptsAreSpent(_ transport: TransportKind, _ failure: Failure) async throws {
        try await TestServer.with { server in
            let counter = Self.flakyRoute(on: server, failing: .max, as: failure)
            let client = RemoteClient(baseURL: server.baseURL, timeout: TestServer.patience, retryPolicy: Self.quick, transport: transport.transport)
            let error = await remoteError { _ = try await client.fetchAll(SensorReading.self) }
            #expect(error?.kind == failure.kind)
            #expect(error?.attempts == 3)
            #expect(error?.description.hasSuffix(" (3 attempts)") == true)
            expectEqual(await counter.count, 3)
        }
    }

    /// POST and PATCH may have done their work before the failure: one attempt, whatever the policy.
    @Test(arguments: [RemoteRequest.Method.post, .patch])
    func requestsThatAreNotIdempotentAreSentOnce(_ method: RemoteRequest.Method) async throws {
        try await TestServer.with { server in
            let counter = Self.flakyRoute(on: server, failing: .max, as: .serviceUnavailable)
            let client = RemoteClient(baseURL: server.baseURL, timeout: TestServer.patience, retryPolicy: Self.quick)
            let error = await remoteError {
                if method == .post {
                    _ = try await client.create(RemoteTask(id: 1, title: "write"))
                } else {
                    _ = try await client.update(RemoteTask(id: 1, title: "write"), method: .patch)
                }
            }
            #expect(error?.kind == .status)
            #expect(error?.attempts == 1)
            expectEqual(await counter.count, 1)
        }
    }

    @Test func retryAfterIsHowLongTheClientWaits() async throws {
        try await TestServer.with { server in
            let counter = RequestCounter()
            server.server.appendRoute("GET /readings") { request in
                if await counter.record(request) == 1 {
                    return HTTPResponse(statusCode: .serviceUnavailable, headers: [.retryAfter: "1"])
                }
                return HTTPResponse(statusCode: .ok, body: Data("[]".utf8))
            }
            let client = RemoteClient(baseURL: server.baseURL, timeout: TestServer.patience, retryPolicy: Self.quick)
            let clock = ContinuousClock()
            let start = clock.now
            _ = try await client.fetchAll(SensorReading.self)
            #expect(clock.now - start >= .seconds(1))
            expectEqual(await counter.count, 2)
        }
    }

    @Test func aRetryAfterPastTheLimitFailsAtOnce() async throws {
        try await TestServer.with { server in
            let counter = RequestCounter()
            server.server.appendRoute("GET /readings") { request in
                _ = await counter.record(request)
                return HTTPResponse(statusCode: .tooManyRequests, headers: [.retryAfter: "3600"])
            }
            let client = RemoteClient(baseURL: server.baseURL, timeout: TestServer.patience, retryPolicy: Self.quick)
            let error = await remoteError { _ = try await client.fetchAll(SensorReading.self) }
            #expect(error?.status == 429)
            #expect(error?.attempts == 1)
            expectEqual(await counter.count, 1)
        }
    }

    @Test func cancellingDuringAWaitEndsIt() async throws {
        try await TestServer.with { server in
            let counter = Self.flakyRoute(on: server, failing: .max, as: .serviceUnavailable)
            let slow = RemoteRetryPolicy(maxAttempts: 5, initialDelay: .seconds(600), maxDelay: .seconds(600))
            let client = RemoteClient(baseURL: server.baseURL, timeout: TestServer.patience, retryPolicy: slow)
            let task = Task { try await client.fetchAll(SensorReading.self) }
            while await counter.count == 0 { try await Task.sleep(for: .milliseconds(10)) }
            task.cancel()
            let error = await remoteError { _ = try await task.value }
            #expect(error?.kind == .cancelled)
            expectEqual(await counter.count, 1)
        }
    }

    // MARK: The policy's arithmetic

    /// Each wait is between half its step and the step; steps double from the initial delay up to the largest.
    @Test(arguments: [(1, 100, 200), (2, 200, 400), (3, 400, 800), (4, 500, 1_000), (40, 500, 1_000)])
    func waitsDoubleWithJitterUpToTheLargestStep(retry: Int, shortest: Int, longest: Int) {
        let policy = RemoteRetryPolicy(initialDelay: .milliseconds(200), maxDelay: .seconds(1))
        #expect(policy.delay(beforeRetry: retry, randomPart: 0) == .milliseconds(shortest))
        #expect(policy.delay(beforeRetry: retry, randomPart: 1) == .milliseconds(longest))
        let random = policy.delay(beforeRetry: retry, randomPart: 0.5)
        #expect(random > .milliseconds(shortest) && random < .milliseconds(longest))
    }

    @Test(arguments: [
        ("120", 120_000 as Int?), ("0", 0), (" 7 ", 7_000), ("Sun, 06 Dec 2026 18:00:30 GMT", 30_000),
        ("Sun, 06 Dec 2026 17:00:00 GMT", 0), ("-3", nil), ("soon", nil), ("", nil),
    ])
    func retryAfterIsSecondsOrAnHTTPDate(value: String, milliseconds: Int?) throws {
        let now = try #require(ISO8601DateFormatter().date(from: "2026-12-06T18:00:00Z"))
        #expect(RemoteRetryPolicy.retryAfter(value, now: now) == milliseconds.map { .milliseconds($0) })
    }
}

/// Counts a route's requests and keeps their header fields.
actor RequestCounter {
    private(set) var count = 0
    private(set) var headers: [[String: String]] = []

    /// Records `request`; its number, from 1.
    func record(_ request: HTTPRequest) -> Int {
        count += 1
        headers.append(request.headers)
        return count
    }
}

/// A task on a server that accepts writes.
@Model final class RemoteTask: RemoteModel {
    static let collectionPath = "/readings"
    @Identifier var id: Int
    var title: String
}
