import ArgumentParser
import Foundation
import ModelKit
import ModelKitStore

/// `modelkit store`: what a store holds (`migrations`), and the utilities the tests drive
/// (hidden from help).
struct StoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "store", abstract: "Inspect a store.",
        subcommands: [MigrationsCommand.self, WriteBatchCommand.self, WriteLoadCommand.self])
}

/// `modelkit store migrations --db PATH|URL [--schema NAME]`: the migration steps the store
/// records, one per line (position, name, when it ran), or `no migrations recorded`.
struct MigrationsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrations", abstract: "List the migration steps a store has run.")

    @Option(help: "The SQLite file, or a postgres:// URL.") var db: String
    @Option(help: "The PostgreSQL schema of the tables.") var schema: String?

    func run() async throws {
        let location = StoreLocation(text: db)
        // A missing file would be created empty by opening it: say so instead.
        if !location.isPostgres, !FileManager.default.fileExists(atPath: db) {
            throw ToolFailure("there is no store at '\(db)'")
        }
        let opened = try location.open(schema: schema)
        do {
            let records = try await opened.store.migrationRecords()
            standardOutput(records.isEmpty ? "no migrations recorded\n" : records.map { "\($0)\n" }.joined())
        } catch {
            await opened.close()
            throw error
        }
        await opened.close()
    }
}

/// `modelkit store write-batch --db PATH --count N [--batch B] [--batches K] [--pause-after K]`:
/// saves `count` items of batch `batch` in one write transaction (`store.write { }`, a save per
/// 250 items), and of the next batches up to `batches` in all (0: until killed), printing
/// `saved N items of batch B` after each commit. With `--pause-after`, prints `paused after K`
/// once K items are written, inside the open transaction, and waits there to be killed: the
/// durability tests' writer.
struct WriteBatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "write-batch", abstract: "Save a batch of items in one transaction.", shouldDisplay: false)

    @Option(help: "The SQLite file, or a postgres:// URL.") var db: String
    @Option(help: "The PostgreSQL schema of the tables.") var schema: String?
    @Option(help: "How many items to save.") var count: Int
    @Option(help: "The batch number the items carry (and their identifiers start from).") var batch = 1
    @Option(help: "How many batches to save, one transaction each, from --batch on; 0 saves until killed.")
    var batches = 1
    @Option(help: "Stop inside the transaction after this many items, and wait.") var pauseAfter: Int?

    func run() async throws {
        let opened = try StoreLocation(text: db).open(schema: schema)
        let store = opened.store
        let payload = String(repeating: "x", count: 200)
        var current = batch
        while batches == 0 || current < batch + batches {
            standardOutput("started batch \(current)\n")
            try await store.write { tx in
                var chunk: [BatchItem] = []
                for index in 0...count {
                    if chunk.count == 250 || index == pauseAfter || index == count {
                        try await tx.save(chunk)
                        chunk.removeAll(keepingCapacity: true)
                    }
                    if index == pauseAfter {
                        standardOutput("paused after \(index)\n")
                        while true { try await Task.sleep(for: .seconds(60)) }
                    }
                    if index < count {
                        chunk.append(BatchItem(id: current * 100_000_000 + index, batch: current, payload: payload))
                    }
                }
            }
            standardOutput("saved \(count) items of batch \(current)\n")
            current += 1
        }
        await opened.close()
    }
}

/// `modelkit store write-load --db URL --writer NAME --ids N --operations K [--seed S]`: saves
/// `operations` load items, each with an identifier drawn from `0..<ids` (so writers overlap) and
/// values derived from the writer and the operation (``LoadItem/isWhole``), in transactions of
/// one to five saves; prints `done K` at the end. The concurrency tests' second process.
struct WriteLoadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "write-load", abstract: "Save overlapping items, as one of several writers.", shouldDisplay: false)

    @Option(help: "The SQLite file, or a postgres:// URL.") var db: String
    @Option(help: "The PostgreSQL schema of the tables.") var schema: String?
    @Option(help: "The writer's name, written into each item.") var writer: String
    @Option(help: "How many identifiers the items are drawn from.") var ids: Int
    @Option(help: "How many items to save.") var operations: Int
    @Option(help: "The seed of the identifiers' order.") var seed: UInt64 = 1

    func run() async throws {
        let opened = try StoreLocation(text: db).open(schema: schema)
        var random = seed
        var done = 0
        while done < operations {
            let size = min(operations - done, 1 + Int(Self.next(&random) % 5))
            let items = (0..<size).map { offset in
                LoadItem(id: Int(Self.next(&random) % UInt64(ids)), writer: writer, sequence: done + offset)
            }
            try await opened.store.write { tx in try await tx.save(items) }
            done += size
        }
        standardOutput("done \(done)\n")
        await opened.close()
    }

    /// A small deterministic generator (SplitMix64).
    static func next(_ state: inout UInt64) -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// One row of the concurrency tests: every value follows from the writer and the sequence
/// number, so a row mixing two writers' values shows (the tests check that).
@Model struct LoadItem {
    @Identifier var id: Int
    var writer: String
    var sequence: Int
    var label: String
    var weight: Double
    var flags: [String]

    init(id: Int, writer: String, sequence: Int) {
        self.id = id
        self.writer = writer
        self.sequence = sequence
        self.label = "\(writer)#\(sequence)"
        self.weight = Double(sequence) + Double(writer.utf8.count) / 8
        self.flags = [writer, String(sequence)]
    }
}

/// One row of a durability batch.
@Model struct BatchItem {
    @Identifier var id: Int
    var batch: Int
    var payload: String
}

/// Writes to standard output at once (no buffering), so a parent process sees it before a kill.
func standardOutput(_ text: String) {
    FileHandle.standardOutput.write(Data(text.utf8))
}
