import Foundation
import ModelKit
import ModelKitRemote
import ModelKitStore
import ModelKitTestSupport
import Testing

/// Fetches sent with `If-None-Match` after a response with an `ETag`, a `304 Not Modified`
/// keeping the live instances as they are, over every transport against the local server.
@Suite struct RemoteRevalidationTests {
    /// A collection of tasks at a version the test sets; `ETag: "vN"`, and 304 to `If-None-Match: "vN"`.
    final class TaskServer: Sendable {
        let counter = RequestCounter()
        private let version = Locked(1)

        init(on server: TestServer) {
            for pattern in ["GET /readings", "GET /readings/*"] {
                server.server.appendRoute(pattern) { [self] request in
                    _ = await counter.record(request)
                    let version = version.withLock { $0 }
                    let eTag = "\"v\(version)\""
                    if request.header("If-None-Match") == eTag { return HTTPResponse(statusCode: .notModified, headers: [.eTag: eTag]) }
                    let tasks = (1...3).map { #"{"id": \#($0), "title": "task \#($0) v\#(version)"}"# }
                    let body = request.path.hasSuffix("/readings") ? "[" + tasks.joined(separator: ",") + "]" : tasks[0]
                    return HTTPResponse(statusCode: .ok, headers: [.contentType: "application/json", .eTag: eTag], body: Data(body.utf8))
                }
            }
        }

        func publish(_ newVersion: Int) { version.withLock { $0 = newVersion } }
    }

    @Test(arguments: TransportKind.allCases)
    func aNotModifiedCollectionKeepsTheLiveInstancesAsTheyAre(_ transport: TransportKind) async throws {
        try await TestServer.with { server in
            let tasks = TaskServer(on: server)
            let client = RemoteClient(baseURL: server.baseURL, timeout: TestServer.patience, transport: transport.transport)
            let context = ModelContext()
            let first = try await client.fetchAll(RemoteTask.self, context: context)
            first[0].title = "edited here"
            let second = try await client.fetchAll(RemoteTask.self, context: context)
            #expect(second.count == 3 && zip(first, second).allSatisfy { $0 === $1 })
            #expect(second[0].title == "edited here")
            expectEqual(await tasks.counter.headers.map { $0["if-none-match"] }, [nil, "\"v1\""])
            // A new version is a full response, mapped onto the same instances.
            tasks.publish(2)
            let third = try await client.fetchAll(RemoteTask.self, context: context)
            #expect(third[0] === first[0])
            expectEqual(third.map(\.title), ["task 1 v2", "task 2 v2", "task 3 v2"])
            expectEqual(await tasks.counter.headers.map { $0["if-none-match"] }, [nil, "\"v1\"", "\"v1\""])
        }
    }

    @Test func aNotModifiedInstanceIsTheLiveOne() async throws {
        try await TestServer.with { server in
            let tasks = TaskServer(on: server)
            let client = RemoteClient(baseURL: server.baseURL, timeout: TestServer.patience)
            let context = ModelContext()
            let task = try await client.fetchOne(RemoteTask.self, id: 1, context: context)
            let again = try await client.fetchOne(RemoteTask.self, id: 1, context: context)
            let refreshed = try await client.refresh(task, context: context)
            #expect(again === task && refreshed === task)
            expectEqual(await tasks.counter.headers.map { $0["if-none-match"] }, [nil, "\"v1\"", "\"v1\""])
        }
    }

    /// Without the models of the earlier response (another context, no store), the fetch is a full one.
    @Test func aContextWithoutTheModelsAsksForTheFullResponse() async throws {
        try await TestServer.with { server in
            let tasks = TaskServer(on: server)
            let client = RemoteClient(baseURL: server.baseURL, timeout: TestServer.patience)
            _ = try await client.fetchAll(RemoteTask.self, context: ModelContext())
            let fresh = try await client.fetchAll(RemoteTask.self, context: ModelContext())
            expectEqual(fresh.map(\.title), ["task 1 v1", "task 2 v1", "task 3 v1"])
            expectEqual(await tasks.counter.headers.map { $0["if-none-match"] }, [nil, nil])
        }
    }

    /// With a store, another context's 304 gives the stored models.
    @Test func aNotModifiedCollectionLoadsFromTheStore() async throws {
        try await TestServer.with { server in
            let tasks = TaskServer(on: server)
            let store = try SQLiteStore()
            let client = RemoteClient(baseURL: server.baseURL, store: store, timeout: TestServer.patience)
            _ = try await client.fetchAll(RemoteTask.self, context: ModelContext(store: store))
            let loaded = try await client.fetchAll(RemoteTask.self, context: ModelContext(store: store))
            expectEqual(loaded.map(\.title), ["task 1 v1", "task 2 v1", "task 3 v1"])
            expectEqual(await tasks.counter.headers.map { $0["if-none-match"] }, [nil, "\"v1\""])
        }
    }

    @Test func revalidationCanBeTurnedOff() async throws {
        try await TestServer.with { server in
            let tasks = TaskServer(on: server)
            var client = RemoteClient(baseURL: server.baseURL, timeout: TestServer.patience)
            client.revalidates = false
            let context = ModelContext()
            _ = try await client.fetchAll(RemoteTask.self, context: context)
            _ = try await client.fetchAll(RemoteTask.self, context: context)
            expectEqual(await tasks.counter.headers.map { $0["if-none-match"] }, [nil, nil])
        }
    }
}
