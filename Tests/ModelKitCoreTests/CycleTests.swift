import Foundation
import ModelKit
import ModelKitCore
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
        #expect(modelError { _ = try tree.jsonObject() }?.description == Self.message)
        var writer = JSONValueWriter()
        #expect(modelError { try writer.encodeModel(tree) }?.description == Self.message)
    }

    @Test func aSharedInstanceThatIsNotACycleIsWrittenTwice() throws {
        let shared = try Node(json: ["name": "shared"])
        let root = try Node(json: ["name": "root"])
        root.children = [shared, shared]
        let data = try JSONEncoder().encode(Tree(id: 1, root: root))
        let back = try JSONDecoder().decode(Tree.self, from: data)
        expectEqual(back.root.children.map(\.name), ["shared", "shared"])
        // Once the cycle is gone, the same thread writes the graph again.
        root.children[0].parent = nil
        #expect(try Tree(id: 2, root: root).jsonObject() is [String: Any])
    }

    /// The per-thread list of instances being written goes with its thread.
    @Test func aThreadsWriteListIsReleasedWhenTheThreadExits() throws {
        let before = WritesInProgress.liveLists.withLock { $0 }
        let threads = 40
        let done = DispatchSemaphore(value: 0)
        let written = Locked(0)
        for _ in 0..<threads {
            let thread = Thread {
                if (try? Tree(id: 1, root: Node(json: ["name": "n"])).jsonObject()) != nil {
                    written.withLock { $0 += 1 }
                }
                done.signal()
            }
            thread.start()
            done.wait()
        }
        expectEqual(written.withLock { $0 }, threads)
        // A thread's destructors run just after its body returns; other tests' threads may hold
        // a few lists meanwhile, never one per thread started here.
        let deadline = Date().addingTimeInterval(5)
        var live = WritesInProgress.liveLists.withLock { $0 }
        while live - before >= threads / 4 && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.01)
            live = WritesInProgress.liveLists.withLock { $0 }
        }
        #expect(live - before < threads / 4, "\(live - before) lists still alive after \(threads) threads exited")
    }
}
