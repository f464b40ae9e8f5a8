import Foundation
import ModelKit
import ModelKitTestSupport
import Testing

/// The keyed archiver writes its binary property list directly, as it archives; these pin its
/// output to what it wrote before, through a tree of property-list values (the goldens), for
/// every path of the archiver (`ArchiveWriterScenario`).
struct ArchiveWriterOutputTests {
    /// The same objects, keys and values as the golden archive, with the same UIDs.
    @Test(arguments: ArchiveWriterScenario.all)
    func theBinaryArchiveIsTheGoldenPropertyList(_ scenario: ArchiveWriterScenario) throws {
        let golden = try #require(ArchiveWriterGoldens.archives[scenario.name])
        let data = try scenario.archive()
        try expectEqual(PropertyListValue(binary: data), PropertyListValue(binary: golden))
        // Each dropped conditional entry keeps a reference object of its own (written as `$null`),
        // where the tree writer's references to them were one object: a few bytes each.
        let slack = scenario.name == "droppedConditionals" ? 16 : 0
        #expect(data.count <= golden.count + slack, "the direct writer's archive is larger than the tree writer's")
    }

    /// The XML archive is the golden property list, written as XML.
    @Test(arguments: ArchiveWriterScenario.all)
    func theXMLArchiveIsTheGoldenPropertyListInXML(_ scenario: ArchiveWriterScenario) throws {
        let golden = try #require(ArchiveWriterGoldens.archives[scenario.name])
        try expectEqual(scenario.archive(.xml), PropertyListValue(binary: golden).xmlData())
    }

    /// ModelKit's dump (every object, generically) reads the same archive from both.
    @Test(arguments: ArchiveWriterScenario.all)
    func theDumpIsTheGoldenArchivesDump(_ scenario: ArchiveWriterScenario) throws {
        let golden = try #require(ArchiveWriterGoldens.archives[scenario.name])
        let data = try scenario.archive()
        try expectEqual(ArchiveDump.text(KeyedArchiveDocument(data: data)), ArchiveDump.text(KeyedArchiveDocument(data: golden)))
    }

    /// swift-corelibs-foundation's NSKeyedUnarchiver reads every Foundation value of the direct
    /// writer's archive as it reads the golden archive's.
    @Test func foundationReadsTheSameValues() throws {
        let scenario = try #require(ArchiveWriterScenario.all.first { $0.name == "scalars" })
        let golden = try #require(ArchiveWriterGoldens.archives[scenario.name])
        let ours = try NSKeyedUnarchiver(forReadingFrom: try scenario.archive())
        let theirs = try NSKeyedUnarchiver(forReadingFrom: golden)
        for unarchiver in [ours, theirs] {
            unarchiver.requiresSecureCoding = false
            unarchiver.decodingFailurePolicy = .setErrorAndReturn
        }
        let objectKeys = ["empty", "unicode", "long", "noBytes", "bytes", "date", "numbers", "flags", "reals", "gaps", "nested"]
        for key in objectKeys {
            let mine = ours.decodeObject(forKey: key) as? NSObject
            let golden = theirs.decodeObject(forKey: key) as? NSObject
            #expect(mine != nil, "\(key)")
            #expect(mine == golden, "\(key): \(String(describing: mine)) != \(String(describing: golden))")
        }
        for key in ["negative", "zero", "byte", "short", "int", "max", "min"] {
            #expect(ours.decodeInt64(forKey: key) == theirs.decodeInt64(forKey: key), "\(key)")
        }
        #expect(ours.decodeInt64(forKey: "max") == Int64.max && ours.decodeInt64(forKey: "min") == Int64.min)
        #expect(ours.decodeFloat(forKey: "float") == 0.5 && theirs.decodeFloat(forKey: "float") == 0.5)
        #expect(ours.decodeBool(forKey: "yes") && !ours.decodeBool(forKey: "no"))
        #expect(ours.error == nil && theirs.error == nil)
    }
}

/// A value whose writing fails with a mapping error, for the element paths of errors.
private struct Unwritable: ModelValue, Hashable {
    static func read<R: ModelReader>(from reader: inout R) throws -> Unwritable { Unwritable() }
    func write<W: ModelWriter>(to writer: inout W) throws { throw ModelError(.invalidValue, model: "Unwritable") }
}

extension ArchiveWriterOutputTests {
    /// An element whose writing fails is named by its index, whether the collection's elements
    /// are read in place (an array's) or by index (a set's).
    @Test func aFailingElementIsNamedByItsIndex() throws {
        let archiver = KeyedArchiver()
        let inArray = try #require(throws: ModelError.self) { try archiver.encode(["a": [Unwritable()]], forKey: "list") }
        expectEqual(inArray.path.description, "list.a[0]")
        let inSet = try #require(throws: ModelError.self) { try archiver.encode(["a": Set([Unwritable()])], forKey: "set") }
        expectEqual(inSet.path.description, "set.a[0]")
    }
}
