// snippet: relationships-start
import ModelKit
import ModelKitStore
// snippet: relationships-end
import ModelKitTestSupport
import Testing

// The example "Relationships" starts from (see `DocumentationArticleTests`): it runs here, on
// every store, and what it prints is checked against the comments it shows.

/// Collects the example's prints (outside `ExampleOutput.capture` it prints as usual).
private func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    ExampleOutput.print(items, separator: separator, terminator: terminator)
}

// snippet: relationships-start
@Model final class BlogAuthor {
    @Identifier var id: Int
    var name: String
    @Relationship(deleteRule: .cascade, inverse: \BlogPost.writer) var posts: [BlogPost] = []
}

@Model final class BlogPost {
    @Identifier var id: Int
    var title: String
    var writer: BlogAuthor?
    var tags: [Tag] = []
    @Relationship(deleteRule: .cascade, inverse: \Comment.post) var comments: [Comment] = []
}

@Model final class Comment {
    @Identifier var id: Int
    var text: String
    var post: BlogPost
}

@Model final class Tag {
    @Identifier var name: String
    @Relationship(inverse: \BlogPost.tags) var posts: [BlogPost] = []
}
// snippet: relationships-end

@Suite struct RelationshipsArticleExampleTests {
    @Test(arguments: StoreKind.allCases)
    func relationships(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let made = try kind.make(in: directory)
        let output = try await ExampleOutput.capture {
            let store = made
            // snippet: relationships-start
            let ada = BlogAuthor(id: 1, name: "Ada")
            let post = BlogPost(id: 10, title: "Notes", writer: ada, tags: [Tag(name: "swift")])
            let reply = Comment(id: 100, text: "Nice", post: post)
            post.comments.append(Comment(id: 101, text: "Thanks", post: reply.post))
            // Inverses are kept in memory: one side set, the other follows.
            print(ada.posts.map(\.title), post.comments.map(\.id))  // ["Notes"] [100, 101]
            try await store.save(ada)  // the writer, her post, its comments and its tag

            // A graph with cycles loads back whole: one instance per identifier.
            let loaded = try await store.fetchOne(BlogPost.self, id: 10)!
            print(loaded.comments.map(\.text), loaded.comments[0].post === loaded)  // ["Nice", "Thanks"] true

            // Conditions through references: the comments of a post, and of a writer's posts.
            print(try await store.fetchCount(ModelQuery(Comment.self).filter(\Comment.post == loaded)))  // 2
            let byAda = ModelQuery(Comment.self).filter((\Comment.post).matching((\BlogPost.writer).matching(\BlogAuthor.name == "Ada")))
            print(try await store.fetchCount(byAda))  // 2
            // Conditions on the models of a to-many: the posts with a comment that says "Thanks".
            print(try await store.fetchCount(ModelQuery(BlogPost.self).filter((\BlogPost.comments).contains(where: \Comment.text == "Thanks"))))  // 1
            // A to-many loads on first access, or with the fetch when the query prefetches it.
            let posts = try await store.fetchAll(ModelQuery(BlogPost.self).prefetching(\.comments, \.tags))
            print(posts.map { $0.comments.count }, posts[0].tags.map(\.name))  // [2] ["swift"]
            // A many-to-many lies in a join table: both sides load, and conditions go through it.
            let swift = try await store.fetchOne(Tag.self, id: "swift")!
            print(swift.posts.map(\.title), try await store.fetchCount(ModelQuery(BlogPost.self).filter((\BlogPost.tags).contains(swift))))  // ["Notes"] 1
            // Ordering through a reference: the comments by their post's title, then by identifier.
            print(try await store.fetchAll(ModelQuery(Comment.self).order(through: \Comment.post, by: \BlogPost.title).order(by: \Comment.id)).map(\.id))  // [100, 101]

            // Deleting follows the rules, in the delete's transaction: her posts go, and their comments.
            try await store.delete(ada)
            print(try await store.fetchCount(BlogPost.self), try await store.fetchCount(Comment.self))  // 0 0
            print(try await store.fetchCount(Tag.self), try await store.fetchOne(Tag.self, id: "swift")!.posts.count)  // 1 0
            // snippet: relationships-end
            ada.posts = []
            post.comments = []
            post.tags = []
            loaded.comments = []
            loaded.tags = []
            swift.posts = []
            posts.forEach { $0.comments = []; $0.tags = [] }
        }
        let snippet = try DocumentationExamples.snippet("relationships", inFile: #filePath)
        #expect(output == DocumentationExamples.commentedOutput(of: snippet), "printed:\n\(output.joined(separator: "\n"))")
    }
}
