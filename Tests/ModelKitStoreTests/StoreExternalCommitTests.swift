import Foundation
import ModelKit
import ModelKitStore
import ModelKitTestSupport
import Testing

/// The row `modelkit store write-batch` writes: the other process's rows (the SQLite and
/// PostgreSQL tests').
@Model struct BatchItem: Sendable {
    @Identifier var id: Int
    var batch: Int
    var payload: String
}

/// A file store sees commits other connections make: another process, another store on the file.
@Suite(.timeLimit(.minutes(2))) struct StoreExternalCommitTests {
    @Test func anotherProcesssCommitIsYielded() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("shared.sqlite")
        let store = try SQLiteStore(path: path)
        try await store.save(BatchItem(id: 0, batch: 0, payload: "mine"))
        var changes = store.changes(to: BatchItem.self).makeAsyncIterator()
        let observation = store.observe(ModelQuery(BatchItem.self).filter(\BatchItem.batch == 7))
        var results = observation.makeAsyncIterator()
        try expectEqual(await results.next()?.count, 0)
        try await Task.sleep(for: .milliseconds(150))   // the store has read the file's version

        let written = try await ModelKitTool.run(["store", "write-batch", "--db", path, "--count", "25", "--batch", "7"])
        #expect(written.status == 0, "\(written.errorOutput)")
        let change = await changes.next()
        expectEqual(change, StoreChange(modelName: "BatchItem", isExternal: true))
        expectEqual(change?.description, "another connection committed changes, maybe to 'BatchItem'")
        try expectEqual(await results.next()?.count, 25)
        try expectEqual(await store.fetchCount(BatchItem.self), 26)
    }

    @Test func anotherStoreOnTheFileIsSeenAndTheStoresOwnCommitsAreNotTwice() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("two.sqlite")
        let first = try SQLiteStore(path: path)
        let second = try SQLiteStore(path: path)
        var changes = first.changes(to: Counter.self).makeAsyncIterator()
        try await Task.sleep(for: .milliseconds(150))
        try await first.save(Counter(id: "own", count: 1))
        expectEqual(await changes.next(), StoreChange(modelName: "Counter", saved: 1))
        try await second.save(Counter(id: "other", count: 2))
        expectEqual(await changes.next(), StoreChange(modelName: "Counter", isExternal: true))
        try await first.save(Counter(id: "own", count: 3))
        // The next change is the store's own, not its own commit seen again as another's.
        expectEqual(await changes.next(), StoreChange(modelName: "Counter", saved: 1))
    }
}
