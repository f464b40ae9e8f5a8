import Foundation
import ModelKit
import ModelKitTestSupport
import Testing

@Suite struct ModelHooksTests {
    @Test func rewriteHookRunsBeforeMapping() throws {
        let single = try Order(json: jsonObject(#"{"item": {"name": "tea"}}"#))
        expectEqual(single.items, [Item(name: "tea")])
        let many = try Order(json: jsonObject(#"{"items": [{"name": "a"}, {"name": "b", "quantity": 2}]}"#))
        expectEqual(many.items.count, 2)
    }

    /// A model's own `init(from:)` rewrites too (JSONDecoder at the top skipped the hook).
    @Test func rewriteHookRunsThroughJSONDecoder() throws {
        let single = try JSONDecoder().decode(Order.self, from: Data(#"{"item": {"name": "tea"}}"#.utf8))
        expectEqual(single.items, [Item(name: "tea")])
        let nested = try JSONDecoder().decode([Order].self, from: Data(#"[{"item": {"name": "a"}}, {"items": []}]"#.utf8))
        expectEqual(nested.map(\.items.count), [1, 0])
    }

    @Test func thePayloadChoosesTheSubclass() throws {
        let drawing = try Drawing(json: jsonObject(
            """
            {"title": "d", "shapes": [
              {"kind": "circle", "name": "c", "radius": 2},
              {"kind": "square", "name": "s", "side": 3, "color": "red"},
              {"name": "plain"}]}
            """))
        expectEqual(drawing.shapes.count, 3)
        #expect((drawing.shapes[0] as? Circle)?.radius == 2)
        #expect((drawing.shapes[1] as? Square)?.side == 3 && drawing.shapes[1].color == "red")
        #expect(type(of: drawing.shapes[2]) == Shape.self)

        let shape = try Shape(json: ["kind": "circle", "name": "top", "radius": 1])
        #expect(shape is Circle)
        let back = try #require(try drawing.jsonObject() as? [String: Any])
        #expect(((back["shapes"] as? [[String: Any]])?.first)?["radius"] as? Double == 2)
        #expect(modelError { _ = try Drawing(json: ["title": "d", "shapes": [["kind": "circle", "name": "c"]]]) }?
            .description == "cannot map 'Circle.radius' at 'shapes[0].radius': missing key")
    }

    @Test func wholeModelValidationRejectsAfterMapping() {
        let error = modelError { _ = try Account(json: ["owner": "o", "balance": -3]) }
        #expect(error?.description == "invalid 'Account': expected a balance of at least 0")
        var options = MappingOptions()
        options.validates = false
        #expect((try? Account(json: ["owner": "o", "balance": -3], options: options))?.balance == -3)
    }

    /// A subclass overrides the `validate()` `@Model` gives its parent; it used to be skipped,
    /// the parent's conformance calling the protocol's empty default.
    @Test func aSubclassValidatesThroughItsOverride() throws {
        try expectEqual(AdminStaff(json: ["name": "a", "level": 2]).level, 2)
        let error = modelError { _ = try AdminStaff(json: ["name": "a", "level": -1]) }
        #expect(error?.description == "invalid 'AdminStaff': expected a level of at least 0, found -1")
        // The parent itself has nothing to check.
        #expect(modelError { _ = try Staff.self.init(json: ["name": "b"]) } == nil)
    }
}
