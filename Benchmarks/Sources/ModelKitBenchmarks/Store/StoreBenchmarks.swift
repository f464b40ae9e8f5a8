import Foundation
import GRDB
import ModelKit
import ModelKitStore

// The store and identity comparisons: ModelKit's SQLite store against raw GRDB running the same
// statements on the same table layout (each side its own file in WAL mode), and the identity
// map against a hand-written dictionary of weak references.

/// A user as the store benchmarks save and fetch it: scalars only, so both sides write the same row.
@Model struct StoreUser {
    @Identifier var id: Int
    var name: String
    var email: String
    var age: Int
    var balance: Double
    var isActive: Bool
    var registered: Date
}

/// An identified class, for the identity map.
@Model final class IdentityEntity {
    @Identifier var id: Int
    var value: Int = 0
}

func storeComparisons() throws -> [Comparison] {
    // One directory, emptied at each start, so runs do not pile files up.
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("modelkit-benchmarks-store")
    try? FileManager.default.removeItem(at: directory)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let count = 100_000
    let users = storeUsers(count: count)

    let store = try SQLiteStore(path: directory.appendingPathComponent("store.sqlite").path)
    try waitFor { try await store.save(users) }
    // The raw side: the same table, created by the same statement, in a file of its own.
    let raw = try RawUsers(
        database: try walQueue(directory.appendingPathComponent("raw.sqlite").path),
        create: try rawStatement(store, "SELECT sql FROM sqlite_master WHERE name = 'StoreUser'"))
    try raw.save(users)
    let ids = (0..<10_000).map { ($0 &* 7919) % count }
    let (stored, storedCount) = try waitFor {
        (try await store.fetchOne(StoreUser.self, id: 4242), try await store.fetchCount(StoreUser.self))
    }
    guard try raw.fetch(id: 4242) == users[4242], stored == users[4242], storedCount == count, try raw.count() == count
    else { throw BenchmarkError("the two sides of the store comparisons do not hold the same rows") }
    // The filtered, ordered fetch: users of 70 and over by balance, richest first (no index: a
    // scan and a sort on both sides).
    let query = ModelQuery(StoreUser.self).filter(\StoreUser.age >= 70).order(by: \StoreUser.balance, .descending)
    let (all, selected) = try waitFor { (try await store.fetchAll(StoreUser.self), try await store.fetchAll(query)) }
    guard all.count == count, try raw.fetchAll() == all.sorted(by: { $0.id < $1.id }),
        try raw.fetchOlder(than: 70) == selected, selected.count > 1000
    else { throw BenchmarkError("the two sides of the fetch comparisons do not read the same models") }

    let comparisons = [
        Comparison(
            name: "store.save.users", baselineName: "GRDB", unit: .operations(count, label: "user"),
            modelKit: {
                try waitFor {
                    try await store.deleteAll(StoreUser.self)
                    try await store.save(users)
                }
            },
            baseline: {
                try raw.deleteAll()
                try raw.save(users)
            },
            notes: { "\(count) users in one transaction (after deleting the previous run's), WAL file, same INSERT" }),
        Comparison(
            name: "store.fetch.id", baselineName: "GRDB", unit: .operations(ids.count, label: "fetch"),
            modelKit: { try waitFor { for id in ids { _ = try await store.fetchOne(StoreUser.self, id: id) } } },
            baseline: { for id in ids { _ = try raw.fetch(id: id) } },
            notes: { "one cached SELECT per identifier, no transaction around it, over \(count) rows" }),
        Comparison(
            name: "store.fetch.all", baselineName: "GRDB", unit: .operations(count, label: "row"),
            modelKit: { _ = try waitFor { try await store.fetchAll(StoreUser.self) } },
            baseline: { _ = try raw.fetchAll() },
            notes: { "every row of \(count) into models, one read" }),
        Comparison(
            name: "store.query", baselineName: "GRDB", unit: .operations(selected.count, label: "row"),
            modelKit: { _ = try waitFor { try await store.fetchAll(query) } },
            baseline: { _ = try raw.fetchOlder(than: 70) },
            notes: { "age >= 70 ordered by balance, descending: \(selected.count) of \(count) rows" }),
    ] + (try aggregateComparisons(store: store, raw: raw, count: count)) + [try concurrentReadComparison(in: directory)]
        + (try relationshipComparisons(in: directory)) + (try prefetchComparison(in: directory))
    // With MODELKIT_BENCHMARK_BASELINE=1 the sides swap, so that `--runs NAME N` (which runs the
    // ModelKit side) counts the baseline's instructions under callgrind.
    guard ProcessInfo.processInfo.environment["MODELKIT_BENCHMARK_BASELINE"] == "1" else { return comparisons }
    return comparisons.map { comparison in
        Comparison(
            name: comparison.name, baselineName: "ModelKit", unit: comparison.unit, modelKit: comparison.baseline,
            baseline: comparison.modelKit, notes: comparison.notes)
    }
}

/// `identity.*`: lookup-or-insert of live instances in one context, and what holding them costs
/// the rest of the program, against the Swift-only design (a dictionary of `weak` references, no
/// lock: a context stays in one isolation domain).
///
/// `identity.lookup.2-contexts` runs two threads, each with a context and instances of its own
/// (a context per isolation domain); wall time per lookup, so it shows whether two domains slow
/// each other down. `identity.retain` retains and releases each held instance 10 times (what
/// passing models around costs): a context's unowned reference leaves an instance's reference
/// counts inline, while the first `weak` reference to it moves them to a side table.
func identityComparisons() -> [Comparison] {
    let one = IdentityLookups(count: 10_000)
    let halves = [IdentityLookups(count: 5_000), IdentityLookups(count: 5_000)]
    let held = IdentityLookups(count: 10_000)
    return [
        Comparison(
            name: "identity.lookup", baselineName: "weak dictionary", unit: .operations(one.count, label: "lookup"),
            modelKit: { one.lookups() },
            baseline: { one.baselineLookups() },
            notes: { "ModelContext.register(_:for:) of \(one.count) live class instances by Int identifier, against [Int: weak]" }),
        Comparison(
            name: "identity.lookup.2-contexts", baselineName: "weak dictionary", unit: .operations(10_000, label: "lookup"),
            modelKit: { DispatchQueue.concurrentPerform(iterations: 2) { halves[$0].lookups() } },
            baseline: { DispatchQueue.concurrentPerform(iterations: 2) { halves[$0].baselineLookups() } },
            notes: { "two threads, a context (or a dictionary) and 5,000 instances each; wall time per lookup" }),
        Comparison(
            name: "identity.retain", baselineName: "weakly held", unit: .operations(held.count * 10, label: "retain"),
            modelKit: { held.retainReleases() },
            baseline: { held.baselineRetainReleases() },
            notes: { "retain and release of instances a context holds, against instances a weak reference holds" }),
    ]
}

/// One identity line's instances, context and baseline map, kept alive for the whole run.
///
/// Each line has its own. An instance's first weak reference gives it a side table, where every
/// later retain and release of it goes, placed wherever malloc finds room at that moment. Shared
/// with another line, the instances read 38 ns per lookup from two threads against 22-25 ns for
/// a line run alone, in the same binary and at the same instruction count per lookup
/// (callgrind): the cost was in how the side tables lay in memory, not in the lookups. Each side
/// likewise has its own instances, so that the baseline's weak references are not charged to
/// ModelKit.
final class IdentityLookups: @unchecked Sendable {
    // @unchecked: a benchmark's lines call one object from one thread at a time (the two-context
    // line gives each thread an object of its own); the arrays are set once and only read.
    let count: Int
    private let entities: [IdentityEntity]
    private let baselineEntities: [IdentityEntity]
    private let context = ModelContext()
    private let baseline = WeakMap()
    private var sink: [IdentityEntity] = []

    init(count: Int) {
        self.count = count
        entities = (0..<count).map { IdentityEntity(id: $0) }
        baselineEntities = (0..<count).map { IdentityEntity(id: $0) }
    }

    /// ModelKit's side: registers (looks up) every instance.
    func lookups() {
        for index in 0..<count { _ = context.register(entities[index], id: index) }
    }

    /// The baseline's side: the same through a dictionary of weak references.
    func baselineLookups() {
        for index in 0..<count { _ = baseline.lookupOrInsert(baselineEntities[index], identifier: index) }
    }

    /// Ten retains and releases of each instance the context holds (registered first).
    func retainReleases() {
        if context.registeredCount == 0 { lookups() }
        retainReleases(entities)
    }

    /// The same for instances a weak reference holds.
    func baselineRetainReleases() {
        if baseline.isEmpty { baselineLookups() }
        retainReleases(baselineEntities)
    }

    /// Copies each instance into a buffer ten times and empties it: a retain and a release each.
    private func retainReleases(_ instances: [IdentityEntity]) {
        sink.reserveCapacity(10)
        for instance in instances {
            for _ in 0..<10 { sink.append(instance) }
            sink.removeAll(keepingCapacity: true)
        }
    }
}
/// What people write by hand with GRDB for the same table: cached statements, arguments, rows.
struct RawUsers {
    let database: DatabaseQueue
    let insertSQL =
        #"INSERT INTO "StoreUser" ("id", "name", "email", "age", "balance", "isActive", "registered", "_version") VALUES (?, ?, ?, ?, ?, ?, ?, ?)"#
        + #" ON CONFLICT("id") DO UPDATE SET "name" = excluded."name", "email" = excluded."email", "age" = excluded."age", "balance" = excluded."balance", "isActive" = excluded."isActive", "registered" = excluded."registered", "_version" = excluded."_version""#
    let selectSQL =
        #"SELECT "id", "name", "email", "age", "balance", "isActive", "registered", "_version" FROM "StoreUser" WHERE "id" = ?"#
    let dates = ISO8601DateFormat.internetDateTimeWithFractionalSeconds

    init(database: DatabaseQueue, create: String) throws {
        self.database = database
        try database.write { db in try db.execute(sql: create) }
    }

    func save(_ users: [StoreUser]) throws {
        try database.write { db in
            let statement = try db.cachedStatement(sql: insertSQL)
            for user in users {
                try statement.execute(arguments: [
                    user.id, user.name, user.email, user.age, user.balance, user.isActive, dates.string(from: user.registered), 0,
                ])
            }
        }
    }

    /// One point read. A single SELECT is a consistent snapshot by itself (SQLite keeps its read
    /// open while it steps), so it runs without the transaction `read` would open around it:
    /// GRDB's `read` spends ~250,000 instructions on that transaction (`PRAGMA query_only` on and
    /// off, and `BEGIN` and `COMMIT` compiled anew each time, with its authorizer tracking the
    /// region) against ~10,000 for the cached SELECT itself. ModelKit's point read does the same.
    func fetch(id: Int) throws -> StoreUser? {
        try database.unsafeRead { db in
            guard let row = try Row.fetchOne(db.cachedStatement(sql: selectSQL), arguments: [id]) else { return nil }
            guard let registered = dates.date(from: row[6] as String) else { throw BenchmarkError("a bad date") }
            return StoreUser(
                id: row[0], name: row[1], email: row[2], age: row[3], balance: row[4], isActive: row[5], registered: registered)
        }
    }

    func fetchAll() throws -> [StoreUser] {
        try fetch(sql: #"SELECT "id", "name", "email", "age", "balance", "isActive", "registered", "_version" FROM "StoreUser""#)
    }

    func fetchOlder(than age: Int) throws -> [StoreUser] {
        try fetch(
            sql: #"SELECT "id", "name", "email", "age", "balance", "isActive", "registered", "_version" FROM "StoreUser" WHERE "age" >= ? ORDER BY "balance" DESC"#,
            arguments: [age])
    }

    private func fetch(sql: String, arguments: StatementArguments = []) throws -> [StoreUser] {
        try database.read { db in
            try Row.fetchCursor(db.cachedStatement(sql: sql), arguments: arguments).map { row in
                guard let registered = dates.date(from: row[6] as String) else { throw BenchmarkError("a bad date") }
                return StoreUser(
                    id: row[0], name: row[1], email: row[2], age: row[3], balance: row[4], isActive: row[5],
                    registered: registered)
            }.reduce(into: []) { $0.append($1) }
        }
    }

    func deleteAll() throws {
        try database.write { db in try db.execute(sql: #"DELETE FROM "StoreUser""#) }
    }

    func count() throws -> Int {
        try database.read { db in try Int.fetchOne(db, sql: #"SELECT COUNT(*) FROM "StoreUser""#) ?? 0 }
    }
}

/// A hand-written identity map for one type with `Int` identifiers: a typed dictionary of weak
/// references behind one lock.
/// The Swift-only identity map: a dictionary of weak references.
final class WeakMap {
    private struct Weak {
        weak var object: IdentityEntity?
    }

    private var entries: [Int: Weak] = [:]

    var isEmpty: Bool { entries.isEmpty }

    func lookupOrInsert(_ entity: IdentityEntity, identifier: Int) -> IdentityEntity {
        if let live = entries[identifier]?.object { return live }
        entries[identifier] = Weak(object: entity)
        return entity
    }
}

/// A GRDB queue on a file in WAL mode, as the store opens its own.
func walQueue(_ path: String) throws -> DatabaseQueue {
    var configuration = Configuration()
    configuration.journalMode = .wal
    configuration.busyMode = .timeout(10)
    return try DatabaseQueue(path: path, configuration: configuration)
}

/// The first column of the first row of a query on the store's own file.
func rawStatement(_ store: SQLiteStore, _ sql: String) throws -> String {
    guard let text = try store.database.read({ db in try String.fetchOne(db, sql: sql) }) else {
        throw BenchmarkError("no result for \(sql)")
    }
    return text
}

/// Deterministic users.
func storeUsers(count: Int) -> [StoreUser] {
    var random = SeededGenerator(state: 7)
    let names = ["Ada", "Grace", "Alan", "Edsger", "Barbara", "Donald", "Frances", "John", "Radia", "Ken"]
    return (0..<count).map { id in
        let name = names[Int(random.next() % UInt64(names.count))]
        return StoreUser(
            id: id, name: "\(name) \(id)", email: "\(name.lowercased()).\(id)@example.com", age: 18 + Int(random.next() % 60),
            balance: Double(random.next() % 10_000_000) / 100, isActive: random.next() % 2 == 0,
            registered: Date(timeIntervalSince1970: TimeInterval(1_300_000_000 + Int(random.next() % 300_000_000))))
    }
}
