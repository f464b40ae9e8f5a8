import Foundation
import ModelKitCore

/// A first-come, first-served lock a store's transactions take turns on: tasks await it, and
/// nothing blocks a thread on it (a transaction may be suspended for as long as its task likes,
/// and a blocked thread of the cooperative pool could be one it needs to resume).
///
/// Unlike a mutex it may be released by another thread than the one that took it: an
/// asynchronous transaction may resume on any thread.
package final class StoreGate: Sendable {
    private let state = Locked<(held: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    package init() {}

    /// Takes the gate, suspending until it is free.
    package func acquire() async {
        if takeIfFree() { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            if takeOrQueue(continuation) { continuation.resume() }
        }
    }

    /// Takes the gate when it is free; false, without waiting, when it is held.
    package func tryAcquire() -> Bool {
        takeIfFree()
    }

    /// Hands the gate to the longest waiter, or frees it.
    package func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiters.isEmpty else {
                state.held = false
                return nil
            }
            return state.waiters.removeFirst()
        }
        next?.resume()
    }

    /// Takes the gate when it is free (true), or queues `waiter` to be handed it (false).
    private func takeOrQueue(_ waiter: CheckedContinuation<Void, Never>) -> Bool {
        state.withLock { state in
            if state.held {
                state.waiters.append(waiter)
                return false
            }
            state.held = true
            return true
        }
    }

    private func takeIfFree() -> Bool {
        state.withLock { state in
            if state.held { return false }
            state.held = true
            return true
        }
    }
}
