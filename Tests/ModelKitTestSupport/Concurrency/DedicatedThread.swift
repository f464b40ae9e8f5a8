import Foundation

/// Runs `body` on a thread of its own and waits for its result without holding one of the
/// threads of Swift's cooperative pool.
///
/// Tests run concurrently on that pool, which has one thread per core: a test that computes for
/// seconds on it (the complexity tests) would keep tests that only wait (timeouts, servers) from
/// running, and their timings would be off. Record expectations in the caller, with the result:
/// an expectation on the dedicated thread is not tied to the running test.
///
/// A small `stackSize` shows that work does not recurse once per level of its input: at 1 MiB,
/// a walk that took even a hundred bytes of stack per level overflows before 10,000 levels.
///
/// ```swift
/// let growth = try await onDedicatedThread { try growthRatio(make: input) { try read($0) } }
/// #expect(growth.ratio < 20)
/// ```
public func onDedicatedThread<T: Sendable>(
    stackSize: Int = 8 << 20, _ body: @escaping @Sendable () throws -> T
) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            continuation.resume(with: Result { try body() })
        }
        thread.stackSize = stackSize
        thread.start()
    }
}
