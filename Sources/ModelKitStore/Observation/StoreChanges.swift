import Foundation
import ModelKitCore

/// What one committed transaction changed in one model type's table.
///
/// ```swift
/// for await change in store.changes(to: Status.self) {
///     print(change.modelName, change.saved, change.deleted)
/// }
/// ```
public struct StoreChange: Hashable, Sendable, CustomStringConvertible {
    /// The model type's name, which is its table's.
    public let modelName: String
    /// How many rows were inserted or replaced.
    public var saved: Int
    /// How many rows were deleted.
    public var deleted: Int

    /// Whether another connection to the database committed it (another process, or another
    /// `SQLiteStore` on the same file), which tells the store neither the rows nor for sure the
    /// table: the SQLite store yields such a change to every sequence it serves.
    public var isExternal: Bool

    /// Creates a change; stores make these.
    public init(modelName: String, saved: Int = 0, deleted: Int = 0, isExternal: Bool = false) {
        self.modelName = modelName
        self.saved = saved
        self.deleted = deleted
        self.isExternal = isExternal
    }

    public var description: String {
        if isExternal, saved == 0, deleted == 0 { return "another connection committed changes, maybe to '\(modelName)'" }
        var parts: [String] = []
        if saved > 0 { parts.append("saved \(saved) row\(saved == 1 ? "" : "s")") }
        if deleted > 0 { parts.append("deleted \(deleted) row\(deleted == 1 ? "" : "s")") }
        return (parts.isEmpty ? "changed" : parts.joined(separator: " and ")) + " of '\(modelName)'"
    }
}

/// The committed changes to one model type's table, from the moment it was asked for: one
/// ``StoreChange`` per transaction. It ends when the store is gone.
///
/// ```swift
/// let changes = store.changes(to: Status.self)
/// try await store.save(status)
/// var iterator = changes.makeAsyncIterator()
/// await iterator.next()   // saved 2 rows of 'Status' ... (the status; its user is another table)
/// ```
public struct StoreChanges: AsyncSequence, Sendable {
    public typealias Element = StoreChange
    let stream: AsyncStream<StoreChange>

    public func makeAsyncIterator() -> AsyncStream<StoreChange>.Iterator {
        stream.makeAsyncIterator()
    }
}

/// Hands committed changes to the sequences that asked for them.
package final class StoreChangeHub: Sendable {
    private struct Subscriber {
        let table: String
        let continuation: AsyncStream<StoreChange>.Continuation
    }

    private let subscribers = Locked<(next: Int, all: [Int: Subscriber])>((0, [:]))
    /// Called once, when the first sequence subscribes (the SQLite store starts observing then).
    private let start: @Sendable (StoreChangeHub) -> Void
    private let started = Locked(false)

    package init(start: @escaping @Sendable (StoreChangeHub) -> Void = { _ in }) {
        self.start = start
    }

    /// A new sequence of the changes to `table`.
    package func subscribe(table: String) -> StoreChanges {
        if started.withLock({ started in
            defer { started = true }
            return !started
        }) {
            start(self)
        }
        let (stream, continuation) = AsyncStream<StoreChange>.makeStream()
        let id = subscribers.withLock { state in
            state.next += 1
            state.all[state.next] = Subscriber(table: table, continuation: continuation)
            return state.next
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.subscribers.withLock { $0.all.removeValue(forKey: id) }
        }
        return StoreChanges(stream: stream)
    }

    /// Whether any sequence is listening.
    package var isObserved: Bool {
        subscribers.withLock { !$0.all.isEmpty }
    }

    /// Yields each change to the sequences of its table.
    package func post(_ changes: [StoreChange]) {
        guard !changes.isEmpty else { return }
        let targets = subscribers.withLock { Array($0.all.values) }
        for change in changes {
            for subscriber in targets where subscriber.table == change.modelName {
                subscriber.continuation.yield(change)
            }
        }
    }

    /// Yields a change another connection committed to every sequence, each for its table:
    /// which tables it touched is not known.
    package func postExternal() {
        for subscriber in subscribers.withLock({ Array($0.all.values) }) {
            subscriber.continuation.yield(StoreChange(modelName: subscriber.table, isExternal: true))
        }
    }

    /// Whether ``finish()`` ran.
    package var isFinished: Bool {
        finished.withLock { $0 }
    }

    private let finished = Locked(false)

    /// Ends every sequence (the store closed or went away).
    package func finish() {
        finished.withLock { $0 = true }
        for subscriber in subscribers.withLock({ Array($0.all.values) }) { subscriber.continuation.finish() }
    }

    deinit {
        finish()
    }
}
