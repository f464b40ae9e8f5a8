import Foundation
import ModelKit
import ModelKitGenerator
import ModelKitTestSupport
import Testing

/// One inference rule: a payload, and lines the generated source must contain.
struct GeneratorCase: Sendable, CustomStringConvertible {
    let name: String
    let json: String
    let expectedLines: [String]
    var absentLines: [String] = []

    var description: String { name }
}

/// The generator's rules, in process: each case checks the declarations a small payload gives.
@Suite struct ModelGeneratorTests {
    static let cases: [GeneratorCase] = [
        GeneratorCase(
            name: "a key missing from some elements or null in some is optional",
            json: #"{"items": [{"a": 1, "b": "x", "c": true}, {"a": 2, "c": null}]}"#,
            expectedLines: ["struct Item {", "    var a: Int", "    var b: String?", "    var c: Bool?"]),
        GeneratorCase(
            name: "a key null everywhere is an optional JSONValue",
            json: #"{"items": [{"gone": null}, {"gone": null}], "empty": [], "nulls": [null]}"#,
            expectedLines: ["    var gone: JSONValue?", "    var empty: [JSONValue]", "    var nulls: [JSONValue?]"]),
        GeneratorCase(
            name: "snake_case keys use the key strategy, others get @Key",
            json: #"{"screen_name": "ada", "id_str": "1", "userName": "x", "dash-key": 1, "URL": "u", "3d": true}"#,
            expectedLines: [
                "@Model(keys: .snakeCase)", "    var screenName: String", "    var idStr: String",
                #"    @Key("userName") var userName: String"#, #"    @Key("dash-key") var dashKey: Int"#,
                #"    @Key("URL") var url: String"#, #"    @Key("3d") var _3d: Bool"#,
            ]),
        GeneratorCase(
            name: "camelCase keys need no strategy",
            json: #"{"screenName": "ada", "followers": 3}"#,
            expectedLines: ["@Model", "struct Root {", "    var screenName: String", "    var followers: Int"],
            absentLines: ["@Model(keys: .snakeCase)"]),
        GeneratorCase(
            name: "keywords and names @Model uses are renamed",
            json: #"{"class": "a", "default": 1, "description": "d", "hash": 2, "self": false, "copy": "c"}"#,
            expectedLines: [
                #"    @Key("class") var classText: String"#, #"    @Key("default") var defaultValue: Int"#,
                #"    @Key("description") var descriptionText: String"#, #"    @Key("hash") var hashField: Int"#,
                #"    @Key("self") var selfValue: Bool"#, #"    @Key("copy") var copyText: String"#,
            ]),
        GeneratorCase(
            name: "keys with dots, quotes and backslashes are escaped",
            json: #"{"a.b": 1, "say \"hi\"": 2, "back\\slash": 3}"#,
            expectedLines: [
                #"    @Key("a\\.b") var aB: Int"#, #"    @Key("say \"hi\"") var sayHi: Int"#,
                #"    @Key("back\\\\slash") var backSlash: Int"#,
            ]),
        GeneratorCase(
            name: "dates: ISO 8601, Twitter's format, epoch seconds and milliseconds",
            json: #"""
                {"published": "2024-03-01T12:34:56Z", "created_at": "Sun Aug 31 00:29:15 +0000 2014",
                 "updated_at": 1409444955, "start_time": 1409444955123, "count_at": 12, "id": 5409444955,
                 "day": "2024-03-01"}
                """#,
            expectedLines: [
                "    @Transform(.iso8601) var published: Date",
                #"    @Transform(.dateFormat("EEE MMM dd HH:mm:ss Z yyyy")) var createdAt: Date"#,
                "    @Transform(.secondsSince1970) var updatedAt: Date",
                "    @Transform(.millisecondsSince1970) var startTime: Date", "    var countAt: Int", "    var id: Int64",
                "    var day: String",
            ]),
        GeneratorCase(
            name: "numbers: Int, Int64, Double for mixed integers and fractions, UInt64 beyond Int64",
            json: #"{"rows": [{"n": 1, "x": 1, "big": 3000000000, "huge": 18446744073709551615}, {"n": 2, "x": 2.5}]}"#,
            expectedLines: ["    var n: Int", "    var x: Double", "    var big: Int64?", "    var huge: UInt64?"]),
        GeneratorCase(
            name: "heterogeneous values map as JSONValue",
            json: #"{"rows": [{"v": 1, "w": [1, "a"]}, {"v": "one", "w": [2]}], "o": {}}"#,
            expectedLines: ["    var v: JSONValue", "    var w: [JSONValue]", "    var o: JSONValue"]),
        GeneratorCase(
            name: "names collide: different shapes are numbered, like shapes share a model",
            json: #"""
                {"user": {"id": 1, "name": "a"}, "owner": {"user": {"id": 2, "name": "b", "bio": "c"}},
                 "post": {"user": {"kind": "x"}}, "user_mentions": [{"id": 3}]}
                """#,
            expectedLines: [
                "    var user: User", "struct User {", "    var bio: String?", "    var user: User2",
                "struct User2 {", "    var kind: String", "    var userMentions: [UserMention]", "struct UserMention {",
            ]),
        GeneratorCase(
            name: "arrays name their elements in the singular",
            json: #"{"statuses": [{"a": 1}], "entries": [{"a": 1}], "media": [{"a": 1}], "data": {"a": 1}}"#,
            expectedLines: [
                "    var statuses: [Status]", "    var entries: [Entry]", "    var media: [MediaItem]",
                "    var data: DataObject",
            ]),
        GeneratorCase(
            name: "a model that holds itself is a class, unless only through arrays",
            json: #"""
                {"node": {"value": 1, "node": {"value": 2, "node": null}},
                 "comments": [{"text": "a", "comments": [{"text": "b", "comments": []}]}]}
                """#,
            expectedLines: [
                "final class Node {", "    var value: Int", "    var node: Node?", "struct Comment {",
                "    var comments: [Comment]",
            ]),
    ]

    @Test(arguments: cases)
    func inferenceRule(_ rule: GeneratorCase) throws {
        let source = try ModelGenerator().generate(fromJSON: Array(rule.json.utf8))
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for expected in rule.expectedLines {
            #expect(lines.contains(expected), "missing \(expected) in:\n\(source)")
        }
        for absent in rule.absentLines {
            #expect(!lines.contains(absent), "unexpected \(absent) in:\n\(source)")
        }
    }

    @Test(arguments: [
        (#"{"a": [1, 2,]}"#, "invalid JSON at line 1, column 13 (byte 12): a trailing comma is not allowed before ']'"),
        ("", "invalid JSON at line 1, column 1 (byte 0): unexpected end of input, expected a value"),
        (#""text""#, "cannot generate models from a string: the top level must be an object or an array of objects"),
        ("[]", "cannot generate models from an empty array: the top level must be an object or an array of objects"),
        ("[{}, 1]", "cannot generate models from an array holding a number: the top level must be an object or an array of objects"),
    ])
    func badPayloadsThrowAClearError(json: String, message: String) {
        #expect(throws: (any Error).self) { try ModelGenerator().generate(fromJSON: Array(json.utf8)) }
        do {
            _ = try ModelGenerator().generate(fromJSON: Array(json.utf8))
        } catch {
            expectEqual("\(error)", message)
        }
    }

    @Test(arguments: ["3D", "class", "Date", "my-root", ""])
    func rootNamesMustBeUsableIdentifiers(name: String) {
        #expect(throws: GeneratorError.invalidRootName(name)) {
            try ModelGenerator(rootName: name).generate(fromJSON: Array(#"{"a": 1}"#.utf8))
        }
    }

    @Test func outputIsDeterministicAndInOrderOfFirstAppearance() throws {
        let json = #"{"zeta": {"b": 1}, "alpha": [{"c": {"d": 1}}], "mid": 1}"#
        let generator = ModelGenerator(rootName: "Feed")
        let source = try generator.generate(fromJSON: Array(json.utf8))
        try expectEqual(generator.generate(fromJSON: Array(json.utf8)), source)
        let declarations = source.split(separator: "\n").filter { $0.hasPrefix("struct ") }
        expectEqual(declarations, ["struct Feed {", "struct Zeta {", "struct AlphaItem {", "struct C {"])
        #expect(source.contains("struct Feed {\n    var zeta: Zeta\n    var alpha: [AlphaItem]\n    var mid: Int\n}"))
    }

    @Test func aTopLevelArrayMergesItsElementsIntoTheRoot() throws {
        let source = try ModelGenerator(rootName: "Row").generate(fromJSON: Array(#"[{"a": 1}, {"a": 2, "b": "x"}]"#.utf8))
        #expect(
            source == """
                import Foundation
                import ModelKit

                /// The elements of the payload's top-level array.
                @Model
                struct Row {
                    var a: Int
                    var b: String?
                }

                """)
    }
}
