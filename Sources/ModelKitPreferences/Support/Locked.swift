import Foundation

/// A value guarded by a lock: the only way in is ``withLock(_:)``.
///
/// Preferences are used from many threads and tasks at once while keeping a synchronous
/// surface (`values`, subscripts), so their mutable state lives in boxes like this one rather
/// than in an actor.
///
/// ```swift
/// let counter = Locked(0)
/// counter.withLock { $0 += 1 }
/// ```
final class Locked<State>: @unchecked Sendable {
    // @unchecked: `state` is only touched while `lock` is held.
    private let lock = NSLock()
    private var state: State

    /// A box holding `state`.
    init(_ state: State) {
        self.state = state
    }

    /// Runs `body` with exclusive access to the state.
    func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }
}

/// A lock for serializing work that has no state of its own (file input and output).
final class SerialLock: @unchecked Sendable {
    // @unchecked: NSLock is thread-safe; the class only forwards to it.
    private let lock = NSLock()

    /// Runs `body` while holding the lock.
    func run<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
