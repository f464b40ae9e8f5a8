import Foundation
import ModelKit
import ModelKitPreferences
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - Keys and models the tests share

extension Preferences.Keys {
    static let volume = Key<Double>("volume", default: 0.5)
    static let theme = Key<String>("theme", default: "light")
    static let nickname = Key<String?>("nickname")
    static let launches = Key<Int>("launches", default: 0)
}

@Model(keys: .snakeCase)
struct WindowFrame: Sendable {
    var originX: Double = 0
    var originY: Double = 0
    var width: Double = 800
    var isFullScreen: Bool = false
}

@Model(nulls: .useDefault)
struct AppSettings: Sendable {
    var volume: Double = 0.5
    var theme: String = "light"
    var recentFiles: [String] = []
    var window: WindowFrame = WindowFrame()
}

/// Codable but not a ModelValue: stored through JSONEncoder.
struct Bookmark: Codable, Hashable, Sendable {
    var title: String
    var page: Int
}

// MARK: - Temporary directories

/// A fresh directory under the system's temporary directory, removed by `remove()`.
struct TemporaryDirectory: Sendable {
    let url: URL

    init(_ label: String = #function) throws {
        let clean = label.filter { $0.isLetter || $0.isNumber }
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("ModelKitPreferencesTests-\(clean.prefix(40))-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// A file URL inside the directory.
    func file(_ name: String = "preferences.json") -> URL {
        url.appendingPathComponent(name)
    }

    /// The names of the entries in the directory, sorted.
    func entries() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted()
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}

/// Runs `body` with a fresh temporary directory, removing it afterwards.
func withTemporaryDirectory<T>(
    _ label: String = #function, _ body: (TemporaryDirectory) async throws -> T
) async throws -> T {
    let directory = try TemporaryDirectory(label)
    defer { directory.remove() }
    return try await body(directory)
}

/// Preferences saved only by `flush()`, in `file`.
func manualPreferences(_ file: URL, keys: [String] = [], pollInterval: Duration = .milliseconds(50)) throws
    -> Preferences
{
    try Preferences(
        name: "test", file: file, keys: keys,
        configuration: .init(savePolicy: .manually, pollInterval: pollInterval))
}

/// The file's bytes as text.
func contents(of url: URL) throws -> String {
    String(decoding: try Data(contentsOf: url), as: UTF8.self)
}

/// The file parsed as a JSON object (what any other reader would see).
func parsedObject(at url: URL) throws -> [String: JSONValue] {
    guard case .object(let members) = try JSONValue(parsing: try Data(contentsOf: url)) else {
        throw PreferencesError(.corruptFile, path: url.path, reason: "not an object")
    }
    return Dictionary(members.map { ($0.key, $0.value) }, uniquingKeysWith: { _, last in last })
}

/// Waits until `condition` holds, checking every 10 ms, for at most `timeout`. Generous
/// timeouts: the machine may be loaded, and success returns as soon as it happens.
func eventually(timeout: Duration = .seconds(60), _ condition: () throws -> Bool) async rethrows -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if try condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return try condition()
}

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
