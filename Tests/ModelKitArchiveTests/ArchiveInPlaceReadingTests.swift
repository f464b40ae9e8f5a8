import Foundation
import ModelKit
import ModelKitTestSupport
import Testing

/// The unarchiver reads a binary archive in place (its table), and an XML archive, or a binary
/// one the table declines, through the tree reader and a binary copy: both must read what the
/// tree of property-list values holds.
struct ArchiveInPlaceReadingTests {
    /// The document's entries and root dictionary are the tree reader's.
    @Test(arguments: Fixtures.goodArchives)
    func theDocumentHoldsTheTreeReadersEntries(_ file: Fixtures.File) throws {
        let data = Data(file.bytes)
        let document = try KeyedArchiveDocument(data: data)
        let tree = try PropertyListValue(parsing: data)
        expectEqual(document.propertyList, tree)
        let objects = try #require(tree["$objects"]?.arrayValue)
        expectEqual(document.objects, objects)
        #expect(document.top == tree["$top"]?.dictionaryValue)
        for uid in objects.indices {
            switch document.entry(uid) {
            case .object(let archivedClass, let keys):
                expectEqual(.dictionary(keys), objects[uid])
                expectEqual(document.archivedClass(of: uid), archivedClass)
            case .value(let value): expectEqual(value, objects[uid])
            case .null, .classDescription: continue
            }
        }
    }

    /// A binary archive whose object repeats a key: the tree reader keeps the last value, and the
    /// unarchiver reads it so.
    @Test func aRepeatedKeyReadsItsLastValue() throws {
        let key = BinaryPlistBuilder.ascii("name")
        let bytes = BinaryPlistBuilder([
            BinaryPlistBuilder.dict(keys: [1, 2, 3, 4], values: [5, 6, 7, 8]),
            BinaryPlistBuilder.ascii("$archiver"), BinaryPlistBuilder.ascii("$objects"), BinaryPlistBuilder.ascii("$top"),
            BinaryPlistBuilder.ascii("$version"), BinaryPlistBuilder.ascii("NSKeyedArchiver"),
            BinaryPlistBuilder.array([9, 10, 11, 12, 13]), BinaryPlistBuilder.dict(keys: [14], values: [15]), [0x12, 0x00, 0x01, 0x86, 0xA0],
            BinaryPlistBuilder.ascii("$null"),
            // Object 1: a Person whose `name` appears twice, "first" then "last".
            BinaryPlistBuilder.dict(keys: [16, 17, 17, 18], values: [19, 20, 21, 22]),
            BinaryPlistBuilder.ascii("first"), BinaryPlistBuilder.ascii("last"),
            BinaryPlistBuilder.dict(keys: [23, 24], values: [25, 26]),
            BinaryPlistBuilder.ascii("root"), [0x80, 0x01],
            BinaryPlistBuilder.ascii("$class"), key, BinaryPlistBuilder.ascii("age"),
            [0x80, 0x04], [0x80, 0x02], [0x80, 0x03], BinaryPlistBuilder.int(7),
            BinaryPlistBuilder.ascii("$classname"), BinaryPlistBuilder.ascii("$classes"), BinaryPlistBuilder.ascii("Person"),
            BinaryPlistBuilder.array([25, 27]), BinaryPlistBuilder.ascii("NSObject"),
        ]).build()
        let person = try KeyedUnarchiver.unarchive(Person.self, from: Data(bytes))
        #expect(person.name == "last" && person.age == 7)
        let tree = try PropertyListValue(binary: bytes)
        try expectEqual(KeyedArchiveDocument(data: Data(bytes)).propertyList, tree)
    }

    /// Objects of one model whose keys come in different orders (the unarchiver matches keys
    /// per object, caching the last order it saw).
    @Test func keysInAnyOrderReadTheSameProperties() throws {
        let first = ArchivedObject(className: "Person", values: [("name", "A"), ("age", 1)])
        let second = ArchivedObject(className: "Person", values: [("age", 2), ("name", "B"), ("extra", true)])
        let third = ArchivedObject(className: "Person", values: [("name", "C"), ("age", 3)])
        let data = try KeyedArchiver.archivedData(withRootObject: [first, second, third, first] as [Any])
        let people = try KeyedUnarchiver.unarchive([Person].self, from: data)
        expectEqual(people.map(\.name), ["A", "B", "C", "A"])
        expectEqual(people.map(\.age), [1, 2, 3, 1])
        #expect(people[0] === people[3])
    }

    /// A property's allowed classes are checked for every object, whatever was allowed before
    /// (the unarchiver caches the answer per class).
    @Test func allowedClassesAreCheckedPerObject() throws {
        let archiver = KeyedArchiver()
        archiver.setClassName("Curator", for: Person.self)
        let allowed = Gallery()
        allowed.owner = Person(name: "Ok")
        try archiver.encode([allowed, allowed], forKey: "root")
        let data = try archiver.finishEncoding()
        let unarchiver = try KeyedUnarchiver(data: data)
        unarchiver.setClass(Person.self, forClassName: "Curator")
        try expectEqual(unarchiver.decode([Gallery].self, forKey: "root").map { $0.owner?.name }, ["Ok", "Ok"])

        let mixed = KeyedArchiver()
        let first = Gallery()
        first.owner = Person(name: "Plain")
        try mixed.encode([first], forKey: "root")
        let error = try #require(throws: KeyedArchiveError.self) {
            try KeyedUnarchiver.unarchive([Gallery].self, from: try mixed.finishEncoding())
        }
        expectEqual(error.kind, .classNotAllowed(found: "Person", allowed: ["Curator"]))
    }

    /// An XML archive reads as its binary form does, model by model.
    @Test func anXMLArchiveReadsAsItsBinaryForm() throws {
        let (team, people) = ArchiveWriterScenario.people()
        // Friends who befriend each other back form a cycle no array property can close.
        people[0].friends = [people[1]]
        people[1].friends = [people[2]]
        let binary = try KeyedUnarchiver.unarchive(Team.self, from: KeyedArchiver.archivedData(withRootObject: team))
        let xml = try KeyedUnarchiver.unarchive(Team.self, from: KeyedArchiver.archivedData(withRootObject: team, format: .xml))
        for decoded in [binary, xml] {
            expectEqual(decoded.members.map(\.name), ["Alice", "Bob", "Carol", "Alice"])
            #expect(decoded.members[0] === decoded.members[3] && decoded.lead === decoded.members[0])
            #expect(decoded.members[0].friends.first === decoded.members[1])
            #expect(decoded.members[1].friends.first === decoded.members[2])
            #expect(decoded.mascot === decoded.members[2] && decoded.sponsor === decoded.members[1])
        }
    }
}

/// Arrays of strings gather in an array of their own type (not one of a generic element): they
/// read as arrays of any other element do, with the same errors, and in collect-all mode leave
/// out the same elements.
extension ArchiveInPlaceReadingTests {
    private func unarchiver(mixed: [Any], collectsAll: Bool) throws -> KeyedUnarchiver {
        let archiver = KeyedArchiver()
        try archiver.encode(["a", "b", "a", ""], forKey: "strings")
        try archiver.encodeObject(mixed, forKey: "mixed")
        var options = MappingOptions()
        options.collectsAllErrors = collectsAll
        return try KeyedUnarchiver(data: try archiver.finishEncoding(), options: options)
    }

    @Test(arguments: [false, true])
    func stringArraysReadAsOtherArrays(collectsAll: Bool) throws {
        let strings = try unarchiver(mixed: ["a", 1, "b", 2], collectsAll: collectsAll)
        let numbers = try unarchiver(mixed: [1, "a", 2, "b"], collectsAll: collectsAll)
        try expectEqual(strings.decode([String].self, forKey: "strings"), ["a", "b", "a", ""])
        try expectEqual(strings.decode(Set<String>.self, forKey: "strings"), ["a", "b", ""])
        try expectEqual(strings.decode([[String]].self, forKey: "nothing", default: [["x"]]), [["x"]])
        guard !collectsAll else {
            try expectEqual(strings.decode([String].self, forKey: "mixed"), ["a", "b"])
            try expectEqual(numbers.decode([Int].self, forKey: "mixed"), [1, 2])
            return
        }
        // The same elements out of place fail alike for strings and for integers.
        let stringError = try #require(throws: ModelError.self) { try strings.decode([String].self, forKey: "mixed") }
        let numberError = try #require(throws: ModelError.self) { try numbers.decode([Int].self, forKey: "mixed") }
        expectEqual(stringError.kind, numberError.kind)
        expectEqual(stringError.path, numberError.path)
        expectEqual(stringError.description, "cannot map value at 'mixed[1]': expected a string, found 1")
    }
}

/// A model whose property keys are all plain fields is read in one loop over its object's keys
/// (outside collect-all mode, without a report); with a report set, the shared key-tree walk
/// reads it. Both read the same values and throw the same errors.
extension ArchiveInPlaceReadingTests {
    struct PlainFieldsCase: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let values: @Sendable () -> [(String, Any)]
    }

    static let plainFieldsCases: [PlainFieldsCase] = [
        .init(testDescription: "in order") { [("name", "A"), ("age", 3)] },
        .init(testDescription: "other order, unknown key") { [("age", 3), ("extra", true), ("name", "A")] },
        .init(testDescription: "default missing") { [("name", "A")] },
        .init(testDescription: "required missing") { [("age", 3)] },
        .init(testDescription: "string as number") { [("name", "A"), ("age", "3")] },
        .init(testDescription: "number as string") { [("name", 5), ("age", 3)] },
        .init(testDescription: "object reference") {
            [("name", "A"), ("manager", ArchivedObject(className: "Person", values: [("name", "B")]))]
        },
        .init(testDescription: "reference of another class") {
            [("name", "A"), ("manager", ArchivedObject(className: "Team", values: [("name", "B")]))]
        },
        .init(testDescription: "array of wrong elements") { [("name", "A"), ("friends", ["x"])] },
    ]

    @Test(arguments: plainFieldsCases)
    func plainFieldsReadAsTheWalkDoes(_ plainCase: PlainFieldsCase) throws {
        let data = try KeyedArchiver.archivedData(
            withRootObject: ArchivedObject(className: "Person", values: plainCase.values()) as Any)
        var walked = MappingOptions()
        walked.report = MappingReport()
        let outcomes = [MappingOptions.default, walked].map { options -> String in
            do {
                let person = try KeyedUnarchiver(data: data, options: options).decode(Person.self, forKey: "root")
                return "\(person.name) \(person.age) \(person.friends.count)"
            } catch {
                return "\(type(of: error)): \(error)"
            }
        }
        expectEqual(outcomes[0], outcomes[1])
    }

    /// An archive stores each distinct string once; the reader shares the strings it reads past
    /// the small form, and every reference reads its own string, short or long, ASCII or not.
    @Test func stringsReferencedManyTimesReadAsWritten() throws {
        let strings = [
            "a string of more than fifteen bytes", "short", "", "another string well past fifteen bytes",
            "non-ASCII past fifteen bytes: \u{E9}\u{E8}\u{1F600}", "caf\u{E9}",
        ]
        let repeated = (0..<40).map { strings[$0 * 7 % strings.count] }
        let data = try KeyedArchiver.archivedData(withRootObject: repeated)
        try expectEqual(KeyedUnarchiver.unarchive([String].self, from: data), repeated)
        let team = Team(name: strings[0])
        team.members = strings.map { Person(name: $0) } + strings.map { Person(name: $0) }
        let decoded = try KeyedUnarchiver.unarchive(Team.self, from: KeyedArchiver.archivedData(withRootObject: team))
        expectEqual(decoded.name, strings[0])
        expectEqual(decoded.members.map(\.name), strings + strings)
    }
}
