import Foundation
import ModelKit
import ModelKitPreferences
import ModelKitTestSupport
import Testing

/// AsyncSequences per key and for all keys, fed by every instance in the process and by other
/// processes' saves.
@Suite("Preferences: observation")
struct PreferencesObservationTests {
    @Test func aKeysSequenceYieldsItsNewValues() async throws {
        try await withTemporaryDirectory { directory in
            let prefs = try manualPreferences(directory.file())
            let volumes = Collector(prefs.changes(of: .volume))
            defer { volumes.stop() }
            prefs[.volume] = 0.1
            prefs[.theme] = "dark"  // another key: not yielded
            prefs[.volume] = 0.1  // no change: not yielded
            prefs[.volume] = 0.2
            try prefs.reset(.volume)  // removed: the default
            #expect(await volumes.wait { $0.count == 3 })
            expectEqual(volumes.items, [0.1, 0.2, 0.5])
        }
    }

    @Test func initialYieldsTheCurrentValueFirst() async throws {
        try await withTemporaryDirectory { directory in
            try Data(#"{"theme": "dark"}"#.utf8).write(to: directory.file())
            let prefs = try manualPreferences(directory.file())
            let themes = Collector(prefs.changes(of: .theme, initial: true))
            defer { themes.stop() }
            prefs[.theme] = "blue"
            #expect(await themes.wait { $0.count == 2 })
            expectEqual(themes.items, ["dark", "blue"])
        }
    }

    @Test func theAllKeysSequenceYieldsEveryChangeInOrder() async throws {
        try await withTemporaryDirectory { directory in
            let prefs = try manualPreferences(directory.file())
            let changes = Collector(prefs.changes())
            defer { changes.stop() }
            prefs["a"] = .int(1)
            prefs.values = ["b": .int(2)]
            #expect(await changes.wait { $0.count == 3 })
            #expect(
                changes.items == [
                    PreferencesChange(key: "a", value: .int(1), origin: .thisProcess),
                    PreferencesChange(key: "a", value: nil, origin: .thisProcess),
                    PreferencesChange(key: "b", value: .int(2), origin: .thisProcess),
                ])
        }
    }

    @Test func changesThroughAnyInstanceInTheProcessAreSeen() async throws {
        try await withTemporaryDirectory { directory in
            let observed = try manualPreferences(directory.file())
            let themes = Collector(observed.changes(forKey: "theme"))
            defer { themes.stop() }
            let other = try manualPreferences(directory.file())
            let third = try Preferences(file: directory.file(), configuration: .init(savePolicy: .immediately))
            other["theme"] = .string("dark")
            third["theme"] = .string("blue")
            #expect(await themes.wait { $0.count == 2 })
            expectEqual(themes.items, [.string("dark"), .string("blue")])
        }
    }

    @Test func anObservationOutlivesTheInstance() async throws {
        try await withTemporaryDirectory { directory in
            let stream = try manualPreferences(directory.file()).changes(of: .launches)
            let launches = Collector(stream)
            defer { launches.stop() }
            let prefs = try manualPreferences(directory.file())
            prefs[.launches] = 1
            #expect(await launches.wait { $0 == [1] })
        }
    }

    @Test func manyTasksObservingAndWritingAtOnce() async throws {
        try await withTemporaryDirectory { directory in
            let prefs = try manualPreferences(directory.file())
            let changes = Collector(prefs.changes())
            defer { changes.stop() }
            await withTaskGroup(of: Void.self) { group in
                for task in 0..<8 {
                    group.addTask {
                        for index in 0..<25 { prefs["t\(task)-\(index)"] = .int(Int64(index)) }
                    }
                }
            }
            #expect(await changes.wait { $0.count == 200 })
            expectEqual(Set(changes.items.map(\.key)).count, 200)
        }
    }

    @Test func aChangeSavedByAnotherProcessIsObserved() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.file()
            let prefs = try manualPreferences(file, pollInterval: .milliseconds(20))
            let all = Collector(prefs.changes())
            let volumes = Collector(prefs.changes(of: .volume))
            defer {
                all.stop()
                volumes.stop()
            }
            let result = try await ModelKitTool.run(["prefs", "set", "test", "volume", "0.9", "--file", file.path])
            #expect(result.status == 0, "\(result.errorOutput)")
            // Observation polls the file, so the change arrives within a few intervals.
            #expect(await volumes.wait { $0 == [0.9] })
            #expect(await all.wait { !$0.isEmpty })
            expectEqual(all.items.first, PreferencesChange(key: "volume", value: .double(0.9), origin: .otherProcess))
        }
    }

    @Test func aReadPicksUpAnotherProcessesSaveAtOnce() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.file()
            let prefs = try manualPreferences(file)
            expectEqual(prefs[.theme], "light")
            let result = try await ModelKitTool.run(["prefs", "set", "test", "theme", "dark", "--file", file.path])
            #expect(result.status == 0, "\(result.errorOutput)")
            expectEqual(prefs[.theme], "dark")
            let deleted = try await ModelKitTool.run(["prefs", "delete", "test", "theme", "--file", file.path])
            #expect(deleted.status == 0, "\(deleted.errorOutput)")
            expectEqual(prefs[.theme], "light")
        }
    }

    @Test func anUndecodableValueFromElsewhereYieldsTheDefaultAndRecordsAnError() async throws {
        try await withTemporaryDirectory { directory in
            let prefs = try manualPreferences(directory.file())
            let volumes = Collector(prefs.changes(of: .volume))
            defer { volumes.stop() }
            prefs["volume"] = .string("loud")
            #expect(await volumes.wait { $0 == [0.5] })
            #expect(prefs.lastError?.kind == .undecodableValue)
        }
    }
}
