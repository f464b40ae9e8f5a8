import Foundation
import ModelKit
import ModelKitTestSupport
import Testing

/// The byte reader's fast paths against the general ones: keys compared where they lie in the
/// document, arrays gathered on the stack before they are allocated, short strings made in the
/// standard library's small form.
@Suite struct JSONBytesFastPathTests {
    /// The key expected next is compared with the document's bytes; keys out of order, escaped,
    /// spaced, unknown or needing escapes themselves map as they do through JSON objects.
    @Test(arguments: [
        #"{"id":1,"say \"hi\"":2,"café":3}"#,
        #"{"café":3,"say \"hi\"":2,"id":1}"#,
        #"{"i\u0064":1,"say \u0022hi\u0022":2,"caf\u00e9":3}"#,
        #"{ "id" : 1 ,"say \"hi\"":2 , "café":3 }"#,
        #"{"idx":0,"id":1,"i":0,"say \"hi\"":2,"say":0,"café":3,"caf":0}"#,
        #"{"id":1,"say "hi"":2,"café":3}"#,
        #"{"id":1,"say \"hi\"":2,"café"3}"#,
        #"{"id":1,"say \"hi\"":2,"café":3"#,
        // Pretty-printed: the keys past the whitespace are compared as a compact document's.
        "{\n  \"id\": 1,\n  \"say \\\"hi\\\"\": 2,\n  \"café\": 3\n}",
        "{\n  \"café\": 3,\n  \"id\": 1,\n  \"say \\\"hi\\\"\": 2\n}",
        "{\n\t\"id\"\n: 1,\r\n  \"say \\u0022hi\\u0022\" : 2,\n  \"caf\": 0,\n  \"café\": 3\n}",
        "{\n  \"id\": 1,\n  \"say \\\"hi\\\"\": 2,\n  \"café\" 3\n}",
        "{\n  \"id\": 1,\n  \"say \\\"hi\\\"\": 2,\n  \"café",
    ])
    func keysMapAsThroughJSONObjects(_ json: String) {
        let data = Data(json.utf8)
        let fromBytes = try? JSONOddKeys(jsonData: data)
        let fromObjects = try? JSONOddKeys(json: JSONSerialization.jsonObject(with: data))
        expectEqual(fromBytes, fromObjects)
        #expect(fromBytes == nil || fromBytes == JSONOddKeys(id: 1, quoted: 2, accented: 3))
    }

    /// Arrays on both sides of the stack buffer's size (16 small elements, one or two models of
    /// many properties) read the same elements, and a bad last element names its index.
    @Test(arguments: [0, 1, 2, 3, 15, 16, 17, 40])
    func arraysOfEveryLength(count: Int) throws {
        let strings = (0..<count).map { "element \($0) of the array" }
        try expectEqual(ModelJSON.decode([String].self, from: Data(ModelJSON.encode(strings))), strings)
        let grid = (0..<count).map { Array(0..<$0 % 19) }
        try expectEqual(ModelJSON.decode([[Int]].self, from: Data(ModelJSON.encode(grid))), grid)
        let statuses = Array(try [Status](jsonData: fixtureData("twitter.json"), at: "statuses").prefix(count))
        try expectEqual([Status](jsonBytes: ModelJSON.encode(statuses)), statuses)
        guard count > 0 else { return }
        let bad = "[" + strings.dropLast().map { "\"\($0)\"," }.joined() + "7]"
        #expect(modelError { _ = try ModelJSON.decode([String].self, from: Data(bad.utf8)) }?.path.description == "[\(count - 1)]")
    }

    /// Objects read as dictionaries are collected first and made at their count: at every size
    /// around the stack buffer's, every member is there, a key given twice keeps its last value
    /// (as `JSONSerialization` keeps it), and a bad value names its key.
    @Test(arguments: [0, 1, 2, 7, 8, 9, 16, 17, 100])
    func dictionariesOfEverySize(count: Int) throws {
        let members = (0..<count).map { ("\($0 * 7919)", "value \($0)") }
        let expected = Dictionary(uniqueKeysWithValues: members)
        let json = "{" + members.map { "\"\($0.0)\":\"\($0.1)\"" }.joined(separator: ",") + "}"
        try expectEqual(ModelJSON.decode([String: String].self, from: Data(json.utf8)), expected)
        let objects = "{" + members.map { "\"\($0.0)\":[\($0.0.count)]" }.joined(separator: ",") + "}"
        try expectEqual(
            ModelJSON.decode([String: [Int]].self, from: Data(objects.utf8)),
            Dictionary(uniqueKeysWithValues: members.map { ($0.0, [$0.0.count]) }))
        guard count > 0 else { return }
        let repeated = "{" + members.map { "\"\($0.0)\":\"first\"" }.joined(separator: ",") + ","
            + members.map { "\"\($0.0)\":\"\($0.1)\"" }.joined(separator: ",") + "}"
        try expectEqual(ModelJSON.decode([String: String].self, from: Data(repeated.utf8)), expected)
        let fromObjects = try #require(try JSONSerialization.jsonObject(with: Data(repeated.utf8)) as? [String: String])
        expectEqual(fromObjects, expected)
        let bad = "{" + members.dropLast().map { "\"\($0.0)\":\"\($0.1)\"," }.joined() + "\"last\":7}"
        #expect(modelError { _ = try ModelJSON.decode([String: String].self, from: Data(bad.utf8)) }?.path.description == "last")
    }

    /// Short ASCII strings are made from the document's words: at every length, read where 16
    /// bytes follow, near the end of the input, and as dictionary keys (a NUL from an escape
    /// too), they are the strings `String(decoding:as:)` makes.
    @Test(arguments: 0...16)
    func smallStringsAreTheStandardOnes(length: Int) throws {
        let pool = (0x20...0x7F).map(UInt8.init).filter { $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }
        let expected = String(decoding: (0..<length).map { pool[($0 &* 29 &+ length) % pool.count] }, as: UTF8.self)
        let quoted = "\"\(expected)\""
        let read = try ModelJSON.decode([String].self, from: Data("[\(quoted),\(quoted),\"sixteen bytes after\"]".utf8))
        let keys = try ModelJSON.decode([String: Int].self, from: Data("{\(quoted):1,\"a\\u0000\(expected)\":2}".utf8)).keys
        for string in read.prefix(2) + keys.sorted() + [try ModelJSON.decode(String.self, from: Data(quoted.utf8))] {
            let standard = string.first == "a" && string.dropFirst().first == "\0" ? "a\0" + expected : expected
            #expect(string == standard && string.hashValue == standard.hashValue && Array(string.utf8) == Array(standard.utf8))
            #expect(string.count == standard.count && string + "!" == standard + "!")
        }
    }
}

@Model
struct JSONOddKeys: Equatable {
    var id: Int
    @Key("say \"hi\"") var quoted: Int
    @Key("café") var accented: Int
}

/// Keys whose quoted forms end on every byte of an eight-byte word and past it: the writer
/// copies a model's keys a word at a time.
@Model struct JSONKeyLengths: Equatable {
    @Key("a") var one: Int
    @Key("abcd") var four: Int
    @Key("abcde") var five: Int
    @Key("abcdef") var six: Int
    @Key("abcdefg") var seven: Int
    @Key("abcdefghijklm") var thirteen: Int
    @Key("abcdefghijklmn") var fourteen: Int
    @Key("abcdefghijklmno") var fifteen: Int
    @Key("abcdefghijklmnopqrstuv") var twentyTwo: Int
    @Key("é") var escapedNever: Int
}

extension JSONBytesFastPathTests {
    @Test("model keys of every length around a word are written whole, compact and pretty")
    func keysOfEveryLength() throws {
        let model = JSONKeyLengths(
            one: 1, four: 4, five: 5, six: 6, seven: 7, thirteen: 13, fourteen: 14, fifteen: 15, twentyTwo: 22, escapedNever: 0)
        let members = [
            ("a", 1), ("abcd", 4), ("abcde", 5), ("abcdef", 6), ("abcdefg", 7), ("abcdefghijklm", 13),
            ("abcdefghijklmn", 14), ("abcdefghijklmno", 15), ("abcdefghijklmnopqrstuv", 22), ("é", 0),
        ]
        let compact = "{" + members.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
        let pretty = "{\n" + members.map { "  \"\($0.0)\": \($0.1)" }.joined(separator: ",\n") + "\n}"
        expectEqual(String(decoding: try ModelJSON.encode(model), as: UTF8.self), compact)
        expectEqual(String(decoding: try model.jsonData(formatting: .prettyPrinted), as: UTF8.self), pretty)
        expectEqual(try JSONKeyLengths(jsonData: Data(compact.utf8)), model)
        // In an array, each model's first key follows the comma before it.
        let pair = String(decoding: try ModelJSON.encode([model, model]), as: UTF8.self)
        expectEqual(pair, "[" + compact + "," + compact + "]")
    }
}
