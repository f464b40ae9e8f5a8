import Foundation
import ModelKit
import ModelKitTestSupport
import Testing

/// Object graphs: several roots, shared instances written once and decoded as one, cycles
/// through optional and weak properties, conditional objects, per-property archive behaviours.
struct ArchiveGraphTests {
    /// Archives with `build`, then returns an unarchiver over the bytes and the checked document.
    func roundTrip(format: PropertyListFormat = .binary, _ build: (KeyedArchiver) throws -> Void) throws -> KeyedUnarchiver {
        let archiver = KeyedArchiver(outputFormat: format)
        try build(archiver)
        return try KeyedUnarchiver(data: try archiver.finishEncoding())
    }

    /// The objects of class `name` in an archive.
    func objects(named name: String, in document: KeyedArchiveDocument) -> [Int] {
        (0..<document.objectCount).filter { document.archivedClass(of: $0)?.name == name }
    }

    @Test(arguments: [PropertyListFormat.binary, .xml])
    func severalRootsShareInstances(_ format: PropertyListFormat) throws {
        let alice = Person(name: "Alice", age: 30)
        let bob = Person(name: "Bob", age: 40)
        let team = Team(name: "Core")
        team.lead = alice
        team.members = [alice, bob, alice]
        let unarchiver = try roundTrip(format: format) { archiver in
            try archiver.encode(alice, forKey: "alice")
            try archiver.encode(team, forKey: "team")
            try archiver.encode(bob, forKey: "bob")
        }
        // XML writes dictionary keys sorted, as Apple's writer does.
        expectEqual(unarchiver.allKeys, (format == .binary ? ["alice", "team", "bob"] : ["alice", "bob", "team"]))
        let decodedTeam = try unarchiver.decode(Team.self, forKey: "team")
        let decodedAlice = try unarchiver.decode(Person.self, forKey: "alice")
        let decodedBob = try unarchiver.decode(Person.self, forKey: "bob")
        #expect(decodedTeam.lead === decodedAlice)
        expectEqual(decodedTeam.members.count, 3)
        #expect(decodedTeam.members[0] === decodedAlice && decodedTeam.members[2] === decodedAlice)
        #expect(decodedTeam.members[1] === decodedBob)
        #expect(decodedAlice.name == "Alice" && decodedAlice.age == 30 && decodedBob.age == 40)
        // Each instance is one object in the archive.
        expectEqual(objects(named: "Person", in: unarchiver.document).count, 2)
        expectEqual(objects(named: "Team", in: unarchiver.document).count, 1)
    }

    @Test func valueTypesAreWrittenOncePerOccurrence() throws {
        let address = Address(street: "Main", city: "Zurich", zip: 8000)
        let unarchiver = try roundTrip { archiver in
            try archiver.encode([address, address], forKey: "root")
        }
        expectEqual(objects(named: "Address", in: unarchiver.document).count, 2)
        try expectEqual(unarchiver.decode([Address].self, forKey: "root"), [address, address])
    }

    @Test func cyclesThroughWeakPropertiesDecode() throws {
        let root = TreeNode(name: "root")
        let left = TreeNode(name: "left")
        let right = TreeNode(name: "right")
        root.children = [left, right]
        left.parent = root
        right.parent = root
        let grandchild = TreeNode(name: "grandchild")
        grandchild.parent = left
        left.children = [grandchild]
        let decoded = try roundTrip { try $0.encode(root, forKey: "root") }.decode(TreeNode.self, forKey: "root")
        expectEqual(decoded.children.map(\.name), ["left", "right"])
        #expect(decoded.children[0].parent === decoded)
        #expect(decoded.children[1].parent === decoded)
        #expect(decoded.children[0].children[0].parent === decoded.children[0])
        #expect(decoded.parent == nil)
    }

    @Test func cyclesThroughStrongOptionalPropertiesDecode() throws {
        let first = ChainLink(position: 1)
        let second = ChainLink(position: 2)
        first.next = second
        second.next = first
        defer { first.next = nil }
        let decoded = try roundTrip { try $0.encode(first, forKey: "root") }.decode(ChainLink.self, forKey: "root")
        defer { decoded.next = nil }
        expectEqual(decoded.position, 1)
        #expect(decoded.next?.position == 2)
        #expect(decoded.next?.next === decoded)
    }

    @Test func aCycleThroughANonOptionalPropertyIsATypedError() throws {
        let first = StrictNode(name: "a")
        let second = StrictNode(name: "b")
        first.partner = [second]
        second.partner = [first]
        defer { first.partner = [] }
        let unarchiver = try roundTrip { try $0.encode(first, forKey: "root") }
        let error = try #require(throws: KeyedArchiveError.self) { try unarchiver.decode(StrictNode.self, forKey: "root") }
        guard case .unresolvableCycle = error.kind else {
            Issue.record("expected a cycle error, got \(error)")
            return
        }
        #expect(
            error.description
                == "cannot decode 'StrictNode.partner' (object 1): reference cycle through 'StrictNode': the object contains itself, and only optional properties of classes can refer back"
        )
        // The unarchiver stays usable after the failure.
        #expect(try unarchiver.decodeObject(forKey: "root") is ArchivedObject)
    }

    @Test func weakPropertiesAreConditional() throws {
        let alice = Person(name: "Alice")
        let bob = Person(name: "Bob")
        bob.manager = alice
        // Alice is only referenced conditionally: she is left out, and the reference is nil.
        let alone = try roundTrip { try $0.encode(bob, forKey: "root") }
        expectEqual(objects(named: "Person", in: alone.document).count, 1)
        #expect(try alone.decode(Person.self, forKey: "root").manager == nil)
        // Written unconditionally elsewhere, before or after: the reference is kept.
        for order in [["bob", "alice"], ["alice", "bob"]] {
            let both = try roundTrip { archiver in
                for key in order { try archiver.encode(key == "bob" ? bob : alice, forKey: key) }
            }
            let decodedBob = try both.decode(Person.self, forKey: "bob")
            #expect(decodedBob.manager === (try both.decode(Person.self, forKey: "alice")))
            expectEqual(objects(named: "Person", in: both.document).count, 2)
        }
    }

    @Test func conditionalObjectsAreIndependentOfEncodingOrder() throws {
        let mascot = Person(name: "Mascot")
        let team = Team(name: "Core")
        team.mascot = mascot  // conditional, seen before the unconditional reference
        team.members = [mascot]
        let decoded = try roundTrip { try $0.encode(team, forKey: "root") }.decode(Team.self, forKey: "root")
        #expect(decoded.mascot === decoded.members[0])
        #expect(decoded.mascot?.name == "Mascot")

        team.members = []
        let dropped = try roundTrip { try $0.encode(team, forKey: "root") }
        #expect(try dropped.decode(Team.self, forKey: "root").mascot == nil)
        #expect(objects(named: "Person", in: dropped.document).isEmpty)
    }

    @Test func archiveBehavioursExcludeAndForce() throws {
        let sponsor = Person(name: "Sponsor")
        let team = Team(name: "Core")
        team.notes = "internal"
        team.sponsor = sponsor  // weak, but `@Archive(.unconditional)`
        let unarchiver = try roundTrip { try $0.encode(team, forKey: "root") }
        let teamObject = try #require(objects(named: "Team", in: unarchiver.document).first)
        guard case .object(_, let keys) = unarchiver.document.entry(teamObject) else {
            Issue.record("the team is not an object")
            return
        }
        #expect(keys["notes"] == nil)
        #expect(keys["sponsor"] != nil)
        let decoded = try unarchiver.decode(Team.self, forKey: "root")
        #expect(decoded.notes == nil)
        #expect(decoded.sponsor?.name == "Sponsor")
    }

    @Test func transientPropertiesAreNotArchived() throws {
        let person = Person(name: "Cached")
        person.cache = "scratch"
        let unarchiver = try roundTrip { try $0.encode(person, forKey: "root") }
        let object = try #require(objects(named: "Person", in: unarchiver.document).first)
        guard case .object(_, let keys) = unarchiver.document.entry(object) else { return }
        expectEqual(Set(keys.keys), ["$class", "name", "age", "manager", "friends", "MK.modelVersion"])
        #expect(try unarchiver.decode(Person.self, forKey: "root").cache == nil)
    }

    @Test func genericDecodingKeepsSharingAndCycles() throws {
        let root = TreeNode(name: "root")
        let child = TreeNode(name: "child")
        root.children = [child, child]
        child.parent = root
        let object = try #require(try roundTrip { try $0.encode(root, forKey: "root") }.decodeObject(forKey: "root") as? ArchivedObject)
        expectEqual(object.className, "TreeNode")
        let children = try #require(object["children"] as? [Any])
        let first = try #require(children[0] as? ArchivedObject)
        #expect(children[1] as? ArchivedObject == first)
        #expect(first["parent"] as? ArchivedObject == object)
    }

    @Test func registeredModelsDecodeTypedThroughGenericDecoding() throws {
        let alice = Person(name: "Alice")
        let data = try KeyedArchiver.archivedData(withRootObject: [alice, alice])
        var registry = ArchiveClassRegistry()
        registry.register(Person.self)
        let decoded = try #require(try KeyedUnarchiver.unarchiveObject(from: data, registry: registry) as? [Any])
        let first = try #require(decoded[0] as? Person)
        expectEqual(first.name, "Alice")
        #expect(decoded[1] as? Person === first)
    }

    // MARK: Long chains

    /// A 5,000-long chain, archived, decoded typed and generically, and dumped, all on a
    /// 1 MiB stack. Recursion is bounded (objects past a few dozen levels are deferred): the
    /// whole walk fits in 512 KiB, whether the chain is 2,500 or 10,000 long. A reader that
    /// recursed once per link needs over 10 MiB here in a debug build (20 MiB for 10,000 links,
    /// checked with the decoder's deferral depth raised past 10,000), and crashes this test.
    @Test func aLongChainArchivesAndDecodesWithoutRecursion() async throws {
        let count = 5_000
        let walked = try await onDedicatedThread(stackSize: 1 << 20) {
            let data = try ArchiveComplexityTests.chainArchive(count: count)
            let unarchiver = try KeyedUnarchiver(data: data)
            let decoded = try unarchiver.decode(ChainLink.self, forKey: "root")
            defer { ChainLink.unlink(decoded) }
            var length = 0
            var node: ChainLink? = decoded
            var inOrder = true
            while let current = node {
                inOrder = inOrder && current.position == length
                length += 1
                node = current.next
            }

            // Generic decoding and both dumps walk it too.
            var genericLength = 0
            var object = try KeyedUnarchiver(data: data).decodeObject(forKey: "root") as? ArchivedObject
            while let current = object {
                genericLength += 1
                object = current["next"] as? ArchivedObject
            }
            let textLines = try ArchiveDump.text(unarchiver.document).split(separator: "\n").count
            let jsonLength = try ArchiveDump.json(unarchiver.document).count
            return (length: length, inOrder: inOrder, genericLength: genericLength, textLines: textLines, jsonLength: jsonLength)
        }
        expectEqual(walked.length, count)
        #expect(walked.inOrder)
        expectEqual(walked.genericLength, count)
        #expect(walked.textLines > count)
        #expect(walked.jsonLength > count)
    }

    @Test func arraysNestedTenThousandDeepFailWithTheDepthLimit() throws {
        // Object i is an NSArray holding object i + 1; the last holds a string. Both decoders
        // stop at the limit (200) instead of descending 10,000 levels.
        let count = 10_000
        var objects: [PropertyListValue] = ["$null"]
        let arrayClass = count + 2
        for index in 0..<count {
            objects.append(["$class": .uid(UInt64(arrayClass)), "NS.objects": [.uid(UInt64(index + 2))]])
        }
        objects.append("end")
        objects.append(["$classname": "NSArray", "$classes": ["NSArray", "NSObject"]])
        let archive: PropertyListValue = [
            "$archiver": "NSKeyedArchiver", "$version": 100_000, "$top": ["root": .uid(1)], "$objects": .array(objects),
        ]
        let unarchiver = try KeyedUnarchiver(data: archive.binaryData())
        let typed = try #require(throws: KeyedArchiveError.self) { try unarchiver.decode(JSONValue.self, forKey: "root") }
        expectEqual(typed.kind, .limitExceeded(.maxDepth, limit: 200))
        let generic = try #require(throws: KeyedArchiveError.self) { try unarchiver.decodeObject(forKey: "root") }
        expectEqual(generic.kind, .limitExceeded(.maxDepth, limit: 200))
        #expect(try ArchiveDump.json(unarchiver.document).contains("\"end\""))
    }
}
