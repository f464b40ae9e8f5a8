import Foundation
import ModelKit
import ModelKitPreferences
import Testing
import ModelKitTestSupport

/// One typed value stored and read back, and how it looks in the file.
struct RoundTrip: Sendable, CustomTestStringConvertible {
    let name: String
    /// Stores the value, reads it back and checks it; returns the stored JSON.
    let run: @Sendable (Preferences) throws -> JSONValue?

    var testDescription: String { name }

    static func of<Value: Codable & Equatable & Sendable>(
        _ name: String, _ value: Value, default defaultValue: Value, stored: JSONValue
    ) -> RoundTrip {
        RoundTrip(name: name) { prefs in
            let key = Preferences.Key<Value>(name, default: defaultValue)
            expectEqual(prefs[key], defaultValue)
            prefs[key] = value
            expectEqual(prefs[key], value)
            try prefs.flush()
            let json = try prefs.value(forKey: name)
            expectEqual(json, stored)
            try prefs.reload()
            try expectEqual(prefs.value(for: key), value)
            return json
        }
    }
}

@Suite("Preferences: typed keys")
struct PreferenceKeyTests {
    static let date = Date(timeIntervalSince1970: 1_700_000_000)

    static let roundTrips: [RoundTrip] = [
        .of("double", 0.8, default: 0.5, stored: .double(0.8)),
        .of("int", 42, default: 0, stored: .int(42)),
        .of("bool", true, default: false, stored: .bool(true)),
        .of("string", "dark", default: "light", stored: .string("dark")),
        .of("strings", ["a", "b"], default: [], stored: .array([.string("a"), .string("b")])),
        .of("optional", Optional("ada"), default: nil, stored: .string("ada")),
        .of("none", String?.none, default: "x", stored: .null),
        .of("date", date, default: Date(timeIntervalSince1970: 0), stored: .string("2023-11-14T22:13:20Z")),
        .of(
            "url", URL(string: "https://example.com/a")!, default: URL(string: "about:blank")!,
            stored: .string("https://example.com/a")),
        .of("data", Data([1, 2, 3]), default: Data(), stored: .string("AQID")),
        .of("dictionary", ["x": 1], default: [:], stored: .object([JSONMember("x", .int(1))])),
        .of(
            "codable", Bookmark(title: "Intro", page: 3), default: Bookmark(title: "", page: 0),
            stored: .object([JSONMember("page", .int(3)), JSONMember("title", .string("Intro"))])),
        .of(
            "model", WindowFrame(originX: 10, originY: 20, width: 300, isFullScreen: true), default: WindowFrame(),
            stored: .object([
                JSONMember("is_full_screen", .bool(true)), JSONMember("origin_x", .double(10)),
                JSONMember("origin_y", .double(20)), JSONMember("width", .double(300)),
            ])),
    ]

    @Test(arguments: roundTrips)
    func valuesRoundTripThroughTheFile(_ roundTrip: RoundTrip) async throws {
        try await withTemporaryDirectory { directory in
            let prefs = try manualPreferences(directory.file())
            _ = try roundTrip.run(prefs)
            #expect(prefs.lastError == nil)
        }
    }

    @Test func declaredKeysUseLeadingDotSyntax() async throws {
        try await withTemporaryDirectory { directory in
            let prefs = try manualPreferences(directory.file())
            expectEqual(prefs[.volume], 0.5)
            #expect(prefs[.nickname] == nil)
            prefs[.volume] = 0.75
            prefs[.launches] += 1
            prefs[.launches] += 1
            prefs[.nickname] = "ada"
            expectEqual(prefs[.volume], 0.75)
            expectEqual(prefs[.launches], 2)
            expectEqual(prefs[.nickname], "ada")
            try prefs.flush()
            #expect(
                try parsedObject(at: directory.file()) == [
                    "volume": .double(0.75), "launches": .int(2), "nickname": .string("ada"),
                ])
        }
    }

    @Test func resetRemovesTheStoredValueSoTheDefaultApplies() async throws {
        try await withTemporaryDirectory { directory in
            let prefs = try manualPreferences(directory.file())
            try prefs.set("dark", for: .theme)
            try prefs.reset(.theme)
            expectEqual(prefs[.theme], "light")
            #expect(prefs["theme"] == nil)
        }
    }

    @Test func readingDefaultsNeverWritesThem() async throws {
        try await withTemporaryDirectory { directory in
            let prefs = try manualPreferences(directory.file())
            expectEqual(prefs[.volume], 0.5)
            #expect(!prefs.hasUnsavedChanges)
            try prefs.flush()
            #expect(!FileManager.default.fileExists(atPath: directory.file().path))
        }
    }

    @Test func anIntegerInTheFileReadsAsADouble() async throws {
        try await withTemporaryDirectory { directory in
            try Data(#"{"volume": 1}"#.utf8).write(to: directory.file())
            let prefs = try manualPreferences(directory.file())
            try expectEqual(prefs.value(for: .volume), 1.0)
        }
    }

    @Test func anUndecodableValueGivesTheDefaultAndAnError() async throws {
        try await withTemporaryDirectory { directory in
            try Data(#"{"volume": "loud"}"#.utf8).write(to: directory.file())
            let prefs = try manualPreferences(directory.file())
            let error = try #require(throws: PreferencesError.self) { try prefs.value(for: .volume) }
            expectEqual(error.kind, .undecodableValue)
            expectEqual(error.key, "volume")
            let path = prefs.fileURL.path
            expectEqual(error.description, "cannot decode 'volume' in '\(path)': expected a number, found \"loud\"")

            expectEqual(prefs[.volume], 0.5)
            #expect(prefs.lastError?.kind == .undecodableValue)
            // The stored value is kept, not replaced by the default.
            try expectEqual(parsedObject(at: directory.file()), ["volume": .string("loud")])
        }
    }

    @Test func anUnencodableValueIsRejected() async throws {
        try await withTemporaryDirectory { directory in
            let prefs = try manualPreferences(directory.file())
            let error = try #require(throws: PreferencesError.self) { try prefs.set(Double.nan, for: .volume) }
            expectEqual(error.kind, .unencodableValue)
            expectEqual(error.description, "cannot encode the value for 'volume': expected a finite number, found nan")
            expectEqual(prefs[.volume], 0.5)

            prefs[.volume] = .infinity
            #expect(prefs.lastError?.kind == .unencodableValue)
            #expect(!prefs.hasUnsavedChanges)
        }
    }

    @Test func anyCodableValueByName() async throws {
        try await withTemporaryDirectory { directory in
            let prefs = try manualPreferences(directory.file())
            let marks = [Bookmark(title: "A", page: 1), Bookmark(title: "B", page: 2)]
            try prefs.set(marks, forKey: "bookmarks")
            try expectEqual(prefs.value([Bookmark].self, forKey: "bookmarks"), marks)
            #expect(try prefs.value([Bookmark].self, forKey: "missing") == nil)
            #expect(throws: PreferencesError.self) { try prefs.value(Int.self, forKey: "bookmarks") }
        }
    }

    @Test func keysDescribeThemselves() {
        expectEqual(Preferences.Keys.volume.description, #"Key<Double>("volume")"#)
        expectEqual(Preferences.Keys.volume.defaultValue, 0.5)
        #expect(Preferences.Keys.nickname.defaultValue == nil)
    }
}
