import Foundation
import ModelKit
import ModelKitStore
import ModelKitTestSupport
import Testing

/// Conditions through to-one references: "the articles of this blogger", and conditions on the
/// models a chain of references leads to (`matching(_:)`), with the same results on every store.
@Suite struct StoreRelationshipQueryTests {
    /// Ada (1) writes 10 and 11, Grace (2) writes 20, article 30 has no blogger; remarks 1000
    /// and 1001 are on 10, 2000 on 20.
    func saveBlog(to store: some ModelStore) async throws {
        let ada = Blogger(id: 1, name: "Ada")
        let grace = Blogger(id: 2, name: "Grace")
        let articles = [
            Article(id: 10, title: "Notes", blogger: ada, editor: grace), Article(id: 11, title: "Tables", blogger: ada),
            Article(id: 20, title: "Compilers", blogger: grace), Article(id: 30, title: "Anonymous"),
        ]
        try await store.save(articles)
        try await store.save([
            Remark(id: 1000, article: articles[0]), Remark(id: 1001, article: articles[0]), Remark(id: 2000, article: articles[2]),
        ])
    }

    func ids(_ store: some ModelStore, _ predicate: ModelPredicate<Article>) async throws -> [Int] {
        try await store.fetchAll(ModelQuery(Article.self).filter(predicate).order(by: \Article.id)).map(\.id)
    }

    @Test(arguments: StoreKind.allCases)
    func theModelsThatReferToAModel(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        try await saveBlog(to: store)
        let ada = try #require(try await store.fetchOne(Blogger.self, id: 1))
        try await expectEqual(ids(store, \Article.blogger == ada), [10, 11])
        try await expectEqual(ids(store, \Article.blogger != ada), [20, 30])
        try await expectEqual(ids(store, \Article.blogger == nil), [30])
        try await expectEqual(ids(store, (\Article.blogger).in([ada])), [10, 11])
        let notes = try #require(try await store.fetchOne(Article.self, id: 10))
        try await expectEqual(
            store.fetchAll(ModelQuery(Remark.self).filter(\Remark.article == notes).order(by: \Remark.id)).map(\.id),
            [1000, 1001])
    }

    @Test(arguments: StoreKind.allCases)
    func aFilterThroughAChainOfReferences(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        try await saveBlog(to: store)
        try await expectEqual(ids(store, (\Article.blogger).matching(\Blogger.name == "Ada")), [10, 11])
        try await expectEqual(ids(store, (\Article.editor).matching(\Blogger.name == "Grace") || (\Article.blogger).matching(\Blogger.name == "Grace")), [10, 20])
        try await expectEqual(ids(store, !(\Article.blogger).matching(\Blogger.name == "Ada")), [20], "no blogger: unknown, as in SQL")
        try await expectEqual(ids(store, (\Article.blogger).matching((\Blogger.name).hasPrefix("gr", options: .caseInsensitive))), [20])
        try await expectEqual(ids(store, (\Article.blogger).matching((\Blogger.id).in([2, 3]))), [20])
        let remarks = ModelQuery(Remark.self).filter(
            (\Remark.article).matching((\Article.blogger).matching(\Blogger.name == "Ada") && \Article.title == "Notes"))
        try await expectEqual(store.fetchAll(remarks.order(by: \Remark.id)).map(\.id), [1000, 1001])
        try await expectEqual(store.fetchCount(ModelQuery(Remark.self).filter((\Remark.article).matching((\Article.blogger).matching(\Blogger.name == "Grace")))), 1)
        try await expectEqual(store.deleteAll(ModelQuery(Remark.self).filter((\Remark.article).matching((\Article.blogger).matching(\Blogger.name == "Ada")))), 2)
        try await expectEqual(store.fetchCount(Remark.self), 1)
    }

    /// How many models a to-many holds (the inverse kept it as the articles were made).
    @Test(arguments: StoreKind.allCases)
    func theNumberOfModelsAToManyHolds(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        try await saveBlog(to: store)
        func bloggers(_ predicate: ModelPredicate<Blogger>) async throws -> [Int] {
            try await store.fetchAll(ModelQuery(Blogger.self).filter(predicate).order(by: \Blogger.id)).map(\.id)
        }
        try await expectEqual(bloggers((\Blogger.articles).count > 1), [1])
        try await expectEqual(bloggers((\Blogger.articles).count == 1), [2])
        try await expectEqual(bloggers((\Blogger.articles).count >= 1 && (\Blogger.articles).count <= 2), [1, 2])
        try await expectEqual(bloggers(!((\Blogger.articles).count != 2)), [1])
        try await expectEqual(bloggers((\Blogger.articles).count < 1), [])
        try await expectEqual(store.fetchCount(ModelQuery(Article.self).filter((\Article.remarks).count == 0)), 2)
    }

    /// The models whose to-many holds a given model: the bloggers of an article, the lists
    /// that hold it (identifiers of either kind: numbers here, text for labels).
    @Test(arguments: StoreKind.allCases)
    func theModelsWhoseToManyHoldsAModel(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        try await saveBlog(to: store)
        let notes = try #require(try await store.fetchOne(Article.self, id: 10))
        let compilers = try #require(try await store.fetchOne(Article.self, id: 20))
        try await store.save([ReadingList(id: 1, articles: [notes, compilers]), ReadingList(id: 2, articles: [compilers])])
        func lists(_ predicate: ModelPredicate<ReadingList>) async throws -> [Int] {
            try await store.fetchAll(ModelQuery(ReadingList.self).filter(predicate).order(by: \ReadingList.id)).map(\.id)
        }
        try await expectEqual(lists((\ReadingList.articles).contains(notes)), [1])
        try await expectEqual(lists((\ReadingList.articles).contains(compilers)), [1, 2])
        try await expectEqual(lists(!(\ReadingList.articles).contains(notes)), [2])
        try await expectEqual(
            store.fetchAll(ModelQuery(Blogger.self).filter((\Blogger.articles).contains(notes))).map(\.id), [1])
        let swift = NoteTag(name: "swift")
        try await store.save([TaggedNote(id: 1, tags: [swift]), TaggedNote(id: 2)])
        try await expectEqual(
            store.fetchAll(ModelQuery(TaggedNote.self).filter((\TaggedNote.tags).contains(swift))).map(\.id), [1])
    }

    /// A condition through a reference to a model none of which was ever saved (its table not
    /// made yet) selects nothing, as on a table without rows.
    @Test(arguments: StoreKind.allCases)
    func aConditionThroughAReferenceToAModelNeverSavedSelectsNothing(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        try await store.save(Bookcase(id: 1))
        let query = ModelQuery(Bookcase.self).filter((\Bookcase.id).in([1]))
        try await expectEqual(store.fetchCount(query), 1)
        let tomes = ModelQuery(Tome.self).filter((\Tome.bookcase).matching(\Bookcase.id == 1))
        try await expectEqual(store.fetchCount(tomes), 0)
        let throughNever = ModelQuery(Article.self).filter((\Article.license).matching(\License.id == "cc"))
        try await expectEqual(store.fetchAll(throughNever).count, 0)
        try await expectEqual(store.fetchCount(throughNever), 0)
    }

    /// The SQL a query through a reference runs: a subquery per hop, one statement.
    @Test func theSQLIsASubqueryPerReference() throws {
        let sql = try ModelQuery(Remark.self).filter((\Remark.article).matching((\Article.blogger).matching(\Blogger.name == "Ada"))).selectSQL()
        expectEqual(
            sql.sql,
            #"SELECT "id", "article", "_version" FROM "Remark" WHERE "article" IN (SELECT "id" FROM "Article" WHERE "blogger" IN (SELECT "id" FROM "Blogger" WHERE "name" = ?))"#
        )
        expectEqual(sql.arguments, [.text("Ada")])
    }

    /// An order through a to-one reference: by a value of the model it leads to, a nil reference
    /// first (ascending) as a nil value, in one table too (nodes by their parent's title).
    @Test(arguments: StoreKind.allCases)
    func anOrderThroughAReference(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        let topics = [Topic(id: 1, title: "b"), Topic(id: 2, title: "c"), Topic(id: 3, title: "a")]
        let replies = [
            Reply(id: 10, text: "x", topic: topics[0]), Reply(id: 11, text: "y", topic: topics[1]),
            Reply(id: 12, text: "z", topic: topics[2]), Reply(id: 13, text: "w"),
        ]
        try await store.save(replies)
        let ascending = try await store.fetchAll(ModelQuery(Reply.self).order(through: \Reply.topic, by: \Topic.title))
        expectEqual(ascending.map(\.id), [13, 12, 10, 11])
        let descending = try await store.fetchAll(
            ModelQuery(Reply.self).order(through: \Reply.topic, by: \Topic.title, .descending).limit(2))
        expectEqual(descending.map(\.id), [11, 10])
        let then = ModelQuery(Reply.self).filter(\Reply.topic != nil).order(through: \Reply.topic, by: \Topic.id, .descending)
        try await expectEqual(store.fetchAll(then).map(\.id), [12, 11, 10])

        let root = Outline(id: 1, title: "root")
        let zeta = Outline(id: 2, title: "zeta", parent: root)
        _ = Outline(id: 3, title: "under zeta", parent: zeta)
        let alpha = Outline(id: 4, title: "alpha", parent: root)
        _ = Outline(id: 5, title: "under alpha", parent: alpha)
        try await store.save(root)
        let nodes = try await store.fetchAll(
            ModelQuery(Outline.self).order(through: \Outline.parent, by: \Outline.title).order(by: \Outline.id))
        expectEqual(nodes.map(\.id), [1, 5, 2, 4, 3])
        Topic.breakCycles(topics + ascending.compactMap(\.topic))
        Outline.breakCycles([root] + nodes)
    }

    /// A key path inside a to-many names no column: a typed error saying so.
    @Test func aKeyPathInsideAToManyIsRefused() async throws {
        let store = MemoryStore()
        let error = await #expect(throws: StoreError.self) {
            try await store.fetchAll(ModelQuery(ReadingList.self).filter(\ReadingList.articles.count == 2))
        }
        #expect(error?.kind == .unknownKeyPath)
    }
}

/// A note with tags identified by text, for a to-many of text identifiers.
@Model final class TaggedNote {
    @Identifier var id: Int
    var tags: [NoteTag] = []
}

@Model final class NoteTag {
    @Identifier var name: String
}
