import Foundation
import ModelKit
import Testing
import ModelKitTestSupport

/// Substitution: delegates replace objects as they are encoded and as they are decoded.
struct ArchiveSubstitutionTests {
    /// Replaces people named "Mallory" and counts what it sees.
    final class Redactor: KeyedArchiverDelegate {
        var seen: [String] = []

        func archiver(_ archiver: KeyedArchiver, willEncode object: Any) -> Any? {
            seen.append(String(describing: type(of: object)))
            guard let person = object as? Person else { return object }
            switch person.name {
            case "Mallory": return Person(name: "Redacted")
            case "Ghost": return nil
            default: return object
            }
        }
    }

    /// Upper-cases the names of decoded people, in place of the originals.
    final class Upgrader: KeyedUnarchiverDelegate {
        var count = 0
        var wrongType = false

        func unarchiver(_ unarchiver: KeyedUnarchiver, didDecode object: Any) throws -> Any? {
            guard let person = object as? Person else { return object }
            count += 1
            if wrongType { return "not a person" }
            return Person(name: person.name.uppercased(), age: person.age)
        }
    }

    @Test func theArchiverDelegateReplacesObjects() throws {
        let mallory = Person(name: "Mallory")
        let team = Team(name: "Core")
        team.lead = mallory
        team.members = [mallory, Person(name: "Alice")]
        let redactor = Redactor()
        let archiver = KeyedArchiver()
        archiver.delegate = redactor
        try archiver.encode(team, forKey: "root")
        let decoded = try KeyedUnarchiver(data: try archiver.finishEncoding()).decode(Team.self, forKey: "root")
        #expect(decoded.lead?.name == "Redacted")
        expectEqual(decoded.members.map(\.name), ["Redacted", "Alice"])
        #expect(decoded.members[0] === decoded.lead)
        // Asked once per instance: the team, Mallory (once, though referenced twice), Alice.
        expectEqual(redactor.seen.filter { $0 == "Person" }.count, 2)
        expectEqual(redactor.seen.filter { $0 == "Team" }.count, 1)
    }

    @Test func aNilReplacementWritesNil() throws {
        let team = Team(name: "Core")
        team.lead = Person(name: "Ghost")
        let archiver = KeyedArchiver()
        let redactor = Redactor()
        archiver.delegate = redactor
        try archiver.encode(team, forKey: "root")
        #expect(try KeyedUnarchiver(data: try archiver.finishEncoding()).decode(Team.self, forKey: "root").lead == nil)
    }

    @Test func theUnarchiverDelegateReplacesObjectsForEveryReference() throws {
        let alice = Person(name: "Alice", age: 3)
        let team = Team(name: "Core")
        team.lead = alice
        team.members = [alice, alice]
        let unarchiver = try KeyedUnarchiver(data: try KeyedArchiver.archivedData(withRootObject: team))
        let upgrader = Upgrader()
        unarchiver.delegate = upgrader
        let decoded = try unarchiver.decode(Team.self, forKey: "root")
        #expect(decoded.lead?.name == "ALICE")
        #expect(decoded.lead?.age == 3)
        #expect(decoded.members[0] === decoded.lead && decoded.members[1] === decoded.lead)
        expectEqual(upgrader.count, 1)
    }

    @Test func aReplacementOfTheWrongTypeIsATypedError() throws {
        let unarchiver = try KeyedUnarchiver(data: try KeyedArchiver.archivedData(withRootObject: Person(name: "A")))
        let upgrader = Upgrader()
        upgrader.wrongType = true
        unarchiver.delegate = upgrader
        let error = try #require(throws: KeyedArchiveError.self) { try unarchiver.decode(Person.self, forKey: "root") }
        expectEqual(error.description, "cannot decode 'root' (object 1): the delegate replaced it with a 'String', not a 'Person'")
    }

    @Test func genericObjectsCanBeReplacedToo() throws {
        final class Renamer: KeyedUnarchiverDelegate {
            func unarchiver(_ unarchiver: KeyedUnarchiver, didDecode object: Any) throws -> Any? {
                (object as? ArchivedObject).map { _ in "replaced" } ?? object
            }
        }
        let unarchiver = try KeyedUnarchiver(data: Data(Fixtures.named("bpylist2/simple_archive.plist").bytes))
        let renamer = Renamer()
        unarchiver.delegate = renamer
        #expect(try unarchiver.decodeObject(forKey: "root") as? String == "replaced")
    }
}
