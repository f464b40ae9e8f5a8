import Foundation
import ModelKit
import ModelKitStore
import ModelKitTestSupport
import Testing

/// Collects the article example's prints (outside `ExampleOutput.capture` it prints as usual).
private func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    ExampleOutput.print(items, separator: separator, terminator: terminator)
}

/// A file store's read transactions run on pooled read-only connections: beside a write under
/// way and beside each other, each in its own snapshot.
@Suite(.timeLimit(.minutes(2))) struct SQLiteConcurrentReadTests {
    /// A write transaction that has saved counter "b" and waits, open, until the returned
    /// continuation yields; returns once it has saved.
    func openWrite(on store: SQLiteStore) async -> (Task<Void, any Error>, AsyncStream<Void>.Continuation) {
        let (opened, signalOpened) = AsyncStream<Void>.makeStream()
        let (release, signalRelease) = AsyncStream<Void>.makeStream()
        let writer = Task {
            try await store.write { tx in
                try await tx.save(Counter(id: "b", count: 2))
                signalOpened.yield()
                var waiting = release.makeAsyncIterator()
                _ = await waiting.next()
            }
        }
        var waitOpened = opened.makeAsyncIterator()
        _ = await waitOpened.next()
        return (writer, signalRelease)
    }

    @Test func aReadRunsWhileAWriteTransactionIsOpenAndSeesTheCommittedState() async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(path: directory.path("reads.sqlite"))
        try await store.save(Counter(id: "a", count: 1))
        let (writer, signalRelease) = await openWrite(on: store)
        // The write is open and suspended: reads go on, and see what is committed.
        try expectEqual(await store.fetchCount(Counter.self), 1)
        try expectEqual(await store.read { tx in try await tx.fetchAll(Counter.self).map(\.id) }, ["a"])
        let ids: [String] = try await store.fetchAll(ModelQuery(Counter.self), select: \.id)
        expectEqual(ids, ["a"])
        signalRelease.yield()
        try await writer.value
        try expectEqual(await store.fetchCount(Counter.self), 2)
    }

    @Test func aReadTransactionKeepsItsSnapshotWhileAnotherTaskCommits() async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(path: directory.path("snapshot.sqlite"))
        try await store.save(Counter(id: "a", count: 1))
        let (before, after) = try await store.read { tx in
            let before = try await tx.fetchCount(Counter.self)
            // Another task writes and commits while this read is open.
            try await Task { try await store.save(Counter(id: "b", count: 2)) }.value
            return (before, try await tx.fetchCount(Counter.self))
        }
        expectEqual(before, 1)
        expectEqual(after, 1)
        try expectEqual(await store.fetchCount(Counter.self), 2)
    }

    @Test func withoutReadersAReadWaitsForTheWrite() async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(path: directory.path("queue.sqlite"), readers: 0)
        try await store.save(Counter(id: "a", count: 1))
        let (writer, signalRelease) = await openWrite(on: store)
        let reader = Task { try await store.fetchCount(Counter.self) }
        try await Task.sleep(for: .milliseconds(200))
        signalRelease.yield()
        try await writer.value
        // It waited for the commit, so it counts the written row.
        try expectEqual(await reader.value, 2)
    }

    @Test func manyReadersAtOnceReadTheSameRows() async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(path: directory.path("many.sqlite"), readers: 3)
        try await store.save((0..<100).map { Counter(id: "c\($0)", count: $0) })
        let sums = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    var sum = 0
                    for index in 0..<100 { sum += try await store.fetchOne(Counter.self, id: "c\(index)")?.count ?? 0 }
                    return sum
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        expectEqual(sums, Array(repeating: 4950, count: 8))
    }

    /// The store article's example.
    @Test func theArticlesExample() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("article.sqlite")
        let output = try await ExampleOutput.capture {
            // snippet: store-concurrency-start
            let store = try SQLiteStore(path: path)   // reads on up to 4 connections beside the writer
            try await store.save(Counter(id: "a", count: 1))
            let (before, after) = try await store.read { tx in
                let before = try await tx.fetchCount(Counter.self)
                try await Task { try await store.save(Counter(id: "b", count: 2)) }.value   // commits meanwhile
                return (before, try await tx.fetchCount(Counter.self))
            }
            print(before, after)   // 1 1
            print(try await store.fetchCount(Counter.self))   // 2
            // snippet: store-concurrency-end
        }
        #expect(
            output == DocumentationExamples.commentedOutput(of: try DocumentationExamples.snippet("store-concurrency", inFile: #filePath)),
            "printed:\n\(output.joined(separator: "\n"))")
    }
}
