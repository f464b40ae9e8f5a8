import Foundation
import GRDB
import ModelKit
import ModelKitStore
import ModelKitTestSupport
import Testing

// A blog: bloggers write articles (deleting a blogger deletes them, and their remarks), edit
// others' (the reference becomes nil), hold badges (which cannot lose their holder), keep a
// profile (deleted with them) and reading lists (to-many, undeclared: they lose the article).

@Model final class Blogger {
    @Identifier var id: Int
    var name: String
    @Relationship(deleteRule: .cascade, inverse: \Article.blogger) var articles: [Article] = []
    @Relationship(deleteRule: .cascade) var profile: BloggerProfile?
}

@Model final class Article {
    @Identifier var id: Int
    var title: String
    var blogger: Blogger?
    var editor: Blogger?
    @Relationship(deleteRule: .cascade, inverse: \Remark.article) var remarks: [Remark] = []
    @Relationship(deleteRule: .deny) var license: License?
}

@Model final class Remark {
    @Identifier var id: Int
    var article: Article
}

@Model final class BloggerProfile {
    @Identifier var id: Int
    var bio: String
}

@Model final class Badge {
    @Identifier var id: String
    var holder: Blogger
}

@Model final class License {
    @Identifier var id: String
}

@Model final class ReadingList {
    @Identifier var id: Int
    var articles: [Article] = []
}

/// A bookcase whose volumes are left as they are when it goes (`.noAction`).
@Model final class Bookcase {
    @Identifier var id: Int
    @Relationship(deleteRule: .noAction, inverse: \Tome.bookcase) var tomes: [Tome] = []
}

@Model final class Tome {
    @Identifier var id: Int
    var bookcase: Bookcase
}

/// Delete rules run in the delete's transaction on every store, through `delete`, `deleteAll`
/// and a context's save, and a context's live instances follow.
@Suite struct StoreDeleteRuleTests {
    /// Ada (1) writes articles 10 and 11 (remarks on 10), Grace (2) writes 20 and edits 10.
    func saveBlog(to store: some ModelStore) async throws {
        let ada = Blogger(id: 1, name: "Ada", profile: BloggerProfile(id: 100, bio: "engines"))
        let grace = Blogger(id: 2, name: "Grace")
        let first = Article(id: 10, title: "Notes", blogger: ada, editor: grace)
        let second = Article(id: 11, title: "Tables", blogger: ada)
        let third = Article(id: 20, title: "Compilers", blogger: grace, editor: ada)
        first.remarks = [Remark(id: 1000, article: first), Remark(id: 1001, article: first)]
        ada.articles = [first, second]
        grace.articles = [third]
        try await store.save([ada, grace])
        try await store.save(ReadingList(id: 7, articles: [first, third]))
        // No cycle left alive in memory.
        first.remarks = []
        ada.articles = []
        grace.articles = []
    }

    @Test(arguments: StoreKind.allCases)
    func cascadeDeletesWhatTheRuleReachesAndNullifyEmptiesTheRest(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        try await saveBlog(to: store)
        #expect(try await store.deleteOne(Blogger.self, id: 1))
        try await expectEqual(store.fetchAll(ModelQuery(Blogger.self)).map(\.id), [2])
        try await expectEqual(store.fetchAll(ModelQuery(Article.self).order(by: \Article.id)).map(\.id), [20])
        try await expectEqual(store.fetchCount(Remark.self), 0)
        try await expectEqual(store.fetchCount(BloggerProfile.self), 0)
        let kept = try #require(try await store.fetchOne(Article.self, id: 20))
        #expect(kept.editor == nil, "Ada edited it: the reference is nullified")
        #expect(kept.blogger?.id == 2)
        let list = try #require(try await store.fetchOne(ReadingList.self, id: 7))
        expectEqual(list.articles.map(\.id), [20])
    }

    /// A reference that cannot be nil refuses the delete, naming the rows; nothing changes,
    /// and the delete goes through once they are gone.
    @Test(arguments: StoreKind.allCases)
    func aReferenceThatCannotBeNilRefusesTheDelete(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        try await saveBlog(to: store)
        let grace = try #require(try await store.fetchOne(Blogger.self, id: 2))
        try await store.save([Badge(id: "b", holder: grace), Badge(id: "a", holder: grace)])
        let error = await #expect(throws: StoreError.self) { try await store.deleteAll(ModelQuery(Blogger.self)) }
        #expect(error?.kind == .deleteDenied)
        expectEqual(
            error?.description,
            #"cannot delete 'Blogger' 2: 'Badge' "a", "b" refer to it through 'holder', which cannot be nil: delete or change those first, or declare what a delete does with '@Relationship(deleteRule: .cascade, inverse: \Badge.holder)' on 'Blogger'"#
        )
        try await expectEqual(store.fetchCount(Blogger.self), 2)
        try await expectEqual(store.fetchCount(Article.self), 3)
        try await expectEqual(store.fetchCount(Remark.self), 2)
        try await store.deleteAll(Badge.self)
        try await expectEqual(store.deleteAll(ModelQuery(Blogger.self)), 2)
        try await expectEqual(store.fetchCount(Article.self), 0)
    }

    /// `.deny` on a relationship: the model cannot go while it refers to anything.
    @Test(arguments: StoreKind.allCases)
    func aDenyRuleRefusesTheDeleteWhileTheRelationshipRefersToAModel(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        let licensed = Article(id: 1, title: "Licensed", license: License(id: "cc-by"))
        try await store.save([licensed, Article(id: 2, title: "Free")])
        let error = await #expect(throws: StoreError.self) { try await store.delete(licensed) }
        expectEqual(
            error?.description,
            #"cannot delete 'Article' 1: its 'license' refers to 'License' "cc-by" and its rule is '.deny': delete or unlink those first"#
        )
        #expect(try await store.deleteOne(Article.self, id: 2))
        licensed.license = nil
        try await store.save(licensed)
        #expect(try await store.delete(licensed))
        try await expectEqual(store.fetchCount(License.self), 1)
    }

    /// `.noAction` leaves the references as they are: loading one is an error naming both rows,
    /// and the other rows of the table still load.
    @Test(arguments: StoreKind.allCases)
    func noActionLeavesAReferenceThatNamesBothRowsWhenLoaded(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        let left = Bookcase(id: 1)
        let right = Bookcase(id: 2)
        try await store.save([Tome(id: 10, bookcase: left), Tome(id: 20, bookcase: right)])
        #expect(try await store.deleteOne(Bookcase.self, id: 1))
        let error = await #expect(throws: StoreError.self) { try await store.fetchOne(Tome.self, id: 10) }
        #expect(error?.kind == .missingReference)
        #expect(error?.description.hasPrefix("cannot load 'Tome' 10: cannot map 'Tome.bookcase'") == true, "\(String(describing: error))")
        #expect(error?.description.hasSuffix("cannot load 'Bookcase' 1: no such row in the store") == true)
        try await expectEqual(store.fetchOne(Tome.self, id: 20)?.bookcase.id, 2)
    }

    /// Through a context: the save deletes what the rules reach, cascaded instances leave the
    /// context, nullified references become nil in memory, and nothing counts as an edit.
    @Test(arguments: StoreKind.allCases)
    func aContextsLiveInstancesFollowTheRules(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        try await saveBlog(to: store)
        let context = ModelContext(store: store)
        let articles = try await store.fetchAll(ModelQuery(Article.self).order(by: \Article.id), context: context)
        let list = try #require(try await store.fetchOne(ReadingList.self, id: 7, context: context))
        let ada = try #require(articles.first?.blogger)
        let compilers = try #require(articles.last)
        #expect(compilers.editor === ada)
        try context.delete(ada)
        try await context.save()
        #expect(compilers.editor == nil)
        #expect(compilers.blogger?.id == 2)
        expectEqual(list.articles.map(\.id), [20])
        #expect(!context.hasChanges, "\(context.changedProperties(of: compilers))")
        #expect(context.registeredModel(Article.self, id: 10) == nil, "a cascaded article leaves the context")
        #expect(context.registeredModel(Remark.self, id: 1000) == nil)
        #expect(try context.model(Article.self, id: 10) == nil)
        try await expectEqual(store.fetchCount(Article.self), 1)
    }

    /// A rule applies inside a transaction like every other write of it: rolled back with it.
    @Test(arguments: StoreKind.allCases)
    func aRuleRollsBackWithItsTransaction(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        try await saveBlog(to: store)
        struct Abort: Error {}
        await #expect(throws: Abort.self) {
            try await store.write { tx in
                try await tx.deleteOne(Blogger.self, id: 1)
                try expectEqual(await tx.fetchCount(Article.self), 1)
                throw Abort()
            }
        }
        try await expectEqual(store.fetchCount(Article.self), 3)
        try await expectEqual(store.fetchOne(Article.self, id: 20)?.editor?.id, 1)
    }

    /// A delete looks only at the tables the store has: the types that refer to the model but
    /// were never saved there get no table made to be searched.
    @Test func aDeleteMakesNoTableForTypesNeverSavedThere() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("blog.sqlite")
        let store = try SQLiteStore(path: path)
        try await store.save(Blogger(id: 1, name: "Ada"))
        #expect(try await store.deleteOne(Blogger.self, id: 1))
        try store.close()
        let tables = try await DatabaseQueue(path: path).read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        }
        #expect(!tables.contains("Article") && !tables.contains("Badge"), "\(tables)")
        #expect(tables.contains("Blogger"))
    }
}
