import Foundation
import GRDB
import ModelKitCore

/// Read-only connections to a database file, for read transactions that run beside the store's
/// writes and beside each other: in write-ahead-log mode each reads the snapshot of the moment
/// its transaction began, whatever the writer commits meanwhile.
///
/// Opened as needed, up to `capacity`; a read that finds them all taken waits for one (never
/// blocking a thread: a read transaction may be suspended as long as its task likes).
final class SQLiteReaderPool: Sendable {
    let path: String
    let capacity: Int
    private let state = Locked<(idle: [DatabaseQueue], opened: Int, waiters: [CheckedContinuation<DatabaseQueue?, Never>], closed: Bool)>(
        ([], 0, [], false))

    init(path: String, capacity: Int) {
        self.path = path
        self.capacity = capacity
    }

    /// A connection of the pool, to hand back with ``release(_:)``.
    func acquire() async throws -> DatabaseQueue {
        enum Next {
            case reader(DatabaseQueue)
            case open
            case wait
        }
        let next: Next = state.withLock { state in
            if let reader = state.idle.popLast() { return .reader(reader) }
            if state.opened < capacity {
                state.opened += 1
                return .open
            }
            return .wait
        }
        switch next {
        case .reader(let reader):
            return reader
        case .open:
            do {
                return try open()
            } catch {
                state.withLock { $0.opened -= 1 }
                throw error
            }
        case .wait:
            let reader = await withCheckedContinuation { (continuation: CheckedContinuation<DatabaseQueue?, Never>) in
                let ready: DatabaseQueue?? = state.withLock { state in
                    if state.closed { return .some(nil) }
                    if let reader = state.idle.popLast() { return .some(reader) }
                    state.waiters.append(continuation)
                    return .none
                }
                if let ready { continuation.resume(returning: ready) }
            }
            guard let reader else { throw StoreError(.closed, reason: "it was closed ('\(path)')") }
            return reader
        }
    }

    /// Hands a connection back: to the longest waiter, or to the idle ones.
    func release(_ reader: DatabaseQueue) {
        let waiter = state.withLock { state -> CheckedContinuation<DatabaseQueue?, Never>? in
            guard !state.waiters.isEmpty else {
                state.idle.append(reader)
                return nil
            }
            return state.waiters.removeFirst()
        }
        waiter?.resume(returning: reader)
    }

    /// Closes the idle connections; a connection in use is closed as it comes back... by the
    /// store, which closes only once its transactions are over.
    func close() throws {
        let (idle, waiters) = state.withLock { state in
            state.closed = true
            defer { (state.idle, state.waiters) = ([], []) }
            return (state.idle, state.waiters)
        }
        for waiter in waiters { waiter.resume(returning: nil) }
        for reader in idle { try reader.close() }
    }

    private func open() throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(10)
        // A transaction spans several accesses to the connection.
        configuration.allowsUnsafeTransactions = true
        configuration.prepareDatabase { db in db.add(function: SQLiteStore.lowercase) }
        return try DatabaseQueue(path: path, configuration: configuration)
    }
}

/// A read transaction on a pooled connection: the connection, and the tables it found complete
/// in its snapshot (each checked once per transaction, as a table another connection created
/// after the snapshot began is not in it).
final class PooledRead: @unchecked Sendable {
    // @unchecked: used by the one task that runs the transaction, one access at a time (nested
    // accesses run inside the outer one, on the same thread). Holds a connection and table
    // identities, never a model.
    let queue: DatabaseQueue
    var tables: Set<ObjectIdentifier> = []
    /// Whether the transaction has read a table (its snapshot has begun).
    var hasSnapshot = false

    init(queue: DatabaseQueue) {
        self.queue = queue
    }
}
