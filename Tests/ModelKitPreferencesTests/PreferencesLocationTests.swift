import Foundation
import ModelKit
import ModelKitPreferences
import ModelKitTestSupport
import Testing

/// Where preferences live: the platform's place for a name, or an explicit file.
@Suite("Preferences: location")
struct PreferencesLocationTests {
    struct LocationCase: Sendable, CustomTestStringConvertible {
        let environment: [String: String]
        let expected: String?
        var testDescription: String { "\(environment)" }
    }

    static let locations: [LocationCase] = [
        LocationCase(
            environment: ["XDG_CONFIG_HOME": "/xdg", "HOME": "/home/ada"],
            expected: "/xdg/com.example.app/preferences.json"),
        LocationCase(
            environment: ["HOME": "/home/ada"], expected: "/home/ada/.config/com.example.app/preferences.json"),
        LocationCase(
            environment: ["XDG_CONFIG_HOME": "", "HOME": "/home/ada"],
            expected: "/home/ada/.config/com.example.app/preferences.json"),
        // The XDG specification says relative paths are invalid and must be ignored.
        LocationCase(
            environment: ["XDG_CONFIG_HOME": "relative/dir", "HOME": "/home/ada"],
            expected: "/home/ada/.config/com.example.app/preferences.json"),
        LocationCase(environment: [:], expected: nil),
    ]

    @Test(arguments: locations)
    func theStandardPlaceFollowsXDG(_ location: LocationCase) throws {
        if let expected = location.expected {
            let url = try Preferences.standardFileURL(forName: "com.example.app", environment: location.environment)
            expectEqual(url.path, expected)
        } else {
            let error = try #require(throws: PreferencesError.self) {
                try Preferences.standardFileURL(forName: "com.example.app", environment: location.environment)
            }
            expectEqual(error.kind, .noStandardLocation)
        }
    }

    @Test func theStandardPlaceOfThisPlatform() throws {
        let url = try Preferences.standardFileURL(forName: "com.example.app")
        expectEqual(url.lastPathComponent, "preferences.json")
        expectEqual(url.deletingLastPathComponent().lastPathComponent, "com.example.app")
        #if canImport(Darwin)
        #expect(url.path.contains("Application Support"))
        #else
        let environment = ProcessInfo.processInfo.environment
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
            #expect(url.path.hasPrefix(config))
        } else {
            #expect(url.path.contains("/.config/"))
        }
        #endif
    }

    @Test(arguments: ["", ".", "..", "a/b", "nul\0byte", String(repeating: "x", count: 256)])
    func invalidNamesAreRejected(_ name: String) throws {
        let error = try #require(throws: PreferencesError.self) { try Preferences.standardFileURL(forName: name) }
        expectEqual(error.kind, .invalidName)
        #expect(error.description.hasPrefix("invalid preferences name: "))
        #expect(throws: PreferencesError.self) {
            try Preferences(name: name, file: URL(fileURLWithPath: "/tmp/x.json"))
        }
    }

    @Test(arguments: ["com.example.app", "My App", "données", ".hidden"])
    func validNames(_ name: String) throws {
        let url = try Preferences.standardFileURL(forName: name, environment: ["HOME": "/home/ada"])
        expectEqual(url.deletingLastPathComponent().lastPathComponent, name)
    }

    @Test func anExplicitFileIsUsedAsIsAndItsDirectoryIsCreated() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.url.appendingPathComponent("nested/deeper/settings.json")
            let prefs = try Preferences(
                name: "com.example.app", file: file, configuration: .init(savePolicy: .manually))
            prefs["a"] = .int(1)
            try prefs.flush()
            expectEqual(prefs.fileURL.lastPathComponent, "settings.json")
            try expectEqual(parsedObject(at: file), ["a": .int(1)])
            #expect(FileManager.default.fileExists(atPath: file.path + ".lock"))
        }
    }

    @Test func differentSpellingsOfOnePathShareOneStore() async throws {
        try await withTemporaryDirectory { directory in
            let plain = directory.file()
            let roundabout = directory.url.appendingPathComponent("sub/../preferences.json")
            try FileManager.default.createDirectory(
                at: directory.url.appendingPathComponent("sub"), withIntermediateDirectories: true)
            let first = try manualPreferences(plain)
            let second = try manualPreferences(roundabout)
            first["a"] = .int(1)
            expectEqual(second["a"], .int(1))
            expectEqual(first.fileURL, second.fileURL)
        }
    }

    @Test func aSymbolicallyLinkedFileStaysALink() async throws {
        try await withTemporaryDirectory { directory in
            let target = directory.url.appendingPathComponent("dotfiles/app.json")
            try FileManager.default.createDirectory(
                at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(#"{"theme": "dark"}"#.utf8).write(to: target)
            let link = directory.file("linked.json")
            try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)

            let prefs = try manualPreferences(link)
            expectEqual(prefs[.theme], "dark")
            prefs[.volume] = 0.1
            try prefs.flush()
            let destination = try FileManager.default.destinationOfSymbolicLink(atPath: link.path)
            expectEqual(destination, target.path)
            try expectEqual(parsedObject(at: target), ["theme": .string("dark"), "volume": .double(0.1)])
        }
    }

    @Test func theToolUsesTheStandardPlace() async throws {
        try await withTemporaryDirectory { directory in
            var environment = ProcessInfo.processInfo.environment
            environment["XDG_CONFIG_HOME"] = directory.url.path
            let result = try await ModelKitTool.run(
                ["prefs", "set", "com.example.tool", "volume", "0.7"], environment: environment)
            #expect(result.status == 0, "\(result.errorOutput)")
            let url = try Preferences.standardFileURL(forName: "com.example.tool", environment: environment)
            #expect(url.path.hasPrefix(directory.url.path))
            let prefs = try Preferences(name: "com.example.tool", file: url)
            expectEqual(prefs[.volume], 0.7)
        }
    }
}
