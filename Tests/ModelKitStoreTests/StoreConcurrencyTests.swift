import Foundation
import ModelKit
import ModelKitStore
import ModelKitTestSupport
import Testing

/// Many tasks, one context backed by a store: one instance per identifier, no data race
/// (run under the thread sanitizer: `swift test --sanitize=thread --filter StoreConcurrencyTests`).
@Suite struct StoreConcurrencyTests {
    @Test(arguments: [StoreKind.sqliteFile, .memory])
    func tasksMappingAndLoadingOverlappingModelsShareInstances(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        try await store.save((0..<100).map { Counter(id: "c\($0)", count: $0) })
        let context = ModelContext(store: store as? any ModelLoading)
        let keeper = Keeper<Counter>()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<6 {
                group.addTask {
                    // Half of the tasks map payloads (loading stored identifiers first), half load.
                    if task % 2 == 0 {
                        let payload = "[" + (0..<150).map { #"{"id": "c\#(($0 * (task + 1)) % 150)"}"# }.joined(separator: ",") + "]"
                        keeper.keep(try [Counter](jsonData: Data(payload.utf8), context: context))
                    } else {
                        keeper.keep(try (0..<100).compactMap { try context.model(Counter.self, for: "c\(($0 * task) % 100)") })
                        keeper.keep(try await store.fetchAll(Counter.self, context: context))
                    }
                }
            }
            try await group.waitForAll()
        }
        let byID = Dictionary(grouping: keeper.kept, by: \.id)
        expectEqual(byID.count, 150)
        #expect(byID.values.allSatisfy { group in group.allSatisfy { $0 === group[0] } })
        expectEqual(context.registeredCount, 150)
        // Stored identifiers were loaded, not made anew: they kept their stored counts.
        #expect(byID["c42"]?.first?.count == 42)
    }

    /// Tasks fetching books (and through them their authors) and tasks mapping author payloads
    /// that load authors from the store, all through one context and at once: no deadlock, and
    /// one instance per identifier, on the PostgreSQL store too, whose fetches suspend between
    /// reading rows and loading references.
    ///
    /// A fetch holds the store's connection and then takes the context's lock; a mapping holds the
    /// context's lock and loads. A file store's loads read through a connection of their own, so
    /// they never wait for the fetch. Not on an in-memory SQLite store, which has one connection
    /// only: its loads wait for transactions, and the two can deadlock (a known issue).
    @Test(arguments: StoreKind.allCases.filter { $0 != .sqliteMemory })
    func tasksFetchingAndMappingOverlappingModelsShareInstances(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        let authors = (0..<10).map { Author(id: $0, name: "author \($0)") }
        try await store.save((0..<60).map { makeBook("isbn-\($0)", author: authors[$0 % 10], pages: $0) })
        let context = ModelContext(store: store as? any ModelLoading)
        let books = Keeper<Book>()
        let mapped = Keeper<Author>()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<6 {
                group.addTask {
                    if task % 2 == 0 {
                        let query = ModelQuery(Book.self).filter(\Book.pages >= task * 5).order(by: \Book.pages)
                        books.keep(try await store.fetchAll(query, context: context))
                    } else {
                        let payload = "[" + (0..<10).map { #"{"id": \#(($0 + task) % 10), "name": "author \#(($0 + task) % 10)"}"# }
                            .joined(separator: ",") + "]"
                        mapped.keep(try [Author](jsonData: Data(payload.utf8), context: context))
                    }
                }
            }
            try await group.waitForAll()
        }
        let bookGroups = Dictionary(grouping: books.kept, by: \.isbn)
        expectEqual(bookGroups.count, 60)
        #expect(bookGroups.values.allSatisfy { group in group.allSatisfy { $0 === group[0] } })
        let authorGroups = Dictionary(grouping: books.kept.map(\.author) + mapped.kept, by: \.id)
        expectEqual(authorGroups.count, 10)
        #expect(authorGroups.values.allSatisfy { group in group.allSatisfy { $0 === group[0] } })
    }

    @Test func twitterPayloadsFromManyTasksShareUsers() async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(path: directory.path("twitter.sqlite"))
        let data = try fixtureData("twitter.json")
        let context = ModelContext(store: store)
        let keeper = Keeper<Status>()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<4 { group.addTask { keeper.keep(try Timeline(jsonData: data, context: context).statuses) } }
            try await group.waitForAll()
        }
        let statuses = keeper.kept
        expectEqual(statuses.count, 400)
        let byID = Dictionary(grouping: statuses.map(\.user), by: \.id)
        let firstTaskUserIDs: Set<String> = Set(statuses.prefix(100).map { $0.user.id })
        expectEqual(byID.count, firstTaskUserIDs.count)
        #expect(byID.values.allSatisfy { group in group.allSatisfy { $0 === group[0] } })
        try await store.save(statuses)
        try await expectEqual(store.fetchCount(TwitterUser.self), 115)
    }
}

/// Holds instances from several tasks, so they stay alive.
final class Keeper<Element>: @unchecked Sendable {
    // @unchecked: `elements` is only touched under `lock`.
    private let lock = NSLock()
    private var elements: [Element] = []
    var kept: [Element] { lock.withLock { elements } }
    func keep(_ more: [Element]) { lock.withLock { elements += more } }
}
