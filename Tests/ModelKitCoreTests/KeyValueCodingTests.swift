import Foundation
import ModelKit
import ModelKitTestSupport
import Testing

@Suite struct KeyValueCodingTests {
    func makePost() throws -> Post {
        try Post(json: jsonObject(
            """
            {"id": 1, "title": "T", "author": {"name": "Ada", "address": {"city": "London"}},
             "published_at": "2024-03-01T12:00:00Z", "tags": ["x", "y", "z"]}
            """))
    }

    @Test func valuesByKeyAndKeyPath() throws {
        let post = try makePost()
        #expect(post.value(forKey: "title") as? String == "T")
        #expect(post.value(forKey: "body") == nil)
        #expect(post.value(forKey: "missing") == nil)
        #expect(post.value(forKeyPath: "tags.@count") as? Int == 3)
        let tree = Node(name: "root", children: [Node(name: "a"), Node(name: "b")])
        #expect(tree.value(forKeyPath: "children.name") as? [String] == ["a", "b"])
        #expect(tree.value(forKeyPath: "children.@count") as? Int == 2)
        let drawing = Drawing(title: "d", shapes: [Circle(name: "c", radius: 1)])
        #expect(drawing.value(forKeyPath: "shapes.radius") as? [Double] == [1])
        let values = post.dictionaryWithValues(forKeys: ["title", "body"])
        #expect(values["title"] as? String == "T" && values["body"] is NSNull)
    }

    @Test func setValueChecksTypes() throws {
        var post = try makePost()
        try post.setValue("New", forKey: "title")
        expectEqual(post.title, "New")
        try post.setValue(nil, forKey: "body")
        try post.setValue(NSNull(), forKey: "firstMediaURL")
        try post.setValue("text", forKey: "body")
        expectEqual(post.body, "text")
        #expect(modelError { try post.setValue(42, forKey: "title") }?.description
            == "cannot map 'Post.title' at 'title': expected a string, found 42")
        #expect(modelError { try post.setValue(nil, forKey: "title") }?.kind == .nullValue)
        #expect(modelError { try post.setValue("x", forKey: "kind") }?.description
            == "cannot set 'Post.kind': the property is read-only")
        #expect(modelError { try post.setValue("x", forKey: "nope") }?.kind == .unknownKey)
        #expect(modelError { try post.setValue("", forKey: "title") }?.kind == .invalidValue)
        try post.setValue("cached", forKey: "cache")
        expectEqual(post.cache, "cached")
    }

    @Test func classesAreSetInPlace() throws {
        let node = Node(name: "a")
        try node.setValue("b", forKey: "name")
        expectEqual(node.name, "b")
        let counter = Counter(id: "c")
        #expect(modelError { try counter.setValue("d", forKey: "id") }?.kind == .readOnlyProperty)
        try counter.setValue(3, forKey: "count")
        expectEqual(counter.count, 3)
    }

    @Test func setValuesForKeysSetsAllOrNone() throws {
        var post = try makePost()
        try post.setValuesForKeys(["title": "A", "tags": ["q"]])
        #expect(post.title == "A" && post.tags == ["q"])
        #expect(modelError { try post.setValuesForKeys(["title": "B", "tags": 3]) } != nil)
        expectEqual(post.title, "A")

        let circle = Circle(name: "c", radius: 1)
        #expect(modelError { try circle.setValuesForKeys(["name": "d", "radius": "big"]) } != nil)
        #expect(circle.name == "c" && circle.radius == 1)
        try circle.setValuesForKeys(["name": "d", "radius": 3.0])
        #expect(circle.name == "d" && circle.radius == 3)
    }
}

/// `setValue(_:forKeyPath:)`: Instant Cocoa's key-path setter, through nested models.
@Suite struct KeyPathSettingTests {
    @Test func setsThroughNestedStructsAndClasses() throws {
        var resident = try Resident(json: ["name": "Ada", "home": ["city": "London"]])
        try resident.setValue("Paris", forKeyPath: "home.city")
        try resident.setValue("75001", forKeyPath: "home.zip")
        try resident.setValue("Ada L.", forKeyPath: "name")
        #expect(resident.home.city == "Paris" && resident.home.zip == "75001" && resident.name == "Ada L.")
        #expect(resident.value(forKeyPath: "home.city") as? String == "Paris")
        let tree = try Tree(id: 1, root: Node(json: ["name": "root", "children": [["name": "leaf"]]]))
        try tree.root.setValue("trunk", forKeyPath: "name")
        expectEqual(tree.root.name, "trunk")
    }

    @Test func errorsNameThePathAndWhatIsWrong() throws {
        var resident = try Resident(json: ["name": "Ada", "home": ["city": "London"]])
        let wrongType = modelError { try resident.setValue(7, forKeyPath: "home.city") }
        #expect(wrongType?.description == "cannot map 'Address.city' at 'home.city': expected a string, found 7")
        let missing = modelError { try resident.setValue("x", forKeyPath: "work.city") }
        #expect(missing?.description == "cannot map 'Resident.work' at 'work': expected a model to set 'city' on, found nil")
        let unknown = modelError { try resident.setValue("x", forKeyPath: "home.country") }
        #expect(unknown?.description == "cannot set 'Address.country' at 'home': no such property")
        expectEqual(resident.home.city, "London")
    }
}
