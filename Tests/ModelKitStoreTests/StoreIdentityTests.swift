import Foundation
import ModelKit
import ModelKitStore
import ModelKitTestSupport
import Testing

/// Stores and contexts together: identity across loads, references through the identity map,
/// loading what is not live.
@Suite struct StoreIdentityTests {
    @Test(arguments: StoreKind.loading)
    func aContextLoadsWhatIsNotLiveFromItsStore(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        try await store.save([Counter(id: "a", count: 3), Counter(id: "b", count: 4)])
        let context = ModelContext(store: store as? any ModelLoading)
        #expect(context.registeredModel(Counter.self, id: "a") == nil)
        let loaded = try #require(try context.model(Counter.self, id: "a"))
        expectEqual(loaded.count, 3)
        #expect(context.registeredModel(Counter.self, id: "a") === loaded)
        #expect(try context.model(Counter.self, id: "a") === loaded)
        #expect(try context.model(Counter.self, id: "missing") == nil)
        // Fetching through the context returns the live instance, not a copy.
        #expect(try await store.fetchOne(Counter.self, id: "a", context: context) === loaded)
        #expect(try await store.fetchAll(Counter.self, context: context).first === loaded)
    }

    @Test(arguments: StoreKind.loading)
    func mappingAStoredIdentifierLoadsThenAppliesThePayload(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        try await store.save(Author(id: 5, name: "Ada", tags: ["math"], rating: 4))
        let context = ModelContext(store: store as? any ModelLoading)
        let mapped = try Author(json: ["id": 5, "name": "Ada Lovelace"], context: context)
        // The payload's values on top of the stored ones; keys it leaves out keep the stored values.
        #expect(mapped.name == "Ada Lovelace" && mapped.tags == ["math"] && mapped.rating == 4)
        #expect(context.registeredModel(Author.self, id: 5) === mapped)
        try await store.save(mapped)
        #expect(try await store.fetchOne(Author.self, id: 5)?.name == "Ada Lovelace")
    }

    @Test(arguments: StoreKind.allCases)
    func twoStatusesByOneUserShareOneUserAfterLoading(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        let expectedStatuses: Int
        do {
            let timeline = try twitterTimeline(context: ModelContext())
            let all = timeline.statuses + timeline.statuses.compactMap(\.retweetedStatus)
            expectedStatuses = Set(all.map(\.id)).count
            let userIDs: Set<String> = Set(all.map { $0.user.id })
            expectEqual(userIDs.count, 115)
            try await store.save(timeline.statuses)
        }
        // The statuses, their retweeted statuses and every user, each saved once.
        #expect(expectedStatuses > 100)
        try await expectEqual(store.fetchCount(Status.self), expectedStatuses)
        try await expectEqual(store.fetchCount(TwitterUser.self), 115)

        let context = ModelContext(store: store as? any ModelLoading)
        let statuses = try await store.fetchAll(Status.self, context: context)
        expectEqual(statuses.count, expectedStatuses)
        let byUser = Dictionary(grouping: statuses, by: \.user.id)
        expectEqual(byUser.count, 115)
        for (id, group) in byUser {
            #expect(group.allSatisfy { $0.user === group[0].user }, "user \(id)")
            #expect(context.registeredModel(TwitterUser.self, id: id) === group[0].user)
        }
        // Statuses retweeting one status share that status, and so its user.
        let byRetweet = Dictionary(grouping: statuses.filter { $0.retweetedStatus != nil }, by: \.retweetedStatus!.id)
        let largest = try #require(byRetweet.values.max { $0.count < $1.count })
        #expect(largest.count > 10)
        #expect(largest.allSatisfy { $0.retweetedStatus === largest[0].retweetedStatus })
        #expect(largest.allSatisfy { $0.retweetedStatus?.user === largest[0].retweetedStatus?.user })
        // A retweeted status is the same instance as the status fetched on its own.
        for status in statuses {
            if let retweeted = status.retweetedStatus {
                #expect(context.registeredModel(Status.self, id: retweeted.id) === retweeted)
            }
        }
        // Mapping the payload again through the context updates the loaded instances in place.
        let again = try twitterTimeline(context: context)
        #expect(again.statuses.allSatisfy { status in statuses.contains { $0 === status } })
    }

    @Test(arguments: StoreKind.allCases)
    func twoBooksByOneAuthorShareOneAuthorAfterLoading(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        let ada = Author(id: 1, name: "Ada")
        try await store.save([makeBook("a", author: ada), makeBook("b", author: ada), makeBook("c", author: Author(id: 2, name: "Bob"))])
        try await expectEqual(store.fetchCount(Author.self), 2)
        // Within one fetch, and through a context across fetches.
        let books = try await store.fetchAll(ModelQuery(Book.self).order(by: \Book.isbn))
        #expect(books[0].author === books[1].author && books[0].author !== books[2].author)
        let context = ModelContext(store: store as? any ModelLoading)
        let a = try #require(try await store.fetchOne(Book.self, id: "a", context: context))
        let b = try #require(try await store.fetchOne(Book.self, id: "b", context: context))
        #expect(a.author === b.author && a.author.name == "Ada")
        #expect(context.registeredModel(Author.self, id: 1) === a.author)
        #expect(try context.model(Author.self, id: 1) === b.author)
    }

    @Test(arguments: StoreKind.allCases)
    func storedTwitterValuesMatchTheMappedOnes(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        let timeline = try twitterTimeline(context: ModelContext())
        try await store.save(timeline.statuses)
        let loaded = try await store.fetchAll(Status.self)
        let byID = Dictionary(uniqueKeysWithValues: loaded.map { ($0.id, $0) })
        for status in timeline.statuses {
            let copy = try #require(byID[status.id])
            #expect(copy !== status)
            #expect(copy.text == status.text && copy.createdAt == status.createdAt && copy.lang == status.lang)
            #expect(copy.hashtags.map(\.text) == status.hashtags.map(\.text) && copy.urls.map(\.url) == status.urls.map(\.url))
            #expect(copy.coordinates == status.coordinates && copy.firstMediaURL == status.firstMediaURL)
            #expect(copy.user.screenName == status.user.screenName && copy.user.createdAt == status.user.createdAt)
            #expect(copy.retweetedStatus?.id == status.retweetedStatus?.id)
        }
    }

    @Test(arguments: StoreKind.loading)
    func loadedInstancesAreHeldWeakly(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        try await store.save(Counter(id: "w", count: 1))
        let context = ModelContext(store: store as? any ModelLoading)
        weak var weakCounter: Counter?
        do {
            let counter = try #require(try context.model(Counter.self, id: "w"))
            weakCounter = counter
            expectEqual(context.registeredCount, 1)
        }
        #expect(weakCounter == nil)
        #expect(context.registeredModel(Counter.self, id: "w") == nil)
        // Still in the store: asking again loads a new instance.
        #expect(try context.model(Counter.self, id: "w")?.count == 1)
    }
}
