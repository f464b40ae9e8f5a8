import Foundation
import ModelKitTestSupport
import Testing

/// `modelkit generate`, run as the built binary.
@Suite struct GenerateCommandTests {
    /// `Generated/<name>.swift` without its header comment: the command's output for its payload
    /// (`TwitterTimeline`: `twitter.json` with `--root TwitterTimeline`).
    static func checkedInModels(_ name: String) throws -> String {
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        return try checkedInGeneratedModels(directory.appendingPathComponent("Generated/\(name).swift"))
    }

    @Test func twitterJSONGivesTheCheckedInModels() throws {
        let directory = try TemporaryDirectory()
        let twitter = directory.file("twitter.json")
        try fixtureData("twitter.json").write(to: twitter)
        let result = try ModelKitTool.run(["generate", "--root", "TwitterTimeline", twitter.path])
        #expect(result.status == 0, "\(result.errorOutput)")
        expectEqual(result.errorOutput, "")
        let expected = try Self.checkedInModels("TwitterTimeline")
        #expect(expected.hasPrefix("import Foundation\nimport ModelKit\n"))
        expectEqual(result.output, expected)
    }

    @Test(arguments: [[], ["-"]])
    func standardInputWhenTheFileIsOmittedOrADash(_ file: [String]) throws {
        let directory = try TemporaryDirectory()
        let input = try directory.file("in.json", contents: #"{"screen_name": "ada", "tags": [{"text": "x"}]}"#)
        let result = try ModelKitTool.run(["generate"] + file, standardInput: input)
        #expect(result.status == 0, "\(result.errorOutput)")
        #expect(
            result.output == """
                import Foundation
                import ModelKit

                /// The payload's top-level object.
                @Model(keys: .snakeCase)
                struct Root {
                    var screenName: String
                    var tags: [Tag]
                }

                /// The objects at 'tags[]'.
                @Model
                struct Tag {
                    var text: String
                }

                """)
    }

    @Test func invalidJSONFailsWithItsPositionAndReason() throws {
        let directory = try TemporaryDirectory()
        let bad = try directory.file("bad.json", contents: "{\n  \"a\": [1, 2,]\n}")
        let result = try ModelKitTool.run(["generate", bad.path])
        expectEqual(result.status, 1)
        expectEqual(result.output, "")
        #expect(
            result.errorOutput
                == "modelkit: '\(bad.path)': invalid JSON at line 2, column 14 (byte 15): a trailing comma is not allowed before ']'\n"
        )
        let fromInput = try ModelKitTool.run(["generate"], standardInput: bad)
        expectEqual(fromInput.status, 1)
        #expect(fromInput.errorOutput.hasPrefix("modelkit: standard input: invalid JSON at line 2, column 14"))
    }

    @Test func unreadableFilesUnsupportedPayloadsAndBadRootNames() throws {
        let missing = try ModelKitTool.run(["generate", "/nonexistent/payload.json"])
        expectEqual(missing.status, 1)
        expectEqual(missing.errorOutput, "modelkit: cannot read '/nonexistent/payload.json': no such file\n")

        let directory = try TemporaryDirectory()
        let numbers = try directory.file("numbers.json", contents: "[1, 2]")
        let scalar = try ModelKitTool.run(["generate", numbers.path])
        expectEqual(scalar.status, 1)
        #expect(
            scalar.errorOutput
                == "modelkit: cannot generate models from an array holding a number: the top level must be an object or an array of objects\n"
        )

        let object = try directory.file("object.json", contents: #"{"a": 1}"#)
        let badRoot = try ModelKitTool.run(["generate", "--root", "class", object.path])
        expectEqual(badRoot.status, 1)
        #expect(badRoot.errorOutput.hasPrefix("modelkit: invalid root type name 'class': "))
        let named = try ModelKitTool.run(["generate", "--root", "Settings", object.path])
        #expect(named.status == 0 && named.output.contains("struct Settings {\n    var a: Int\n}\n"))
    }

    @Test func severalFilesAndNDJSONLinesMergeIntoOneDeclaration() throws {
        let directory = try TemporaryDirectory()
        let first = try directory.file("a.json", contents: #"{"id": 1, "scores": {"205705993": 3}}"#)
        let lines = try directory.file(
            "b.jsonl", contents: "{\"id\": 2, \"note\": \"x\", \"scores\": {}}\n\n[{\"id\": 3, \"scores\": {\"7\": 1.5}}]\n")
        let result = try ModelKitTool.run(["generate", "--root", "Entry", first.path, lines.path])
        #expect(result.status == 0, "\(result.errorOutput)")
        expectEqual(
            result.output,
            """
            import Foundation
            import ModelKit

            /// The payload's top-level object.
            @Model
            struct Entry {
                var id: Int
                var scores: [String: Double]
                var note: String?
            }

            """)
    }

    @Test func standardInputAsNDJSONWithTheFlag() throws {
        let directory = try TemporaryDirectory()
        let input = try directory.file(
            "in.txt", contents: "{\"type\": \"a\", \"x\": 1}\n{\"type\": \"b\", \"y\": \"z\"}\n")
        let result = try ModelKitTool.run(["generate", "--ndjson", "--root", "Change"], standardInput: input)
        #expect(result.status == 0, "\(result.errorOutput)")
        #expect(result.output.contains("@Model(tag: \"type\")\nenum Change: Hashable {\n    case a(A)\n    case b(B)\n"))
        #expect(result.output.contains("struct A {\n    var x: Int\n}\n") && result.output.contains("struct B {\n    var y: String\n}\n"))

        // Without the flag, two lines are not one JSON document.
        let plain = try Self.failure(["generate"], standardInput: input)
        #expect(plain.hasPrefix("modelkit: standard input: invalid JSON at line 2, column 1"))
    }

    @Test func aBadNDJSONLineABadFileAmongSeveralOrNoSampleFailsNamingWhere() throws {
        let directory = try TemporaryDirectory()
        let bad = try directory.file("events.ndjson", contents: "{\"a\": 1}\n{\"a\": 2,}\n")
        try expectEqual(
            Self.failure(["generate", bad.path]),
            "modelkit: '\(bad.path)', line 2: invalid JSON at column 9: a trailing comma is not allowed before '}'\n")
        // With several inputs, a file that is no sample is named.
        let object = try directory.file("object.json", contents: #"{"a": 1}"#)
        let scalar = try directory.file("scalar.json", contents: "3")
        try expectEqual(
            Self.failure(["generate", object.path, scalar.path]),
            "modelkit: '\(scalar.path)': cannot generate models from a number: the top level must be an object or an "
                + "array of objects\n")
        let empty = try directory.file("empty.ndjson", contents: "\n")
        try expectEqual(
            Self.failure(["generate", empty.path]),
            "modelkit: cannot generate models from no samples: give at least one JSON value\n")
    }

    /// What a run that must fail with status 1, printing nothing on standard output, says on
    /// standard error.
    static func failure(_ arguments: [String], standardInput: URL? = nil) throws -> String {
        let result = try ModelKitTool.run(arguments, standardInput: standardInput)
        expectEqual(result.status, 1)
        expectEqual(result.output, "")
        return result.errorOutput
    }
}
