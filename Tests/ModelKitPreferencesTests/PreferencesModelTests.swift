import Foundation
import ModelKit
import ModelKitPreferences
import Testing
import ModelKitTestSupport

/// A declared preferences type: a `@Model` struct of settings with defaults, read and written
/// as a whole.
@Suite("Preferences: a settings model")
struct PreferencesModelTests {
    @Test func missingKeysTakeTheirDefaults() async throws {
        try await withTemporaryDirectory { directory in
            try Data(#"{"theme": "dark", "window": {"width": 1024}, "unrelated": 1}"#.utf8).write(to: directory.file())
            let prefs = try manualPreferences(directory.file())
            let settings = try prefs.read(AppSettings.self)
            expectEqual(settings.volume, 0.5)
            expectEqual(settings.theme, "dark")
            expectEqual(settings.recentFiles, [])
            expectEqual(settings.window, WindowFrame(originX: 0, originY: 0, width: 1024, isFullScreen: false))
        }
    }

    @Test func anEmptyOrMissingFileGivesAllDefaults() async throws {
        try await withTemporaryDirectory { directory in
            let prefs = try manualPreferences(directory.file())
            try expectEqual(prefs.read(AppSettings.self), AppSettings())
            try Data().write(to: directory.file())
            try expectEqual(prefs.read(AppSettings.self), AppSettings())
        }
    }

    @Test func writingStoresEveryPropertyAndKeepsOtherKeys() async throws {
        try await withTemporaryDirectory { directory in
            try Data(#"{"unrelated": true}"#.utf8).write(to: directory.file())
            let prefs = try manualPreferences(directory.file())
            var settings = AppSettings()
            settings.volume = 0.9
            settings.recentFiles = ["/a.txt"]
            settings.window.isFullScreen = true
            try prefs.write(settings)
            try prefs.flush()
            let stored = try parsedObject(at: directory.file())
            expectEqual(stored["unrelated"], .bool(true))
            expectEqual(stored["volume"], .double(0.9))
            expectEqual(stored["recentFiles"], .array([.string("/a.txt")]))
            #expect(stored["window"]?["is_full_screen"] == .bool(true))
            try expectEqual(prefs.read(AppSettings.self), settings)
            // Typed keys see the same values.
            expectEqual(prefs[.volume], 0.9)
        }
    }

    @Test func writingMakesTheFileMatchTheModel() async throws {
        try await withTemporaryDirectory { directory in
            let prefs = try manualPreferences(directory.file())
            var settings = try prefs.read(AppSettings.self)
            try prefs.write(settings)
            try prefs.flush()
            // Writing the same settings again changes nothing.
            try prefs.write(settings)
            #expect(!prefs.hasUnsavedChanges)

            // Someone else changes the theme; writing our whole model puts ours back.
            try setExternally("theme", .string("dark"), in: directory.file())
            settings.volume = 0.1
            try prefs.write(settings)
            try prefs.flush()
            try expectEqual(prefs.read(AppSettings.self), settings)
        }
    }

    @Test func updateWritesOnlyWhatItChanged() async throws {
        try await withTemporaryDirectory { directory in
            let prefs = try manualPreferences(directory.file())
            try prefs.write(AppSettings())
            try prefs.flush()
            try prefs.update(AppSettings.self) { settings in
                // Another process changes the theme while we update the volume ...
                try setExternally("theme", .string("dark"), in: directory.file())
                settings.volume = 0.1
            }
            try prefs.flush()
            // ... and both changes are kept.
            let stored = try parsedObject(at: directory.file())
            expectEqual(stored["theme"], .string("dark"))
            expectEqual(stored["volume"], .double(0.1))
        }
    }

    /// Changes one key of the file the way another process would: a new file renamed over it.
    private func setExternally(_ key: String, _ value: JSONValue, in file: URL) throws {
        var members = try parsedObject(at: file)
        members[key] = value
        let document = JSONValue.object(members.map { JSONMember($0.key, $0.value) })
        try Data(try document.jsonBytes()).write(to: file, options: .atomic)
    }

    @Test func updateReadsChangesAndWrites() async throws {
        try await withTemporaryDirectory { directory in
            let prefs = try manualPreferences(directory.file())
            let updated = try prefs.update(AppSettings.self) { $0.recentFiles.append("/b.txt") }
            try prefs.update(AppSettings.self) { $0.recentFiles.append("/c.txt") }
            expectEqual(updated.recentFiles, ["/b.txt"])
            try expectEqual(prefs.read(AppSettings.self).recentFiles, ["/b.txt", "/c.txt"])
        }
    }

    @Test func aNullTakesTheDefaultWithTheModelsNullPolicy() async throws {
        try await withTemporaryDirectory { directory in
            try Data(#"{"volume": null}"#.utf8).write(to: directory.file())
            let prefs = try manualPreferences(directory.file())
            try expectEqual(prefs.read(AppSettings.self).volume, 0.5)
        }
    }

    @Test func aWrongTypeIsAnErrorNamingTheProperty() async throws {
        try await withTemporaryDirectory { directory in
            try Data(#"{"volume": "loud"}"#.utf8).write(to: directory.file())
            let prefs = try manualPreferences(directory.file())
            let error = try #require(throws: PreferencesError.self) { try prefs.read(AppSettings.self) }
            expectEqual(error.kind, .undecodableValue)
            expectEqual(error.key, "AppSettings")
            #expect(
                error.description
                    == "cannot decode 'AppSettings' in '\(prefs.fileURL.path)': 'AppSettings.volume' at 'volume': "
                    + "expected a number, found \"loud\"")
        }
    }

    @Test func declaringTheModelsKeysRejectsOthers() async throws {
        try await withTemporaryDirectory { directory in
            let prefs = try manualPreferences(directory.file(), keys: Preferences.keys(of: AppSettings.self))
            try prefs.write(AppSettings(volume: 1))
            #expect(throws: PreferencesError.self) { try prefs.setValue(.int(1), forKey: "volumee") }
        }
    }

    @Test func settingsAreObservedAsAWhole() async throws {
        try await withTemporaryDirectory { directory in
            let prefs = try manualPreferences(directory.file())
            let collector = Collector(prefs.changes(of: AppSettings.self, initial: true))
            defer { collector.stop() }
            #expect(await collector.wait { $0.count == 1 })
            prefs[.volume] = 0.3
            prefs["unrelated"] = .int(1)  // not a settings key: no new value
            try prefs.update(AppSettings.self) { $0.theme = "dark" }
            #expect(await collector.wait { $0.last?.theme == "dark" })
            expectEqual(collector.items.map(\.volume), [0.5, 0.3, 0.3])
            expectEqual(collector.items.map(\.theme), ["light", "light", "dark"])
        }
    }
}
