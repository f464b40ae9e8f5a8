// snippet: context-start
import Foundation
import ModelKit
import ModelKitStore
// snippet: context-end
import ModelKitTestSupport
import Testing

// The example "Working with a context" starts from (see `DocumentationArticleTests`): it runs
// here, and what it prints is checked against the comments it shows.

/// Collects the example's prints (outside `ExampleOutput.capture` it prints as usual).
private func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    ExampleOutput.print(items, separator: separator, terminator: terminator)
}

// snippet: context-start
@Model final class Chore {
    @Identifier var id: Int
    var title: String
    var done: Bool = false
}
// snippet: context-end

// snippet: context-actor-start
actor Importer {
    let context: ModelContext

    init(store: SQLiteStore) {
        context = ModelContext(store: store)
    }

    /// Maps and saves a payload of chores; only their count leaves the actor.
    func importChores(_ data: Data) async throws -> Int {
        let chores = try [Chore](jsonData: data, context: context)
        try await context.save()
        return chores.count
    }
}
// snippet: context-actor-end

@Suite struct ContextArticleExampleTests {
    /// The article's background actor: a context of its own, over the store the test shares
    /// with it; it prints what its comments show, and the article shows it word for word.
    @Test func anActorWorksThroughAContextOfItsOwn() async throws {
        let store = try SQLiteStore()
        try await store.save(Chore(id: 1, title: "write the docs"))
        let output = try await ExampleOutput.capture {
            // snippet: context-actor-start
            let importer = Importer(store: store)
            let imported = try await importer.importChores(Data(#"[{"id": 3, "title": "import"}]"#.utf8))
            print(imported, try await store.fetchCount(Chore.self))  // 1 2
            // snippet: context-actor-end
        }
        let snippet = try DocumentationExamples.snippet("context-actor", inFile: #filePath)
        #expect(output == DocumentationExamples.commentedOutput(of: snippet), "printed:\n\(output.joined(separator: "\n"))")
        let article = try String(
            contentsOf: DocumentationExamples.catalogue.appendingPathComponent("WorkingWithAContext.md"), encoding: .utf8)
        #expect(article.contains("```swift\n" + snippet + "\n```"), "WorkingWithAContext.md shows the actor example word for word")
    }

    @Test func context() async throws {
        let output = try await ExampleOutput.capture {
            // snippet: context-start
            let store = try SQLiteStore()                   // or a file, MemoryStore(), PostgresStore
            let context = ModelContext(store: store)        // mergePolicy: .error by default

            let docs = Chore(id: 1, title: "write the docs")
            let release = Chore(id: 2, title: "ship it")
            try context.insert(docs)
            try context.insert(release)
            print(context.hasChanges, context.insertedModels.count)  // true 2
            try await context.save()                                  // both rows, one transaction
            print(context.hasChanges)  // false

            withObservationTracking { _ = docs.done } onChange: {
                print("done will change")  // done will change
            }
            docs.done = true
            print(context.changedProperties(of: docs))  // ["done"]
            try context.rollback()
            print(docs.done, context.hasChanges)  // false false

            var titles = docs.changes(of: \.title).makeAsyncIterator()
            print(await titles.next() ?? "")  // write the docs
            docs.title = "write the article"
            print(await titles.next() ?? "")  // write the article

            try context.delete(release)
            try await context.save()                                  // one UPDATE, one DELETE
            print(try await store.fetchAll(Chore.self).map(\.title))  // ["write the article"]
            // snippet: context-end
        }
        #expect(
            output == DocumentationExamples.commentedOutput(of: try DocumentationExamples.snippet("context", inFile: #filePath)),
            "printed:\n\(output.joined(separator: "\n"))")
    }
}
