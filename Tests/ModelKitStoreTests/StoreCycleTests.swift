import Foundation
import GRDB
import ModelKit
import ModelKitStore
import ModelKitTestSupport
import Testing

/// Any graph that saves loads back, whatever its cycles, on every store: each model is
/// registered before the references that lead back to it are set.
@Suite struct StoreCycleTests {
    /// Saves links `ids[0] -> ids[1] -> ... -> ids[0]` (one link: a link to itself).
    func saveRing(_ ids: [String], to store: some ModelStore) async throws {
        let links = ids.map { Link(id: $0) }
        for (index, link) in links.enumerated() { link.next = links[(index + 1) % links.count] }
        try await store.save(links[0])
        links.forEach { $0.next = nil }  // No cycle left alive in memory.
    }

    /// Follows `next` from `link` `count` times.
    func follow(_ link: Link, _ count: Int) -> Link? {
        (0..<count).reduce(link as Link?) { link, _ in link?.next }
    }

    @Test(arguments: StoreKind.allCases)
    func twoModelsThatReferToEachOtherLoadBack(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        try await saveRing(["a", "b"], to: store)
        try await expectEqual(store.fetchCount(Link.self), 2)
        let a = try #require(try await store.fetchOne(Link.self, id: "a"))
        expectEqual(a.next?.id, "b")
        #expect(a.next?.next === a)
        a.next = nil
    }

    @Test(arguments: StoreKind.allCases)
    func aModelThatRefersToItselfLoadsBack(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        try await saveRing(["self"], to: store)
        let link = try #require(try await store.fetchOne(Link.self, id: "self"))
        #expect(link.next === link)
        link.next = nil
    }

    /// A ring of three fetched through a context: one instance per identifier, each ring closed,
    /// and loading is not an edit (the tracked baselines hold the references).
    @Test(arguments: StoreKind.allCases)
    func aRingFetchedThroughAContextIsOneGraphWithoutChanges(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        try await saveRing(["a", "b", "c"], to: store)
        let context = ModelContext(store: store)
        let links = try await store.fetchAll(ModelQuery(Link.self).order(by: \Link.id), context: context)
        expectEqual(links.map(\.id), ["a", "b", "c"])
        expectEqual(links.map { $0.next?.id }, ["b", "c", "a"])
        #expect(links.allSatisfy { follow($0, 3) === $0 })
        #expect(links[0].next === links[1] && links[1].next === links[2])
        #expect(!context.hasChanges, "\(links.map { context.changedProperties(of: $0) })")
        links.forEach { $0.next = nil }
    }

    /// A context's own loads (by identifier, and while mapping a payload) close the ring too.
    @Test(arguments: StoreKind.loading)
    func aContextLoadingARingClosesIt(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        try await saveRing(["a", "b", "c"], to: store)
        let context = ModelContext(store: store)
        let b = try #require(try context.model(Link.self, id: "b"))
        #expect(follow(b, 3) === b)
        let mapped = try Link(jsonData: Data(#"{"id": "c", "next": {"id": "a"}}"#.utf8), context: context)
        #expect(mapped === b.next && follow(mapped, 3) === mapped)
        #expect(!context.hasChanges)
        b.next?.next?.next = nil
    }

    /// A cycle through a reference that cannot wait (not optional) and one that can loads from
    /// either end: entered through the one that cannot wait, the load reads again deferring the
    /// other.
    @Test(arguments: StoreKind.allCases)
    func aCycleThroughAReferenceThatCannotWaitLoadsFromEitherEnd(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        let tie = Tie(id: "t")
        let knot = Knot(id: "k", tie: tie)
        tie.knot = knot
        try await store.save(knot)
        tie.knot = nil
        let loadedKnot = try #require(try await store.fetchOne(Knot.self, id: "k"))
        #expect(loadedKnot.tie.knot === loadedKnot)
        let loadedTie = try #require(try await store.fetchOne(Tie.self, id: "t"))
        #expect(loadedTie.knot?.tie === loadedTie)
        let context = ModelContext(store: store)
        let knots = try await store.fetchAll(Knot.self, context: context)
        #expect(knots.count == 1 && knots[0].tie.knot === knots[0] && !context.hasChanges)
        loadedKnot.tie.knot = nil
        loadedTie.knot = nil
        knots.first?.tie.knot = nil
    }

    /// Rows no program could make in memory (a cycle through references that all cannot wait),
    /// written by raw SQL: a typed error naming the row, never a crash or a loop.
    @Test func aCycleThatCannotWaitAnywhereIsAnError() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("chains.sqlite")
        let database = try DatabaseQueue(path: path)
        try await database.write { db in
            try db.execute(sql: #"CREATE TABLE "Chain" ("id" TEXT PRIMARY KEY NOT NULL, "next" TEXT, "_version" INTEGER NOT NULL DEFAULT 0)"#)
            try db.execute(sql: #"INSERT INTO "Chain" ("id", "next") VALUES ('a', 'b'), ('b', 'a')"#)
        }
        try database.close()
        let store = try SQLiteStore(path: path)
        let error = await #expect(throws: StoreError.self) { try await store.fetchOne(Chain.self, id: "a") }
        #expect(error?.kind == .cyclicReference)
        let reason = "its references lead back to it through properties that cannot wait (not optional, or a 'let')"
        #expect(error?.description.hasSuffix("cannot load 'Chain' \"b\": \(reason)") == true, "\(String(describing: error))")
    }

    /// Non-identified class instances go to JSON text; one that contains itself is refused with
    /// the store's error, and nothing is saved.
    @Test(arguments: StoreKind.allCases)
    func aCycleIsRefused(_ kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        let error = await #expect(throws: StoreError.self) { try await store.save(Tree.cyclic()) }
        #expect(error?.description.contains("expected a graph without cycles") == true, "\(String(describing: error))")
        #expect(try await store.fetchAll(Tree.self).isEmpty)
    }
}
