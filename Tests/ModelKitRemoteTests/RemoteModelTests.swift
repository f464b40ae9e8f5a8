import Foundation
import ModelKit
import ModelKitRemote
import ModelKitTestSupport
import Testing

/// A resource that overrides its instance endpoint and wraps single objects in an envelope.
@Model final class Gist {
    @Identifier var id: Int
    var title: String
}

extension Gist: RemoteModel {
    static let collectionPath = "/gists/"
    static let instanceKeyPath = "gist"

    static func instancePath(for identifier: String) -> String {
        "/gists/\(identifier).json"
    }
}

/// A resource without identity: a collection only.
@Model struct Tag: Sendable {
    var name: String
}

extension Tag: RemoteModel {
    static let collectionPath = "/tags"
    static var remoteOperations: RemoteOperations { [.read, .create] }
}

/// A resource whose endpoint is not a path under the base URL.
@Model struct Misdeclared: Sendable {
    var name: String
}

extension Misdeclared: RemoteModel {
    static let collectionPath = "/things#top"
}

/// Answers every request with one canned response and keeps what it was sent.
final class CannedTransport: HTTPTransport, @unchecked Sendable {
    // @unchecked: `sent` is only touched under `lock`.
    private let lock = NSLock()
    private var sent: [RemoteRequest] = []
    let response: RemoteResponse

    init(status: Int = 200, body: String = "") {
        response = RemoteResponse(status: status, headers: ["Content-Type": "application/json"], body: Data(body.utf8))
    }

    var requests: [RemoteRequest] {
        lock.withLock { sent }
    }

    func send(_ request: RemoteRequest) async throws -> RemoteResponse {
        lock.withLock { sent.append(request) }
        return response
    }
}

/// Endpoints: declared paths, the default and overridden instance paths, URLs under a base URL.
@Suite struct RemoteModelTests {
    let base = URL(string: "https://api.example.com/v1/")!

    @Test func theInstanceEndpointDefaultsToTheCollectionAndTheIdentifier() throws {
        expectEqual(TwitterUser.instancePath(for: "42"), "/users/42")
        expectEqual(TwitterUser.instancePath(for: "a b/c?"), "/users/a%20b%2Fc%3F")
        #expect(TwitterUser.responseKeyPath == "data.items" && TwitterUser.instanceKeyPath == "")
        #expect(TwitterUser.remoteOperations == .all && Status.remoteOperations == .read)
        expectEqual(Gist(id: 7, title: "x").instancePath, "/gists/7.json")
        #expect(Tag(name: "swift").instancePath == nil)
    }

    @Test func requestsResolveUnderTheBaseURL() async throws {
        let transport = CannedTransport(body: #"{"gist": {"id": 7, "title": "Notes"}}"#)
        let client = RemoteClient(
            baseURL: base, timeout: .seconds(2), headers: ["Authorization": "Bearer t"], transport: transport)
        let gist = try await client.fetchOne(Gist.self, id: 7, query: [URLQueryItem(name: "fields", value: "a b")])
        expectEqual(gist.title, "Notes")
        let request = try #require(transport.requests.first)
        expectEqual(request.url.absoluteString, "https://api.example.com/v1/gists/7.json?fields=a%20b")
        #expect(request.method == .get && request.body == nil && request.timeout == 2)
        expectEqual(request.headers, ["Authorization": "Bearer t", "Accept": "application/json"])
        expectEqual(request.description, "GET 'https://api.example.com/v1/gists/7.json?fields=a%20b'")
    }

    @Test func writesSendTheModelsJSON() async throws {
        let transport = CannedTransport(status: 201)
        let client = RemoteClient(baseURL: base, transport: transport)
        let tag = try await client.create(Tag(name: "swift"))
        expectEqual(tag.name, "swift")
        let request = try #require(transport.requests.first)
        #expect(request.method == .post && request.url.absoluteString == "https://api.example.com/v1/tags")
        expectEqual(request.headers["Content-Type"], "application/json")
        try expectEqual(Tag(jsonData: try #require(request.body)).name, "swift")
    }

    @Test func anEndpointThatMakesNoURLIsAnError() async throws {
        let transport = CannedTransport()
        let client = RemoteClient(baseURL: base, transport: transport)
        do {
            _ = try await client.fetchAll(Misdeclared.self)
            Issue.record("expected an error")
        } catch let error as RemoteError {
            expectEqual(error.kind, .invalidURL)
            #expect(
                error.description
                    == "GET 'https://api.example.com/v1/things#top' failed: "
                    + "'/things#top' is not a valid endpoint under 'https://api.example.com/v1/'"
            )
        }
        do {
            try await client.update(Tag(name: "swift"))
            Issue.record("expected an error")
        } catch let error as RemoteError {
            // A model without identity has no instance endpoint.
            expectEqual(error.kind, .notIdentified)
            expectEqual(error.description, "PUT 'https://api.example.com/v1/tags' failed: 'Tag' has no identifier, so no instance endpoint")
        }
        #expect(transport.requests.isEmpty)
    }

    @Test func operationsDescribeThemselves() {
        expectEqual(RemoteOperations.all.description, "read, create, update, delete")
        expectEqual(RemoteOperations().description, "nothing")
        #expect(RemoteResponse(status: 204).isSuccess && !RemoteResponse(status: 302).isSuccess)
        expectEqual(RemoteResponse(status: 200, headers: ["Content-Type": "text/html"]).header("content-type"), "text/html")
    }
}
