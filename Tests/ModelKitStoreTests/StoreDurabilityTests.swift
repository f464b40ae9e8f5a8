import Foundation
import GRDB
import ModelKitStore
import ModelKitTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A writer process killed in the middle of a large batch save: the database holds all of the
/// batch or none of it, and nothing committed before is lost.
@Suite(.serialized) struct StoreDurabilityTests {
    /// Where the writer is when it is killed.
    enum KillPoint: String, CaseIterable, CustomTestStringConvertible {
        /// Inside its open transaction, after writing half the batch (it waits there).
        case paused
        /// Wherever it got to a moment after it started.
        case running

        var testDescription: String { rawValue }

        /// The batch: large enough that 300 ms after it starts the running writer is in the
        /// middle of it (300,000 rows take ~2 s in a debug build); the paused writer stops
        /// inside its transaction whatever the size.
        var batchSize: Int { self == .running ? 300_000 : 100_000 }
    }

    @Test(arguments: KillPoint.allCases)
    func aKilledWriterLeavesAllOrNoneOfItsBatch(killPoint: KillPoint) async throws {
        let batchSize = killPoint.batchSize
        let directory = try TemporaryDirectory()
        let path = directory.path("durable.sqlite")

        // Batch 1, committed.
        let first = try Writer.start(["--db", path, "--count", "1000", "--batch", "1"])
        try first.waitForOutput("saved 1000 items of batch 1")
        expectEqual(first.wait(), 0)

        // Batch 2, killed on the way.
        var arguments = ["--db", path, "--count", "\(batchSize)", "--batch", "2"]
        if killPoint == .paused { arguments += ["--pause-after", "\(batchSize / 2)"] }
        let second = try Writer.start(arguments)
        if killPoint == .paused {
            try second.waitForOutput("paused after \(batchSize / 2)")
            // Another connection sees only what was committed while the transaction is open.
            try expectEqual(counts(path), [1: 1000])
        } else {
            try second.waitForOutput("started batch 2")
            try await Task.sleep(for: .milliseconds(300))
        }
        second.killNow()

        let rows = try counts(path)
        expectEqual(rows[1], 1000)
        #expect(rows[2] == nil || rows[2] == batchSize, "batch 2 has \(rows[2] ?? 0) rows")
        if killPoint == .paused { #expect(rows[2] == nil) }
        let check = try await DatabaseQueue(path: path).read { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") }
        expectEqual(check, "ok")

        // The store still works: a later batch commits after the killed one.
        let third = try Writer.start(["--db", path, "--count", "10", "--batch", "3"])
        try third.waitForOutput("saved 10 items of batch 3")
        expectEqual(third.wait(), 0)
        try expectEqual(counts(path)[3], 10)
    }

    /// A writer committing batch after batch is killed at a random moment, 12 times: each
    /// time the database opens, holds every batch the writer reported committed (and at most the
    /// one after it, which may have committed unreported), each whole, and nothing else.
    @Test func killsAtRandomMomentsLoseNoCommittedBatch() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("killed.sqlite")
        let batchSize = 2000
        var generator = SystemRandomNumberGenerator()
        var committed = 0
        for round in 0..<12 {
            let writer = try Writer.start([
                "--db", path, "--count", "\(batchSize)", "--batch", "\(committed + 1)", "--batches", "0",
            ])
            // The writer starts its first batch ~20 ms in (debug build) and commits one every
            // 10-20 ms: most kills land among its batches, some during its start, and while the
            // machine is loaded and it starts later, some rounds still commit batches.
            try await Task.sleep(for: .milliseconds(Int.random(in: 10...150, using: &generator)))
            let output = writer.killAndDrain()
            let reported = output.split(separator: "\n").compactMap { line -> Int? in
                guard line.hasPrefix("saved \(batchSize) items of batch ") else { return nil }
                return Int(line.split(separator: " ").last ?? "")
            }.last ?? committed

            let rows = try counts(path)
            let newest = rows.keys.max() ?? 0
            #expect(newest == reported || newest == reported + 1, "round \(round): batches up to \(newest), reported \(reported)")
            let expectedBatches: Set<Int> = newest > 0 ? Set(1...newest) : []
            #expect(Set(rows.keys) == expectedBatches, "round \(round): batches \(rows.keys.sorted())")
            #expect(rows.values.allSatisfy { $0 == batchSize }, "round \(round): a partial batch in \(rows)")
            committed = newest
        }
        #expect(committed > 0)
        let check = try await DatabaseQueue(path: path).read { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") }
        expectEqual(check, "ok")
    }

    /// A batch that cannot fit (files limited to 2 MiB, as on a full disk) fails with an
    /// error, not a signal; the batches before it are intact and the store keeps working.
    @Test func aBatchOnAFullDiskFailsAndKeepsWhatWasCommitted() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("full.sqlite")
        let first = try Writer.start(["--db", path, "--count", "1000", "--batch", "1"])
        try first.waitForOutput("saved 1000 items of batch 1")
        expectEqual(first.wait(), 0)

        let full = try Writer.start(["--db", path, "--count", "100000", "--batch", "2"], fileSizeLimit: 4096)
        let status = full.wait()
        let errors = String(decoding: full.errors.readDataToEndOfFile(), as: UTF8.self)
        #expect(full.process.terminationReason == .exit && status != 0, "status \(status): \(errors)")
        // SQLite reports EFBIG as an I/O error; the store's error names the table and the row.
        #expect(errors.contains("database error in 'BatchItem'") && errors.contains("SQLite error 10: disk I/O error"), "\(errors)")
        try expectEqual(counts(path), [1: 1000])
        let check = try await DatabaseQueue(path: path).read { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") }
        expectEqual(check, "ok")

        let third = try Writer.start(["--db", path, "--count", "10", "--batch", "3"])
        try third.waitForOutput("saved 10 items of batch 3")
        expectEqual(third.wait(), 0)
        try expectEqual(counts(path), [1: 1000, 3: 10])
    }

    /// Rows per batch, read by a connection of its own; none when no writer got as far as
    /// creating the table (a writer killed within its first milliseconds).
    func counts(_ path: String) throws -> [Int: Int] {
        let database = try DatabaseQueue(path: path)
        return try database.read { db in
            guard try db.tableExists("BatchItem") else { return [:] }
            let rows = try Row.fetchAll(db, sql: #"SELECT "batch", COUNT(*) AS n FROM "BatchItem" GROUP BY "batch""#)
            return Dictionary(uniqueKeysWithValues: rows.map { (Int($0["batch"] as Int64), Int($0["n"] as Int64)) })
        }
    }
}

/// `modelkit store write-batch` running in a process of its own.
struct Writer {
    let process: Process
    let output: FileHandle
    let errors: FileHandle

    /// Starts the writer; with `fileSizeLimit`, under the shell's `ulimit -f` (512-byte blocks)
    /// with SIGXFSZ ignored, so that writing past it fails with EFBIG as on a full disk.
    static func start(_ arguments: [String], fileSizeLimit: Int? = nil) throws -> Writer {
        let tool = try ModelKitTool.start(["store", "write-batch"] + arguments, fileSizeLimit: fileSizeLimit)
        return Writer(process: tool.process, output: tool.output.fileHandleForReading, errors: tool.errors.fileHandleForReading)
    }

    /// Kills the writer at once and returns everything it printed.
    func killAndDrain() -> String {
        killNow()
        return String(decoding: output.readDataToEndOfFile(), as: UTF8.self)
    }

    /// Reads the writer's output until `text` appears; throws if it ends first. Returns the
    /// output read, which a later drain no longer sees.
    @discardableResult
    func waitForOutput(_ text: String) throws -> String {
        var seen = ""
        while !seen.contains(text) {
            let data = output.availableData
            if data.isEmpty { throw WriterEnded(output: seen) }
            seen += String(decoding: data, as: UTF8.self)
        }
        return seen
    }

    /// Kills the writer at once (SIGKILL: no cleanup of any kind) and waits for it to end.
    func killNow() {
        _ = kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Waits for the writer to end; its exit status.
    func wait() -> Int32 {
        process.waitUntilExit()
        return process.terminationStatus
    }

    struct WriterEnded: Error, CustomStringConvertible {
        let output: String
        var description: String { "the writer ended before printing what was expected; it printed: \(output)" }
    }
}
