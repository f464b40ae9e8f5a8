import Foundation
import ModelKitCore
import ModelKitJSON
import ModelKitTestSupport
import Testing

/// The fixtures copied into this test target (`Fixtures/`, loaded through `Bundle.module`).
enum Fixtures {
    struct Missing: Error, CustomStringConvertible {
        var description: String
    }

    /// The `Fixtures` folder inside the test bundle.
    static func directory() throws -> URL {
        guard let url = Bundle.module.url(forResource: "Fixtures", withExtension: nil) else {
            throw Missing(description: "the 'Fixtures' resource folder is not in the test bundle")
        }
        return url
    }

    /// The bytes of `path` inside `Fixtures/` (twitter.json comes from ModelKitTestSupport).
    static func bytes(_ path: String) throws -> [UInt8] {
        if path == "twitter.json" { return [UInt8](try fixtureData(path)) }
        return [UInt8](try Data(contentsOf: directory().appendingPathComponent(path)))
    }

    /// The names of the JSONTestSuite files (`*.json`), sorted; empty when the folder is missing
    /// (the count test then fails).
    static func suiteFileNames() -> [String] {
        guard let folder = try? directory().appendingPathComponent("JSONTestSuite"),
              let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path)
        else { return [] }
        return names.filter { $0.hasSuffix(".json") }.sorted()
    }
}

/// Runs `body` with a scanner over the UTF-8 of `json`.
@discardableResult
func scanning<T>(_ json: String, limits: JSONLimits = .default, _ body: (inout JSONScanner) throws -> T) throws -> T {
    try scanning(Array(json.utf8), limits: limits, body)
}

/// Runs `body` with a scanner over `bytes`.
@discardableResult
func scanning<T>(_ bytes: [UInt8], limits: JSONLimits = .default, _ body: (inout JSONScanner) throws -> T) throws -> T {
    try bytes.withUnsafeBytes { buffer in
        var scanner = JSONScanner(bytes: buffer, limits: limits)
        return try body(&scanner)
    }
}

/// Reads one string document with `readString()` and checks that nothing follows.
func readString(_ json: String) throws -> String {
    try scanning(json) { scanner in
        let value = try scanner.readString()
        try scanner.finish()
        return value
    }
}

/// Reads one string document given as bytes.
func readString(bytes: [UInt8]) throws -> String {
    try scanning(bytes) { scanner in
        let value = try scanner.readString()
        try scanner.finish()
        return value
    }
}

/// `value` with every object's members sorted by key bytes (stable), for comparing with
/// output written with `.sortedKeys`.
func sortedRecursively(_ value: JSONValue) -> JSONValue {
    switch value {
    case .array(let elements):
        return .array(elements.map(sortedRecursively))
    case .object(let members):
        let sorted = members.enumerated().sorted { lhs, rhs in
            let left = lhs.element.key.utf8
            let right = rhs.element.key.utf8
            if left.elementsEqual(right) { return lhs.offset < rhs.offset }
            return left.lexicographicallyPrecedes(right)
        }
        return .object(sorted.map { JSONMember($0.element.key, sortedRecursively($0.element.value)) })
    default:
        return value
    }
}


/// `count` opening brackets followed by as many closing ones.
func nestedArrays(_ count: Int, closed: Bool = true) -> [UInt8] {
    [UInt8](repeating: UInt8(ascii: "["), count: count) + (closed ? [UInt8](repeating: UInt8(ascii: "]"), count: count) : [])
}
