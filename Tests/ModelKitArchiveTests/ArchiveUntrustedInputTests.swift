import Foundation
import ModelKit
import ModelKitTestSupport
import Testing

/// Archives that once stopped the process (found by fuzzing, kept in `Fuzz/Regressions/`), read
/// through every public reading entry point in a child process of their own, so that a trap
/// fails one test instead of ending the run; then, once the child has survived, read again here
/// to check what each entry point answers.
@Suite struct ArchiveUntrustedInputTests {
    static let regressions = [
        "counted-set-null-members-dump.plist", "counted-set-null-members-models.plist", "dictionary-null-keys.plist",
        "self-reference-rectval.plist", "self-reference-rangeval.plist",
    ]

    @Test(arguments: regressions)
    func aFuzzedArchiveNeverStopsTheProcess(_ name: String) async throws {
        let survived = await #expect(processExitsWith: .success) { [name] in
            let outcomes = readEveryWay(Data(Fixtures.File(group: "fuzz", name: name).bytes))
            // Every entry point answered (a value or an error): nothing was skipped.
            guard outcomes.count == ArchiveReadingOutcomes.entryPointCount(for: name) else { exit(3) }
        }
        guard survived?.exitStatus == .exitCode(EXIT_SUCCESS) else { return }
        let outcomes = readEveryWay(Data(Fixtures.File(group: "fuzz", name: name).bytes))
        expectEqual(outcomes.count, ArchiveReadingOutcomes.entryPointCount(for: name))
        #expect(outcomes.values.contains { $0.hasPrefix("value") }, "\(outcomes)")
    }

    /// The counted sets whose null members stopped the process: the generic decode names the
    /// member it cannot count, and the dump lists the set's keys.
    @Test(arguments: ["counted-set-null-members-dump.plist", "counted-set-null-members-models.plist"])
    func aCountedSetOfNullsIsATypedError(_ name: String) async throws {
        let survived = await #expect(processExitsWith: .success) { [name] in
            let data = Data(Fixtures.File(group: "fuzz", name: name).bytes)
            _ = try? KeyedUnarchiver(data: data).decodeObject(forKey: "root")
        }
        guard survived?.exitStatus == .exitCode(EXIT_SUCCESS) else { return }
        let data = Data(Fixtures.File(group: "fuzz", name: name).bytes)
        let error = try #require(throws: KeyedArchiveError.self) { try KeyedUnarchiver(data: data).decodeObject(forKey: "root") }
        expectEqual(
            error.description,
            "cannot decode 'root' (object 1): invalid 'NSCountedSet' object: a member of type 'NSNull' is not hashable")
        let dump = try ArchiveDump.text(KeyedArchiveDocument(data: data))
        #expect(dump.hasPrefix("root: NSCountedSet #1\n") && dump.contains("NS.count0: "), "\(dump)")
    }
}

/// What each entry point answered for one archive: `value: <type>` or `error: <text>`.
typealias ArchiveReadingOutcomes = [String: String]

extension ArchiveReadingOutcomes {
    /// The root keys and objects of the fixture, which `readEveryWay` reads one entry point each.
    static func entryPointCount(for name: String) -> Int {
        guard let document = try? KeyedArchiveDocument(data: Data(Fixtures.File(group: "fuzz", name: name).bytes)) else {
            return 1
        }
        return 3 + document.topKeys.count * 2 + document.objectCount + typedReads.count
    }

    /// Typed reads of `root`, each with the registry below.
    static let typedReads: [(String, @Sendable (Data, ArchiveClassRegistry) throws -> Any)] = [
        ("[String]", { try KeyedUnarchiver.unarchive([String].self, from: $0, registry: $1) }),
        ("Set<String>", { try KeyedUnarchiver.unarchive(Set<String>.self, from: $0, registry: $1) }),
        ("[Int]", { try KeyedUnarchiver.unarchive([Int].self, from: $0, registry: $1) }),
        ("[String: String]", { try KeyedUnarchiver.unarchive([String: String].self, from: $0, registry: $1) }),
        ("Person", { try KeyedUnarchiver.unarchive(Person.self, from: $0, registry: $1) }),
        ("Team", { try KeyedUnarchiver.unarchive(Team.self, from: $0, registry: $1) }),
        ("[Person]", { try KeyedUnarchiver.unarchive([Person].self, from: $0, registry: $1) }),
        ("unarchiveObject", { try KeyedUnarchiver.unarchiveObject(from: $0, registry: $1) as Any }),
    ]
}

/// Reads `data` through every public reading entry point: the document check, both dumps, the
/// generic decode of every root key and of every object, a typed decode of every root key, and
/// the one-shot typed reads of `root`. Any thrown error is an answer; only a trap is not.
func readEveryWay(_ data: Data) -> ArchiveReadingOutcomes {
    var outcomes: ArchiveReadingOutcomes = [:]
    func record(_ entry: String, _ body: () throws -> Any?) {
        do {
            let value = try body()
            outcomes[entry] = "value: \(value.map { "\(type(of: $0))" } ?? "nil")"
        } catch {
            outcomes[entry] = "error: \(error)"
        }
    }
    var registry = ArchiveClassRegistry()
    registry.register(Person.self)
    registry.register(Team.self)
    guard let document = try? KeyedArchiveDocument(data: data) else {
        record("document") { try KeyedArchiveDocument(data: data) }
        return outcomes
    }
    record("document") { document }
    record("dump text") { try ArchiveDump.text(document) }
    record("dump json") { try ArchiveDump.json(document) }
    for key in document.topKeys {
        record("generic \(key)") { try KeyedUnarchiver(document: document, registry: registry).decodeObject(forKey: key) }
        record("Person \(key)") { try KeyedUnarchiver(document: document, registry: registry).decode(Person.self, forKey: key) }
    }
    for objectID in 0..<document.objectCount {
        record("object \(objectID)") { try KeyedUnarchiver(document: document, registry: registry).decodeObject(withID: objectID) }
    }
    for (name, read) in ArchiveReadingOutcomes.typedReads {
        record(name) { try read(data, registry) }
    }
    return outcomes
}
