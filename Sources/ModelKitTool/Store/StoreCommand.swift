import ArgumentParser
import Foundation
import ModelKit
import ModelKitStore

/// `modelkit store`: store utilities the tests drive (hidden from help).
struct StoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "store", abstract: "Store utilities for tests.", shouldDisplay: false,
        subcommands: [WriteBatchCommand.self])
}

/// `modelkit store write-batch --db PATH --count N [--batch B] [--batches K] [--pause-after K]`:
/// saves `count` items of batch `batch` in one write transaction (`store.write { }`, a save per
/// 250 items), and of the next batches up to `batches` in all (0: until killed), printing
/// `saved N items of batch B` after each commit. With `--pause-after`, prints `paused after K`
/// once K items are written, inside the open transaction, and waits there to be killed: the
/// durability tests' writer.
struct WriteBatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "write-batch", abstract: "Save a batch of items in one transaction.")

    @Option(help: "The SQLite file.") var db: String
    @Option(help: "How many items to save.") var count: Int
    @Option(help: "The batch number the items carry (and their identifiers start from).") var batch = 1
    @Option(help: "How many batches to save, one transaction each, from --batch on; 0 saves until killed.")
    var batches = 1
    @Option(help: "Stop inside the transaction after this many items, and wait.") var pauseAfter: Int?

    func run() async throws {
        let store = try SQLiteStore(path: db)
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
