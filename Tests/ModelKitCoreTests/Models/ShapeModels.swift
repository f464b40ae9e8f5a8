import Foundation
import ModelKit

// A class hierarchy: a @Model subclass inherits and extends its parent's schema, and the
// payload's "kind" picks the subclass.

@Model
class Shape {
    var name: String
    var color: String = "black"

    init(name: String, color: String = "black") {
        self.name = name
        self.color = color
    }

    static func modelType(for json: JSONValue) throws -> (any Model.Type)? {
        switch json["kind"] {
        case .string("circle"): return Circle.self
        case .string("square"): return Square.self
        default: return nil
        }
    }
}

@Model
class Circle: Shape {
    var radius: Double

    init(name: String, radius: Double) {
        self.radius = radius
        super.init(name: name)
    }
}

@Model
final class Square: Shape {
    var side: Double
    @Transient var cachedArea: Double? = nil

    init(name: String, side: Double) {
        self.side = side
        super.init(name: name)
    }
}

@Model
struct Drawing {
    var title: String
    var shapes: [Shape]
}
