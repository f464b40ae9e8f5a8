import Foundation
import ModelKit
import ModelKitStore
import ModelKitTestSupport
import Testing

/// Many tasks, one store: each task works through a context of its own (contexts and models do
/// not cross isolation domains), and tasks of one actor share the actor's context. One instance
/// per identifier within each context, no data race (run under the thread sanitizer:
/// `swift test --sanitize=thread --filter StoreConcurrencyTests`).
@Suite struct StoreConcurrencyTests {
    /// What one task saw through its own context: how many distinct instances per identifier
    /// (1 when identity held), how many identifiers against how many it asked for, and a stored
    /// value read through it.
    struct Sighting: Sendable, Equatable {
        let instancesPerIdentifier: Int
        let identifiers: Int
        let expectedIdentifiers: Int
        let count42: Int?
    }

    /// Tasks on other threads, each with a context over one store, map payloads that load
    /// stored identifiers, load by identifier and fetch, all at once.
    @Test(arguments: [StoreKind.sqliteFile, .sqliteMemory, .memory])
    func tasksWithAContextEachMapLoadAndFetchOneStore(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        try await store.save((0..<100).map { Counter(id: "c\($0)", count: $0) })
        let sightings = try await withThrowingTaskGroup(of: Sighting.self) { group in
            for task in 0..<6 {
                group.addTask {
                    let context = ModelContext(store: store)
                    let mappedIDs = (0..<150).map { "c\(($0 * (task + 1)) % 150)" }
                    let payload = "[" + mappedIDs.map { #"{"id": "\#($0)"}"# }.joined(separator: ",") + "]"
                    var kept = try [Counter](jsonData: Data(payload.utf8), context: context)
                    kept += try (0..<100).compactMap { try context.model(Counter.self, id: "c\(($0 * task) % 100)") }
                    kept += try await store.fetchAll(Counter.self, context: context)
                    let byID = Dictionary(grouping: kept, by: \.id)
                    let instances = byID.values.map { Set($0.map(ObjectIdentifier.init)).count }.max() ?? 0
                    // Every stored identifier (fetched) and every mapped one.
                    let expected = Set(mappedIDs).union((0..<100).map { "c\($0)" }).count
                    return Sighting(
                        instancesPerIdentifier: instances, identifiers: byID.count, expectedIdentifiers: expected,
                        count42: byID["c42"]?.first?.count)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        expectEqual(sightings.count, 6)
        // Stored identifiers were loaded, not made anew: they kept their stored counts.
        #expect(
            sightings.allSatisfy { $0.instancesPerIdentifier == 1 && $0.identifiers == $0.expectedIdentifiers && $0.count42 == 42 },
            "\(sightings)")
    }

    /// Tasks of one actor fetch books (and through them their authors) and map author payloads
    /// that load authors from the store, through the actor's context, suspending in between:
    /// one instance per identifier across all of them, on the PostgreSQL store too, whose
    /// fetches suspend between reading rows and loading references.
    @MainActor @Test(arguments: StoreKind.allCases)
    func tasksOfOneActorFetchAndMapThroughItsContext(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        let authors = (0..<10).map { Author(id: $0, name: "author \($0)") }
        try await store.save((0..<60).map { makeBook("isbn-\($0)", author: authors[$0 % 10], pages: $0) })
        let context = ModelContext(store: store)
        let kept = MainActorKeeper<Book, Author>()
        let tasks = (0..<6).map { task in
            Task { @MainActor in
                if task % 2 == 0 {
                    let query = ModelQuery(Book.self).filter(\Book.pages >= task * 5).order(by: \Book.pages)
                    kept.first += try await store.fetchAll(query, context: context)
                    return
                }
                await Task.yield()
                let payload = "[" + (0..<10).map { #"{"id": \#(($0 + task) % 10), "name": "author \#(($0 + task) % 10)"}"# }
                    .joined(separator: ",") + "]"
                kept.second += try [Author](jsonData: Data(payload.utf8), context: context)
            }
        }
        for task in tasks { try await task.value }
        let (books, mapped) = (kept.first, kept.second)
        let bookGroups = Dictionary(grouping: books, by: \.isbn)
        expectEqual(bookGroups.count, 60)
        #expect(bookGroups.values.allSatisfy { group in group.allSatisfy { $0 === group[0] } })
        let authorGroups = Dictionary(grouping: books.map(\.author) + mapped, by: \.id)
        expectEqual(authorGroups.count, 10)
        #expect(authorGroups.values.allSatisfy { group in group.allSatisfy { $0 === group[0] } })
    }

    /// Four tasks map the same Twitter payload, each through a context of its own, and save
    /// what they mapped to one store at once: each context has one user per identifier, and
    /// the store ends with each user once.
    @Test func twitterPayloadsMappedByManyTasksSaveOnce() async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(path: directory.path("twitter.sqlite"))
        let data = try fixtureData("twitter.json")
        let users = try await withThrowingTaskGroup(of: (statuses: Int, users: Int, instances: Int).self) { group in
            for _ in 0..<4 {
                group.addTask {
                    let context = ModelContext(store: store)
                    let statuses = try Timeline(jsonData: data, context: context).statuses
                    try await store.save(statuses)
                    let users = statuses.map(\.user)
                    return (statuses.count, Set(users.map(\.id)).count, Set(users.map(ObjectIdentifier.init)).count)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(users.allSatisfy { $0.statuses == 100 && $0.users == $0.instances }, "\(users)")
        try await expectEqual(store.fetchCount(TwitterUser.self), 115)
    }
}

/// Models that tasks of the main actor gather, kept on the main actor with them.
@MainActor final class MainActorKeeper<First, Second> {
    var first: [First] = []
    var second: [Second] = []
}
