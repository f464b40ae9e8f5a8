import Foundation
import ModelKit
import ModelKitTestSupport
import Testing

@Suite struct RemoteMappingTests {
    let postJSON = """
        {"id": 1, "title": "Hello", "body": null,
         "author": {"name": "Ada", "address": {"city": "London"}},
         "media": [{"url": "https://example.com/a.png"}, {"url": "https://example.com/b.png"}],
         "meta.data": {"count": 3},
         "published_at": "2024-03-01T12:34:56Z", "tags": ["x"], "visibility": "hidden",
         "location": {"x": 1.5, "y": -2}, "kind": "ignored", "cache": "ignored", "unknown_key": true}
        """

    @Test func nestedPathsIndexesEscapedDotsAndTheKeyStrategy() throws {
        let post = try Post(json: jsonObject(postJSON))
        #expect(post.id == 1 && post.title == "Hello" && post.body == nil)
        #expect(post.authorName == "Ada" && post.city == "London")
        expectEqual(post.firstMediaURL, URL(string: "https://example.com/a.png"))
        expectEqual(post.metaCount, 3)
        expectEqual(post.publishedAt, Date(timeIntervalSince1970: 1_709_296_496))
        #expect(post.visibility == .hidden && post.location == Point(x: 1.5, y: -2))
        #expect(post.kind == "post" && post.cache == nil)
    }

    @Test func missingKeysTakeDefaultsAndFallbackKeysApplyInOrder() throws {
        let minimal = try Post(json: jsonObject(
            #"{"id": 2, "title": "T", "author": {"name": "A"}, "published_at": "2024-03-01T12:34:56.5Z"}"#))
        #expect(minimal.city == "unknown" && minimal.tags.isEmpty && minimal.firstMediaURL == nil)
        #expect(minimal.visibility == .open && minimal.publishedAt.timeIntervalSince1970 == 1_709_296_496.5)

        let fallback = try Post(json: jsonObject(
            #"{"city": "Paris", "id": 2, "title": "T", "author": {"name": "A"}, "published_at": "2024-03-01T12:34:56Z"}"#))
        expectEqual(fallback.city, "Paris")

        // The first path wins whatever the order of the keys in the payload.
        let both = try Post(json: jsonObject(
            #"{"city": "Paris", "id": 2, "title": "T", "author": {"name": "A", "address": {"city": "Rome"}}, "published_at": "2024-03-01T12:34:56Z"}"#))
        expectEqual(both.city, "Rome")
        let reversed = try Post(json: [
            "author": ["name": "A", "address": ["city": "Rome"]], "city": "Paris", "id": 2, "title": "T",
            "published_at": "2024-03-01T12:34:56Z",
        ])
        expectEqual(reversed.city, "Rome")
    }

    @Test func unknownRawValuesTakeTheTransformersDefaultCase() throws {
        var object = try #require(try jsonObject(postJSON) as? [String: Any])
        object["visibility"] = "secret"
        try expectEqual(Post(json: object).visibility, .unknown)
    }

    @Test func modelsMapBackToTheSameJSON() throws {
        let post = try Post(json: jsonObject(postJSON))
        let object = try #require(try post.jsonObject() as? [String: Any])
        #expect(object["title"] as? String == "Hello")
        #expect(object["body"] is NSNull)
        #expect((object["author"] as? [String: Any])?["name"] as? String == "Ada")
        #expect(((object["author"] as? [String: Any])?["address"] as? [String: Any])?["city"] as? String == "London")
        #expect(((object["media"] as? [Any])?.first as? [String: Any])?["url"] as? String == "https://example.com/a.png")
        #expect((object["meta.data"] as? [String: Any])?["count"] as? Int == 3)
        #expect(object["published_at"] as? String == "2024-03-01T12:34:56Z")
        #expect(object["kind"] as? String == "post")
        #expect(object["cache"] == nil && object["city"] == nil)
        try expectEqual(Post(json: object), post)
        let data = try JSONSerialization.data(withJSONObject: object)
        try expectEqual(Post(json: JSONSerialization.jsonObject(with: data)), post)
    }

    @Test func nilsAreWrittenAsNullOrLeftOut() throws {
        let post = try Post(json: jsonObject(#"{"id": 1, "title": "T", "author": {"name": "A"}, "published_at": "2024-03-01T12:34:56Z"}"#))
        var options = MappingOptions()
        options.nilEncoding = .omit
        let omitted = try #require(try post.jsonObject(options: options) as? [String: Any])
        #expect(omitted["body"] == nil && omitted["media"] == nil && omitted["location"] == nil)
        #expect(omitted["title"] as? String == "T")
        let nulls = try #require(try post.jsonObject() as? [String: Any])
        #expect(nulls["body"] is NSNull && nulls["location"] is NSNull)
        #expect((nulls["media"] as? [Any])?.first.flatMap { ($0 as? [String: Any])?["url"] } is NSNull)
    }

    @Test func keyStrategiesAndNullPolicies() throws {
        try expectEqual(Shout(json: ["TEXT": "hi"]).text, "hi")
        #expect(try (Shout(text: "hi").jsonObject() as? [String: Any])?["TEXT"] as? String == "hi")

        let settings = try Settings(json: ["volume": NSNull(), "name": "n", "nickname": NSNull()])
        #expect(settings.volume == 0.5 && settings.nickname == nil)
        #expect(modelError { _ = try Settings(json: ["name": NSNull()]) }?.kind == .nullValue)
    }

    @Test func arraysOfModels() throws {
        let items = try [Item](json: jsonObject(#"[{"name": "a"}, {"name": "b", "quantity": 3}]"#))
        expectEqual(items, [Item(name: "a"), Item(name: "b", quantity: 3)])
        #expect((try items.jsonObject() as? [[String: Any]])?.last?["quantity"] as? Int == 3)
    }

    @Test func allNumberTypesAndFoundationValues() throws {
        let uuid = UUID()
        let event = try Event(json: jsonObject(
            """
            {"at": 1700000000123, "until": 1700000001, "uuid": "\(uuid.uuidString)", "payload": "aGVsbG8=",
             "small": -128, "unsigned": 4294967295, "ratio": 0.25}
            """))
        expectEqual(event.at, Date(timeIntervalSince1970: 1_700_000_000.123))
        expectEqual(event.until, Date(timeIntervalSince1970: 1_700_000_001))
        #expect(event.uuid == uuid && event.payload == Data("hello".utf8))
        #expect(event.small == -128 && event.unsigned == 4_294_967_295 && event.ratio == 0.25)
        let back = try #require(try event.jsonObject() as? [String: Any])
        #expect(back["at"] as? Int == 1_700_000_000_123)
        #expect(back["payload"] as? String == "aGVsbG8=" && back["uuid"] as? String == uuid.uuidString)
        try expectEqual(Event(json: back), event)
        #expect(modelError { _ = try Event(json: ["at": 0, "unsigned": -1]) }?.kind == .numberOutOfRange)
    }
}
