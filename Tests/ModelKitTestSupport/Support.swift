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

/// A new directory under the temporary directory, removed when the value goes away.
public final class TemporaryDirectory {
    public let url: URL

    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("modelkit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// A path inside the directory.
    public func path(_ name: String) -> String {
        url.appendingPathComponent(name).path
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}
