import Foundation
import ModelKit
import ModelKitTestSupport
import Testing

/// Interop with Foundation's own NSKeyedArchiver and NSKeyedUnarchiver (swift-corelibs-foundation
/// on Linux, Apple's on macOS): each reads what the other writes, for Foundation values and for
/// models read by an equivalent NSCoding class.
struct ArchiveFoundationInteropTests {
    func foundationUnarchiver(_ data: Data) throws -> NSKeyedUnarchiver {
        let unarchiver = try NSKeyedUnarchiver(forReadingFrom: data)
        unarchiver.requiresSecureCoding = false
        return unarchiver
    }

    @Test(arguments: [PropertyListFormat.binary, .xml])
    func foundationReadsModelKitArchivesOfFoundationValues(_ format: PropertyListFormat) throws {
        let date = Date(timeIntervalSinceReferenceDate: 123_456.5)
        let uuid = UUID()
        let url = try #require(URL(string: "page.html", relativeTo: URL(string: "https://example.com/dir/")))
        let archiver = KeyedArchiver(outputFormat: format)
        try archiver.encode(["b", "a", "b"], forKey: "list")
        try archiver.encode(["one": 1, "two": 2], forKey: "map")
        try archiver.encode(date, forKey: "date")
        try archiver.encode(uuid, forKey: "uuid")
        try archiver.encode(url, forKey: "url")
        try archiver.encode(42, forKey: "count")
        try archiver.encode(true, forKey: "flag")
        try archiver.encode(Data([1, 2, 3]), forKey: "bytes")
        try archiver.encode(Set([5]), forKey: "set")
        let unarchiver = try foundationUnarchiver(try archiver.finishEncoding())
        #expect(unarchiver.decodeObject(forKey: "list") as? [String] == ["b", "a", "b"])
        #expect(unarchiver.decodeObject(forKey: "map") as? [String: Int] == ["one": 1, "two": 2])
        #expect(unarchiver.decodeObject(forKey: "date") as? Date == date)
        #expect(unarchiver.decodeObject(forKey: "uuid") as? UUID == uuid)
        #expect((unarchiver.decodeObject(forKey: "url") as? URL)?.absoluteString == "https://example.com/dir/page.html")
        expectEqual(unarchiver.decodeInteger(forKey: "count"), 42)
        #expect(unarchiver.decodeBool(forKey: "flag"))
        #expect(unarchiver.decodeObject(forKey: "bytes") as? Data == Data([1, 2, 3]))
        #expect((unarchiver.decodeObject(forKey: "set") as? NSSet)?.count == 1)
    }

    @Test func foundationReadsModelKitModelsThroughAnNSCodingClass() throws {
        let alice = Person(name: "Alice", age: 33)
        let data = try KeyedArchiver.archivedData(withRootObject: [alice, alice])
        let unarchiver = try foundationUnarchiver(data)
        unarchiver.setClass(LegacyPerson.self, forClassName: "Person")
        let people = try #require(unarchiver.decodeObject(forKey: NSKeyedArchiveRootObjectKey) as? [LegacyPerson])
        expectEqual(people.count, 2)
        #expect(people[0].name == "Alice" && people[0].age == 33)
        #expect(people[0] === people[1])
    }

    @Test func modelKitReadsFoundationArchives() throws {
        let archiver = NSKeyedArchiver(requiringSecureCoding: false)
        archiver.setClassName("Person", for: LegacyPerson.self)
        let person = LegacyPerson(name: "Bob", age: 51)
        archiver.encode([person, person] as NSArray, forKey: "people")
        archiver.encode(["k": "v", "n": NSNumber(value: 3)] as NSDictionary, forKey: "dictionary")
        archiver.encode(NSDate(timeIntervalSinceReferenceDate: 99), forKey: "date")
        archiver.encode(NSUUID(uuidString: "0AD863BA-7584-40CF-8896-BD87B3280C34"), forKey: "uuid")
        archiver.encode(NSURL(string: "https://swift.org/x"), forKey: "url")
        archiver.encode(7, forKey: "count")
        archiver.finishEncoding()
        let unarchiver = try KeyedUnarchiver(data: archiver.encodedData)
        // swift-corelibs-foundation writes the Swift class name whatever `setClassName` says.
        unarchiver.setClass(Person.self, forClassName: NSStringFromClass(LegacyPerson.self))
        let people = try unarchiver.decode([Person].self, forKey: "people")
        expectEqual(people.count, 2)
        #expect(people[0].name == "Bob" && people[0].age == 51)
        #expect(people[0] === people[1])
        let dictionary = try #require(try unarchiver.decodeObject(forKey: "dictionary") as? [String: Any])
        #expect(dictionary["k"] as? String == "v" && dictionary["n"] as? Int == 3)
        try expectEqual(unarchiver.decode(Date.self, forKey: "date"), Date(timeIntervalSinceReferenceDate: 99))
        try expectEqual(unarchiver.decode(UUID.self, forKey: "uuid"), UUID(uuidString: "0AD863BA-7584-40CF-8896-BD87B3280C34"))
        try expectEqual(unarchiver.decode(URL.self, forKey: "url").absoluteString, "https://swift.org/x")
        try expectEqual(unarchiver.decode(Int.self, forKey: "count"), 7)
        // Foundation's own dump of the same archive agrees with ModelKit's reading.
        #expect(try ArchiveDump.text(unarchiver.document).contains("people: NSArray"))
    }
}

/// `Person` as an Objective-C-style class would archive it.
final class LegacyPerson: NSObject, NSCoding {
    let name: String
    let age: Int

    init(name: String, age: Int) {
        self.name = name
        self.age = age
    }

    func encode(with coder: NSCoder) {
        coder.encode(name, forKey: "name")
        coder.encode(age, forKey: "age")
    }

    init?(coder: NSCoder) {
        name = coder.decodeObject(forKey: "name") as? String ?? ""
        age = coder.decodeInteger(forKey: "age")
    }
}

/// Foundation's collection classes decode to their elements, whatever keys each class keeps
/// them under; an object that lacks them is an error, never an empty collection.
@Suite struct ArchiveFoundationCollectionTests {
    /// `NSCountedSet` keeps its members as `NS.object0…` with counts `NS.count0…`, not
    /// `NS.objects`: typed decoding reads the members (a set once each, an array as often as
    /// counted), generic decoding gives an `ArchivedCountedSet` with the counts, and the dump
    /// lists the set's keys.
    @Test func countedSetsDecodeToTheirMembers() throws {
        let counted = NSCountedSet(array: ["a", "b", "a", "c", "a"])
        let data = try NSKeyedArchiver.archivedData(withRootObject: counted, requiringSecureCoding: false)
        try expectEqual(KeyedUnarchiver.unarchive(Set<String>.self, from: data), ["a", "b", "c"])
        try expectEqual(KeyedUnarchiver.unarchive([String].self, from: data).sorted(), ["a", "a", "a", "b", "c"])
        let generic = try #require(try KeyedUnarchiver.unarchiveObject(from: data) as? ArchivedCountedSet)
        expectEqual(generic, ArchivedCountedSet(["a", "b", "a", "c", "a"]))
        #expect(generic.count(for: "a") == 3 && generic.count(for: "b") == 1 && generic.count == 3)
        let dump = try ArchiveDump.text(KeyedArchiveDocument(data: data))
        #expect(dump.contains("NSCountedSet") && dump.contains(#""a""#) && dump.contains(#""c""#), "\(dump)")
        // ModelKit writes counted sets Foundation reads back with their counts.
        let rewritten = try KeyedArchiver.archivedData(withRootObject: generic as Any)
        let unarchiver = try NSKeyedUnarchiver(forReadingFrom: rewritten)
        unarchiver.requiresSecureCoding = false
        let back = try #require(unarchiver.decodeObject(forKey: "root") as? NSCountedSet)
        #expect(back.count(for: "a") == 3 && back.count == 3)
        try expectEqual(KeyedUnarchiver.unarchiveObject(from: rewritten) as? ArchivedCountedSet, generic)
    }

    /// An archive of a counted set whose members are written by `members` (value, count).
    func countedSetArchive(_ members: [(Any, Int64)]) throws -> Data {
        var values: [(String, Any)] = [("NS.count", members.count)]
        for (index, (member, count)) in members.enumerated() {
            values += [("NS.object\(index)", member), ("NS.count\(index)", count)]
        }
        let archiver = KeyedArchiver()
        try archiver.encodeObject(ArchivedObject(className: "NSCountedSet", values: values), forKey: "root")
        return try archiver.finishEncoding()
    }

    /// Members Foundation on Linux cannot hash safely (the same text composed and decomposed is
    /// equal with two hashes; an `NSDecimalNumber`'s hash recurses until the stack ends) are
    /// Swift values in an `ArchivedCountedSet`, counted as Swift compares them.
    @Test func countedSetMembersAreComparedAsSwiftValues() throws {
        let data = try countedSetArchive([("\u{E9}t\u{E9}", 2), ("e\u{301}te\u{301}", 3), (Decimal(string: "1.5")!, 4), (Decimal(string: "15e-1")!, 1)])
        let counted = try #require(try KeyedUnarchiver.unarchiveObject(from: data) as? ArchivedCountedSet)
        expectEqual(counted.count, 2)
        expectEqual(counted.count(for: "été"), 5)
        expectEqual(counted.count(for: Decimal(string: "1.5")!), 5)
    }

    /// Counts are numbers: a member counted 2^62 times reads generically at once; a typed array,
    /// which would repeat it, stops at the limit on one collection's elements, naming it.
    @Test func aHugeCountIsKeptAsANumberAndBoundedWhenExpanded() throws {
        let data = try countedSetArchive([("a", 1 << 62), ("b", 1 << 62)])
        let counted = try #require(try KeyedUnarchiver.unarchiveObject(from: data) as? ArchivedCountedSet)
        expectEqual(counted.count(for: "a"), 1 << 62)
        let error = try #require(throws: KeyedArchiveError.self) { try KeyedUnarchiver.unarchive([String].self, from: data) }
        #expect(error.description.contains("its counts add up to more than 5000000 elements, the limit 'maxCollectionCount' sets"), "\(error)")
        let dump = try ArchiveDump.text(KeyedArchiveDocument(data: data))
        #expect(dump.contains("NS.count0: 4611686018427387904"), "\(dump)")
        // Within the limit, the bag reads as often as counted.
        var limits = KeyedArchiveLimits.default
        limits.propertyList.maxCollectionCount = 7
        let small = try countedSetArchive([("a", 4), ("b", 3)])
        try expectEqual(KeyedUnarchiver.unarchive([String].self, from: small, limits: limits).sorted(), ["a", "a", "a", "a", "b", "b", "b"])
        let over = try countedSetArchive([("a", 4), ("b", 4)])
        #expect(throws: KeyedArchiveError.self) { try KeyedUnarchiver.unarchive([String].self, from: over, limits: limits) }
    }

    /// A count that is not a positive integer is malformed, never read as 1.
    @Test(arguments: ["text", "zero", "negative", "fraction"])
    func aCountThatIsNotACountIsAnError(_ kind: String) throws {
        let counts: [String: any Sendable] = ["text": "3", "zero": 0, "negative": -2, "fraction": 2.5]
        let values: [(String, Any)] = [("NS.count", 1), ("NS.object0", "a"), ("NS.count0", counts[kind] as Any)]
        let archiver = KeyedArchiver()
        try archiver.encodeObject(ArchivedObject(className: "NSCountedSet", values: values), forKey: "root")
        let data = try archiver.finishEncoding()
        let error = try #require(throws: KeyedArchiveError.self) { try KeyedUnarchiver.unarchiveObject(from: data) }
        #expect(error.description.contains("'NS.count0' is") && error.description.contains("not a count"), "\(error)")
        #expect(throws: KeyedArchiveError.self) { try KeyedUnarchiver.unarchive([String].self, from: data) }
    }

    /// A collection object without its elements' key is malformed, for every class.
    @Test(arguments: ["NSArray", "NSSet", "NSCountedSet", "NSDictionary"])
    func aCollectionWithoutItsElementsIsAnError(_ className: String) throws {
        let archiver = KeyedArchiver()
        try archiver.encodeObject(ArchivedObject(className: className, values: [("other", 1)]), forKey: "root")
        let data = try archiver.finishEncoding()
        let error = #expect(throws: KeyedArchiveError.self) { _ = try KeyedUnarchiver.unarchiveObject(from: data) }
        #expect(error?.description.contains("is missing") == true, "\(String(describing: error))")
    }
}
