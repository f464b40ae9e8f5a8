import Foundation
import ModelKit
import ModelKitPreferences
import ModelKitTestSupport
import Testing

/// `modelkit prefs get|set|list|delete NAME [KEY] [VALUE] [--file PATH]`, run as a process.
@Suite("modelkit prefs")
struct PrefsCommandTests {
    /// Runs `modelkit prefs <arguments> --file <file>`.
    private func prefs(_ arguments: [String], file: URL) async throws -> ToolResult {
        try await ModelKitTool.run(["prefs"] + arguments + ["--file", file.path])
    }

    static let parsedValues: [(String, JSONValue)] = [
        ("0.8", .double(0.8)),
        ("42", .int(42)),
        ("-1", .int(-1)),
        ("true", .bool(true)),
        ("null", .null),
        ("dark", .string("dark")),
        ("\"quoted\"", .string("quoted")),
        ("[1, \"a\"]", .array([.int(1), .string("a")])),
        ("{\"b\": 1, \"a\": 2}", .object([JSONMember("a", .int(2)), JSONMember("b", .int(1))])),
        ("{not json", .string("{not json")),
        ("", .string("")),
    ]

    @Test(arguments: parsedValues)
    func setReadsValueAsJSONIfItParsesElseAsAString(_ text: String, _ expected: JSONValue) async throws {
        try await withTemporaryDirectory { directory in
            let result = try await prefs(["set", "app", "key", text], file: directory.file())
            #expect(result.status == 0, "\(result.errorOutput)")
            try expectEqual(parsedObject(at: directory.file())["key"], expected)
        }
    }

    @Test func aValueAfterDoubleDashIsNeverAnOption() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.file()
            let result = try await ModelKitTool.run([
                "prefs", "set", "app", "flag", "--file", file.path, "--", "--file",
            ])
            #expect(result.status == 0, "\(result.errorOutput)")
            try expectEqual(parsedObject(at: file)["flag"], .string("--file"))
        }
    }

    @Test func setWithStringStoresTheTextAsIs() async throws {
        try await withTemporaryDirectory { directory in
            let result = try await prefs(["set", "app", "zip", "01234", "--string"], file: directory.file())
            #expect(result.status == 0, "\(result.errorOutput)")
            try expectEqual(parsedObject(at: directory.file())["zip"], .string("01234"))
        }
    }

    @Test func getPrintsJSON() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.file()
            _ = try await prefs(["set", "app", "theme", "dark"], file: file)
            _ = try await prefs(["set", "app", "sizes", "[1,2]"], file: file)
            try await expectEqual(prefs(["get", "app", "theme"], file: file).output, "\"dark\"\n")
            try await expectEqual(prefs(["get", "app", "theme", "--raw"], file: file).output, "dark\n")
            try await expectEqual(prefs(["get", "app", "sizes"], file: file).output, "[\n  1,\n  2\n]\n")
        }
    }

    @Test func getOfAMissingKeyFails() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.file()
            let result = try await prefs(["get", "app", "missing"], file: file)
            expectEqual(result.status, 1)
            #expect(result.output.isEmpty)
            expectEqual(result.errorOutput, "no value for 'missing' in preferences 'app' ('\(file.path)')\n")
        }
    }

    @Test func listPrintsSortedKeyValueLines() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.file()
            let prefs = try manualPreferences(file)
            prefs["zeta"] = .string("z")
            prefs["alpha"] = .object([JSONMember("b", .int(1)), JSONMember("a", .null)])
            prefs[.volume] = 0.5
            try prefs.flush()
            let result = try await self.prefs(["list", "app"], file: file)
            #expect(result.status == 0, "\(result.errorOutput)")
            expectEqual(result.output, "alpha = {\"a\":null,\"b\":1}\nvolume = 0.5\nzeta = \"z\"\n")

            let json = try await self.prefs(["list", "app", "--json"], file: file)
            try expectEqual(JSONValue(parsing: json.output), JSONValue(parsing: try contents(of: file)))
        }
    }

    @Test func listOfNoFilePrintsNothing() async throws {
        try await withTemporaryDirectory { directory in
            let result = try await prefs(["list", "app"], file: directory.file())
            expectEqual(result.status, 0)
            #expect(result.output.isEmpty)
            #expect(!FileManager.default.fileExists(atPath: directory.file().path))
        }
    }

    @Test func deleteRemovesAKeyAndKeepsTheOthers() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.file()
            _ = try await prefs(["set", "app", "a", "1"], file: file)
            _ = try await prefs(["set", "app", "b", "2"], file: file)
            try await expectEqual(prefs(["delete", "app", "a"], file: file).status, 0)
            try expectEqual(parsedObject(at: file), ["b": .int(2)])
            // Deleting what is not there succeeds.
            try await expectEqual(prefs(["delete", "app", "a"], file: file).status, 0)
        }
    }

    @Test func whatTheToolWritesTheLibraryReads() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.file()
            _ = try await prefs(["set", "app", "window", #"{"origin_x": 5, "width": 640}"#], file: file)
            let prefs = try manualPreferences(file)
            let window = try #require(try prefs.value(WindowFrame.self, forKey: "window"))
            expectEqual(window, WindowFrame(originX: 5, originY: 0, width: 640, isFullScreen: false))
        }
    }

    @Test func aCorruptFileFailsWithTheErrorsSentence() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.file()
            try Data("{]".utf8).write(to: file)
            let result = try await prefs(["get", "app", "a"], file: file)
            expectEqual(result.status, 1)
            #expect(result.errorOutput.hasPrefix("corrupt preferences file '\(file.path)': "))
            #expect(directory.entries().contains { $0.hasPrefix("preferences.json.corrupt-") })
        }
    }

    @Test func anInvalidNameFails() async throws {
        let result = try await ModelKitTool.run(["prefs", "get", "../etc", "a"])
        expectEqual(result.status, 1)
        expectEqual(result.errorOutput, "invalid preferences name: '../etc' contains '/' or a NUL character\n")
    }

    @Test func missingArgumentsFailWithUsage() async throws {
        for arguments in [
            ["prefs", "set", "app", "key"], ["prefs", "set", "app", "key", "a", "b"], ["prefs", "get", "app"],
        ] {
            let result = try await ModelKitTool.run(arguments)
            #expect(result.status != 0)
            #expect(result.errorOutput.contains("Usage: modelkit prefs"))
        }
    }
}
