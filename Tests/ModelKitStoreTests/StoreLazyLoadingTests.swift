import Foundation
import ModelKit
import ModelKitStore
import ModelKitTestSupport
import Testing

/// A to-many a fetch does not prefetch loads on its first access (SQLite and memory, whose
/// stores read without suspending; PostgreSQL's fetch loads it at once), and every path that
/// reads it sees what is stored: reads, in-place changes, JSON, archives, saves, a tracking
/// context.
@Suite struct StoreLazyLoadingTests {
    /// Topic 1 with replies 1 and 2, each with a reaction; essays 1 and 2 sharing keyword "a".
    func saved(in store: any ModelStore) async throws -> (Topic, [Essay]) {
        let topic = Topic(id: 1, title: "t")
        for id in 1...2 { _ = Reaction(id: id * 10, emoji: "+1", reply: Reply(id: id, text: "r\(id)", topic: topic)) }
        let keyword = Keyword(id: "a")
        let essays = [Essay(id: 1, title: "one"), Essay(id: 2, title: "two")]
        essays.forEach { $0.keywords = [keyword] }
        try await store.save(topic)
        try await store.save(essays)
        return (topic, essays)
    }

    @Test(arguments: StoreKind.allCases)
    func everyPathSeesWhatIsStored(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        let (topic, essays) = try await saved(in: store)

        // An in-place change starts from the stored models.
        let appended = try #require(try await store.fetchOne(Topic.self, id: 1))
        appended.replies.append(Reply(id: 3, text: "r3"))
        expectEqual(appended.replies.map(\.id), [1, 2, 3])
        #expect(appended.replies[2].topic === appended)
        // So does an assignment, whose removed models lose their inverse (saved by a context).
        let context = ModelContext(store: store)
        let assigned = try #require(try await store.fetchOne(Topic.self, id: 1, context: context))
        let kept = Reply(id: 4, text: "r4")
        assigned.replies = [kept]
        expectEqual(context.changedProperties(of: try #require(try await store.fetchOne(Reply.self, id: 1, context: context))), ["topic"])
        try await context.save()
        expectEqual(try await store.fetchOne(Topic.self, id: 1)?.replies.map(\.id), [4])
        try await expectEqual(store.fetchCount(ModelQuery(Reply.self).filter(\Reply.topic == nil)), 2)

        // JSON and archives write what is stored, not the empty array held meanwhile.
        let written = try #require(try await store.fetchOne(Topic.self, id: 1))
        expectEqual(String(decoding: try written.jsonData(), as: UTF8.self), #"{"id":1,"title":"t","replies":[{"id":4,"text":"r4","topic":null,"reactions":[]}]}"#)
        let unarchived = try KeyedUnarchiver.unarchive(Topic.self, from: try KeyedArchiver.archivedData(withRootObject: try #require(try await store.fetchOne(Topic.self, id: 1))))
        expectEqual(unarchived.replies.map(\.id), [4])

        // Saving a model whose many-to-many was never read keeps its join rows.
        let essay = try #require(try await store.fetchOne(Essay.self, id: 1))
        essay.title = "one, again"
        try await store.save(essay)
        expectEqual(try await store.fetchOne(Keyword.self, id: "a")?.essays.map(\.id), [1, 2])
        Topic.breakCycles([topic, appended, assigned, written, unarchived])
        Essay.breakCycles(essays + [essay])
    }

    /// In a tracking context a load on first access is no edit, and a save after it writes only
    /// what changed.
    @Test(arguments: StoreKind.allCases)
    func aLoadOnFirstAccessIsNoEdit(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        let (topic, essays) = try await saved(in: store)
        let context = ModelContext(store: store)
        let loaded = try #require(try await store.fetchOne(Topic.self, id: 1, context: context))
        expectEqual(loaded.replies.map { $0.reactions.map(\.id) }, [[10], [20]])
        #expect(!context.hasChanges)
        loaded.replies[0].text = "edited"
        expectEqual(context.changedProperties(of: loaded.replies[0]), ["text"])
        try await context.save()
        expectEqual(try await store.fetchOne(Reply.self, id: 1)?.text, "edited")
        #expect(context.relationshipLoadError == nil)
        Topic.breakCycles([topic, loaded])
        Essay.breakCycles(essays)
    }

    /// A rollback or a refresh of an owner changes none of its to-many relationships: one never
    /// loaded loads what is stored on its first access, one loaded keeps its models.
    @Test(arguments: StoreKind.allCases)
    func aRollbackOrARefreshKeepsTheToManys(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        let (topic, essays) = try await saved(in: store)
        let context = ModelContext(store: store)
        let pending = try #require(try await store.fetchOne(Topic.self, id: 1, context: context))
        pending.title = "edited"
        try context.rollback()
        expectEqual(pending.title, "t")
        expectEqual(pending.replies.map(\.id), [1, 2])

        // Another writer changes the title; the refresh takes it and keeps the loaded replies.
        let other = try #require(try await store.fetchOne(Topic.self, id: 1))
        other.title = "from elsewhere"
        try await store.save(other)
        #expect(try await context.refresh(pending))
        expectEqual(pending.title, "from elsewhere")
        expectEqual(pending.replies.map(\.id), [1, 2])
        #expect(!context.hasChanges)
        Topic.breakCycles([topic, pending, other])
        Essay.breakCycles(essays)
    }

    /// Inside one of the store's transactions a first access loads through that transaction
    /// (its writes seen, no second connection waited for).
    @Test(arguments: StoreKind.allCases)
    func aFirstAccessInsideATransactionReadsThroughIt(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        let (topic, essays) = try await saved(in: store)
        let ids = try await store.write { tx -> [Int] in
            let owner = try await tx.fetchOne(Topic.self, id: 1)
            try await tx.save(Reply(id: 3, text: "r3", topic: owner))
            let fresh = try #require(try await tx.fetchOne(Topic.self, id: 1))
            let ids = fresh.replies.map(\.id)
            Topic.breakCycles([fresh] + [owner].compactMap { $0 })
            return ids
        }
        expectEqual(ids, [1, 2, 3])
        Topic.breakCycles([topic])
        Essay.breakCycles(essays)
    }

    /// A first access once the store is closed leaves the relationship empty, with the error in
    /// the context; the explicit load throws it.
    @Test func aFirstAccessAfterTheStoreClosedIsATypedError() async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(path: directory.path("closing.sqlite"))
        let (topic, essays) = try await saved(in: store)
        let context = ModelContext(store: store)
        let loaded = try #require(try await store.fetchOne(Topic.self, id: 1, context: context))
        try store.close()
        expectEqual(loaded.replies.count, 0)
        #expect((context.relationshipLoadError as? StoreError)?.kind == .closed, "\(String(describing: context.relationshipLoadError))")
        let error = #expect(throws: StoreError.self) { try loaded.loadPendingRelationships() }
        expectEqual(error?.kind, .closed)
        #expect(throws: StoreError.self) { _ = try loaded.jsonData() }
        Topic.breakCycles([topic, loaded])
        Essay.breakCycles(essays)
    }
}
