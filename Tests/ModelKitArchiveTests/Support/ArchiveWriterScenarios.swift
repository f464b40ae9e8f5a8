import Foundation
import ModelKit

/// Archives that exercise every path of the keyed archiver, each built the same way on every
/// run (no set of more than one element, no random identifiers), so that their bytes can be
/// compared with the archiver's earlier output (`ArchiveWriterGoldens`).
struct ArchiveWriterScenario: CustomStringConvertible, Sendable {
    let name: String
    let build: @Sendable (KeyedArchiver) throws -> Void

    var description: String { name }

    /// The archive of this scenario in `format`.
    func archive(_ format: PropertyListFormat = .binary) throws -> Data {
        let archiver = KeyedArchiver(outputFormat: format)
        try build(archiver)
        return try archiver.finishEncoding()
    }

    static let all: [ArchiveWriterScenario] = [
        ArchiveWriterScenario(name: "people") { archiver in
            let (team, _) = people()
            try archiver.encode(team, forKey: "root")
        },
        ArchiveWriterScenario(name: "droppedConditionals") { archiver in
            let team = Team(name: "Solo")
            team.mascot = Person(name: "Mascot")
            let boss = Person(name: "Boss")
            let worker = Person(name: "Worker")
            worker.manager = boss
            team.members = [worker]
            try archiver.encode(team, forKey: "root")
        },
        ArchiveWriterScenario(name: "values") { archiver in
            var values = ArchiveValueTests.sample
            values.set = [5]
            try archiver.encode(values, forKey: "root")
            try archiver.encode([values, values], forKey: "twice")
        },
        ArchiveWriterScenario(name: "foundationObjects") { archiver in
            try archiver.encodeObject(foundationObjects(), forKey: "root")
        },
        ArchiveWriterScenario(name: "scalars") { archiver in
            try archiver.encode(-1, forKey: "negative")
            try archiver.encode(0, forKey: "zero")
            try archiver.encode(255, forKey: "byte")
            try archiver.encode(256, forKey: "short")
            try archiver.encode(65_536, forKey: "int")
            try archiver.encode(Int64.max, forKey: "max")
            try archiver.encode(Int64.min, forKey: "min")
            try archiver.encode(UInt64.max, forKey: "umax")
            try archiver.encode(Float(0.5), forKey: "float")
            try archiver.encode(-0.0, forKey: "negativeZero")
            try archiver.encode(Double.infinity, forKey: "infinity")
            try archiver.encode(true, forKey: "yes")
            try archiver.encode(false, forKey: "no")
            try archiver.encode("", forKey: "empty")
            try archiver.encode("ünïcode 🎉", forKey: "unicode")
            try archiver.encode(String(repeating: "long ", count: 40), forKey: "long")
            try archiver.encode(Data(), forKey: "noBytes")
            try archiver.encode(Data(repeating: 7, count: 20), forKey: "bytes")
            try archiver.encode(Date(timeIntervalSinceReferenceDate: -1.5), forKey: "date")
            try archiver.encode(String?.none, forKey: "nothing")
            try archiver.encode(7, forKey: "$price")
            try archiver.encode([1, -1, 300, 1], forKey: "numbers")
            try archiver.encode([true, false, true], forKey: "flags")
            try archiver.encode([0.5, 0.5, 2.0], forKey: "reals")
            try archiver.encode(["zero", nil, "two"] as [String?], forKey: "gaps")
            try archiver.encode([[1, 2], [], [1]], forKey: "nested")
            try archiver.encode("first")
            try archiver.encode(2)
            try archiver.encodeObject(3)
        },
        ArchiveWriterScenario(name: "archivables") { archiver in
            try archiver.encode(OrderedSetArchive(elements: ["b", "a", 3]), forKey: "set")
            let note = NotificationArchive(name: "note", object: "sender", userInfo: ["a": "1", "b": "2"])
            try archiver.encode(note, forKey: "note")
            try archiver.encode(ValueArchive.rect("{{1, 2}, {3, 4}}"), forKey: "rect")
            try archiver.encode(ValueArchive.range(location: 2, length: 5), forKey: "range")
            try archiver.encode(ValueArchive.edgeInsets(top: 1, left: 2, bottom: 3, right: 4), forKey: "insets")
            try archiver.encode(ValueArchive.int32Array([1, 2, 3]), forKey: "array")
            try archiver.encode(OrderedDictionaryArchive(keys: ["k", 2], values: [NSNull(), "v"]), forKey: "dictionary")
        },
        ArchiveWriterScenario(name: "deepChain") { archiver in
            let head = ChainLink.chain(count: 120)
            defer { ChainLink.unlink(head) }
            try archiver.encode(head, forKey: "root")
        },
        ArchiveWriterScenario(name: "subclasses") { archiver in
            let canvas = Canvas(shapes: [Shape(name: "plain"), Circle(name: "round", radius: 2.5)])
            canvas.owner = Person(name: "Painter", age: 40)
            canvas.shapes.append(canvas.shapes[1])
            try archiver.encode(canvas, forKey: "root")
        },
        ArchiveWriterScenario(name: "registeredNames") { archiver in
            archiver.setClassName("MyApp.Person", for: Person.self)
            let (team, _) = people()
            try archiver.encode(team, forKey: "root")
        },
        ArchiveWriterScenario(name: "delegate") { archiver in
            let redactor = ArchiveSubstitutionTests.Redactor()
            archiver.delegate = redactor
            let team = Team(name: "Core")
            let mallory = Person(name: "Mallory")
            team.lead = mallory
            team.members = [mallory, Person(name: "Ghost"), Person(name: "Alice")]
            try archiver.encode(team, forKey: "root")
            withExtendedLifetime(redactor) {}
        },
        ArchiveWriterScenario(name: "manyObjects") { archiver in
            let people = (0..<150).map { Person(name: "person \($0 % 120)", age: $0 % 130) }
            for (index, person) in people.enumerated() where index > 0 {
                person.manager = people[index / 3]
                person.friends = [people[(index * 7) % people.count]]
            }
            try archiver.encode(people, forKey: "root")
            try archiver.encode(Array(repeating: Address(street: "Same", city: "Town"), count: 3), forKey: "addresses")
        },
    ]

    /// A team whose people share references, refer back to each other weakly, and befriend each
    /// other in a cycle.
    static func people() -> (Team, [Person]) {
        let alice = Person(name: "Alice", age: 33)
        let bob = Person(name: "Bob", age: 51)
        let carol = Person(name: "Carol", age: 28)
        alice.friends = [bob, carol]
        bob.friends = [alice]
        carol.manager = alice
        bob.manager = alice
        let team = Team(name: "Core")
        team.lead = alice
        team.members = [alice, bob, carol, alice]
        team.mascot = carol
        team.sponsor = bob
        team.notes = "not archived"
        return (team, [alice, bob, carol])
    }

    /// Foundation objects of every class the archiver writes, each deterministic.
    static func foundationObjects() -> [Any] {
        let base = URL(string: "https://example.com/dir/")
        let shared = NSString(string: "shared")
        let generic = ArchivedObject(
            className: "Legacy.Thing", classChain: ["Legacy.Thing", "NSObject"],
            values: [("title", "yo"), ("count", 42), ("$dollar", true), ("missing", NSNull())])
        return [
            NSString(string: "ünïcode"), shared, shared, NSMutableString(string: "mutable"),
            NSData(bytes: [1, 2, 3] as [UInt8], length: 3), NSMutableData(bytes: [4] as [UInt8], length: 1),
            NSDate(timeIntervalSinceReferenceDate: 99), NSUUID(uuidString: "0AD863BA-7584-40CF-8896-BD87B3280C34") as Any,
            NSURL(string: "page.html", relativeTo: base) as Any, NSURL(string: "https://swift.org/x") as Any,
            NSArray(array: [1, "a", true, 2.5]), NSMutableArray(array: ["m"]), NSNull(),
            NSNumber(value: 7), NSNumber(value: 1.25), NSDecimalNumber(string: "3.14159"),
            generic, generic, NSOrderedSet(array: ["x", "y"]), NSSet(array: ["only"]),
            NSCountedSet(array: ["c", "c"]), NSDictionary(dictionary: ["k": "v"]),
            ["b": 2, "a": "one", "c": [1, 2]] as [String: Any], [1, "two", [3]] as [Any],
            Decimal(string: "-0.5") as Any, JSONValue.array([.int(1), .string("j")]),
        ]
    }
}
