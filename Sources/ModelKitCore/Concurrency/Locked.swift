import Foundation

// How ModelKit stays free of data races, in one place.
//
// Models and contexts are not `Sendable`: each stays in one isolation domain, where it needs no
// lock (`ModelContext`, its identity tables and its unit of work have none), and the compiler
// keeps them there. What several domains share is `Sendable` and guards its own state:
//
// - `Locked` (below): the one lock for shared state in memory: transformer and table registries,
//   date formatter caches, the stores' tables and prepared statements, change subscribers, the
//   open transactions by task. An `NSLock`, as `Synchronization.Mutex` needs macOS 15 and the
//   package supports macOS 14. Held for a few steps of bookkeeping, never across a suspension
//   point or a call into user code.
// - `StoreGate` (ModelKitStore): the turn a store's transactions take on its connection. A
//   transaction may stay suspended inside its closure for as long as its task likes, so the gate
//   is awaited (a queue of continuations), and nothing blocks a thread on it.
// - SQLite's own file locks (busy timeouts of 10 s): a file store's second, read-only connection
//   reads beside the writer; two processes on one file.
// - `flock` on preference files (ModelKitPreferences): processes sharing one file.
// - `PostgresLease` (ModelKitPostgres): hands a pooled connection from the task holding the lease
//   to the transaction's own domain, through continuations.
//
// Not locks, and why they exist: the identity tables hold instances by unowned reference and load
// them with the runtime's `swift_tryRetain` (CModelKitRuntime; see `InstanceReference`, which says
// what a weak reference would cost); writing keeps a per-thread list of the class instances being
// written, to report a graph that contains itself instead of recursing without end.

/// State behind a lock: the only way in is ``withLock(_:)``. ModelKit's one lock for state that
/// several isolation domains share (see the list above this declaration).
///
/// ```swift
/// let counter = Locked(0)
/// counter.withLock { $0 += 1 }
/// ```
package final class Locked<State>: @unchecked Sendable {
    // @unchecked: `state` is only touched while `lock` is held. Never a model or a context: they
    // stay in their own isolation domain, not behind a lock.
    private let lock = NSLock()
    // Unchecked: `lock` already makes each access exclusive (re-entering `withLock` from its body would deadlock on
    // the lock before two accesses could overlap), and the runtime's dynamic check would cost every call as much as
    // the lock itself (the store takes one per fetch).
    @exclusivity(unchecked) private var state: State

    /// A lock guarding `state`.
    package init(_ state: State) {
        self.state = state
    }

    /// Runs `body` with exclusive access to the state.
    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }
}

extension Locked where State == Void {
    /// A lock with no state, for serializing work (file input and output).
    package convenience init() {
        self.init(())
    }

    /// Runs `body` while holding the lock.
    package func run<Result>(_ body: () throws -> Result) rethrows -> Result {
        try withLock { _ in try body() }
    }
}
