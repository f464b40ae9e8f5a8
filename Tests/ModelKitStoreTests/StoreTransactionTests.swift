import Foundation
import ModelKit
import ModelKitStore
import ModelKitTestSupport
import Testing

/// `store.write { }` and `store.read { }`: all or nothing, snapshots, and the misuses refused.
@Suite struct StoreTransactionTests {
    struct Refusal: Error {}

    @Test(arguments: StoreKind.allCases)
    func aWriteCommitsSavesAndDeletesOfSeveralTypesTogether(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        try await store.save([Counter(id: "old", count: 1), Counter(id: "kept", count: 2)])
        let changes = store.changes(to: Counter.self)
        let saved = try await store.write { tx in
            try await tx.save(makeBook("978-1", author: Author(id: 1, name: "Ada")))
            try await tx.save(Counter(id: "new", count: 3))
            #expect(try await tx.deleteOne(Counter.self, id: "old"))
            // Reads inside the transaction see its own writes.
            try await expectEqual(tx.fetchCount(Counter.self), 2)
            return try await tx.fetchCount(Author.self)
        }
        expectEqual(saved, 1)
        try await expectEqual(store.fetchAll(ModelQuery(Counter.self).order(by: \Counter.id)).map(\.id), ["kept", "new"])
        #expect(try await store.fetchOne(Book.self, id: "978-1")?.author.name == "Ada")
        // One transaction: one change for the table, with its saves and deletes.
        var iterator = changes.makeAsyncIterator()
        await expectEqual(iterator.next(), StoreChange(modelName: "Counter", saved: 1, deleted: 1))
    }

    @Test(arguments: StoreKind.allCases)
    func aWriteThatThrowsLeavesNothing(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        try await store.save(Counter(id: "a", count: 1))
        await #expect(throws: Refusal.self) {
            try await store.write { tx in
                try await tx.save([Counter(id: "a", count: 100), Counter(id: "b", count: 2)])
                try await tx.save(Author(id: 7, name: "Grace"))
                try await tx.deleteAll(Counter.self)
                throw Refusal()
            }
        }
        try await expectEqual(store.fetchAll(Counter.self).map(\.count), [1])
        try await expectEqual(store.fetchCount(Author.self), 0)
        // The store goes on working after the rollback.
        try await store.save(Counter(id: "b", count: 2))
        try await expectEqual(store.fetchCount(Counter.self), 2)
    }

    /// Cancelled while it waits (a throwing await), or cancelled while it runs on and returns:
    /// either way nothing of the transaction is committed.
    @Test(arguments: StoreKind.allCases, [true, false])
    func aCancelledWriteLeavesNothing(kind: StoreKind, throwsOnCancel: Bool) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        let started = AsyncStream<Void>.makeStream()
        let writer = Task {
            try await store.write { tx in
                try await tx.save((0..<10).map { Counter(id: "c\($0)", count: $0) })
                started.continuation.yield()
                if throwsOnCancel {
                    try await Task.sleep(for: .seconds(60))
                } else {
                    while !Task.isCancelled { await Task.yield() }
                }
            }
        }
        var iterator = started.stream.makeAsyncIterator()
        await iterator.next()
        writer.cancel()
        await #expect(throws: CancellationError.self) { try await writer.value }
        try await expectEqual(store.fetchCount(Counter.self), 0)
    }

    @Test(arguments: StoreKind.allCases)
    func aReadSeesOneSnapshotAndCannotWrite(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        try await store.save((0..<5).map { Counter(id: "c\($0)", count: $0) })
        let (first, second, writer) = try await store.read { tx in
            let first = try await tx.fetchCount(Counter.self)
            // A write from another task, meanwhile: this read does not see it.
            let writer = Task { try await store.save(Counter(id: "late", count: 9)) }
            try await Task.sleep(for: .milliseconds(50))
            let second = try await tx.fetchAll(Counter.self).count
            let error = await #expect(throws: StoreError.self) { try await tx.save(Counter(id: "x", count: 0)) }
            #expect(error?.kind == .misusedTransaction)
            #expect(error?.description == "cannot use the transaction 'Counter': a read transaction cannot save or delete: use 'write'")
            return (first, second, writer)
        }
        #expect(first == 5 && second == 5)
        try await writer.value
        try await expectEqual(store.fetchCount(Counter.self), 6)
    }

    @Test(arguments: StoreKind.allCases)
    func theStoreInsideItsOwnTransactionAndATransactionOutsideItsClosureAreErrors(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        let escaped = try await store.write { tx in
            let error = await #expect(throws: StoreError.self) { try await store.fetchCount(Counter.self) }
            #expect(error?.kind == .misusedTransaction)
            #expect(error?.description.contains("inside its own transaction") == true)
            return tx
        }
        let error = await #expect(throws: StoreError.self) { try await escaped.save(Counter(id: "x", count: 0)) }
        #expect(error?.description == "cannot use the transaction 'Counter': its transaction has ended: use it inside its closure only")
    }

    /// A context backed by the store, mapping inside one of its transactions, loads through that
    /// transaction: it sees the rows saved so far, and does not wait for itself.
    @Test(arguments: [StoreKind.sqliteFile, .sqliteMemory, .memory])
    func aContextLoadsThroughTheTransactionOpenOnItsTask(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        let context = ModelContext(store: store as? any ModelLoading)
        let loaded = try await store.write { tx in
            try await tx.save(Author(id: 3, name: "Hedy"))
            return try context.model(Author.self, id: 3)
        }
        #expect(loaded?.name == "Hedy")
        #expect(try context.model(Author.self, id: 3) === loaded)
    }

    /// Writes from many tasks take turns: every one of them lands, whole.
    @Test(arguments: StoreKind.allCases)
    func concurrentWritesAllLand(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for round in 0..<10 {
                        try await store.write { tx in
                            let id = "t\(task)"
                            let current = try await tx.fetchOne(Counter.self, id: id)?.count ?? 0
                            try await tx.save(Counter(id: id, count: current + 1))
                            try await tx.save(Counter(id: "t\(task)-r\(round)", count: round))
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        try await expectEqual(store.fetchCount(Counter.self), 8 * 11)
        for task in 0..<8 { #expect(try await store.fetchOne(Counter.self, id: "t\(task)")?.count == 10) }
    }
}
