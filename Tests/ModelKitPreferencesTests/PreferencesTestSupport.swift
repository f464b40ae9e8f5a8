import Foundation
import ModelKit
import ModelKitPreferences
import ModelKitTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
import ModelKitTestSupport
#endif

// MARK: - Observation

/// A thread-safe list.
final class LockedList<Element: Sendable>: @unchecked Sendable {
    // @unchecked: `items` is only touched under `lock`.
    private let lock = NSLock()
    private var items: [Element] = []

    func append(_ item: Element) {
        lock.lock()
        items.append(item)
        lock.unlock()
    }

    var all: [Element] {
        lock.lock()
        defer { lock.unlock() }
        return items
    }
}

/// Consumes a stream in a task, collecting what it yields.
final class Collector<Element: Sendable>: Sendable {
    let list = LockedList<Element>()
    private let task: Task<Void, Never>

    init(_ stream: AsyncStream<Element>) {
        let list = self.list
        task = Task { for await element in stream { list.append(element) } }
    }

    /// What was yielded so far.
    var items: [Element] { list.all }

    /// Waits until the collected items satisfy `condition`; returns whether they did in time.
    func wait(timeout: Duration = .seconds(60), until condition: @escaping ([Element]) -> Bool) async -> Bool {
        await eventually(timeout: timeout) { condition(list.all) }
    }

    /// Ends the consumption, which ends the observation.
    func stop() {
        task.cancel()
    }

    deinit {
        task.cancel()
    }
}
