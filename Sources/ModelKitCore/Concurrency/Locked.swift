import Foundation

/// State behind a lock: the only way in is ``withLock(_:)``. The one lock type of every
/// ModelKit module (caches, registries, preferences, the store's tables).
///
/// ```swift
/// let counter = Locked(0)
/// counter.withLock { $0 += 1 }
/// ```
package final class Locked<State>: @unchecked Sendable {
    // @unchecked: `state` is only touched while `lock` is held.
    private let lock = NSLock()
    private var state: State

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
