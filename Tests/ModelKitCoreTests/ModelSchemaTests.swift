import Foundation
import ModelKit
import ModelKitTestSupport
import Testing

@Suite struct ModelSchemaTests {
    /// A default written as a multi-line string literal, indented inside the declaration: the
    /// generated initializers place it deeper, and it must stay the same string.
    @Model
    struct Letter: Equatable {
        var greeting: String = """
            Dear reader,
              indented line
            """
        var signature: String
    }

    @Test func aMultiLineStringDefaultKeepsItsValue() throws {
        let letter = try Letter(json: ["signature": "M."])
        expectEqual(letter.greeting, "Dear reader,\n  indented line")
        expectEqual(Letter(signature: "M.").greeting, letter.greeting)
        let greeting = try #require(Letter.modelSchema["greeting"])
        #expect(greeting.hasDefault)
        #expect(greeting.defaultExpression?.contains("indented line") == true)
    }

    @Test func propertyKeysFollowDeclarationOrderAndSkipTransientOnes() {
        #expect(
            Post.propertyKeys == [
                "id", "title", "body", "authorName", "city", "firstMediaURL", "metaCount", "publishedAt", "tags",
                "visibility", "location", "kind",
            ])
        #expect(Post.modelSchema.properties.map(\.name).contains("cache"))
        expectEqual(Node.propertyKeys, ["name", "children", "parent"])
    }

    @Test func eachPropertyDescribesItsDeclaration() throws {
        let schema = Post.modelSchema
        let id = try #require(schema["id"])
        #expect(id.isIdentifier && !id.isOptional && id.isMutable)
        #expect(schema.identifier?.name == "id")
        expectEqual(schema.identifierIndex, 0)

        let body = try #require(schema["body"])
        #expect(body.isOptional && body.hasDefault && body.typeName == "String?")
        expectEqual(ObjectIdentifier(body.valueType), ObjectIdentifier(String?.self))

        let tags = try #require(schema["tags"])
        #expect(tags.defaultExpression == "[]" && tags.hasDefault && !tags.isOptional)

        let cache = try #require(schema["cache"])
        #expect(cache.isTransient && cache.archiveBehavior == .excluded)

        let kind = try #require(schema["kind"])
        #expect(kind.isReadOnly && !kind.isMutable && kind.typeName == "String")

        let published = try #require(schema["publishedAt"])
        expectEqual(published.transformerDescription, ".iso8601")
        #expect(published.transformer is ISO8601Transformer)

        let parent = try #require(Node.modelSchema["parent"])
        #expect(parent.isWeak && parent.archiveBehavior == .conditional)
        #expect(Node.modelSchema["children"]?.archiveBehavior == .unconditional)

        let counterID = try #require(Counter.modelSchema["id"])
        #expect(counterID.flags.contains(.constant) && !counterID.isMutable)
    }

    @Test func remoteKeyPathsComeFromKeysAndTheKeyStrategy() {
        let schema = Post.modelSchema
        func paths(_ name: String) -> [[String]] { schema[name]?.remoteKeyPaths.map(\.segments) ?? [] }
        expectEqual(paths("authorName"), [["author", "name"]])
        expectEqual(paths("city"), [["author", "address", "city"], ["city"]])
        expectEqual(paths("firstMediaURL"), [["media", "0", "url"]])
        expectEqual(paths("metaCount"), [["meta.data", "count"]])
        expectEqual(paths("publishedAt"), [["published_at"]])
        #expect(Shout.modelSchema["text"]?.remoteKeyPaths.first?.segments == ["TEXT"])
        expectEqual(schema.keyStrategy.name, "snakeCase")
    }

    @Test func keyPathsReadOnlyWhereTheSchemaReads() {
        let schema = Post.modelSchema
        #expect(schema.remoteReadingKeys.edge(forKey: "kind") == nil)
        #expect(schema.remoteWritingKeys.edge(forKey: "kind") != nil)
        #expect(schema.remoteReadingKeys.edge(forKey: "city") != nil)
        #expect(schema.remoteWritingKeys.edge(forKey: "city") == nil)
        #expect(schema.remoteReadingKeys.edge(forKey: "cache") == nil)
        #expect(schema.propertyReadingKeys.edge(forKey: "authorName") != nil)
    }

    @Test func aSubclassInheritsAndExtendsItsParentsSchema() {
        expectEqual(Shape.propertyKeys, ["name", "color"])
        expectEqual(Circle.propertyKeys, ["name", "color", "radius"])
        expectEqual(Square.propertyKeys, ["name", "color", "side"])
        #expect(Circle.modelSchema.superschema === Shape.modelSchema)
        #expect(Circle.modelSchema["color"]?.declaringTypeName == "Shape")
        #expect(Circle.modelSchema.hooks.contains(.choosesType))
        let circle: Shape = Circle(name: "c", radius: 2)
        #expect(circle.dynamicModelSchema === Circle.modelSchema)
    }

    /// A subclass with no stored properties of its own once expanded to a lone `break` (it did
    /// not compile); it maps, writes and sets its inherited properties.
    @Test func aSubclassWithoutOwnPropertiesMapsThroughItsParent() throws {
        expectEqual(Dot.propertyKeys, ["name", "color"])
        #expect(Dot.modelSchema.superschema === Shape.modelSchema)
        let dot = try Dot(json: ["name": "d", "color": "red"])
        #expect(dot.name == "d" && dot.color == "red")
        #expect(try dot.jsonObject() as? [String: String] == ["name": "d", "color": "red"])
        try dot.setValue("blue", forKey: "color")
        expectEqual(dot.color, "blue")
    }

    @Test func hooksAreFoundInTheDeclaration() {
        expectEqual(Order.modelSchema.hooks, [.rewritesJSON])
        expectEqual(Account.modelSchema.hooks, [.validates])
        #expect(Post.modelSchema.hooks.isEmpty)
    }

    @Test func keyPathsFindTheirProperty() {
        expectEqual(Post.modelSchema.index(of: \Post.title), 1)
        expectEqual(Post.modelSchema.index(of: \Post.cache), 11)
    }

    @Test(arguments: [
        ("screenName", "screen_name"), ("userID", "user_id"), ("URLString", "url_string"),
        ("profileImageUrlHttps", "profile_image_url_https"), ("a", "a"), ("id", "id"), ("version2Name", "version2_name"),
    ])
    func snakeCaseConvertsCamelCase(name: String, expected: String) {
        expectEqual(KeyStrategy.snakeCase.key(for: name), expected)
    }

    @Test(arguments: [
        ("a.b.c", ["a", "b", "c"]), ("media.0.url", ["media", "0", "url"]), (#"a\.b.c"#, ["a.b", "c"]),
        ("plain", ["plain"]), (#"back\\slash"#, [#"back\slash"#]),
    ])
    func remoteKeyPathsSplitAtUnescapedDots(path: String, segments: [String]) {
        let keyPath = RemoteKeyPath(path)
        expectEqual(keyPath.segments, segments)
        expectEqual(RemoteKeyPath(keyPath.description), keyPath)
    }

    @Test func schemaDescriptionListsProperties() {
        let text = Post.modelSchema.description
        #expect(text.hasPrefix("Post (version 0, keys snakeCase)"))
        #expect(text.contains("city: String <- 'author.address.city' or 'city' (default \"unknown\")"))
    }
}
