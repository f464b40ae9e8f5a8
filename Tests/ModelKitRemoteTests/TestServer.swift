import Foundation
import ModelKit
import ModelKitRemote
import ModelKitStore
import ModelKitTestSupport
import Testing

// The models of twitter.json as remote resources.

extension TwitterUser: RemoteModel {
    public static let collectionPath = "/users"
    public static let responseKeyPath = "data.items"
}

extension Status: RemoteModel {
    public static let collectionPath = "/statuses"
    public static let responseKeyPath = "statuses"
    public static var remoteOperations: RemoteOperations { .read }
}

/// A real HTTP server on 127.0.0.1 (``LocalHTTPServer``), on a port the system picks, serving
/// twitter.json-style payloads, error statuses, malformed bodies and a slow endpoint; it records
/// every request.
///
/// | route | answer |
/// | --- | --- |
/// | `GET /users?limit=N&broken=I` | `{"data": {"items": [...]}}`: the users of twitter.json's statuses and retweets, repeats included (the first N; element I's `id_str` a number) |
/// | `GET /users/ID` | the user with that id, with ``userOverrides`` applied |
/// | `GET /users/missing`, `/users/crash` | 404, 500 |
/// | `GET /users/garbage`, `/users/empty`, `/users/mismatch` | 200 with HTML, nothing, a user whose `followers_count` is a string |
/// | `GET /users/slow` | the first user, after ``slowDelay`` |
/// | `POST /users`, `PUT`/`PATCH /users/ID` | the body echoed as a user with `followers_count` 1000 (`PUT` answers 204) |
/// | `DELETE /users/ID` | 204 |
/// | `GET /statuses` | twitter.json as it is |
final class TestServer: Sendable {
    /// How long `/users/slow` takes to answer: longer than any wait in the tests, so a test that
    /// gets an answer from it did wait for it, even on a machine that stalls for a minute.
    static let slowDelay: Duration = .seconds(180)

    /// How long clients wait in tests that are not about timeouts. The whole suite starts every
    /// test at once, and on a 2-core machine an exchange whose answer has arrived can wait half a
    /// minute for a thread to go on (seen in CI: a 404 reported as a 30 s timeout).
    static let patience: Duration = .seconds(150)

    let server: LocalHTTPServer
    let baseURL: URL
    let log = RequestLog()

    /// Starts a server; it listens once this returns.
    init() async throws {
        let fixtures = try Fixtures.shared()
        let server = try LocalHTTPServer()
        Self.addRoutes(to: server, fixtures: fixtures, log: log)
        self.server = server
        baseURL = try #require(URL(string: "http://127.0.0.1:\(server.port)"))
    }

    /// Stops the server, dropping the connections left open.
    func stop() async {
        await server.stop()
    }

    /// A client of this server.
    func client(store: (any ModelStore)? = nil, timeout: Duration = patience) -> RemoteClient {
        RemoteClient(baseURL: baseURL, store: store, timeout: timeout)
    }

    /// Runs `body` with a new server, stopping it afterwards.
    static func with<T>(_ body: (TestServer) async throws -> T) async throws -> T {
        let server = try await TestServer()
        do {
            let result = try await body(server)
            await server.stop()
            return result
        } catch {
            await server.stop()
            throw error
        }
    }

    private static func addRoutes(to server: LocalHTTPServer, fixtures: Fixtures, log: RequestLog) {
        server.appendRoute("GET /users") { request in
            await log.record(request)
            let limit = request.query["limit"].flatMap(Int.init) ?? fixtures.users.count
            var users = Array(fixtures.users.prefix(limit))
            if let broken = request.query["broken"].flatMap(Int.init), users.indices.contains(broken) {
                users[broken]["id_str"] = 42
            }
            return try json(["data": ["items": users]])
        }
        server.appendRoute("GET /users/*") { request in
            await log.record(request)
            let id = String(request.path.split(separator: "/").last ?? "")
            switch id {
            case "missing": return HTTPResponse(statusCode: .notFound, body: Data(#"{"error": "no such user"}"#.utf8))
            case "crash": return HTTPResponse(statusCode: .internalServerError, body: Data("oops".utf8))
            case "garbage": return HTTPResponse(statusCode: .ok, body: Data("<html><body>hello</body></html>".utf8))
            case "empty": return HTTPResponse(statusCode: .ok)
            case "mismatch":
                var user = fixtures.users[0]
                user["followers_count"] = "many"
                return try json(user)
            case "slow":
                try await Task.sleep(for: slowDelay)
                return try json(fixtures.users[0])
            default:
                guard var user = fixtures.users.first(where: { $0["id_str"] as? String == id }) else {
                    return HTTPResponse(statusCode: .notFound)
                }
                for (key, value) in await log.userOverrides { user[key] = value }
                return try json(user)
            }
        }
        server.appendRoute("POST /users") { request in try await echo(request, log: log, status: .created) }
        server.appendRoute("PATCH /users/*") { request in try await echo(request, log: log, status: .ok) }
        server.appendRoute("PUT /users/*") { request in
            await log.record(request, body: request.body)
            return HTTPResponse(statusCode: .noContent)
        }
        server.appendRoute("DELETE /users/*") { request in
            await log.record(request)
            return HTTPResponse(statusCode: .noContent)
        }
        server.appendRoute("GET /statuses") { request in
            await log.record(request)
            return HTTPResponse(statusCode: .ok, headers: [.contentType: "application/json"], body: fixtures.twitter)
        }
    }

    /// The request's JSON object with `followers_count` set to 1000, as the server's answer.
    private static func echo(_ request: HTTPRequest, log: RequestLog, status: HTTPStatusCode) async throws -> HTTPResponse {
        await log.record(request, body: request.body)
        guard var object = try JSONSerialization.jsonObject(with: request.body) as? [String: Any] else {
            return HTTPResponse(statusCode: .badRequest)
        }
        object["followers_count"] = 1000
        var response = try json(object)
        response.statusCode = status
        return response
    }

    private static func json(_ object: Any) throws -> HTTPResponse {
        let data = try JSONSerialization.data(withJSONObject: object)
        return HTTPResponse(statusCode: .ok, headers: [.contentType: "application/json"], body: data)
    }
}

/// The RemoteError `body` throws (an issue recorded when it throws none, or another error).
func remoteError(_ body: () async throws -> Void) async -> RemoteError? {
    do {
        try await body()
        Issue.record("expected a RemoteError, got none")
        return nil
    } catch let error as RemoteError {
        return error
    } catch {
        Issue.record("expected a RemoteError, got \(error)")
        return nil
    }
}

/// What the server received, and what it changes in the users it serves.
actor RequestLog {
    struct Entry: Sendable {
        let method: String
        /// The path as sent, percent-encoded.
        let path: String
        let query: [String: String]
        let body: Data?
    }

    private(set) var entries: [Entry] = []
    /// Values `GET /users/ID` puts on top of the fixture's user (as the server's side of an edit).
    private var overrides: [String: String] = [:]

    var userOverrides: [String: String] { overrides }

    func record(_ request: HTTPRequest, body: Data? = nil) {
        var query: [String: String] = [:]
        for item in request.query { query[item.name] = item.value }
        entries.append(Entry(method: request.method, path: request.path, query: query, body: body))
    }

    func override(_ key: String, with value: String) {
        overrides[key] = value
    }
}

/// twitter.json, and its users as the server hands them out.
struct Fixtures: @unchecked Sendable {
    // @unchecked: the JSON objects are never mutated after loading.
    let twitter: Data
    /// The user of every status and retweeted status, in payload order, repeats included.
    let users: [[String: Any]]

    nonisolated(unsafe) private static var loaded: Fixtures?
    private static let lock = NSLock()

    /// Loaded once for all servers.
    static func shared() throws -> Fixtures {
        lock.lock()
        defer { lock.unlock() }
        if let loaded { return loaded }
        let twitter = try fixtureData("twitter.json")
        let document = try JSONSerialization.jsonObject(with: twitter) as? [String: Any]
        let statuses = document?["statuses"] as? [[String: Any]] ?? []
        var users: [[String: Any]] = []
        for status in statuses {
            if let user = status["user"] as? [String: Any] { users.append(user) }
            if let retweeted = status["retweeted_status"] as? [String: Any], let user = retweeted["user"] as? [String: Any] {
                users.append(user)
            }
        }
        let fixtures = Fixtures(twitter: twitter, users: users)
        loaded = fixtures
        return fixtures
    }
}
