import Foundation
import ModelKit

// A class hierarchy: a @Model subclass inherits and extends its parent's schema, and the
// payload's "kind" picks the subclass.

@Model
public class Shape {
    public var name: String
    public var color: String = "black"

    public init(name: String, color: String = "black") {
        self.name = name
        self.color = color
    }

    public static func modelType(for json: JSONValue) throws -> (any Model.Type)? {
        switch json["kind"] {
        case .string("circle"): return Circle.self
        case .string("square"): return Square.self
        default: return nil
        }
    }
}

@Model
public class Circle: Shape {
    public var radius: Double

    public init(name: String, radius: Double) {
        self.radius = radius
        super.init(name: name)
    }
}

@Model
public final class Square: Shape {
    public var side: Double
    @Transient public var cachedArea: Double? = nil

    public init(name: String, side: Double) {
        self.side = side
        super.init(name: name)
    }
}

@Model
public struct Drawing {
    public var title: String
    public var shapes: [Shape]

    public init(title: String, shapes: [Shape]) {
        self.title = title
        self.shapes = shapes
    }
}

/// A subclass that adds no stored properties: its schema is its parent's, and its generated
/// field switches have nothing but a default.
@Model
public final class Dot: Shape {}

/// A parent without hooks: a subclass adds validation by overriding the `validate()` that
/// `@Model` gives its parent (before that, a subclass's own `validate()` was never called).
@Model
public class Staff {
    public var name: String

    public init(name: String) {
        self.name = name
    }
}

@Model
public final class AdminStaff: Staff {
    public var level: Int

    public init(name: String, level: Int) {
        self.level = level
        super.init(name: name)
    }

    public override func validate() throws {
        if level < 0 { throw ModelError.invalid(expected: "a level of at least 0", found: "\(level)") }
    }
}
