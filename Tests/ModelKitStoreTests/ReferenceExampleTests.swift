// snippet: reference-store-start
import Foundation
// snippet: reference-keypath-start
// snippet: reference-modelcontext-start
import ModelKit
import ModelKitStore
// snippet: reference-modelcontext-end
// snippet: reference-keypath-end
// snippet: reference-store-end
import ModelKitTestSupport
import Testing

// The examples ModelKitStore's reference pages start from (the module, `KeyPath` and
// `ModelContext`; see `DocumentationArticleTests`): each runs here, and what it prints is
// checked against the comments it shows.

/// Collects the examples' prints (outside `ExampleOutput.capture` it prints as usual).
private func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    ExampleOutput.print(items, separator: separator, terminator: terminator)
}

// snippet: reference-store-start
@Model final class Recipe {
    @Identifier var id: Int
    var name: String
    var stars: Int = 0
}
// snippet: reference-store-end

// snippet: reference-keypath-start
@Model final class Tweet {
    @Identifier var id: Int
    var text: String
    var lang: String
    var retweetCount: Int = 0
}
// snippet: reference-keypath-end

// snippet: reference-modelcontext-start
@Model final class Errand {
    @Identifier var id: Int
    var title: String
    var done: Bool = false
}
// snippet: reference-modelcontext-end

@Suite struct StoreReferenceExampleTests {
    @Test func store() async throws {
        let output = try await ExampleOutput.capture {
            // snippet: reference-store-start
            let store = try SQLiteStore()                   // in memory; SQLiteStore(path:) for a file
            let context = ModelContext(store: store)
            let payload = Data(#"[{"id": 1, "name": "pho", "stars": 5}, {"id": 2, "name": "toast"}]"#.utf8)
            let recipes = try [Recipe](jsonData: payload, context: context)
            try await store.save(recipes)                   // both rows, one transaction
            let starred = try await store.fetchAll(ModelQuery(Recipe.self).filter(\Recipe.stars > 0), context: context)
            print(starred.map(\.name), starred[0] === recipes[0])  // ["pho"] true

            let removed = try await store.write { tx in    // several operations, one transaction
                try await tx.deleteAll(ModelQuery(Recipe.self).filter(\Recipe.stars == 0))
            }
            print(removed, try await store.fetchCount(Recipe.self))  // 1 1
            // snippet: reference-store-end
        }
        #expect(
            output == DocumentationExamples.commentedOutput(of: try DocumentationExamples.snippet("reference-store", inFile: #filePath)),
            "printed:\n\(output.joined(separator: "\n"))")
    }

    @Test func keyPath() async throws {
        let output = try await ExampleOutput.capture {
            // snippet: reference-keypath-start
            let store = try SQLiteStore()
            try await store.save([
                Tweet(id: 1, text: "Swift 6.3 is out", lang: "en", retweetCount: 12),
                Tweet(id: 2, text: "Swift の勉強会", lang: "ja", retweetCount: 40),
                Tweet(id: 3, text: "おはよう", lang: "ja", retweetCount: 50),
                Tweet(id: 4, text: "bonjour", lang: "fr"),
            ])
            let popular = ModelQuery(Tweet.self).filter(\Tweet.retweetCount > 10 && \Tweet.lang == "ja")
            let swiftOrEuropean = ModelQuery(Tweet.self)
                .filter((\Tweet.text).contains("Swift") || (\Tweet.lang).in(["en", "fr"]))
            print(try await store.fetchAll(popular).map(\.id))  // [2, 3]
            print(try await store.fetchAll(swiftOrEuropean).map(\.id))  // [1, 2, 4]
            // snippet: reference-keypath-end
        }
        #expect(
            output == DocumentationExamples.commentedOutput(of: try DocumentationExamples.snippet("reference-keypath", inFile: #filePath)),
            "printed:\n\(output.joined(separator: "\n"))")
    }

    @Test func modelContext() async throws {
        let output = try await ExampleOutput.capture {
            // snippet: reference-modelcontext-start
            let store = try SQLiteStore()
            let context = ModelContext(store: store)
            let errand = Errand(id: 1, title: "post the parcel")
            try context.insert(errand)
            print(context.hasChanges)  // true
            try await context.save()                        // one INSERT, one transaction
            errand.done = true
            print(context.changedProperties(of: errand))  // ["done"]
            try await context.save()                        // one UPDATE
            print(context.hasChanges, try await store.fetchOne(Errand.self, id: 1)?.done ?? false)  // false true
            // snippet: reference-modelcontext-end
        }
        #expect(
            output == DocumentationExamples.commentedOutput(of: try DocumentationExamples.snippet("reference-modelcontext", inFile: #filePath)),
            "printed:\n\(output.joined(separator: "\n"))")
    }
}
