import Foundation
import ModelKit
import ModelKitTestSupport
import Testing

@Suite struct ModelEqualityTests {
    func post(title: String = "T", cache: String? = nil) throws -> Post {
        var post = try Post(dictionary: ["id": 1, "title": title, "authorName": "A", "publishedAt": Date(timeIntervalSince1970: 0)])
        post.cache = cache
        return post
    }

    @Test func equalityAndHashUseNonTransientProperties() throws {
        try expectEqual(post(cache: "x"), post(cache: "y"))
        try expectEqual(post(cache: "x").hashValue, post(cache: "y").hashValue)
        #expect(try post(title: "A") != post(title: "B"))
        try expectEqual(Set([post(title: "A"), post(title: "A", cache: "z"), post(title: "B")]).count, 2)
    }

    @Test func classesCompareValuesAndDynamicTypes() {
        expectEqual(Circle(name: "c", radius: 1), Circle(name: "c", radius: 1))
        #expect(Circle(name: "c", radius: 1) != Circle(name: "c", radius: 2))
        #expect(Circle(name: "c", radius: 1) as Shape != Shape(name: "c"))
        expectEqual(Shape(name: "c"), Shape(name: "c"))
        expectEqual(Square(name: "s", side: 1).hashValue, Square(name: "s", side: 1).hashValue)
        let square = Square(name: "s", side: 1)
        square.cachedArea = 1
        expectEqual(square, Square(name: "s", side: 1))
    }

    @Test func weakReferencesCompareByIdentity() {
        let parent = Node(name: "p")
        let a = Node(name: "c", parent: parent)
        let b = Node(name: "c", parent: parent)
        let c = Node(name: "c", parent: Node(name: "p"))
        expectEqual(a, b)
        #expect(a != c)
        withExtendedLifetime(parent) {}
    }

    /// References to identified class models compare and hash by identifier, so models in a
    /// cycle compare, hash and sit in a set without recursing forever.
    @Test func referencesToIdentifiedModelsCompareByIdentifierSoCyclesEnd() {
        let (a, b) = (Chained(id: "a"), Chained(id: "b"))
        (a.next, b.next) = (b, a)
        let (a2, b2) = (Chained(id: "a"), Chained(id: "b"))
        (a2.next, b2.next) = (b2, a2)
        expectEqual(a, a2)
        expectEqual(a.hashValue, a2.hashValue)
        expectEqual(Set([a, b, a2, b2]).count, 2)
        a2.next = Chained(id: "c")
        #expect(a != a2)
        (a.next, b.next, a2.next, b2.next) = (nil, nil, nil, nil)
    }

    @Test func copyMakesANewInstanceWithTheSameValues() {
        let tree = Node(name: "root", children: [Node(name: "a")])
        tree.visits = 5
        let copy = tree.copy()
        #expect(copy !== tree && copy == tree)
        expectEqual(copy.visits, 0)
        #expect(copy.children.first === tree.children.first)
        copy.name = "other"
        expectEqual(tree.name, "root")

        let shape: Shape = Circle(name: "c", radius: 3)
        let shapeCopy = shape.copy()
        #expect(shapeCopy is Circle && (shapeCopy as? Circle)?.radius == 3)
        expectEqual(shapeCopy, shape)
    }

    @Test func mergeTakesAnotherInstancesValues() throws {
        var draft = try post(title: "draft")
        var published = try post(title: "published")
        published.tags = ["t"]
        published.cache = "not merged"
        draft.merge(from: published, keys: ["title"])
        #expect(draft.title == "published" && draft.tags.isEmpty)
        draft.merge(from: published)
        #expect(draft == published && draft.cache == nil)

        let node = Node(name: "a")
        node.merge(from: Node(name: "b", children: [Node(name: "c")]))
        #expect(node.name == "b" && node.children.count == 1)
    }

    @Test func descriptionListsPropertiesAndShortensWeakOnes() throws {
        let parent = Node(name: "p")
        let child = Node(name: "c", parent: parent)
        expectEqual(child.description, #"Node(name: "c", children: [], parent: Node(…))"#)
        expectEqual(Counter(id: "x", count: 2).description, #"Counter(id: "x", count: 2)"#)
        expectEqual(Circle(name: "c", radius: 1).description, #"Circle(name: "c", color: "black", radius: 1.0)"#)
        withExtendedLifetime(parent) {}
    }
}

/// An identified class that refers to another of its kind.
@Model final class Chained {
    @Identifier var id: String
    var next: Chained?
}
