import Foundation
import ModelKit
import ModelKitTestSupport
import Testing

/// Generic objects (`ArchivedObject`): shared references and cycles read back as weak
/// references, so a decoded graph is freed with its root whatever cycles the archive holds.
struct ArchivedObjectTests {
    /// Decodes `root` generically from `data` and returns it with weak probes on every object
    /// reachable from it, walking the graph without recursion.
    func decodeAndProbe(_ data: Data) throws -> (root: ArchivedObject, probes: [WeakProbe]) {
        let root = try #require(try KeyedUnarchiver(data: data).decodeObject(forKey: "root") as? ArchivedObject)
        var probes: [WeakProbe] = []
        var seen = Set<ObjectIdentifier>()
        var pending: [Any] = [root]
        while let next = pending.popLast() {
            switch next {
            case let object as ArchivedObject:
                let owner = try #require(object.resolved)
                guard seen.insert(ObjectIdentifier(owner)).inserted else { continue }
                probes.append(WeakProbe(owner))
                pending.append(contentsOf: owner.values.values)
            case let array as [Any]:
                pending.append(contentsOf: array)
            case let dictionary as [String: Any]:
                pending.append(contentsOf: dictionary.values)
            default:
                continue
            }
        }
        return (root, probes)
    }

    final class WeakProbe {
        weak var object: ArchivedObject?
        init(_ object: ArchivedObject) { self.object = object }
    }

    @Test(arguments: ["self-reference-rectval.plist", "self-reference-rangeval.plist"])
    func fuzzedSelfReferencesAreFreed(_ name: String) throws {
        let data = Data(Fixtures.File(group: "fuzz", name: name).bytes)
        var probes: [WeakProbe] = []
        do {
            let (root, all) = try decodeAndProbe(data)
            probes = all
            expectEqual(root.className, "NSValue")
            let key = try #require(root.keys.first { root[$0] is ArchivedObject })
            let inner = try #require(root[key] as? ArchivedObject)
            #expect(inner.isWeakReference)
            expectEqual(inner, root)
            expectEqual(inner.keys, root.keys)
        }
        #expect(!probes.isEmpty)
        #expect(probes.allSatisfy { $0.object == nil })
    }

    @Test func fuzzedDictionaryWithNullKeysFailsWithATypedError() throws {
        // An NSDictionary whose keys include null twice: generic decoding stopped the process
        // with "Duplicate keys of type 'AnyHashable' were found in a Dictionary", since
        // swift-corelibs-foundation hashes NSNull differently at each call.
        let data = Data(Fixtures.File(group: "fuzz", name: "dictionary-null-keys.plist").bytes)
        let error = try #require(throws: KeyedArchiveError.self) { try KeyedUnarchiver(data: data).decodeObject(forKey: "root") }
        #expect(error.description.contains("a key of type 'NSNull' is not hashable"), "\(error)")
    }

    @Test func aTwoObjectCycleReadsBothWaysAndIsFreed() throws {
        let first = ChainLink(position: 1)
        let second = ChainLink(position: 2)
        first.next = second
        second.next = first
        defer { first.next = nil }
        let data = try KeyedArchiver.archivedData(withRootObject: first)
        var probes: [WeakProbe] = []
        do {
            let (root, all) = try decodeAndProbe(data)
            probes = all
            let next = try #require(root["next"] as? ArchivedObject)
            #expect(!next.isWeakReference)
            #expect(next["position"] as? Int == 2)
            let back = try #require(next["next"] as? ArchivedObject)
            #expect(back.isWeakReference)
            #expect(back == root && back.hashValue == root.hashValue)
            #expect(back["position"] as? Int == 1)
        }
        expectEqual(probes.count, 2)
        #expect(probes.allSatisfy { $0.object == nil })
    }

    @Test func aDeepTreeWithParentLinksPastTheDeferralDepthIsFreed() throws {
        // 300 levels: generic objects deeper than the unarchiver's deferral depth are decoded
        // later from the top, and their parent links point back at finished objects.
        let root = TreeNode(name: "0")
        var tail = root
        for level in 1..<300 {
            let child = TreeNode(name: "\(level)")
            child.parent = tail
            tail.children = [child]
            tail = child
        }
        let data = try KeyedArchiver.archivedData(withRootObject: root)
        var probes: [WeakProbe] = []
        do {
            let (decoded, all) = try decodeAndProbe(data)
            probes = all
            var node: ArchivedObject? = decoded
            var depth = 0
            while let current = node, let children = current["children"] as? [Any], let child = children.first as? ArchivedObject {
                #expect(child["parent"] as? ArchivedObject == current)
                node = child
                depth += 1
            }
            expectEqual(depth, 299)
            #expect(node?["name"] as? String == "299")
        }
        expectEqual(probes.count, 300)
        #expect(probes.allSatisfy { $0.object == nil })
    }

    @Test func aSharedArrayOfObjectsKeepsSharingAndIsFreed() throws {
        // One NSArray, referenced from the root and from inside itself through its element.
        let leaf = ArchivedObject(className: "Leaf", values: [("name", "leaf")])
        let shared: [Any] = [leaf]
        let root = ArchivedObject(className: "Root", values: [("first", shared), ("second", shared), ("leaf", leaf)])
        let data = try KeyedArchiver.archivedData(withRootObject: root)
        var probes: [WeakProbe] = []
        do {
            let (decoded, all) = try decodeAndProbe(data)
            probes = all
            let first = try #require((decoded["first"] as? [Any])?.first as? ArchivedObject)
            let second = try #require((decoded["second"] as? [Any])?.first as? ArchivedObject)
            let direct = try #require(decoded["leaf"] as? ArchivedObject)
            #expect(first == second && second == direct)
            expectEqual([first, second, direct].filter { !$0.isWeakReference }.count, 1)
            #expect(first["name"] as? String == "leaf")
        }
        expectEqual(probes.count, 2)
        #expect(probes.allSatisfy { $0.object == nil })
    }

    @Test func sharedCollectionsOverObjectsDecodeOnceEach() throws {
        // Object i is an array holding object i + 1 twice, 40 deep: 2^40 paths to a generic
        // object at the bottom. Each collection is read at most twice (once holding the object,
        // once holding weak references), so 200 decodings are enough.
        let depth = 40
        var objects: [PropertyListValue] = ["$null"]
        for index in 0..<depth {
            objects.append(["$class": .uid(UInt64(depth + 3)), "NS.objects": [.uid(UInt64(index + 2)), .uid(UInt64(index + 2))]])
        }
        objects.append(["$class": .uid(UInt64(depth + 4)), "name": .uid(UInt64(depth + 2))])
        objects.append("leaf")
        objects.append(["$classname": "NSArray", "$classes": ["NSArray", "NSObject"]])
        objects.append(["$classname": "Leaf", "$classes": ["Leaf", "NSObject"]])
        let archive: PropertyListValue = [
            "$archiver": "NSKeyedArchiver", "$version": 100_000, "$top": ["root": .uid(1)], "$objects": .array(objects),
        ]
        var probes: [WeakProbe] = []
        do {
            let unarchiver = try KeyedUnarchiver(data: archive.binaryData(), limits: KeyedArchiveLimits(maxDecodedObjects: 200))
            var level = try #require(try unarchiver.decodeObject(forKey: "root") as? [Any])
            for _ in 1..<depth {
                expectEqual(level.count, 2)
                level = try #require(level[1] as? [Any])
            }
            let leaves = level.compactMap { $0 as? ArchivedObject }
            #expect(leaves.count == 2 && leaves[0] == leaves[1])
            #expect(leaves[0]["name"] as? String == "leaf")
            probes = leaves.compactMap(\.resolved).map(WeakProbe.init)
        }
        expectEqual(probes.count, 2)
        #expect(probes.allSatisfy { $0.object == nil })
    }

    @Test func aLongChainIsFreedWithoutRecursion() async throws {
        // Freed one nested release per object, this overflowed a test thread's stack (found by
        // the archive complexity test, through generic decoding of a 100,000-long chain). On a
        // 1 MiB stack, 20,000 nested releases would overflow it again.
        let freed = try await onDedicatedThread(stackSize: 1 << 20) {
            var head = ArchivedObject(className: "Node", values: [("v", 0)])
            for index in 1..<20_000 {
                // The next object held directly, in an array, or in a counted set.
                let holders: [(String, Any)] = [("next", head), ("list", [head] as [Any]), ("bag", ArchivedCountedSet([head]))]
                head = ArchivedObject(className: "Node", values: [("v", index), holders[index % 3]])
            }
            let probe = WeakProbe(head)
            let last = head["v"] as? Int
            head = ArchivedObject(className: "Empty")
            return (last: last, gone: probe.object == nil)
        }
        expectEqual(freed.last, 19_999)
        #expect(freed.gone)
    }

    @Test func aWeakReferenceArchivesAsTheObjectItStandsFor() throws {
        let first = ChainLink(position: 1)
        first.next = first
        defer { first.next = nil }
        let decoded = try #require(
            try KeyedUnarchiver(data: KeyedArchiver.archivedData(withRootObject: first)).decodeObject(forKey: "root") as? ArchivedObject)
        // Writing the generic graph again keeps one object and its cycle.
        let again = try #require(
            try KeyedUnarchiver(data: KeyedArchiver.archivedData(withRootObject: decoded)).decodeObject(forKey: "root") as? ArchivedObject)
        #expect(again["position"] as? Int == 1)
        let back = try #require(again["next"] as? ArchivedObject)
        #expect(back.isWeakReference && back == again)
    }

    @Test func aWeakReferenceToAFreedObjectReadsEmpty() throws {
        var reference: ArchivedObject?
        do {
            let first = ChainLink(position: 1)
            first.next = first
            defer { first.next = nil }
            let decoded = try #require(
                try KeyedUnarchiver(data: KeyedArchiver.archivedData(withRootObject: first)).decodeObject(forKey: "root") as? ArchivedObject)
            reference = decoded["next"] as? ArchivedObject
            #expect(reference?.resolved === decoded)
        }
        let orphan = try #require(reference)
        #expect(orphan.resolved == nil)
        #expect(orphan.keys.isEmpty && orphan["position"] == nil)
        expectEqual(orphan.className, "ChainLink")
    }
}
