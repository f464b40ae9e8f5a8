// snippet: reference-remote-start
import Foundation
import ModelKit
import ModelKitRemote
import ModelKitStore
// snippet: reference-remote-end
import ModelKitTestSupport
import Testing

// The example ModelKitRemote's reference page starts from (see `DocumentationArticleTests`): it
// runs here, without the network, and what it prints is checked against the comments it shows.

/// Collects the example's prints (outside `ExampleOutput.capture` it prints as usual).
private func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    ExampleOutput.print(items, separator: separator, terminator: terminator)
}

// snippet: reference-remote-start
@Model final class Milestone {
    @Identifier var id: Int
    var title: String
}

extension Milestone: RemoteModel {
    static let collectionPath = "/milestones"
    static let responseKeyPath = "data"             // { "data": [ ... ] }
}

/// Answers from memory instead of the network (the default transport is URLSessionTransport).
struct StubTransport: HTTPTransport {
    let bodies = [
        "/v1/milestones": #"{"data": [{"id": 1, "title": "beta"}, {"id": 2, "title": "1.0"}]}"#,
        "/v1/milestones/1": #"{"id": 1, "title": "beta 2"}"#,
    ]

    func send(_ request: RemoteRequest) async throws -> RemoteResponse {
        guard let body = bodies[request.url.path] else { return RemoteResponse(status: 404) }
        return RemoteResponse(status: 200, body: Data(body.utf8))
    }
}
// snippet: reference-remote-end

@Suite struct RemoteReferenceExampleTests {
    @Test func remote() async throws {
        let output = try await ExampleOutput.capture {
            // snippet: reference-remote-start
            let store = try SQLiteStore()                   // in memory
            let context = ModelContext(store: store)
            let client = RemoteClient(baseURL: URL(string: "https://api.example.com/v1")!, store: store, transport: StubTransport())
            let milestones = try await client.fetchAll(Milestone.self, context: context)   // GET /v1/milestones
            let first = try await client.fetchOne(Milestone.self, id: 1, context: context) // GET /v1/milestones/1
            print(first === milestones[0], milestones.map(\.title))  // true ["beta 2", "1.0"]
            print(try await store.fetchCount(Milestone.self))  // 2
            // snippet: reference-remote-end
        }
        #expect(
            output == DocumentationExamples.commentedOutput(of: try DocumentationExamples.snippet("reference-remote", inFile: #filePath)),
            "printed:\n\(output.joined(separator: "\n"))")
    }
}
