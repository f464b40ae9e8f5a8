import FuzzSupport
import Foundation
import ModelKit

// Bytes → KeyedUnarchiver decoding typed @Model classes. Decoding is secure: classes come only
// from the declared types and the registry below, never from names in the file. Any thrown
// error is fine.

@Model
final class Person {
    var name: String
    var age: Int = 0
    weak var manager: Person?
    var friends: [Person] = []
    var address: Address?
    var born: Date?

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
final class Team {
    var name: String
    var lead: Person?
    var members: [Person] = []
    @Archive(.conditional) var mascot: Person?
    var tags: [String: String] = [:]
    var logo: Data?

    init(name: String) {
        self.name = name
    }
}

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
    var scores: [Double] = []

    init(shapes: [Shape]) {
        self.shapes = shapes
    }
}

@Model
final class TreeNode {
    var name: String
    var children: [TreeNode] = []
    weak var parent: TreeNode?

    init(name: String) {
        self.name = name
    }
}

let registry: ArchiveClassRegistry = {
    var registry = ArchiveClassRegistry()
    registry.register(Person.self)
    registry.register(Team.self)
    registry.register(Shape.self)
    registry.register(Circle.self)
    registry.register(Canvas.self)
    registry.register(TreeNode.self)
    return registry
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    guard let document = try? KeyedArchiveDocument(data: data) else { return 0 }
    // A fresh unarchiver per type: a failed decode must not leave state another one trips on.
    _ = try? KeyedUnarchiver(document: document, registry: registry).decode(Team.self, forKey: "root")
    _ = try? KeyedUnarchiver(document: document, registry: registry).decode(Canvas.self, forKey: "root")
    _ = try? KeyedUnarchiver(document: document, registry: registry).decode(TreeNode.self, forKey: "root")
    _ = try? KeyedUnarchiver(document: document, registry: registry).decode([Person].self, forKey: "root")
    let unarchiver = KeyedUnarchiver(document: document, registry: registry)
    _ = try? unarchiver.decode(Person.self, forKey: "root")
    _ = try? unarchiver.decodeObject(forKey: "root")
    // Every object generically (the first 1,024), after the typed decodes in the same
    // unarchiver: registered models and Foundation collections built from whatever the file
    // holds, beside instances the typed decodes left.
    for objectID in 0..<min(document.objectCount, 1024) {
        _ = try? unarchiver.decodeObject(withID: objectID)
    }
    return 0
}

// A debug build renames an executable's `main` to `fuzz_archive_models_main` (SwiftPM's testable
// executables), which hides libFuzzer's own `main`: start libFuzzer's driver from here instead.
@_cdecl("fuzz_archive_models_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runLibFuzzer(argc, argv, fuzz)
}
