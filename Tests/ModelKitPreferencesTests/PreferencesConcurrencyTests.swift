import Foundation
import ModelKit
import ModelKitPreferences
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
            #expect(stored.count == 240)
            for task in 0..<6 {
                for index in 0..<40 { #expect(stored["t\(task)-\(index)"] == .int(Int64(index))) }
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
            #expect(stored.count == 200)
            for prefix in ["a", "b"] {
                for index in 0..<100 { #expect(stored["\(prefix)-\(index)"] == .int(Int64(index))) }
            }
        }
    }

    /// Two shells each running `modelkit prefs set` 100 times, one process per write.
    @Test func twoLoopsOfSetCommandsLoseNothing() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.file()
            try await withThrowingTaskGroup(of: [ToolResult].self) { group in
                for prefix in ["x", "y"] {
                    group.addTask {
                        var failures: [ToolResult] = []
                        for index in 0..<100 {
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
            #expect(stored.count == 200)
            #expect(stored["x99"] == .int(99))
            #expect(stored["y0"] == .int(0))
        }
    }

    /// A writer saving in a loop is killed with SIGKILL at random moments; every time, the file
    /// still loads, holds every key saved before, and the next writer is not blocked by a lock.
    @Test func aWriterKilledMidSaveLeavesAFileThatLoads() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.file()
            var generator = SystemRandomNumberGenerator()
            var keysSeen = 0
            for round in 0..<25 {
                let writer = try ModelKitTool.start([
                    "prefs", "write-loop", "test", "--prefix", "k", "--count", "0", "--keys", "30",
                    "--padding", "4000", "--file", file.path,
                ])
                if round == 0 {
                    // Let the first writer save at least once.
                    #expect(await eventually { FileManager.default.fileExists(atPath: file.path) })
                }
                try await Task.sleep(for: .milliseconds(Int.random(in: 5...120, using: &generator)))
                writer.kill()
                let result = await writer.finish()
                #expect(result.wasKilled, "the writer ended by itself: \(result.errorOutput)")

                let stored = try parsedObject(at: file)
                #expect(stored.count >= keysSeen, "round \(round) lost keys")
                keysSeen = stored.count
                let prefs = try manualPreferences(file)
                #expect(try prefs.allValues() == stored)
            }
            #expect(keysSeen > 0)
            #expect(!directory.entries().contains { $0.contains(".corrupt-") })

            // A new writer finishes: the killed writers' locks died with them.
            let last = try await ModelKitTool.run(["prefs", "set", "test", "done", "true", "--file", file.path])
            #expect(last.status == 0, "\(last.errorOutput)")
            #expect(try parsedObject(at: file)["done"] == .bool(true))
        }
    }
}
