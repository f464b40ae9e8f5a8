import Foundation
import GRDB
import ModelKit
import ModelKitStore

// `store.aggregate.*`: ModelKit's aggregates and groups against the same SQL through raw GRDB, on
// the store comparisons' 100,000 users. `store.cursor`: a million rows read through a cursor, in
// the memory of one batch, against GRDB's own cursor over the same rows; it runs only when named,
// as writing the rows takes a while:
//
//     swift run -c release --package-path Benchmarks modelkit-benchmarks store.cursor

/// The aggregate comparisons over `store` and `raw`, which hold the same `count` users.
func aggregateComparisons(store: SQLiteStore, raw: RawUsers, count: Int) throws -> [Comparison] {
    let older = ModelQuery(StoreUser.self).filter(\StoreUser.age >= 70)
    let sumSQL = #"SELECT SUM("balance") FROM "StoreUser" WHERE "age" >= ?"#
    let groupSQL = #"SELECT "age", COUNT(*) FROM "StoreUser" GROUP BY "age" ORDER BY "age""#
    let rawSum = { try raw.database.read { db in try Double.fetchOne(db.cachedStatement(sql: sumSQL), arguments: [70]) ?? 0 } }
    let rawGroups = {
        try raw.database.read { db in
            try Row.fetchAll(db.cachedStatement(sql: groupSQL)).map { (keys: $0[0] as Int, value: $0[1] as Int) }
        }
    }
    let (sum, groups) = try waitFor {
        let groups = try await store.fetchGroups(ModelQuery(StoreUser.self), by: \.age, aggregate: .count)
        return (try await store.fetchAggregate(older, .sum(\.balance)), groups.map { "\($0.keys) \($0.value)" })
    }
    guard try rawSum() == sum, try rawGroups().map({ "\($0.keys) \($0.value)" }) == groups, groups.count == 60 else {
        throw BenchmarkError("the two sides of the aggregate comparisons do not compute the same values")
    }
    return [
        Comparison(
            name: "store.aggregate.sum", baselineName: "GRDB", unit: .operations(count, label: "row"),
            modelKit: { _ = try waitFor { try await store.fetchAggregate(older, .sum(\.balance)) } },
            baseline: { _ = try rawSum() },
            notes: { "SUM(balance) of users of 70 and over: a scan of \(count) rows" }),
        Comparison(
            name: "store.aggregate.groups", baselineName: "GRDB", unit: .operations(count, label: "row"),
            modelKit: { _ = try waitFor { try await store.fetchGroups(ModelQuery(StoreUser.self), by: \.age, aggregate: .count).count } },
            baseline: { _ = try rawGroups() },
            notes: { "COUNT(*) per age, GROUP BY and ORDER BY age: \(groups.count) groups of \(count) rows" }),
    ]
}

/// `store.read.concurrent`: four tasks reading users by identifier while a fifth saves batches
/// of them, on a file store with its pool of read connections against the same store with
/// `readers: 0` (every transaction on one connection, reads behind writes); time per read.
func concurrentReadComparison(in directory: URL) throws -> Comparison {
    let count = 10_000
    let pooled = try SQLiteStore(path: directory.appendingPathComponent("pooled.sqlite").path)
    let single = try SQLiteStore(path: directory.appendingPathComponent("single.sqlite").path, readers: 0)
    try waitFor {
        try await pooled.save(storeUsers(count: count))
        try await single.save(storeUsers(count: count))
    }
    let ids = (0..<2_000).map { ($0 &* 7919) % count }
    let readers = 4
    let run = { @Sendable (store: SQLiteStore) throws in
        try waitFor {
            // The writer saves 100 users at a time, again and again, until the reads are done.
            let writer = Task {
                var round = 0
                while !Task.isCancelled {
                    let batch = storeUsers(count: 100).map { user in
                        var user = user
                        user.id = count + user.id
                        user.age = 18 + round % 60
                        return user
                    }
                    try await store.save(batch)
                    round += 1
                }
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<readers {
                    group.addTask { for id in ids { _ = try await store.fetchOne(StoreUser.self, id: id) } }
                }
                try await group.waitForAll()
            }
            writer.cancel()
            _ = try? await writer.value
        }
    }
    return Comparison(
        name: "store.read.concurrent", baselineName: "one queue", unit: .operations(readers * ids.count, label: "read"),
        modelKit: { try run(pooled) },
        baseline: { try run(single) },
        notes: { "\(readers) tasks reading by id over \(count) rows while one task saves batches of 100; wall time per read" })
}

/// `store.cursor`: writes a million users (a thousand saves of a thousand), then reads them all
/// through `store.cursor` and through GRDB's `Row.fetchCursor`, each with its time per row and
/// the peak resident memory it adds.
func cursorBenchmark(_ arguments: [String]) throws {
    guard arguments.contains(where: { $0.hasPrefix("store.cursor") }) else { return }
    let count = ProcessInfo.processInfo.environment["MODELKIT_CURSOR_ROWS"].flatMap(Int.init) ?? 1_000_000
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("modelkit-benchmarks-cursor-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("cursor.sqlite").path
    let store = try SQLiteStore(path: path)
    let batch = 1_000
    try waitFor {
        var written = 0
        while written < count {
            let users = storeUsers(count: Swift.min(batch, count - written)).map { user in
                var user = user
                user.id += written
                return user
            }
            try await store.save(users)
            written += users.count
        }
    }

    PeakMemory.reset()
    var start = Date()
    let (read, ages) = try waitFor {
        var read = 0
        var ages = 0
        for try await user in store.cursor(ModelQuery(StoreUser.self)) {
            read += 1
            ages &+= user.age
        }
        return (read, ages)
    }
    let seconds = Date().timeIntervalSince(start)
    let peak = PeakMemory.growth()
    let processPeak = PeakMemory.peak()
    guard read == count else { throw BenchmarkError("the cursor read \(read) rows of \(count)") }

    // GRDB's cursor over the same rows, each into the same struct.
    let raw = try walQueue(path)
    let dates = ISO8601DateFormat.internetDateTimeWithFractionalSeconds
    PeakMemory.reset()
    start = Date()
    let rawAges = try raw.read { db in
        var ages = 0
        let rows = try Row.fetchCursor(
            db, sql: #"SELECT "id", "name", "email", "age", "balance", "isActive", "registered" FROM "StoreUser""#)
        while let row = try rows.next() {
            guard let registered = dates.date(from: row[6] as String) else { throw BenchmarkError("a bad date") }
            let user = StoreUser(
                id: row[0], name: row[1], email: row[2], age: row[3], balance: row[4], isActive: row[5], registered: registered)
            ages &+= user.age
        }
        return ages
    }
    let rawSeconds = Date().timeIntervalSince(start)
    let rawPeak = PeakMemory.growth()
    guard rawAges == ages else { throw BenchmarkError("the two cursors read different rows") }
    let perRow = seconds / Double(count) * 1e6
    let rawPerRow = rawSeconds / Double(count) * 1e6
    print("store.cursor: \(grouped(count)) rows, modelkit \(format(perRow)) µs/row, peak RSS \(megabytes(peak)) over baseline "
        + "(the process's peak \(megabytes(processPeak))); "
        + "GRDB cursor \(format(rawPerRow)) µs/row, \(megabytes(rawPeak)); ratio \(format(rawPerRow / perRow))x")
}
