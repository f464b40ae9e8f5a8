import Foundation
import ModelKit
import ModelKitTestSupport
import Testing

@Suite struct JSONBytesMappingTests {
    /// The error table on the JSON-bytes path and the JSON-value path (what hooks, transformers
    /// and preferences read through).
    @Test(arguments: MappingErrorCase.all)
    func errorsMatchTheJSONObjectPath(_ testCase: MappingErrorCase) {
        for mapper in [JSONBytesMapper(), JSONValueMapper()] as [any PayloadMapper] {
            let error = testCase.run(mapper)
            #expect((error as? ModelError)?.description == testCase.message, "\(type(of: mapper))")
        }
    }

    @Test func collectAllModeMatchesTheJSONObjectPath() {
        var options = MappingOptions()
        options.collectsAllErrors = true
        let payload = MappingErrorCase.collectAll.payload
        let error = modelError { _ = try JSONBytesMapper().map(Feed.self, from: payload, options: options) }
        #expect(error?.problems.map(\.description) == MappingErrorCase.collectAll.messages)
    }

    @Test func twitterMapsLikeTheJSONObjectPath() throws {
        let data = try fixtureData("twitter.json")
        let fromBytes = try Timeline(jsonData: data)
        let fromObjects = try Timeline(json: JSONSerialization.jsonObject(with: data))
        expectEqual(fromBytes.statuses.count, 100)
        expectEqual(fromBytes, fromObjects)
        let statuses = try [Status](jsonData: data, at: "statuses")
        expectEqual(statuses, fromBytes.statuses)
        let count = try ModelJSON.decode(Int.self, from: data, at: "search_metadata.count")
        expectEqual(count, 100)
    }

    /// A date format's expectation is only built for the error (not for every date read), and
    /// the error is the one the JSON-object path gives.
    @Test func aBadFormattedDateNamesThePatternFromBytes() throws {
        let text = String(decoding: try fixtureData("twitter.json"), as: UTF8.self)
        let bad = text.replacingOccurrences(of: "\"Sat Feb 16 13:40:25 +0000 2013\"", with: "\"yesterday\"")
        #expect(bad != text)
        let error = #expect(throws: ModelError.self) { try Timeline(jsonData: Data(bad.utf8)) }
        let objectError = #expect(throws: ModelError.self) {
            try Timeline(json: JSONSerialization.jsonObject(with: Data(bad.utf8)))
        }
        #expect(error?.description.contains("expected a date like \"EEE MMM dd HH:mm:ss Z yyyy\", found \"yesterday\"") == true)
        #expect(error?.description == objectError?.description)
    }

    @Test func twitterWritesTheSameJSONBothWays() throws {
        let timeline = try Timeline(jsonData: try fixtureData("twitter.json"))
        let bytes = try JSONValue(parsing: timeline.jsonBytes())
        let objects = try JSONValue(foundationObject: timeline.jsonObject())
        expectEqual(sorted(bytes), sorted(objects))
        try expectEqual(Timeline(jsonBytes: timeline.jsonBytes()), timeline)
    }

    @Test func outputOptions() throws {
        let post = try Post(jsonString: #"{"id": 1, "title": "a/b", "author": {"name": "é"}, "published_at": "2024-03-01T12:34:56Z", "location": {"x": 0.1, "y": 2}}"#)
        let compact = try post.jsonString()
        #expect(compact.contains(#""title":"a/b""#) && compact.contains(#""name":"é""#))
        #expect(compact.contains(#""x":0.1"#) && compact.contains(#""body":null"#))
        var omit = MappingOptions()
        omit.nilEncoding = .omit
        let omitted = try post.jsonString(options: omit)
        #expect(!omitted.contains("body") && !omitted.contains("media") && omitted.contains(#""author":{"#))
        #expect(omitted.hasSuffix(#""location":{"x":0.1,"y":2},"kind":"post"}"#))
        let pretty = try post.jsonString(formatting: [.prettyPrinted, .sortedKeys])
        #expect(pretty.hasPrefix("{\n  \"author\": {\n    \"address\": {\n      \"city\": \"unknown\"\n    },\n    \"name\": \"é\"\n  },\n  \"body\": null,"))
        try expectEqual(Post(jsonString: pretty), post)
        var sorted = MappingOptions()
        sorted.sortsKeys = true
        #expect(try post.jsonString(options: sorted).hasPrefix(#"{"author":{"address":{"city":"unknown"},"name":"é"},"body":null"#))
    }

    @Test func doublesPrintShortestAndRoundTrip() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let value = Double(bitPattern: UInt64.random(in: 0..<0x7FEF_FFFF_FFFF_FFFF, using: &generator))
            let point = Point(x: value, y: -value)
            let text = try JSONValueWrapper(point: point).jsonString()
            #expect(try JSONValueWrapper(jsonString: text).point == point, "\(text)")
        }
        try expectEqual(JSONValueWrapper(point: Point(x: 0.1, y: 1e300)).jsonString(), #"{"point":{"x":0.1,"y":1e+300}}"#)
    }

    @Test func hooksAndPolymorphismWorkFromBytes() throws {
        try expectEqual(Order(jsonString: #"{"item": {"name": "tea"}}"#).items, [Item(name: "tea")])
        let drawing = try Drawing(jsonString: #"{"title": "d", "shapes": [{"kind": "square", "name": "s", "side": 2}]}"#)
        #expect((drawing.shapes.first as? Square)?.side == 2)
        let report = MappingReport()
        var options = MappingOptions()
        options.report = report
        let event = try Event(jsonString: #"{"at": 5, "tags": [{"label": "a"}, 3, {"label": "b"}]}"#, options: options)
        expectEqual(event.tags.map(\.label), ["a", "b"])
        expectEqual(report.droppedElements.map(\.description), ["cannot map 'Event.tags' at 'tags[1]': expected an object, found 3"])
    }

    @Test func malformedJSONIsAMappingErrorWithAPosition() {
        let error = modelError { _ = try Item(jsonString: "{\"name\": \"a\",\n \"quantity\": 1,}") }
        #expect(error?.kind == .malformedInput)
        #expect(error?.description == "cannot map 'Item': invalid JSON at line 2, column 16 (byte 29): a trailing comma is not allowed before '}'")
        #expect(modelError { _ = try Item(jsonString: #"{"name": "a"} trailing"#) }?.kind == .malformedInput)
        #expect(modelError { _ = try Item(jsonString: #"{"name": "\ud800"}"#) }?.description
            == #"cannot map 'Item.name' at 'name': invalid JSON at line 1, column 11 (byte 10): unpaired surrogate escape '\ud800' in a string"#)
    }

    @Test func nestingIsLimited() throws {
        let deep = Data((String(repeating: "[", count: 1_000_000) + String(repeating: "]", count: 1_000_000)).utf8)
        let error = modelError { _ = try ModelJSON.decode(JSONValue.self, from: deep) }
        #expect(error?.kind == .malformedInput)
        #expect(error?.description.contains("'maxDepth'") == true)
        let typed = modelError { _ = try ModelJSON.decode([[Int]].self, from: deep) }
        #expect(typed?.description == "cannot map value at '[0][0]': expected an integer, found an array")
        var options = MappingOptions()
        options.maxDepth = 2
        #expect(throws: ModelError.self) { _ = try Order(jsonString: #"{"items": [{"name": "a"}]}"#, options: options) }
        options.maxDepth = 3
        try expectEqual(Order(jsonString: #"{"items": [{"name": "a"}]}"#, options: options).items.count, 1)
    }

    @Test func keyPathsIntoTheDocument() throws {
        let data = Data(#"{"data": {"users": [{"name": "a"}, {"name": "b", "quantity": 2}]}, "after": [1, 2]}"#.utf8)
        try expectEqual([Item](jsonData: data, at: "data.users").count, 2)
        try expectEqual(Item(jsonData: data, at: "data.users.1").quantity, 2)
        #expect(modelError { _ = try Item(jsonData: data, at: "data.users.5") }?.kind == .indexOutOfRange)
        #expect(modelError { _ = try Item(jsonData: data, at: "data.people") }?.description == "cannot map value at 'data.people': missing key")
        let broken = Data(#"{"data": {"users": []}, "after": [1, 2}"#.utf8)
        #expect(modelError { _ = try [Item](jsonData: broken, at: "data.users") }?.kind == .malformedInput)
    }

    @Test func errorsAtAKeyPathNameTheFullPath() throws {
        let data = Data(#"{"data": {"users": [{"name": "a"}, {"name": 7}]}}"#.utf8)
        #expect(
            modelError { _ = try [Item](jsonData: data, at: "data.users") }?.description
                == "cannot map 'Item.name' at 'data.users[1].name': expected a string, found 7")
        #expect(
            modelError { _ = try Item(jsonData: data, at: "data.users.1") }?.description
                == "cannot map 'Item.name' at 'data.users[1].name': expected a string, found 7")
        // Through a context too, where a single model at a key path now maps as well.
        let context = ModelContext()
        try expectEqual(Item(jsonData: data, at: "data.users.0", context: context).name, "a")
        #expect(modelError { _ = try Item(jsonData: data, at: "data.users.1", context: context) }?.path.description == "data.users[1].name")
    }

    /// Dictionaries start with room for a few members: every size reads the same members, and a
    /// bad value names its key.
    @Test(arguments: [0, 1, 5, 6, 7, 50])
    func dictionariesOfEverySize(count: Int) throws {
        let counts = Dictionary(uniqueKeysWithValues: (0..<count).map { ("k\($0)", $0) })
        let points = Dictionary(uniqueKeysWithValues: (0..<count).map { ("\($0 * 7)", JSONDictionaryEntry(x: $0, name: "n\($0)")) })
        let model = JSONDictionaries(counts: counts, points: points)
        try expectEqual(JSONDictionaries(jsonBytes: model.jsonBytes()), model)
        guard count > 0 else { return }
        let bad = #"{"counts":{"# + (0..<count).map { "\"k\($0)\":\($0 == count - 1 ? "\"x\"" : "\($0)")" }.joined(separator: ",")
            + #"},"points":{}}"#
        let error = modelError { _ = try JSONDictionaries(jsonData: Data(bad.utf8)) }
        #expect(error?.path.description == "counts.k\(count - 1)")
    }

    func sorted(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let members): return .object(members.sorted { $0.key < $1.key }.map { JSONMember($0.key, sorted($0.value)) })
        case .array(let elements): return .array(elements.map(sorted))
        default: return value
        }
    }
}

@Model
struct JSONDictionaries: Equatable {
    var counts: [String: Int]
    var points: [String: JSONDictionaryEntry]
}

@Model
struct JSONDictionaryEntry: Equatable {
    var x: Int
    var name: String
}

@Model
struct JSONValueWrapper: Equatable {
    var point: Point
}
