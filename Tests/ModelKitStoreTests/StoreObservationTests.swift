import Foundation
import GRDB
import ModelKit
import ModelKitStore
import ModelKitTestSupport
import Testing

/// Observation: a change sequence per model type, and query results after each commit.
@Suite struct StoreObservationTests {
    @Test(arguments: StoreKind.allCases)
    func eachCommittedChangeToATypeIsYielded(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        let changes = store.changes(to: Counter.self)
        var iterator = changes.makeAsyncIterator()
        try await store.save((0..<3).map { Counter(id: "c\($0)", count: $0) })
        try await store.save(Seat(number: 1))  // another type: not yielded here
        try await store.deleteOne(Counter.self, id: "c1")
        try await store.deleteAll(Counter.self)
        await expectEqual(iterator.next(), StoreChange(modelName: "Counter", saved: 3))
        await expectEqual(iterator.next(), StoreChange(modelName: "Counter", deleted: 1))
        await expectEqual(iterator.next(), StoreChange(modelName: "Counter", deleted: 2))
        expectEqual(StoreChange(modelName: "Counter", saved: 3).description, "saved 3 rows of 'Counter'")
    }

    @Test(arguments: StoreKind.allCases)
    func aFailedSaveYieldsNothing(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        let changes = store.changes(to: Author.self)
        var iterator = changes.makeAsyncIterator()
        await #expect(throws: StoreError.self) { try await store.save([Author(id: 1, name: "a"), Author(id: 2, name: "b", rating: .nan)]) }
        try await store.save(Author(id: 3, name: "c"))
        // The first change yielded is the second save's: the failed one was rolled back.
        await expectEqual(iterator.next(), StoreChange(modelName: "Author", saved: 1))
    }

    @Test(arguments: StoreKind.allCases)
    func observedQueriesYieldTheirResultsAfterEachCommit(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        try await store.save(Counter(id: "a", count: 1))
        let context = ModelContext(store: store as? any ModelLoading)
        let observation = store.observe(ModelQuery(Counter.self).filter(\Counter.count >= 10).order(by: \Counter.id), context: context)
        var iterator = observation.makeAsyncIterator()
        #expect(try await iterator.next()?.map(\.id) == [])
        try await store.save([Counter(id: "b", count: 10), Counter(id: "c", count: 20)])
        let first = try await iterator.next()
        #expect(first?.map(\.id) == ["b", "c"])
        try await store.deleteOne(Counter.self, id: "b")
        let second = try await iterator.next()
        #expect(second?.map(\.id) == ["c"])
        // Fetched through the context: the same instance both times.
        #expect(second?.first === first?.last)
    }

    @Test func rawSQLCommitsThroughTheStoresConnectionAreSeenToo() async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(path: directory.path("raw.sqlite"))
        try await store.save(Counter(id: "a"))
        var iterator = store.changes(to: Counter.self).makeAsyncIterator()
        try await store.database.write { db in
            try db.execute(sql: #"UPDATE "Counter" SET "count" = 5"#)
            try db.execute(sql: #"INSERT INTO "Counter" ("id", "count") VALUES ('b', 1)"#)
        }
        await expectEqual(iterator.next(), StoreChange(modelName: "Counter", saved: 2))
        #expect(try await store.fetchOne(Counter.self, id: "a")?.count == 5)
    }
}
