// snippet: remote-start
import Foundation
import ModelKit
import ModelKitRemote
import ModelKitStore
// snippet: remote-end
import ModelKitTestSupport
import Testing

// The example the remote article starts from (see `DocumentationArticleTests`): it runs here,
// and what it prints is checked against the comments it shows.

/// Collects the example's prints (outside `ExampleOutput.capture` it prints as usual).
private func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    ExampleOutput.print(items, separator: separator, terminator: terminator)
}

// snippet: remote-start
@Model(keys: .snakeCase) final class Bug {
    @Identifier var id: Int
    var title: String
    var isOpen: Bool

    init(id: Int, title: String, isOpen: Bool) { (self.id, self.title, self.isOpen) = (id, title, isOpen) }
}

extension Bug: RemoteModel {
    static let collectionPath = "/bugs"
    static let responseKeyPath = "data"             // { "data": [ ... ] }
}

/// Answers from canned bodies instead of the network (the default transport is URLSession).
struct FixtureTransport: HTTPTransport {
    let bodies: [String: String]                    // "GET /v1/bugs" -> JSON

    func send(_ request: RemoteRequest) async throws -> RemoteResponse {
        guard let body = bodies["\(request.method) \(request.url.path)"] else { return RemoteResponse(status: 404) }
        return RemoteResponse(status: 200, body: Data(body.utf8))
    }
}
// snippet: remote-end

@Suite struct RemoteArticleExampleTests {
    @Test func remote() async throws {
        let output = try await ExampleOutput.capture {
            // snippet: remote-start
            let transport = FixtureTransport(bodies: [
                "GET /v1/bugs": #"{"data": [{"id": 1, "title": "crash", "is_open": true}, {"id": 2, "title": "typo", "is_open": true}]}"#,
                "GET /v1/bugs/1": #"{"id": 1, "title": "crash on launch", "is_open": false}"#,
            ])
            let store = try SQLiteStore()                   // in memory; SQLiteStore(path:) for a file
            let client = RemoteClient(baseURL: URL(string: "https://api.example.com/v1")!, store: store, transport: transport)
            let context = ModelContext(store: store)        // this isolation domain's live instances

            let bugs = try await client.fetchAll(Bug.self, context: context)         // GET /v1/bugs, saved to the store
            print(bugs.map(\.title), try await store.fetchCount(Bug.self))  // ["crash", "typo"] 2
            let first = try await client.fetchOne(Bug.self, id: 1, context: context)    // GET /v1/bugs/1: the live instance, updated
            print(first === bugs[0], bugs[0].title, bugs[0].isOpen)  // true crash on launch false
            do {
                _ = try await client.fetchOne(Bug.self, id: 3)
            } catch {
                print(error)  // GET 'https://api.example.com/v1/bugs/3' failed: status 404
            }
            // snippet: remote-end
        }
        #expect(output == DocumentationExamples.commentedOutput(of: try DocumentationExamples.snippet("remote", inFile: #filePath)), "printed:\n\(output.joined(separator: "\n"))")
    }
}
