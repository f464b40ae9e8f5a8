import Foundation
import ModelKit

// Models the keyed-archive tests use: a small object graph with shared references, weak
// back references and every archive behaviour.

@Model
final class Person {
    var name: String
    var age: Int = 0
    weak var manager: Person?
    var friends: [Person] = []
    @Transient var cache: String? = nil

    init(name: String, age: Int = 0) {
        self.name = name
        self.age = age
    }
}

@Model
final class Team {
    var name: String
    var lead: Person?
    var members: [Person] = []
    @Archive(.conditional) var mascot: Person?
    @Archive(.excluded) var notes: String? = nil
    @Archive(.unconditional) weak var sponsor: Person?

    init(name: String) {
        self.name = name
    }
}

@Model
struct Address: Sendable {
    var street: String
    var city: String
    var zip: Int32 = 0
}

@Model
struct Values {
    var text: String = ""
    var flag: Bool = false
    var int: Int = 0
    var int8: Int8 = 0
    var int16: Int16 = 0
    var int32: Int32 = 0
    var uint8: UInt8 = 0
    var uint64: UInt64 = 0
    var double: Double = 0
    var float: Float = 0
    var decimal: Decimal = 0
    var date: Date = Date(timeIntervalSinceReferenceDate: 0)
    var data: Data = Data()
    var uuid: UUID? = nil
    var url: URL? = nil
    var list: [String] = []
    var numbers: [Int] = []
    var set: Set<Int> = []
    var map: [String: Int] = [:]
    var nested: [[String]] = []
    var optional: String? = nil
    var address: Address? = nil
    var json: JSONValue? = nil
}

/// A linked list: each link refers to the next through an optional property.
@Model
final class ChainLink {
    var position: Int
    var next: ChainLink?

    init(position: Int) {
        self.position = position
    }

    /// A chain of `count` links, positions 0 ..< count; its head.
    static func chain(count: Int) -> ChainLink {
        let head = ChainLink(position: 0)
        var tail = head
        for position in 1..<max(count, 1) {
            let next = ChainLink(position: position)
            tail.next = next
            tail = next
        }
        return head
    }

    /// Unlinks a chain without recursion, so releasing it does not deepen the stack.
    static func unlink(_ head: ChainLink?) {
        var node = head
        while let current = node {
            node = current.next
            current.next = nil
        }
    }
}

/// A tree with weak back references to parents.
@Model
final class TreeNode {
    var name: String
    var children: [TreeNode] = []
    weak var parent: TreeNode?

    init(name: String) {
        self.name = name
    }
}

/// A class cycle through a non-optional property: cannot be decoded.
@Model
final class StrictNode {
    var name: String
    var partner: [StrictNode] = []

    init(name: String) {
        self.name = name
    }
}

/// Required properties without defaults, for missing-key behaviour.
@Model
struct Required {
    var count: Int
    var name: String
    var when: Date
}

/// A versioned model: version 2 renamed `name` to `title` and added `pageCount`.
@Model(version: 2)
final class Note {
    var title: String
    var pageCount: Int = 0
    var body: String? = nil
    @Transient var preservedValues = ModelPreservedValues()

    init(title: String, pageCount: Int = 0) {
        self.title = title
        self.pageCount = pageCount
    }
}

extension Note: ModelMigrating {
    static func decodeValue<S: ModelStoredValues>(forKey key: String, from stored: inout S, modelVersion: Int) throws
        -> ModelStoredValue
    {
        if key == "title" && modelVersion < 2 {
            return .value(try stored.decodeIfPresent(String.self, forKey: "name") ?? "untitled")
        }
        return .stored
    }

    static func decodeAdditionalValues<S: ModelStoredValues>(from stored: inout S, modelVersion: Int) throws
        -> [String: Any]
    {
        guard modelVersion < 2, let pages = try stored.decodeIfPresent([String].self, forKey: "pages") else { return [:] }
        return ["pageCount": pages.count]
    }
}

extension Note: ModelPreservingValues {
    static var propertyKeysToPreserveWhenDecoding: Set<String> { ["body"] }
}

/// A class hierarchy decoded through its base type.
@Model
class Shape {
    var name: String

    init(name: String) {
        self.name = name
    }
}

@Model
final class Circle: Shape {
    var radius: Double

    init(name: String, radius: Double) {
        self.radius = radius
        super.init(name: name)
    }
}

@Model
final class Canvas {
    var shapes: [Shape] = []
    var owner: Person?

    init(shapes: [Shape]) {
        self.shapes = shapes
    }
}

/// Narrows the classes `Canvas.owner` accepts.
@Model
final class Gallery {
    var owner: Person?
    var items: [String] = []

    init() {}
}

extension Gallery: KeyedArchiveSecureCoding {
    static var allowedArchiveClassNames: [String: [String]] { ["owner": ["Curator"]] }
}

@Model
struct Validated {
    var value: Int

    func validate() throws {
        if value < 0 { throw ModelError.invalid(expected: "a value of at least 0") }
    }
}
