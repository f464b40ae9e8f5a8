import Foundation
import ModelKitCore

/// The transactions tasks (and threads outside tasks) have open, by store: a store's
/// operations from the task that opened one, inside its own transaction's closure, would wait
/// for that transaction to end, so they are refused, and a context's loads from that store on
/// that task go through the open transaction. Another task waits for the transaction to end, as
/// it would anywhere else.
///
/// A table the stores share, not a task-local value: `TaskLocal.withValue` runs its operation
/// as a closure that Swift 6.3 executes away from the caller's actor when it is formed in a
/// function that runs on its caller's actor, and the transaction's body maps into the caller's
/// context (a context and its models must stay on their actor).
package enum OpenTransaction {
    fileprivate struct Key: Hashable {
        let store: ObjectIdentifier
        let owner: Int
    }

    /// One entry per open transaction; a handful at a time.
    private static let open = Locked<[Key: any StoreConnection]>([:])

    /// Records that the current task opened a transaction on `store` through `connection`, runs
    /// `body`, and forgets it.
    package static func during<T>(
        _ store: AnyObject, _ connection: any StoreConnection, _ body: () async throws -> T
    ) async rethrows -> T {
        let key = Key(store: ObjectIdentifier(store), owner: currentOwner)
        open.withLock { $0[key] = connection }
        defer { _ = open.withLock { $0.removeValue(forKey: key) } }
        return try await body()
    }

    /// ``during(_:_:_:)`` for a transaction that does not suspend.
    package static func duringNow<T>(_ store: AnyObject, _ connection: any StoreConnection, _ body: () throws -> T) rethrows -> T {
        let key = Key(store: ObjectIdentifier(store), owner: currentOwner)
        open.withLock { $0[key] = connection }
        defer { _ = open.withLock { $0.removeValue(forKey: key) } }
        return try body()
    }

    /// A transaction the current task holds open outside a closure (a cursor's loop).
    package struct Entry: Sendable {
        fileprivate let key: Key
    }

    /// Records that the current task has a transaction open on `store` through `connection`,
    /// until ``leave(_:)``.
    package static func enter(_ store: AnyObject, _ connection: any StoreConnection) -> Entry {
        let key = Key(store: ObjectIdentifier(store), owner: currentOwner)
        open.withLock { $0[key] = connection }
        return Entry(key: key)
    }

    /// Forgets an entry of ``enter(_:_:)``.
    package static func leave(_ entry: Entry) {
        _ = open.withLock { $0.removeValue(forKey: entry.key) }
    }

    /// The connection of the transaction the current task itself opened on `store`, if any.
    package static func opened(by store: AnyObject) -> (any StoreConnection)? {
        let key = Key(store: ObjectIdentifier(store), owner: currentOwner)
        return open.withLock { $0[key] }
    }

    /// The current task's identity, or the current thread's outside a task.
    private static var currentOwner: Int {
        // Unsafe: the current task is only hashed here, not kept past the call (an `UnsafeCurrentTask` must not
        // escape); the one way to know the task from synchronous code such as `duringNow`.
        withUnsafeCurrentTask { $0?.hashValue } ?? ObjectIdentifier(Thread.current).hashValue
    }
}

extension StoreEngine {
    public func write<T>(_ body: (StoreTransaction) async throws -> T) async throws -> T {
        try await run(.write, body)
    }

    public func read<T>(_ body: (StoreTransaction) async throws -> T) async throws -> T {
        try await run(.read, body)
    }

    package func readOnce<T>(_ body: (StoreTransaction) async throws -> T) async throws -> T {
        try await run(.readOnce, body)
    }

    /// Opens a transaction through the engine, hands it to `body`, and commits only when `body`
    /// returned and the task was not cancelled meanwhile.
    private func run<T>(_ kind: StoreTransactionKind, _ body: (StoreTransaction) async throws -> T) async throws -> T {
        try refuseNesting()
        return try await transaction(kind) { connection in
            let transaction = StoreTransaction(connection: connection, kind: kind, engine: self as? any ModelRelationshipLoading)
            defer { transaction.finish() }
            let result = try await OpenTransaction.during(self, connection) { try await body(transaction) }
            try Task.checkCancellation()
            return result
        }
    }

    /// Throws when the current task is inside a transaction of this store.
    package func refuseNesting() throws {
        guard OpenTransaction.opened(by: self) != nil else { return }
        throw StoreError(
            .misusedTransaction,
            reason: "the store was called inside its own transaction, which would wait for itself: "
                + "use the transaction the closure received")
    }
}

/// A store that can run a read the cheapest consistent way it has (see
/// ``StoreTransactionKind/readOnce``).
package protocol OnceReading {
    func readOnce<T>(_ body: (StoreTransaction) async throws -> T) async throws -> T
}

/// An engine that can also hand out a connection without suspending (SQLite, memory), so a
/// context mapping a payload loads the identifiers it does not hold from the store as it goes.
package protocol SynchronousStoreEngine: StoreEngine, ModelLoading where Connection: SynchronousRowReading {
    /// Runs `body` with a connection, waiting for the store's other transactions to end.
    func withConnectionNow<T>(_ body: (Connection) throws -> T) throws -> T
}

extension SynchronousStoreEngine {
    public func loadModel<M: Model>(_ type: M.Type, id identifier: AnyHashable, into context: ModelContext) throws -> M? {
        try withLoader { loader in try loader.loadModelAndRelationships(M.self, id: identifier, into: context) }
    }

    package func loadRelationships(_ names: Set<String>, of owner: any ObservableModel, into context: ModelContext) throws {
        try withLoader { loader in try loader.fillNow(names, of: owner, into: context) }
    }

    /// Runs `body` with a loader reading through this store without suspending, whose reads leave
    /// relationships for first access: inside one of this store's transactions on the same task,
    /// through it.
    private func withLoader<T>(_ body: (RowLoader) throws -> T) throws -> T {
        let lazy = (self as? any ModelRelationshipLoading).map { LazyRelationships(loader: $0, prefetched: []) }
        if let connection = OpenTransaction.opened(by: self) as? Connection {
            return try body(RowLoader(synchronous: connection, lazy: lazy))
        }
        return try withConnectionNow { connection in try body(RowLoader(synchronous: connection, lazy: lazy)) }
    }
}
