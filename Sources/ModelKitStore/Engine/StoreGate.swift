import Foundation
import ModelKitCore

/// A first-come, first-served lock a store's transactions take turns on, awaited by tasks and
/// waited for by threads alike (a store's synchronous loads, from a context mapping a payload,
/// wait on the same gate as its asynchronous transactions).
///
/// Unlike a mutex it may be released by another thread than the one that took it: an
/// asynchronous transaction may resume on any thread.
package final class StoreGate: Sendable {
    private enum Waiter {
        case task(CheckedContinuation<Void, Never>)
        case thread(DispatchSemaphore)
    }

    private let state = Locked<(held: Bool, waiters: [Waiter])>((false, []))

    package init() {}

    /// Takes the gate, suspending until it is free.
    package func acquire() async {
        if takeIfFree() { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            if takeOrQueue(.task(continuation)) { continuation.resume() }
        }
    }

    /// Takes the gate, blocking the thread until it is free.
    package func acquireBlocking() {
        if takeIfFree() { return }
        let semaphore = DispatchSemaphore(value: 0)
        if !takeOrQueue(.thread(semaphore)) { semaphore.wait() }
    }

    /// Hands the gate to the longest waiter, or frees it.
    package func release() {
        let next = state.withLock { state -> Waiter? in
            guard !state.waiters.isEmpty else {
                state.held = false
                return nil
            }
            return state.waiters.removeFirst()
        }
        switch next {
        case .task(let continuation): continuation.resume()
        case .thread(let semaphore): semaphore.signal()
        case nil: break
        }
    }

    /// Takes the gate when it is free (true), or queues `waiter` to be handed it (false).
    private func takeOrQueue(_ waiter: Waiter) -> Bool {
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
