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
        GeneratorCase(
            name: "objects keyed by identifiers are dictionaries of their values, merged",
            json: #"""
                {"areaNames": {"205705993": "Arrière-scène central", "205705994": "Balcon"},
                 "events": {"138586341": {"id": 138586341, "logo": null}, "138586345": {"id": 138586345, "logo": "a.png"}},
                 "byUUID": {"1b4e28ba-2fa1-11d2-883f-0016d3cca427": [1, 2]},
                 "byHash": {"5f2b1c3d4e5f60718293a4b5": true}, "daily": {"2024-03-01": 1.5, "2024-03-02T00:00:00Z": 2}}
                """#,
            expectedLines: [
                "    var areaNames: [String: String]", "    var events: [String: Event]", "struct Event {",
                "    var id: Int", "    var logo: String?", "    var byUUID: [String: [Int]]",
                "    var byHash: [String: Bool]", "    var daily: [String: Double]", "/// The objects at 'events.*'.",
            ],
            absentLines: ["struct _138586341 {", "struct Object138586341 {", "struct AreaNames {"]),
        GeneratorCase(
            name: "dictionary values that differ merge with optionals, nulls and dates as array elements",
            json: #"""
                {"users": {"1": {"name": "a", "tags": {"7": "x"}}, "2": {"name": "b", "age": 3, "tags": {}}},
                 "seen": {"10": "2024-03-01T12:34:56Z", "11": null}, "gone": {"1": null}}
                """#,
            expectedLines: [
                "    var users: [String: User]", "struct User {", "    var name: String", "    var tags: [String: String]",
                "    var age: Int?", "    var seen: [String: String?]", "    var gone: [String: JSONValue?]",
            ]),
        GeneratorCase(
            name: "twenty keys or more whose values are alike make a dictionary, fewer or unlike ones a model",
            json: keyedObjects([
                ("strings", 20, { "\"word \($0)\"" }), ("few", 19, { "\"word \($0)\"" }),
                ("mixed", 20, { $0 % 2 == 0 ? "1" : "\"one\"" }), ("points", 25, { "{\"x\": \($0), \"y\": 1}" }),
                ("sections", 20, { "{\"field\($0)\": 1}" }),
            ]),
            expectedLines: [
                "    var strings: [String: String]", "    var few: Few", "    var mixed: Mixed",
                "    var points: [String: Point]", "struct Point {", "    var sections: Sections",
            ]),
        GeneratorCase(
            name: "elements whose shapes differ by their type are an enum of a model per type",
            json: #"""
                {"events": [
                  {"type": "PushEvent", "id": "1", "payload": {"commits": [{"sha": "a"}], "size": 1}},
                  {"type": "WatchEvent", "id": "2", "payload": {"action": "started"}},
                  {"type": "PushEvent", "id": "3", "payload": {"commits": [], "size": 0}}]}
                """#,
            expectedLines: [
                "    var events: [Event]", "/// The objects at 'events[]', told apart by their 'type'.",
                #"@Model(tag: "type")"#, "enum Event: Hashable {", #"    @Key("PushEvent") case pushEvent(PushEvent)"#,
                #"    @Key("WatchEvent") case watchEvent(WatchEvent)"#, "    @UnknownCase case other(JSONValue)",
                "/// The objects at 'events[]' whose 'type' is 'PushEvent'.", "struct PushEvent {",
                "    var payload: PushEventPayload", "struct PushEventPayload {", "    var commits: [Commit]",
                "/// The objects at 'events[type=PushEvent].payload.commits[]'.", "struct WatchEventPayload {",
            ],
            absentLines: ["    var type: String", "struct Payload {", "struct Event {"]),
        GeneratorCase(
            name: "tagged elements whose shapes are alike stay one model with the tag as a property",
            json: #"""
                {"users": [{"type": "admin", "name": "a", "team": {"id": 1}}, {"type": "guest", "name": "b"},
                           {"kind": "x", "type": "guest", "name": "c", "team": {"id": 2, "lead": true}}]}
                """#,
            expectedLines: ["struct User {", "    var type: String", "    var team: Team?", "    var kind: String?"],
            absentLines: ["enum User: Hashable {"]),
        GeneratorCase(
            name: "a union's tag key, case names and the values of dictionaries",
            json: #"""
                {"blocks": {"b1f0e5a2-0c1d-4e5f-8a9b-0c1d2e3f4a5b": {"kind": "text", "body": "x"},
                            "c2a1f6b3-1d2e-4f6a-9b0c-1d2e3f4a5b6c": {"kind": "default", "url": "u", "size": 3}}}
                """#,
            expectedLines: [
                "    var blocks: [String: Block]", #"@Model(tag: "kind")"#, "enum Block: Hashable {",
                "    case text(Text)", #"    @Key("default") case defaultValue(Default)"#, "struct Default {",
                "    var url: String",
            ]),
    ]

    /// A JSON object holding, under each name, an object of `count` keys `k0`, `k1`, ... whose
    /// values are what `value` gives for the key's number.
    static func keyedObjects(_ objects: [(String, Int, @Sendable (Int) -> String)]) -> String {
        let members = objects.map { name, count, value in
            "\"\(name)\": {" + (0..<count).map { "\"k\($0)\": \(value($0))" }.joined(separator: ", ") + "}"
        }
        return "{" + members.joined(separator: ", ") + "}"
    }

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

    @Test func severalSamplesMergeIntoOneDeclaration() throws {
        let samples = try NDJSONSamples.values(
            in: Array("{\"id\": 1, \"tags\": {\"7\": \"new\"}}\r\n\n  \n[{\"id\": 2, \"tags\": {}, \"note\": \"x\"}]\n".utf8),
            source: "'rows.ndjson'")
        expectEqual(samples.count, 2)
        let source = try ModelGenerator(rootName: "Row").generate(fromSamples: samples)
        #expect(source.contains("struct Row {\n    var id: Int\n    var tags: [String: String]\n    var note: String?\n}\n"))
        try expectEqual(ModelGenerator(rootName: "Row").generate(fromSamples: samples), source)
    }

    @Test func samplesOfSeveralTypesAtTheTopLevelMakeTheRootAnEnum() throws {
        let lines = #"""
            {"type": "signup", "user": "ada", "at": "2024-03-01T12:34:56Z"}
            {"type": "purchase", "user": "alan", "items": [{"sku": "a", "price": 1.5}]}
            {"type": "signup", "user": "grace", "at": "2024-03-02T08:00:00Z"}
            """#
        let samples = try NDJSONSamples.values(in: Array(lines.utf8), source: "standard input")
        let source = try ModelGenerator(rootName: "Activity").generate(fromSamples: samples)
        for line in [
            "/// The top-level objects, told apart by their 'type'.", "enum Activity: Hashable {", "    case signup(Signup)",
            "    case purchase(Purchase)", "/// The top-level objects whose 'type' is 'signup'.", "struct Signup {",
            "    @Transform(.iso8601) var at: Date", "struct Purchase {", "    var items: [Item]",
        ] {
            #expect(source.contains(line + "\n"), "missing \(line) in:\n\(source)")
        }
    }

    @Test(arguments: [
        ("{\"a\": 1}\n{\"a\": [1,]}\n", "'bad.ndjson', line 2: invalid JSON at column 10: a trailing comma is not allowed before ']'"),
        ("\n\n{\"a\": 1} {\"b\": 2}", "'bad.ndjson', line 3: invalid JSON at column 10: expected the end of the document, found '{'"),
        ("{\"a\": 1}\r\n\"a\" x", "'bad.ndjson', line 2: invalid JSON at column 5: expected the end of the document, found 'x'"),
        ("{\"a\": 1}\n\n\"text\"\n",
         "'bad.ndjson', line 3: cannot generate models from a string: the top level must be an object or an array of objects"),
        ("[{\"a\": 1}]\n[]\n",
         "'bad.ndjson', line 2: cannot generate models from an empty array: the top level must be an object or an array of objects"),
    ])
    func ndjsonLinesThatAreNotJSONNameTheLine(text: String, message: String) {
        #expect(throws: GeneratorError.self) { try NDJSONSamples.values(in: Array(text.utf8), source: "'bad.ndjson'") }
        do {
            _ = try NDJSONSamples.values(in: Array(text.utf8), source: "'bad.ndjson'")
        } catch {
            expectEqual("\(error)", message)
        }
    }

    @Test func noSamplesAndSamplesThatAreNotObjectsThrow() throws {
        #expect(throws: GeneratorError.noSamples) { try ModelGenerator().generate(fromSamples: []) }
        let blank = try NDJSONSamples.values(in: Array("\n \n".utf8), source: "'empty.ndjson'")
        #expect(throws: GeneratorError.noSamples) { try ModelGenerator().generate(fromSamples: blank) }
        #expect(throws: GeneratorError.unsupportedTopLevel("a number")) {
            try ModelGenerator().generate(fromSamples: [.object([JSONMember("a", .int(1))]), .int(2)])
        }
        expectEqual("\(GeneratorError.noSamples)", "cannot generate models from no samples: give at least one JSON value")
    }

    @Test(arguments: [
        ("205705993", true), ("0", true), ("1b4e28ba-2fa1-11d2-883f-0016d3cca427", true),
        ("5f2b1c3d4e5f60718293a4b5", true), ("2024-03-01", true), ("2024-03-01T12:00:00Z", true),
        ("screen_name", false), ("id", false), ("3d", false), ("deadbeefdeadbeefdeadbeef", false), ("abc123", false),
        ("2024-3", false), ("", false), ("PLEYEL_PLEYEL", false),
    ])
    func keysThatLookLikeIdentifiers(key: String, isIdentifier: Bool) {
        expectEqual(DictionaryDetection.looksLikeIdentifier(key), isIdentifier)
    }
}
