import Foundation
import ModelKit
import ModelKitTestSupport
import Testing

/// A graph of class instances that contains itself cannot be written as a tree: every writer but
/// the keyed archiver says so, naming the model and where, instead of recursing without end.
@Suite struct CycleTests {
    static let message =
        "cannot map 'Node' at 'root.children[0].parent': expected a graph without cycles (make the reference back '@Transient', or archive the graph), found a 'Node' that contains itself"

    @Test func codableRefusesACycle() throws {
        let tree = try Tree.cyclic()
        let error = #expect(throws: ModelError.self) { _ = try JSONEncoder().encode(tree) }
        #expect(error?.description == Self.message)
        // PropertyListEncoder wraps what the value throws in its own error.
        let wrapped = #expect(throws: EncodingError.self) { _ = try PropertyListEncoder().encode(tree) }
        #expect(String(describing: wrapped).contains(Self.message))
    }

    @Test func jsonObjectsAndValuesRefuseACycle() throws {
        let tree = try Tree.cyclic()
        #expect(modelError { _ = try tree.jsonObject }?.description == Self.message)
        var writer = JSONValueWriter()
        #expect(modelError { try writer.encodeModel(tree) }?.description == Self.message)
    }

    @Test func aSharedInstanceThatIsNotACycleIsWrittenTwice() throws {
        let shared = try Node(json: ["name": "shared"])
        let root = try Node(json: ["name": "root"])
        root.children = [shared, shared]
        let data = try JSONEncoder().encode(Tree(id: 1, root: root))
        let back = try JSONDecoder().decode(Tree.self, from: data)
        #expect(back.root.children.map(\.name) == ["shared", "shared"])
        // Once the cycle is gone, the same thread writes the graph again.
        root.children[0].parent = nil
        #expect(try Tree(id: 2, root: root).jsonObject is [String: Any])
    }
}
