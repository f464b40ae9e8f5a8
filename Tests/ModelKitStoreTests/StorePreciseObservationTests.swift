import Foundation
import ModelKit
import ModelKitStore
import ModelKitTestSupport
import Testing

/// What an observed query yields: only results that changed, also through the references its
/// models hold, and one result for a burst of commits.
@Suite(.timeLimit(.minutes(2))) struct StorePreciseObservationTests {
    /// The results an observation yielded, collected by a task of their own.
    actor Yields {
        private(set) var all: [[String]] = []
        func add(_ results: [String]) { all.append(results) }
        var last: [String]? { all.last }
    }

    /// Iterates the observation of `query` in a task, describing each result with `describe`,
    /// slowly when told.
    func collect<M: Model & SendableMetatype>(
        _ store: any ModelStore, _ query: ModelQuery<M>, into yields: Yields, pause: Duration = .zero,
        _ describe: @escaping @Sendable (M) -> String
    ) -> Task<Void, any Error> {
        Task {
            for try await results in store.observe(query) {
                await yields.add(results.map(describe))
                if pause > .zero { try await Task.sleep(for: pause) }
            }
        }
    }

    /// Waits until the last yield is `expected` (the test's time limit ends a wait that never does).
    func waitFor(_ expected: [String], in yields: Yields) async throws {
        while await yields.last != expected { try await Task.sleep(for: .milliseconds(5)) }
    }

    @Test(arguments: StoreKind.allCases)
    func commitsThatLeaveTheResultsAsTheyWereYieldNothing(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        try await store.save(Counter(id: "a", count: 1))
        let yields = Yields()
        let task = collect(store, ModelQuery(Counter.self).filter(\Counter.count >= 10).order(by: \Counter.id), into: yields) {
            "\($0.id)=\($0.count)"
        }
        defer { task.cancel() }
        try await waitFor([], in: yields)
        // Commits to the table that the query's results do not show.
        try await store.save(Counter(id: "a", count: 2))
        try await store.save(Counter(id: "b", count: 3))
        try await store.deleteOne(Counter.self, id: "b")
        try await store.save(Counter(id: "c", count: 10))
        try await waitFor(["c=10"], in: yields)
        try await store.save(Counter(id: "c", count: 10))   // the same values again
        try await store.save(Counter(id: "c", count: 11))
        try await waitFor(["c=11"], in: yields)
        expectEqual(await yields.all, [[], ["c=10"], ["c=11"]])
    }

    @Test(arguments: StoreKind.allCases)
    func aCommitToAReferencedTableYieldsTheNewResults(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        let ada = Author(id: 1, name: "Ada")
        try await store.save(Book(isbn: "1", title: "Notes", author: ada, pages: 10, published: Date(timeIntervalSince1970: 0)))
        let yields = Yields()
        let task = collect(store, ModelQuery(Book.self).order(by: \Book.isbn), into: yields) { "\($0.title) by \($0.author.name)" }
        defer { task.cancel() }
        try await waitFor(["Notes by Ada"], in: yields)
        ada.name = "Ada Lovelace"
        try await store.save(ada)   // a commit to 'Author' alone
        try await waitFor(["Notes by Ada Lovelace"], in: yields)
        try await store.save(Author(id: 2, name: "Grace"))   // an author no book refers to
        try await store.save(Book(isbn: "2", title: "More", author: ada, pages: 1, published: Date(timeIntervalSince1970: 0)))
        try await waitFor(["Notes by Ada Lovelace", "More by Ada Lovelace"], in: yields)
        expectEqual(await yields.all, [["Notes by Ada"], ["Notes by Ada Lovelace"], ["Notes by Ada Lovelace", "More by Ada Lovelace"]])
    }

    @Test(arguments: StoreKind.allCases)
    func aBurstOfCommitsWhileTheLoopIsBusyYieldsOnce(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        let yields = Yields()
        let (busy, release) = AsyncStream<Void>.makeStream()
        let task = Task {
            var first = true
            var waiting = busy.makeAsyncIterator()
            for try await results in store.observe(ModelQuery(Counter.self).order(by: \Counter.id)) {
                await yields.add(results.map { "\($0.id)=\($0.count)" })
                // Busy after the first results until the burst is over.
                if first { _ = await waiting.next() }
                first = false
            }
        }
        defer { task.cancel() }
        try await waitFor([], in: yields)
        for count in 1...40 { try await store.save(Counter(id: "a", count: count)) }
        release.yield()
        try await waitFor(["a=40"], in: yields)
        try await Task.sleep(for: .milliseconds(300))   // the commits' notifications, however late, yield nothing more
        expectEqual(await yields.all, [[], ["a=40"]])
    }
}
