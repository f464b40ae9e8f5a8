import Foundation
import ModelKit
import ModelKitStore
import ModelKitTestSupport
import Testing

/// Inverses kept in memory meet the unit of work: a change of one side is a change of both
/// models, a save writes both, and a rollback restores both.
@Suite struct StoreInverseTests {
    @Test(arguments: StoreKind.allCases)
    func aContextTracksAndRollsBackBothSides(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        let ada = Blogger(id: 1, name: "Ada")
        let grace = Blogger(id: 2, name: "Grace")
        _ = Article(id: 10, title: "Notes", blogger: ada)
        try await store.save([ada, grace])
        ada.articles = []

        let context = ModelContext(store: store)
        let bloggers = try await store.fetchAll(ModelQuery(Blogger.self).order(by: \Blogger.id), context: context)
        let article = try #require(bloggers[0].articles.first)
        article.blogger = bloggers[1]
        expectEqual(bloggers.map { $0.articles.map(\.id) }, [[], [10]])
        expectEqual(context.changedProperties(of: article), ["blogger"])
        expectEqual(context.changedProperties(of: bloggers[0]), ["articles"])
        expectEqual(context.changedProperties(of: bloggers[1]), ["articles"])

        try context.rollback()
        #expect(article.blogger === bloggers[0])
        expectEqual(bloggers.map { $0.articles.map(\.id) }, [[10], []])
        #expect(!context.hasChanges)

        article.blogger = bloggers[1]
        try await context.save()
        let stored = try await store.fetchAll(ModelQuery(Blogger.self).order(by: \Blogger.id))
        expectEqual(stored.map { $0.articles.map(\.id) }, [[], [10]])
        expectEqual(try await store.fetchOne(Article.self, id: 10)?.blogger?.id, 2)
        bloggers.forEach { $0.articles = [] }
        stored.forEach { $0.articles = [] }
    }
}
