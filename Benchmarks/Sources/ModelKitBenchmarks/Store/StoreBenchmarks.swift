import Foundation
import GRDB
import ModelKit
import ModelKitStore

// The store and identity comparisons: ModelKit's SQLite store against raw GRDB running the same
// statements on the same table layout (each side its own file in WAL mode), and the identity
// map's lookup-or-insert against a hand-written locked dictionary of weak references.

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
    ]
    // With MODELKIT_BENCHMARK_BASELINE=1 the sides swap, so that `--runs NAME N` (which runs the
    // ModelKit side) counts the baseline's instructions under callgrind.
    guard ProcessInfo.processInfo.environment["MODELKIT_BENCHMARK_BASELINE"] == "1" else { return comparisons }
    return comparisons.map { comparison in
        Comparison(
            name: comparison.name, baselineName: "ModelKit", unit: comparison.unit, modelKit: comparison.baseline,
            baseline: comparison.modelKit, notes: comparison.notes)
    }
}

/// `identity.lookup`: lookup-or-insert of live instances, from one task and from two at once.
func identityComparisons() -> [Comparison] {
    let one = IdentityLookups(count: 10_000), two = IdentityLookups(count: 10_000)
    let halves = [0..<two.count / 2, two.count / 2..<two.count]
    return [
        Comparison(
            name: "identity.lookup", baselineName: "locked dictionary", unit: .operations(one.count, label: "lookup"),
            modelKit: { one.lookups(0..<one.count) },
            baseline: { one.baselineLookups(0..<one.count) },
            notes: { "ModelContext.register(_:for:) of \(one.count) live class instances by Int identifier, against [Int: weak] under NSLock" }),
        Comparison(
            name: "identity.lookup.2-tasks", baselineName: "locked dictionary", unit: .operations(two.count, label: "lookup"),
            modelKit: { DispatchQueue.concurrentPerform(iterations: 2) { two.lookups(halves[$0]) } },
            baseline: { DispatchQueue.concurrentPerform(iterations: 2) { two.baselineLookups(halves[$0]) } },
            notes: { "two threads, one context, half of the identifiers each; wall time per lookup" }),
    ]
}

/// One identity line's instances, context and baseline map, kept alive for the whole run.
///
/// Each line has its own. An instance's first weak reference gives it a side table, where every
/// later retain and release of it goes, placed wherever malloc finds room at that moment. Shared
/// with the one-task line (which registers them all from one thread first), the instances read
/// 38 ns per lookup from two tasks against 22-25 ns for the two-task line run alone, in the same
/// binary and at the same instruction count per lookup (callgrind): the cost was in how the two
/// threads' side tables lay in memory, not in the lookups. Each side likewise has its own
/// instances, so that the baseline's weak references are not charged to ModelKit.
final class IdentityLookups: @unchecked Sendable {
    // @unchecked: the arrays are set once and only read; the context and the map lock themselves.
    let count: Int
    private let entities: [IdentityEntity]
    private let baselineEntities: [IdentityEntity]
    private let context = ModelContext()
    private let baseline = LockedWeakMap()

    init(count: Int) {
        self.count = count
        entities = (0..<count).map { IdentityEntity(id: $0) }
        baselineEntities = (0..<count).map { IdentityEntity(id: $0) }
    }

    /// ModelKit's side: registers (looks up) the instances of `range`.
    func lookups(_ range: Range<Int>) {
        for index in range { _ = context.register(entities[index], for: index) }
    }

    /// The baseline's side: the same through a locked dictionary of weak references.
    func baselineLookups(_ range: Range<Int>) {
        for index in range { _ = baseline.lookupOrInsert(baselineEntities[index], identifier: index) }
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
final class LockedWeakMap: @unchecked Sendable {
    // @unchecked: `entries` is only touched under `lock`.
    private struct Weak {
        weak var object: IdentityEntity?
    }

    private let lock = NSLock()
    private var entries: [Int: Weak] = [:]

    func lookupOrInsert(_ entity: IdentityEntity, identifier: Int) -> IdentityEntity {
        lock.lock()
        defer { lock.unlock() }
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
