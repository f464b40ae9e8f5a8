import Foundation
import ModelKit
import ModelKitStore
import ModelKitTestSupport
import Testing

/// A context's loads are synchronous: they never wait for a transaction of another task, which
/// may stay suspended for as long as its task likes. Each test holds such a transaction open,
/// suspended inside `store.write`, while a context loads.
@Suite struct StoreLoadDuringWriteTests {
    /// Runs `body` while a transaction of another task, having saved a counter `id`, is
    /// suspended inside `store.write`; then lets it commit and waits for it.
    func whileAnotherTaskWrites(
        _ store: some ModelStore, saving id: String, _ body: () async throws -> Void
    ) async throws {
        let (inside, release) = (AsyncStream<Void>.makeStream(), AsyncStream<Void>.makeStream())
        let writer = Task {
            try await store.write { tx in
                try await tx.save(Counter(id: id, count: 1))
                inside.continuation.yield()
                for await _ in release.stream { break }
            }
        }
        for await _ in inside.stream { break }
        defer { release.continuation.yield() }
        try await body()
        release.continuation.yield()
        try await writer.value
    }

    /// The transaction creates the very table the load reads: the load neither waits nor
    /// fails, and finds what is committed (nothing yet); after the commit, loads find the row.
    @Test func aLoadWhileAnotherTaskCreatesTheTableFindsTheCommittedState() async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(path: directory.path("counters.sqlite"))
        try await whileAnotherTaskWrites(store, saving: "c1") {
            let context = ModelContext(store: store)
            #expect(try context.model(Counter.self, id: "c1") == nil)
            let payload = Data(#"[{"id": "c1", "count": 5}, {"id": "c2", "count": 6}]"#.utf8)
            expectEqual(try [Counter](jsonData: payload, context: context).map(\.count), [5, 6])
        }
        expectEqual(try ModelContext(store: store).model(Counter.self, id: "c1")?.count, 1)
    }

    /// A file an older version of the app wrote, its table without the columns the model added
    /// since: loads during another task's transaction read the old rows as the migration hook
    /// sees them once the columns are added, and the table itself is read after the commit.
    @Test func aLoadWhileAnotherTaskWritesReadsAnOlderTableAsItWillBe() async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(path: try StoreMigrationTests().oldFile(in: directory))
        try await whileAnotherTaskWrites(store, saving: "c1") {
            let context = ModelContext(store: store)
            let ada = try #require(try context.model(Person.self, id: 1))
            #expect(ada.firstName == "Ada" && ada.lastName == "Lovelace" && ada.nickname == "ada" && ada.age == 36)
            // Loads as a payload maps: a stored person (its nickname kept) and a new one.
            let payload = #"[{"id": 2, "firstName": "Grace", "lastName": "Hopper"}, {"id": 9, "firstName": "New", "lastName": "One"}]"#
            expectEqual(try [Person](jsonData: Data(payload.utf8), context: context).map(\.nickname), ["amazing grace", nil])
        }
        let grace = try #require(try ModelContext(store: store).model(Person.self, id: 2))
        #expect(grace.firstName == "Grace" && grace.lastName == "Brewster Hopper")
        try await expectEqual(store.fetchCount(Person.self), 3)
    }

    /// An in-memory SQLite database has no write-ahead log: while a transaction of another task
    /// writes, its reader is locked out. A load fails at once with a typed error (a thread must
    /// not sleep through a transaction whose task is suspended), a fetch waits for the
    /// transaction instead, and loads read again after the commit.
    @Test func aLoadFromAnInMemoryStoreWhileAnotherTaskWritesIsATypedError() async throws {
        let store = try SQLiteStore()
        try await store.save(Counter(id: "c1", count: 7))
        let context = ModelContext(store: store)
        var fetching: Task<Int?, any Error>?
        try await whileAnotherTaskWrites(store, saving: "c2") {
            let error = #expect(throws: StoreError.self) { try context.model(Counter.self, id: "c1") }
            expectEqual(error?.kind, .misusedContext)
            let message = "an in-memory store cannot be read while a transaction of another task writes to it"
            #expect(error?.description.contains(message) == true, "\(String(describing: error))")
            fetching = Task { try await store.fetchOne(Counter.self, id: "c2")?.count }
        }
        expectEqual(try await fetching?.value, 1)
        expectEqual(try context.model(Counter.self, id: "c1")?.count, 7)
    }
}
