import Foundation
import ModelKit
import Testing
import ModelKitTestSupport

/// Bad files: every malformed fixture is rejected with a typed error that says what is wrong,
/// and damaged copies of good fixtures (every truncation, a bit flip at every byte) never crash.
struct ArchiveMalformedTests {
    @Test(arguments: Fixtures.malformedArchives.keys.sorted())
    func malformedFixtureIsRejectedWithItsError(_ path: String) throws {
        let data = Data(Fixtures.named(path).bytes)
        #expect(!data.isEmpty)
        let error = try #require(throws: KeyedArchiveError.self) { try KeyedUnarchiver(data: data) }
        expectEqual(error.description, Fixtures.malformedArchives[path])
    }

    @Test func malformedFixturesHaveTheirKinds() throws {
        func kind(_ path: String) throws -> KeyedArchiveError.Kind {
            let error = try #require(throws: KeyedArchiveError.self) {
                try KeyedArchiveDocument(data: Data(Fixtures.named(path).bytes))
            }
            return error.kind
        }
        try expectEqual(kind("go-ios/missing_archiver.xml"), .missingArchiver)
        try expectEqual(kind("bpylist2/invalid_type_archive.plist"), .wrongArchiver(found: "'NSArchiver'"))
        try expectEqual(kind("bpylist2/invalid_version_archive.plist"), .unsupportedVersion(found: "10000"))
        try expectEqual(kind("bpylist2/invalid_uid_archive.plist"), .referenceOutOfRange(10, objects: 3))
        try expectEqual(kind("bpylist2/missing_uid_archive.plist"), .missingClass)
        try expectEqual(kind("bpylist2/no_top_archive.plist"), .missingTop)
        if case .propertyList(let underlying) = try kind("go-ios/broken_plist.xml") {
            expectEqual(underlying.operation, .readingXML)
        } else {
            Issue.record("broken_plist.xml should fail in the property-list reader")
        }
    }

    /// An archive whose top-level keys do not include `root`: both one-shot reads throw the
    /// archive's own error (the generic read returned nil, the typed one threw a ModelError).
    @Test func anArchiveWithoutARootIsTheSameArchiveErrorForBothOneShotReads() throws {
        let archiver = KeyedArchiver()
        try archiver.encodeObject("settings", forKey: "title")
        let data = try archiver.finishEncoding()
        let typed = try #require(throws: KeyedArchiveError.self) { try KeyedUnarchiver.unarchive(String.self, from: data) }
        let generic = try #require(throws: KeyedArchiveError.self) { try KeyedUnarchiver.unarchiveObject(from: data) }
        #expect(typed.kind == .missingRoot(key: "root") && generic.kind == .missingRoot(key: "root"))
        #expect(
            generic.description
                == "cannot decode: '$top' has no 'root' (no root object; read the archive's other keys with a KeyedUnarchiver)")
        try expectEqual(KeyedUnarchiver(data: data).decode(String.self, forKey: "title"), "settings")
    }

    @Test func everyFixtureIsCoveredOnce() {
        let good = Set(Fixtures.goodArchives.map(\.description))
        let bad = Set(Fixtures.malformedArchives.keys)
        #expect(good.isDisjoint(with: bad))
        expectEqual(good.union(bad), Set(Fixtures.all.map(\.description)))
    }

    // MARK: Damage

    static let damaged = [
        "corelibs/NSKeyedUnarchiver-ComplexTest.plist", "go-ios/arrays.bin", "go-ios/dict.bin", "bpylist2/recursive_archive.plist",
        "go-ios/nestedarrays.xml", "corelibs/NSKeyedUnarchiver-URLTest.plist",
    ]

    /// Reads damaged bytes every way the unarchiver offers; only typed errors may come out of any
    /// of them. Returns whether the bytes opened as an archive (and dumped).
    @discardableResult
    static func readFully(_ data: Data, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        do {
            let unarchiver = try KeyedUnarchiver(data: data)
            for key in unarchiver.allKeys {
                expectTypedErrors(at: "'\(key)'", sourceLocation: sourceLocation, from: [
                    { _ = try unarchiver.decodeObject(forKey: key) },
                    { _ = try unarchiver.decode([JSONValue].self, forKey: key) },
                    { _ = try unarchiver.decode([String: String].self, forKey: key) },
                    { _ = try unarchiver.decode(URL.self, forKey: key) },
                    { _ = try unarchiver.decode(Foo.self, forKey: key) },
                ])
            }
            _ = try ArchiveDump.text(unarchiver.document)
            _ = try ArchiveDump.json(unarchiver.document)
            return true
        } catch is KeyedArchiveError {
            return false
        } catch {
            Issue.record("untyped error \(error)", sourceLocation: sourceLocation)
            return false
        }
    }

    /// Runs each decoding; each may succeed or throw an archive or mapping error, nothing else.
    static func expectTypedErrors(
        at place: String, sourceLocation: SourceLocation = #_sourceLocation, from decodings: [() throws -> Void]
    ) {
        for decode in decodings {
            do {
                try decode()
            } catch is KeyedArchiveError {
            } catch is ModelError {
            } catch {
                Issue.record("untyped error \(error) at \(place)", sourceLocation: sourceLocation)
            }
        }
    }

    /// Every prefix of an archive is refused with a typed error (but for XML's trailing
    /// whitespace, which is not part of the document); the whole file reads.
    @Test(arguments: damaged)
    func everyTruncationFailsCleanly(_ path: String) {
        let bytes = Fixtures.named(path).bytes
        #expect(Self.readFully(Data(bytes)))
        for length in 0..<bytes.count {
            let cut = bytes[length...]
            if cut.allSatisfy({ $0 == 0x0A || $0 == 0x0D || $0 == 0x20 || $0 == 0x09 }) { continue }
            #expect(!Self.readFully(Data(bytes.prefix(length))), "a prefix of \(length) of \(bytes.count) bytes read")
        }
    }

    @Test(arguments: damaged)
    func bitFlipsAtEveryByteNeverCrash(_ path: String) {
        let bytes = Fixtures.named(path).bytes
        for position in bytes.indices {
            var damaged = bytes
            damaged[position] ^= rotatingBit(at: position)
            Self.readFully(Data(damaged))
        }
    }

    /// An archive of models with shared references, a cycle and every value type.
    static func modelArchive() throws -> Data {
        let root = TreeNode(name: "root")
        let child = TreeNode(name: "child")
        root.children = [child, child]
        child.parent = root
        let team = Team(name: "Core")
        let alice = Person(name: "Alice", age: 3)
        team.lead = alice
        team.members = [alice, Person(name: "Bob")]
        alice.manager = team.members[1]
        let archiver = KeyedArchiver()
        try archiver.encode(root, forKey: "tree")
        try archiver.encode(team, forKey: "team")
        try archiver.encode(ArchiveValueTests.sample, forKey: "values")
        return try archiver.finishEncoding()
    }

    @Test func bitFlipsInAModelArchiveNeverCrash() throws {
        let bytes = [UInt8](try Self.modelArchive())
        for position in bytes.indices {
            var damaged = bytes
            damaged[position] ^= rotatingBit(at: position)
            guard let unarchiver = try? KeyedUnarchiver(data: Data(damaged)) else { continue }
            Self.expectTypedErrors(at: "byte \(position)", from: [
                { _ = try unarchiver.decode(TreeNode.self, forKey: "tree") },
                { _ = try unarchiver.decode(Team.self, forKey: "team") },
                { _ = try unarchiver.decode(Values.self, forKey: "values") },
                { _ = try unarchiver.decodeObject(forKey: "team") },
            ])
        }
    }

    @Test func randomByteReplacementsNeverCrash() {
        var generator = SeededGenerator(seed: 5)
        for path in Self.damaged {
            let bytes = Fixtures.named(path).bytes
            for _ in 0..<300 {
                var damaged = bytes
                for _ in 0..<Int.random(in: 1...4, using: &generator) {
                    damaged[Int.random(in: 0..<damaged.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
                }
                Self.readFully(Data(damaged))
            }
        }
    }
}
