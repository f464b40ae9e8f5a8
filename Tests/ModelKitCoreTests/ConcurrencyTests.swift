import Foundation
import ModelKit
import ModelKitTestSupport
import Testing

@Suite struct ConcurrencyTests {
    @Test func sendableModelsCrossTasks() async throws {
        let items = try await Task.detached {
            try [Item](json: jsonObject(#"[{"name": "a"}, {"name": "b", "quantity": 2}]"#))
        }.value
        expectEqual(items.map(\.quantity), [1, 2])
        let sum = await withTaskGroup(of: Int.self) { group in
            for item in items { group.addTask { item.quantity } }
            return await group.reduce(0, +)
        }
        expectEqual(sum, 3)
    }

    @Test func schemasAreBuiltOnceUnderConcurrentFirstUse() async {
        let schemas = await withTaskGroup(of: ObjectIdentifier.self) { group in
            for _ in 0..<16 { group.addTask { ObjectIdentifier(Mention.modelSchema) } }
            return await group.reduce(into: Set<ObjectIdentifier>()) { $0.insert($1) }
        }
        expectEqual(schemas.count, 1)
    }

    @MainActor
    @Test func mainActorModelsMapOnTheMainActor() throws {
        let state = try ViewState(json: ["title": "Inbox", "count": 3])
        #expect(state.title == "Inbox" && state.count == 3)
        let panel = try JSONDecoder().decode(Panel.self, from: Data(#"{"name": "side"}"#.utf8))
        #expect(panel.name == "side" && panel == panel)
        #expect((try panel.jsonObject() as? [String: Any])?["name"] as? String == "side")
        expectEqual(ViewState.propertyKeys, ["title", "count"])
    }
}
