// snippet: store-start
import Foundation
import ModelKit
import ModelKitStore
// snippet: store-end
import ModelKitTestSupport
import Testing

// The example the store article starts from (see `DocumentationArticleTests`): it runs here, and
// what it prints is checked against the comments it shows.

/// Collects the example's prints (outside `ExampleOutput.capture` it prints as usual).
private func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    ExampleOutput.print(items, separator: separator, terminator: terminator)
}

// snippet: store-start
@Model final class Owner {
    @Identifier var id: Int
    var name: String

    init(id: Int, name: String) { (self.id, self.name) = (id, name) }
}

@Model final class Memo {
    @Identifier var id: Int
    var text: String
    var stars: Int = 0
    var owner: Owner                        // stored as the owner's identifier

    init(id: Int, text: String, owner: Owner) { (self.id, self.text, self.owner) = (id, text, owner) }
}
// snippet: store-end

@Suite struct StoreArticleExampleTests {
    @Test func store() async throws {
        let output = try await ExampleOutput.capture {
            // snippet: store-start
            let path = NSTemporaryDirectory() + "memos-\(UUID()).sqlite"
            let store = try SQLiteStore(path: path)             // or SQLiteStore() in memory, or MemoryStore()
            let context = ModelContext(store: store)
            let json = """
                [{"id": 1, "text": "buy milk", "stars": 3, "owner": {"id": 7, "name": "Ada"}},
                 {"id": 2, "text": "call Bob", "owner": {"id": 7, "name": "Ada"}}]
                """
            let memos = try [Memo](jsonData: Data(json.utf8), context: context)
            try await store.save(memos)                                // memos and their owner: one transaction
            print(try await store.fetchCount(Memo.self), try await store.fetchCount(Owner.self))  // 2 1

            let starred = try await store.fetchAll(ModelQuery(Memo.self).filter(\Memo.stars > 0), context: context)
            print(starred.map(\.text), starred[0] === memos[0])  // ["buy milk"] true

            let later = ModelContext(store: try SQLiteStore(path: path))   // another context, the same file
            let memo = try later.model(Memo.self, id: 2)
            print(memo?.text ?? "-", memo?.owner.name ?? "-")  // call Bob Ada
            // snippet: store-end
            #expect(memo !== memos[1])
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
        #expect(output == DocumentationExamples.commentedOutput(of: try DocumentationExamples.snippet("store", inFile: #filePath)), "printed:\n\(output.joined(separator: "\n"))")
    }
}
