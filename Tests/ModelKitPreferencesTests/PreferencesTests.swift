import Foundation
import ModelKit
import ModelKitPreferences
import Testing
import ModelKitTestSupport

/// RVS_PersistentPrefs's surface: a name, initial values, `values`, the String subscript,
/// declared keys, `lastError`.
@Suite("Preferences: the RVS surface")
struct PreferencesTests {
    @Test func initialValuesUpdateWhatIsStoredAndKeepOtherKeys() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.file()
            try Data(#"{"theme": "dark", "volume": 0.2}"#.utf8).write(to: file)
            let prefs = try Preferences(
                name: "com.example.app", file: file, values: ["volume": .double(0.9)],
                configuration: .init(savePolicy: .immediately))
            expectEqual(prefs.name, "com.example.app")
            expectEqual(prefs.values, ["theme": .string("dark"), "volume": .double(0.9)])
            try expectEqual(parsedObject(at: file), ["theme": .string("dark"), "volume": .double(0.9)])
        }
    }

    @Test func valuesReadingLoadsAndAssigningSaves() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.file()
            let prefs = try manualPreferences(file)
            #expect(prefs.values.isEmpty)
            prefs.values = ["a": .int(1), "b": .array([.string("x")])]
            try prefs.flush()
            try expectEqual(parsedObject(at: file), ["a": .int(1), "b": .array([.string("x")])])

            // Assigning replaces the whole dictionary: keys left out are removed.
            prefs.values = ["b": .null]
            try prefs.flush()
            try expectEqual(parsedObject(at: file), ["b": .null])

            // Reading loads what someone else saved.
            try Data(#"{"c": true}"#.utf8).write(to: file, options: .atomic)
            expectEqual(prefs.values, ["c": .bool(true)])
            #expect(prefs.lastError == nil)
        }
    }

    @Test func stringSubscriptGetsSetsAndRemoves() async throws {
        try await withTemporaryDirectory { directory in
            let prefs = try manualPreferences(directory.file())
            #expect(prefs["theme"] == nil)
            prefs["theme"] = .string("dark")
            expectEqual(prefs["theme"], .string("dark"))
            prefs["theme"] = nil
            #expect(prefs["theme"] == nil)
            prefs["empty"] = .null
            expectEqual(prefs["empty"], .null)
            expectEqual(prefs.values, ["empty": .null])
        }
    }

    @Test func throwingCallsMirrorTheNonThrowingSurface() async throws {
        try await withTemporaryDirectory { directory in
            let prefs = try manualPreferences(directory.file())
            try prefs.setValue(.int(3), forKey: "count")
            try expectEqual(prefs.value(forKey: "count"), .int(3))
            try prefs.setValues(["other": .bool(false)])
            try expectEqual(prefs.allValues(), ["other": .bool(false)])
            try prefs.removeValue(forKey: "other")
            #expect(try prefs.allValues().isEmpty)
        }
    }

    @Test(arguments: [
        JSONValue.double(.nan), .double(-.infinity), .array([.int(1), .double(.infinity)]),
        .object([JSONMember("deep", .object([JSONMember("x", .double(.nan))]))]),
    ])
    func numbersJSONCannotHoldAreRejectedBeforeTheySitInPendingWrites(_ value: JSONValue) async throws {
        try await withTemporaryDirectory { directory in
            let prefs = try manualPreferences(directory.file())
            prefs["bad"] = value
            #expect(prefs.lastError?.kind == .unencodableValue)
            #expect(prefs.lastError?.key == "bad")
            #expect(!prefs.hasUnsavedChanges)
            #expect(throws: PreferencesError.self) { try prefs.setValues(["bad": value]) }
            // Saving other values still works.
            prefs["good"] = .int(1)
            try prefs.flush()
            try expectEqual(parsedObject(at: directory.file()), ["good": .int(1)])
        }
    }

    @Test func instancesForTheSameFileShareValuesBeforeSaving() async throws {
        try await withTemporaryDirectory { directory in
            let first = try manualPreferences(directory.file())
            let second = try Preferences(file: directory.file(), configuration: .init(savePolicy: .manually))
            first["shared"] = .string("yes")
            expectEqual(second["shared"], .string("yes"))
            #expect(second.hasUnsavedChanges)
            try second.flush()
            #expect(!first.hasUnsavedChanges)
            try expectEqual(parsedObject(at: directory.file()), ["shared": .string("yes")])
        }
    }

    @Test func declaredKeysRejectOthers() async throws {
        try await withTemporaryDirectory { directory in
            let prefs = try manualPreferences(directory.file(), keys: ["volume", "theme"])
            expectEqual(prefs.keys, ["volume", "theme"])
            prefs["volume"] = .double(1)
            #expect(prefs.lastError == nil)

            prefs["volum"] = .double(1)
            let error = try #require(prefs.lastError)
            expectEqual(error.kind, .undeclaredKey)
            expectEqual(error.key, "volum")
            expectEqual(error.description, "'volum' is not a declared key: preferences 'test' declare 'volume', 'theme'")
            #expect(prefs["volum"] == nil)

            #expect(throws: PreferencesError.self) { try prefs.setValue(.int(1), forKey: "other") }
            #expect(throws: PreferencesError.self) {
                try Preferences(name: "test", file: directory.file(), keys: ["a"], values: ["b": .int(1)])
            }
            prefs.lastError = nil
            #expect(prefs.lastError == nil)
        }
    }

    @Test func declaredKeysOfASettingsModel() {
        expectEqual(Preferences.keys(of: AppSettings.self), ["volume", "theme", "recentFiles", "window"])
        expectEqual(Preferences.keys(of: WindowFrame.self), ["origin_x", "origin_y", "width", "is_full_screen"])
    }

    @Test func fileNamedInstances() async throws {
        try await withTemporaryDirectory { directory in
            let prefs = try Preferences(file: directory.file("settings.json"))
            expectEqual(prefs.name, "settings")
            expectEqual(prefs.fileURL.lastPathComponent, "settings.json")
        }
    }

    @Test func errorsReadAsOneLowercaseSentence() {
        let cases: [(PreferencesError, String)] = [
            (
                PreferencesError(.unreadableFile, path: "/p/prefs.json", reason: "permission denied"),
                "cannot read preferences file '/p/prefs.json': permission denied"
            ),
            (
                PreferencesError(.unwritableFile, path: "/p/prefs.json", reason: "no space left on device"),
                "cannot write preferences file '/p/prefs.json': no space left on device"
            ),
            (
                PreferencesError(
                    .corruptFile, path: "/p/prefs.json", backupPath: "/p/prefs.json.corrupt-1", reason: "x"),
                "corrupt preferences file '/p/prefs.json': x; moved it to '/p/prefs.json.corrupt-1'"
            ),
            (
                PreferencesError(.unencodableValue, key: "volume", reason: "expected a finite number, found nan"),
                "cannot encode the value for 'volume': expected a finite number, found nan"
            ),
        ]
        for (error, sentence) in cases {
            expectEqual(error.description, sentence)
        }
    }
}
