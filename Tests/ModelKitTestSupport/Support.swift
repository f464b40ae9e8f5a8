import Foundation
import ModelKit
import Testing

/// Reads a file of the test bundle's `Fixtures` folder.
public func fixtureData(_ name: String) throws -> Data {
    guard let url = Bundle.module.url(forResource: "Fixtures/\(name)", withExtension: nil) else {
        throw FixtureError(name: name)
    }
    return try Data(contentsOf: url)
}

public struct FixtureError: Error, CustomStringConvertible {
    let name: String
    public var description: String { "no fixture named '\(name)'" }
}

/// A JSON object from text, as JSONSerialization produces it.
public func jsonObject(_ text: String) throws -> Any {
    try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
}

/// The error `body` throws, as a ModelError.
public func modelError(_ body: () throws -> Void) -> ModelError? {
    do {
        try body()
        return nil
    } catch let error as ModelError {
        return error
    } catch {
        Issue.record("expected a ModelError, got \(error)")
        return nil
    }
}

/// A new directory under the temporary directory, removed when the value goes away (or by
/// ``remove()``): the one temporary-directory helper of every test target.
///
/// ```swift
/// let directory = try TemporaryDirectory()
/// let store = try SQLiteStore(path: directory.path("store.sqlite"))
/// ```
public final class TemporaryDirectory: Sendable {
    public let url: URL

    /// A directory whose name starts with `label` (the calling function by default), so a
    /// leftover one says which test made it.
    public init(_ label: String = #function) throws {
        let clean = label.filter { $0.isLetter || $0.isNumber }.prefix(40)
        url = FileManager.default.temporaryDirectory.appendingPathComponent("modelkit-\(clean)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// A path inside the directory.
    public func path(_ name: String) -> String {
        url.appendingPathComponent(name).path
    }

    /// A file URL inside the directory.
    public func file(_ name: String = "preferences.json") -> URL {
        url.appendingPathComponent(name)
    }

    /// A file inside the directory holding `contents`.
    public func file(_ name: String, contents: String) throws -> URL {
        let file = file(name)
        try Data(contents.utf8).write(to: file)
        return file
    }

    /// The names of the entries in the directory, sorted.
    public func entries() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted()
    }

    /// Removes the directory now.
    public func remove() {
        try? FileManager.default.removeItem(at: url)
    }

    deinit {
        remove()
    }
}

/// Runs `body` with a fresh temporary directory, removing it afterwards.
public func withTemporaryDirectory<T>(
    _ label: String = #function, _ body: (TemporaryDirectory) async throws -> T
) async throws -> T {
    let directory = try TemporaryDirectory(label)
    defer { directory.remove() }
    return try await body(directory)
}

/// Waits until `condition` holds, checking every 10 ms, for at most `timeout`. Generous
/// timeouts: the machine may be loaded, and success returns as soon as it happens.
public func eventually(timeout: Duration = .seconds(60), _ condition: () async throws -> Bool) async rethrows -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if try await condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return try await condition()
}

/// Expects `actual` to equal `expected`, reported at the caller's line.
///
/// `#expect(actual == expected)` expanded once here instead of at each call site, where every
/// expansion is type-checked anew.
///
/// ```swift
/// expectEqual(try reader.decodeInt64(), 42)
/// ```
public func expectEqual<T: Equatable>(
    _ actual: T, _ expected: T, _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(actual == expected, comment, sourceLocation: sourceLocation)
}
