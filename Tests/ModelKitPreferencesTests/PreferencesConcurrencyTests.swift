import Foundation
import ModelKit
import ModelKitPreferences
import ModelKitTestSupport
import Testing

/// Many tasks and several processes writing one file at once, and writers killed mid-save.
///
/// Serialized: these tests start processes and keep both cores busy.
@Suite("Preferences: concurrency", .serialized)
struct PreferencesConcurrencyTests {
    @Test func manyTasksAndInstancesWritingAtOnceLoseNothing() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.file()
            let policies: [Preferences.SavePolicy] = [.manually, .immediately, .batched(after: .milliseconds(5))]
            try await withThrowingTaskGroup(of: Void.self) { group in
                for task in 0..<6 {
                    group.addTask {
                        let prefs = try Preferences(
                            name: "test", file: file, configuration: .init(savePolicy: policies[task % policies.count]))
                        for index in 0..<40 {
                            try prefs.setValue(.int(Int64(index)), forKey: "t\(task)-\(index)")
                            if index % 10 == 0 { try prefs.flush() }
                            _ = prefs.values
                        }
                        try prefs.flush()
                    }
                }
                try await group.waitForAll()
            }
            let stored = try parsedObject(at: file)
            expectEqual(stored.count, 240)
            for task in 0..<6 {
                for index in 0..<40 { expectEqual(stored["t\(task)-\(index)"], .int(Int64(index))) }
            }
        }
    }

    /// Two `modelkit` processes each set and save 100 keys of their own, at the same time.
    @Test func twoProcessesWritingDifferentKeysLoseNeitherWrite() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.file()
            let writers = try ["a", "b"].map { prefix in
                try ModelKitTool.start(
                    ["prefs", "write-loop", "test", "--prefix", prefix, "--count", "100", "--file", file.path])
            }
            for writer in writers {
                let result = await writer.finish()
                #expect(result.status == 0, "\(result.errorOutput)")
            }
            let stored = try parsedObject(at: file)
            expectEqual(stored.count, 200)
            for prefix in ["a", "b"] {
                for index in 0..<100 { expectEqual(stored["\(prefix)-\(index)"], .int(Int64(index))) }
            }
        }
    }

    /// Two shells each running `modelkit prefs set` 20 times, one process per write, their
    /// writes interleaving.
    @Test func twoLoopsOfSetCommandsLoseNothing() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.file()
            try await withThrowingTaskGroup(of: [ToolResult].self) { group in
                for prefix in ["x", "y"] {
                    group.addTask {
                        var failures: [ToolResult] = []
                        for index in 0..<20 {
                            let result = try await ModelKitTool.run(
                                ["prefs", "set", "test", "\(prefix)\(index)", "\(index)", "--file", file.path])
                            if result.status != 0 { failures.append(result) }
                        }
                        return failures
                    }
                }
                for try await failures in group {
                    #expect(failures.isEmpty, "\(failures.map(\.errorOutput))")
                }
            }
            let stored = try parsedObject(at: file)
            expectEqual(stored.count, 40)
            expectEqual(stored["x19"], .int(19))
            expectEqual(stored["y0"], .int(0))
        }
    }

    /// The value of slot `slot` after writes 0...last of `write-loop --keys slots`: the last
    /// write N ≤ `last` with N % slots == slot, nil when there was none.
    static func expectedValue(slot: Int, slots: Int, last: Int) -> Int? {
        guard last >= slot else { return nil }
        return last - (last - slot) % slots
    }

    /// A writer saving in a loop is killed with SIGKILL at random moments, 25 times; every
    /// time, the file loads and holds exactly the state of the last save the writer reported
    /// as returned (or of the one after it, which may have finished without being reported),
    /// and the next writer is not blocked by a lock.
    ///
    /// The writer saves first ~20 ms after it starts (debug build), then every ~2 ms: a kill
    /// 5-90 ms in lands before its first save about one time in six, and otherwise among
    /// dozens of saves, in the middle of one or between two.
    @Test func aWriterKilledMidSaveLeavesExactlyTheLastSavedState() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.file()
            let slots = 30
            var generator = SystemRandomNumberGenerator()
            var lastSaved = -1
            for round in 0..<25 {
                let writer = try ModelKitTool.start([
                    "prefs", "write-loop", "test", "--prefix", "k", "--start", "\(lastSaved + 1)", "--count", "0",
                    "--keys", "\(slots)", "--padding", "4000", "--report", "--file", file.path,
                ])
                try await Task.sleep(for: .milliseconds(Int.random(in: 5...90, using: &generator)))
                writer.kill()
                let result = await writer.finish()
                #expect(result.wasKilled, "the writer ended by itself: \(result.errorOutput)")
                let reported = result.output.split(separator: "\n").compactMap { line in
                    line.hasPrefix("saved ") ? Int(line.dropFirst(6)) : nil
                }.last ?? lastSaved

                guard FileManager.default.fileExists(atPath: file.path) else {
                    #expect(reported == -1, "round \(round): no file after save \(reported)")
                    continue
                }
                let stored = try parsedObject(at: file)
                let numbers = stored.mapValues { value -> Int? in
                    guard case .object(let members) = value, case .int(let n)? = members.first(where: { $0.key == "n" })?.value
                    else { return nil }
                    return Int(n)
                }
                let saved = numbers.values.compactMap { $0 }.max() ?? -1
                #expect(saved == reported || saved == reported + 1, "round \(round): the file holds save \(saved), the writer reported \(reported)")
                var expected: [String: Int?] = [:]
                for slot in 0..<slots {
                    if let value = Self.expectedValue(slot: slot, slots: slots, last: saved) { expected["k-\(slot)"] = value }
                }
                #expect(numbers == expected, "round \(round): not the state of save \(saved)")
                let prefs = try manualPreferences(file)
                try expectEqual(prefs.allValues(), stored)
                lastSaved = saved
            }
            #expect(lastSaved > 0)
            #expect(!directory.entries().contains { $0.contains(".corrupt-") })

            // A new writer finishes: the killed writers' locks died with them.
            let last = try await ModelKitTool.run(["prefs", "set", "test", "done", "true", "--file", file.path])
            #expect(last.status == 0, "\(last.errorOutput)")
            try expectEqual(parsedObject(at: file)["done"], .bool(true))
        }
    }

    /// A save that cannot fit (files limited to 64 KiB, as on a full disk) fails with a typed
    /// error; the file keeps its previous contents and no temporary file is left behind.
    @Test func aSaveOnAFullDiskFailsAndKeepsThePreviousFile() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.file()
            let first = try await ModelKitTool.run(["prefs", "set", "test", "kept", "1", "--file", file.path])
            #expect(first.status == 0, "\(first.errorOutput)")
            let before = try Data(contentsOf: file)
            let entriesBefore = directory.entries()

            let full = try await ModelKitTool.run(
                ["prefs", "write-loop", "test", "--count", "1", "--padding", "1000000", "--file", file.path], fileSizeLimit: 128)
            #expect(!full.wasKilled && full.status != 0, "status \(full.status): \(full.errorOutput)")
            #expect(full.errorOutput.contains("cannot write preferences file"), "\(full.errorOutput)")
            try expectEqual(Data(contentsOf: file), before)
            expectEqual(directory.entries(), entriesBefore)
            try expectEqual(parsedObject(at: file), ["kept": .int(1)])
        }
    }
}
