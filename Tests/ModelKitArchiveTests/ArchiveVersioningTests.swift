import Foundation
import ModelKit
import ModelKitTestSupport
import Testing

/// Versions: the model version is archived with each object, the per-key hook receives the
/// archived version, additional values merge into initialization, and preserved values are kept
/// aside (PSPDFModel's migration hooks, through ModelKitCore's `ModelMigrating` and
/// `ModelPreservingValues`).
struct ArchiveVersioningTests {
    func unarchiver(root: Any) throws -> KeyedUnarchiver {
        let archiver = KeyedArchiver()
        try archiver.encodeObject(root, forKey: "root")
        return try KeyedUnarchiver(data: try archiver.finishEncoding())
    }

    @Test func theModelVersionIsWrittenWithEveryObject() throws {
        let unarchiver = try self.unarchiver(root: [Note(title: "New") as Any, Person(name: "P")])
        var versions: [String: PropertyListValue] = [:]
        for uid in 0..<unarchiver.document.objectCount {
            if case .object(let archivedClass, let keys) = unarchiver.document.entry(uid), let version = keys["MK.modelVersion"] {
                versions[archivedClass.name] = version
            }
        }
        expectEqual(versions, ["Note": 2, "Person": 0])
    }

    @Test func currentVersionsDecodeAsWritten() throws {
        let note = Note(title: "Current", pageCount: 4)
        let decoded = try KeyedUnarchiver.unarchive(Note.self, from: try KeyedArchiver.archivedData(withRootObject: note))
        expectEqual(decoded.title, "Current")
        expectEqual(decoded.pageCount, 4)
    }

    @Test func theHookMigratesAnOlderVersion() throws {
        // Version 1 stored the title as `name` and the pages themselves.
        let old = ArchivedObject(
            className: "Note",
            values: [("MK.modelVersion", 1), ("name", "Old title"), ("pages", ["one", "two", "three"])])
        let decoded = try unarchiver(root: old).decode(Note.self, forKey: "root")
        expectEqual(decoded.title, "Old title")
        expectEqual(decoded.pageCount, 3)
    }

    @Test func aMissingVersionCountsAsZero() throws {
        let old = ArchivedObject(className: "Note", values: [("name", "Unversioned")])
        let decoded = try unarchiver(root: old).decode(Note.self, forKey: "root")
        expectEqual(decoded.title, "Unversioned")
        expectEqual(decoded.pageCount, 0)
    }

    @Test func theHookSeesTheArchivedVersion() throws {
        for version in [0, 3, 7] {
            let object = ArchivedObject(className: "VersionProbe", values: [("MK.modelVersion", version)])
            let probe = try unarchiver(root: object).decode(VersionProbe.self, forKey: "root")
            expectEqual(probe.seenVersion, version)
            expectEqual(probe.hookKeys, ["seenVersion", "hookKeys"])
        }
    }

    @Test func preservedValuesAreKeptAside() throws {
        let note = Note(title: "With body")
        note.body = "kept aside"
        let decoded = try KeyedUnarchiver.unarchive(Note.self, from: try KeyedArchiver.archivedData(withRootObject: note))
        #expect(decoded.body == nil)
        #expect(decoded.preservedValues["body"] as? String == "kept aside")
        expectEqual(decoded.title, "With body")
    }

    @Test func additionalValuesWithUnknownKeysAreErrors() throws {
        let object = ArchivedObject(className: "VersionProbe", values: [("MK.modelVersion", 99)])
        let error = try #require(throws: ModelError.self) { try unarchiver(root: object).decode(VersionProbe.self, forKey: "root") }
        expectEqual(error.kind, .unknownKey)
        expectEqual(error.description, "cannot set 'VersionProbe.noSuchProperty' at 'root': no such property")
    }

    @Test func migratedValuesAreTypeChecked() throws {
        let object = ArchivedObject(className: "Note", values: [("MK.modelVersion", 1), ("pages", "not a list")])
        let error = try #require(throws: ModelError.self) { try unarchiver(root: object).decode(Note.self, forKey: "root") }
        expectEqual(error.kind, .typeMismatch)
    }
}

/// Records what its migration hooks receive.
@Model
struct VersionProbe {
    var seenVersion: Int = -1
    var hookKeys: [String] = []
}

extension VersionProbe: ModelMigrating {
    static func decodeValue<S: ModelStoredValues>(forKey key: String, from stored: inout S, modelVersion: Int) throws
        -> ModelStoredValue
    {
        .stored
    }

    static func decodeAdditionalValues<S: ModelStoredValues>(from stored: inout S, modelVersion: Int) throws
        -> [String: Any]
    {
        if modelVersion == 99 { return ["noSuchProperty": 1] }
        return ["seenVersion": modelVersion, "hookKeys": ["seenVersion", "hookKeys"]]
    }
}
