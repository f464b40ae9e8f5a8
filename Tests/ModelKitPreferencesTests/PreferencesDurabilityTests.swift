import Foundation
import ModelKit
import ModelKitPreferences
import ModelKitTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Atomic, batched saves and corrupt files.
@Suite("Preferences: durability")
struct PreferencesDurabilityTests {
    @Test func theFileIsPrettySortedJSONEndingWithANewline() async throws {
        try await withTemporaryDirectory { directory in
            let prefs = try manualPreferences(directory.file())
            prefs["zeta"] = .string("last")
            prefs["alpha"] = .object([JSONMember("b", .int(2)), JSONMember("a", .bool(true))])
            prefs[.volume] = 0.25
            try prefs.flush()
            let expected = """
                {
                  "alpha": {
                    "a": true,
                    "b": 2
                  },
                  "volume": 0.25,
                  "zeta": "last"
                }

                """
            try expectEqual(contents(of: directory.file()), expected)
            // Only the file and its lock file are left: the temporary file was renamed.
            expectEqual(directory.entries(), ["preferences.json", "preferences.json.lock"])
        }
    }

    @Test func newFilesArePrivateAndExistingModesAreKept() async throws {
        try await withTemporaryDirectory { directory in
            let prefs = try manualPreferences(directory.file())
            prefs["a"] = .int(1)
            try prefs.flush()
            try expectEqual(permissions(of: directory.file()), 0o600)
            chmod(directory.file().path, 0o644)
            prefs["a"] = .int(2)
            try prefs.flush()
            try expectEqual(permissions(of: directory.file()), 0o644)
        }
    }

    @Test func manualSavesWaitForFlush() async throws {
        try await withTemporaryDirectory { directory in
            let prefs = try manualPreferences(directory.file())
            prefs["a"] = .int(1)
            prefs["b"] = .int(2)
            #expect(prefs.hasUnsavedChanges)
            #expect(!FileManager.default.fileExists(atPath: directory.file().path))
            try prefs.flush()
            #expect(!prefs.hasUnsavedChanges)
            try expectEqual(parsedObject(at: directory.file()), ["a": .int(1), "b": .int(2)])
        }
    }

    @Test func batchedSavesHappenShortlyAfterWrites() async throws {
        try await withTemporaryDirectory { directory in
            let prefs = try Preferences(
                name: "test", file: directory.file(),
                configuration: .init(savePolicy: .batched(after: .milliseconds(20))))
            for index in 0..<10 { prefs["k\(index)"] = .int(Int64(index)) }
            let saved = await eventually {
                (try? parsedObject(at: directory.file()))?.count == 10 && !prefs.hasUnsavedChanges
            }
            #expect(saved)
            #expect(prefs.lastError == nil)
        }
    }

    @Test func immediateSavesHappenBeforeTheWriteReturns() async throws {
        try await withTemporaryDirectory { directory in
            let prefs = try Preferences(
                name: "test", file: directory.file(), configuration: .init(savePolicy: .immediately))
            prefs[.theme] = "dark"
            try expectEqual(parsedObject(at: directory.file()), ["theme": .string("dark")])
            #expect(!prefs.hasUnsavedChanges)
        }
    }

    @Test func theLastInstanceSavesWhenItGoesAway() async throws {
        try await withTemporaryDirectory { directory in
            do {
                let prefs = try manualPreferences(directory.file())
                prefs["kept"] = .bool(true)
            }
            try expectEqual(parsedObject(at: directory.file()), ["kept": .bool(true)])
        }
    }

    @Test func pendingWritesAreSavedWhenTheProcessExits() async throws {
        try await withTemporaryDirectory { directory in
            // The tool sets 5 keys with saving left to the end of the process.
            let result = try await ModelKitTool.run([
                "prefs", "write-loop", "test", "--count", "5", "--no-flush", "--file", directory.file().path,
            ])
            #expect(result.status == 0, "\(result.errorOutput)")
            try expectEqual(parsedObject(at: directory.file()).count, 5)
        }
    }

    @Test func savesKeepKeysOthersSavedMeanwhile() async throws {
        try await withTemporaryDirectory { directory in
            let prefs = try manualPreferences(directory.file())
            #expect(prefs.values.isEmpty)
            prefs["mine"] = .int(1)
            // Someone else saves another key between our write and our save.
            try Data(#"{"theirs": 2}"#.utf8).write(to: directory.file(), options: .atomic)
            try prefs.flush()
            try expectEqual(parsedObject(at: directory.file()), ["mine": .int(1), "theirs": .int(2)])
            expectEqual(prefs.values, ["mine": .int(1), "theirs": .int(2)])
        }
    }

    static let corruptContents = [
        #"{"volume": 0.5"#, "[1, 2]", "\"text\"", "not json", "{\"a\": 1} x", "{\"a\": \"\u{1}\"}",
    ]

    @Test(arguments: corruptContents)
    func aCorruptFileIsMovedAsideAndReported(_ text: String) async throws {
        try await withTemporaryDirectory { directory in
            try Data(text.utf8).write(to: directory.file())
            let prefs = try manualPreferences(directory.file())
            let error = try #require(throws: PreferencesError.self) { try prefs.value(forKey: "volume") }
            expectEqual(error.kind, .corruptFile)
            expectEqual(error.path, prefs.fileURL.path)
            let backup = try #require(error.backupPath)
            #expect(backup.hasPrefix(prefs.fileURL.path + ".corrupt-"))
            #expect(error.description.hasPrefix("corrupt preferences file '\(prefs.fileURL.path)': "))
            #expect(error.description.hasSuffix("; moved it to '\(backup)'"))
            // The bytes are kept as they were, in the backup.
            try expectEqual(contents(of: URL(fileURLWithPath: backup)), text)
            #expect(!FileManager.default.fileExists(atPath: directory.file().path))

            // Later saves write a new file with only what was written; the backup is untouched.
            expectEqual(prefs[.volume], 0.5)
            #expect(!prefs.hasUnsavedChanges)
            prefs["theme"] = .string("dark")
            try prefs.flush()
            try expectEqual(parsedObject(at: directory.file()), ["theme": .string("dark")])
            try expectEqual(contents(of: URL(fileURLWithPath: backup)), text)
        }
    }

    @Test func theNonThrowingSurfaceRecordsTheCorruptFile() async throws {
        try await withTemporaryDirectory { directory in
            try Data("{oops".utf8).write(to: directory.file())
            let prefs = try manualPreferences(directory.file())
            #expect(prefs["anything"] == nil)
            let error = try #require(prefs.lastError)
            expectEqual(error.kind, .corruptFile)
            #expect(directory.entries().contains { $0.hasPrefix("preferences.json.corrupt-") })
        }
    }

    @Test func aCorruptFileFoundWhileSavingIsNotOverwritten() async throws {
        try await withTemporaryDirectory { directory in
            let prefs = try manualPreferences(directory.file())
            prefs["mine"] = .int(1)
            try Data("garbage".utf8).write(to: directory.file())
            let error = try #require(throws: PreferencesError.self) { try prefs.flush() }
            expectEqual(error.kind, .corruptFile)
            try expectEqual(contents(of: URL(fileURLWithPath: try #require(error.backupPath))), "garbage")
            // The write is still pending, and the next save stores it in a new file.
            #expect(prefs.hasUnsavedChanges)
            try prefs.flush()
            try expectEqual(parsedObject(at: directory.file()), ["mine": .int(1)])
        }
    }

    @Test func twoCorruptFilesGetTwoBackups() async throws {
        try await withTemporaryDirectory { directory in
            let prefs = try manualPreferences(directory.file())
            for text in ["first", "second"] {
                try Data(text.utf8).write(to: directory.file())
                #expect(throws: PreferencesError.self) { try prefs.reload() }
            }
            let backups = directory.entries().filter { $0.contains(".corrupt-") }
            expectEqual(backups.count, 2)
            let texts = try backups.map { try contents(of: directory.url.appendingPathComponent($0)) }
            expectEqual(Set(texts), ["first", "second"])
        }
    }

    @Test func anEmptyFileHoldsNoPreferences() async throws {
        try await withTemporaryDirectory { directory in
            try Data(" \n".utf8).write(to: directory.file())
            let prefs = try manualPreferences(directory.file())
            #expect(try prefs.allValues().isEmpty)
            expectEqual(directory.entries(), ["preferences.json"])
        }
    }

    @Test func aByteOrderMarkIsSkipped() async throws {
        try await withTemporaryDirectory { directory in
            try Data("\u{FEFF}{\"theme\": \"dark\"}".utf8).write(to: directory.file())
            let prefs = try manualPreferences(directory.file())
            try expectEqual(prefs.value(for: .theme), "dark")
        }
    }

    @Test func anUnreadableFileIsReportedAndLeftAlone() async throws {
        try await withTemporaryDirectory { directory in
            // A directory where the file should be: unreadable as a file, whoever runs the test.
            try FileManager.default.createDirectory(at: directory.file(), withIntermediateDirectories: false)
            let prefs = try manualPreferences(directory.file())
            let error = try #require(throws: PreferencesError.self) { try prefs.allValues() }
            expectEqual(error.kind, .unreadableFile)
            #expect(error.description.hasPrefix("cannot read preferences file '\(prefs.fileURL.path)': "))
            prefs["a"] = .int(1)
            let saveError = try #require(throws: PreferencesError.self) { try prefs.flush() }
            #expect([.unreadableFile, .unwritableFile].contains(saveError.kind))
            var isDirectory: ObjCBool = false
            #expect(FileManager.default.fileExists(atPath: directory.file().path, isDirectory: &isDirectory))
            #expect(isDirectory.boolValue)
        }
    }

    private func permissions(of url: URL) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }
}
