import Foundation
import GRDB
import ModelKit
import ModelKitStore
import ModelKitTestSupport
import Testing

/// Collects the article example's prints (outside `ExampleOutput.capture` it prints as usual).
private func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    ExampleOutput.print(items, separator: separator, terminator: terminator)
}

// snippet: store-search-start
@Model(search: ["title", "body"])
final class Post {
    @Identifier var id: Int
    var title: String
    var body: String?
    var likes: Int = 0
}
// snippet: store-search-end

/// Full-text search on every store: the rows holding every word, best first, kept in step with
/// saves, edits and deletes.
@Suite struct StoreSearchTests {
    static func posts() -> [Post] {
        [
            Post(id: 1, title: "Swift concurrency", body: "Actors isolate state; actors and tasks.", likes: 5),
            Post(id: 2, title: "Rust ownership", body: "Borrowing, lifetimes and a note on Swift.", likes: 9),
            Post(id: 3, title: "Cooking", body: nil, likes: 1),
            Post(id: 4, title: "Swift actors", body: "Swift actors, swift tasks, Swift everywhere.", likes: 2),
            Post(id: 5, title: "Café au lait", body: "Milk, coffee; ÜBER good.", likes: 3),
        ]
    }

    /// The identifiers a search finds, in any order, and as Swift would find them.
    static let searches: [(text: String, ids: Set<Int>)] = [
        ("swift", [1, 2, 4]),
        ("SWIFT Actors", [1, 4]),
        ("actors tasks", [1, 4]),
        ("lifetimes", [2]),
        ("über", [5]),
        ("café", [5]),
        ("cafe", []),
        ("swift cooking", []),
        ("nothing-here", []),
    ]

    @Test(arguments: StoreKind.allCases)
    func aSearchFindsTheRowsHoldingEveryWord(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        try await store.save(Self.posts())
        for (text, ids) in Self.searches {
            let found = try await store.fetchAll(ModelQuery(Post.self).search(text)).map(\.id)
            expectEqual(Set(found), ids, "search \(text)")
            expectEqual(found.count, ids.count, "search \(text)")
            try expectEqual(await store.fetchCount(ModelQuery(Post.self).search(text)), ids.count, "count \(text)")
        }
        // Best first: post 4 says "swift" four times, the others once.
        let ranked = try await store.fetchAll(ModelQuery(Post.self).search("swift")).map(\.id)
        expectEqual(ranked.first, 4)
        // With a filter, a limit, and text without words (every row).
        // Posts 1 and 2 have over 4 likes; post 1 says "swift" once in fewer words than post 2.
        let popular = try await store.fetchAll(ModelQuery(Post.self).search("swift").filter(\Post.likes > 4)).map(\.id)
        expectEqual(Set(popular), [1, 2])
        try expectEqual(await store.fetchCount(ModelQuery(Post.self).search(" -- ")), 5)
    }

    @Test(arguments: StoreKind.allCases)
    func theIndexFollowsEditsAndDeletes(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        let posts = Self.posts()
        try await store.save(posts)
        posts[2].body = "Swift recipes"
        try await store.save(posts[2])
        try await store.deleteOne(Post.self, id: 2)
        posts[0].title = "Kotlin coroutines"
        posts[0].body = nil
        try await store.save(posts[0])
        try expectEqual(Set(await store.fetchAll(ModelQuery(Post.self).search("swift")).map(\.id)), [3, 4])
        try expectEqual(await store.fetchAll(ModelQuery(Post.self).search("coroutines")).map(\.id), [1])
    }

    @Test func aTableSavedBeforeItWasSearchableIsIndexedWhole() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("old.sqlite")
        let database = try DatabaseQueue(path: path)
        try await database.write { db in
            try db.execute(sql: #"CREATE TABLE "Post" ("id" INTEGER PRIMARY KEY NOT NULL, "title" TEXT, "body" TEXT, "likes" INTEGER, "_version" INTEGER NOT NULL DEFAULT 0)"#)
            try db.execute(sql: #"INSERT INTO "Post" ("id", "title", "body", "likes") VALUES (1, 'Old swift post', NULL, 0), (2, 'Other', 'text', 0)"#)
        }
        try database.close()
        let store = try SQLiteStore(path: path)
        try expectEqual(await store.fetchAll(ModelQuery(Post.self).search("swift")).map(\.id), [1])
    }

    @Test func aModelWithoutSearchablePropertiesSaysSo() async throws {
        let store = MemoryStore()
        let error = await #expect(throws: StoreError.self) { try await store.fetchAll(ModelQuery(Counter.self).search("x")) }
        expectEqual(error?.description, "cannot query 'Counter': it has no searchable properties: name them with '@Model(search: [...])'")
    }

    /// The store article's example.
    @Test func theArticlesExample() async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(path: directory.path("posts.sqlite"))
        try await store.save(Self.posts())
        let output = try await ExampleOutput.capture {
            // snippet: store-search-start
            let hits = try await store.fetchAll(ModelQuery(Post.self).search("Swift actors"))
            print(hits.map(\.title))   // ["Swift actors", "Swift concurrency"]
            let popular = ModelQuery(Post.self).search("swift").filter(\Post.likes > 4)
            print(try await store.fetchCount(popular))   // 2
            // snippet: store-search-end
        }
        #expect(
            output == DocumentationExamples.commentedOutput(of: try DocumentationExamples.snippet("store-search", inFile: #filePath)),
            "printed:\n\(output.joined(separator: "\n"))")
    }
}
