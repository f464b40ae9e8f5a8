import Foundation
import ModelKit
import ModelKitTestSupport
import Testing

@Suite struct CodableTests {
    let json = """
        {"id": 3, "title": "Codable", "author": {"name": "Ada", "address": {"city": "Oslo"}},
         "media": [{"url": "https://example.com/m.png"}], "published_at": "2024-03-01T12:34:56Z",
         "visibility": "bogus", "location": {"x": 1, "y": 2}}
        """

    @Test func jsonDecoderUsesTheRemoteMappingAndTransformers() throws {
        let post = try JSONDecoder().decode(Post.self, from: Data(json.utf8))
        try expectEqual(post, Post(json: jsonObject(json)))
        #expect(post.city == "Oslo" && post.visibility == .unknown && post.location == Point(x: 1, y: 2))
        #expect(post.firstMediaURL?.lastPathComponent == "m.png")
    }

    @Test func jsonEncoderWritesTheSameShapeAsJSONObjects() throws {
        let post = try Post(json: jsonObject(json))
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data = try encoder.encode(post)
        let decoded = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect((decoded["author"] as? [String: Any])?["name"] as? String == "Ada")
        #expect(decoded["published_at"] as? String == "2024-03-01T12:34:56Z")
        #expect(decoded["visibility"] as? String == "unknown")
        try expectEqual(JSONDecoder().decode(Post.self, from: data), post)
    }

    @Test func modelsNestInsideOtherCodableTypes() throws {
        struct Envelope: Codable, Equatable {
            var posts: [Post]
            var page: Int
        }
        let post = try Post(json: jsonObject(json))
        let envelope = Envelope(posts: [post, post], page: 2)
        let data = try JSONEncoder().encode(envelope)
        try expectEqual(JSONDecoder().decode(Envelope.self, from: data), envelope)
    }

    @Test func otherCodersWorkToo() throws {
        let post = try Post(json: jsonObject(json))
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        let data = try encoder.encode(post)
        try expectEqual(PropertyListDecoder().decode(Post.self, from: data), post)
    }

    @Test func classHierarchiesAndOptionals() throws {
        let circle = Circle(name: "c", radius: 2)
        let data = try JSONEncoder().encode(circle)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("\"radius\":2"))
        let decoded = try JSONDecoder().decode(Circle.self, from: data)
        expectEqual(decoded, circle)
        let node = try JSONDecoder().decode(Node.self, from: Data(#"{"name": "n", "children": [{"name": "c"}], "parent": null}"#.utf8))
        #expect(node.children.first?.name == "c" && node.parent == nil)
    }

    @Test func codableErrorsAreModelErrors() {
        let data = Data(#"{"id": 1, "title": 5, "author": {"name": "a"}, "published_at": "2024-03-01T12:34:56Z"}"#.utf8)
        let error = modelError { _ = try JSONDecoder().decode(Post.self, from: data) }
        #expect(error?.modelName == "Post" && error?.propertyName == "title" && error?.kind == .typeMismatch)
        let missing = modelError { _ = try JSONDecoder().decode(Item.self, from: Data("{}".utf8)) }
        #expect(missing?.description == "cannot map 'Item.name' at 'name': missing key")
        let invalid = modelError {
            _ = try JSONDecoder().decode(Account.self, from: Data(#"{"owner": "o", "balance": -1}"#.utf8))
        }
        #expect(invalid?.description == "invalid 'Account': expected a balance of at least 0")
    }
}
