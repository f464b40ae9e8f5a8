import Foundation
import GRDB
import ModelKit
import ModelKitStore
import ModelKitTestSupport
import Testing

#if PostgreSQL
    import ModelKitPostgres
#endif

/// Collects the article example's prints (outside `ExampleOutput.capture` it prints as usual).
private func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    ExampleOutput.print(items, separator: separator, terminator: terminator)
}

/// A member as the first version of an app stored it, in a table the app later renamed.
@Model(table: "Member") final class MemberV0 {
    @Identifier var id: Int
    var name: String
    var nick: String?
    var age: String?
}

// snippet: store-migrations-start
/// The member today: `name` split in two, `nick` renamed `nickname`, `age` a number, and the
/// table renamed from `Member`.
@Model(version: 2) final class Staff {
    @Identifier var id: Int
    var firstName: String = ""
    var lastName: String = ""
    var nickname: String?
    var age: Int?
}
// snippet: store-migrations-end

/// A reading stored as text by an older version.
@Model(table: "Gauge_v0") final class GaugeV0 {
    @Identifier var id: Int
    var reading: String?
}

/// The reading as a number.
@Model final class Gauge {
    @Identifier var id: Int
    var reading: Int?
}

/// `store.migrate(_:)` on every store: steps run once, in order, in one transaction, recorded in
/// the store; queries see what they changed; a failing step leaves the store as it was; a store
/// a newer program migrated is refused.
@Suite struct StoreRecordedMigrationTests {
    /// The steps that bring a `MemberV0` store to `Staff`.
    static var staffMigrations: StoreMigrations {
        // snippet: store-migrations-start
        var migrations = StoreMigrations()
        migrations.append("rename 'Member' to 'Staff'") { step in
            try await step.renameTable("Member", to: "Staff")
        }
        migrations.append("merge 'nick' into 'nickname'") { step in
            try await step.renameColumn("nick", to: "nickname", in: Staff.self)
        }
        migrations.append("split 'name'") { step in
            try await step.updateRows(of: Staff.self) { row in
                guard let name = row["name"].text else { return }   // a row saved as 'Staff' already
                let parts = name.split(separator: " ", maxSplits: 1).map(String.init)
                row["firstName"] = .text(parts.first ?? "")
                row["lastName"] = .text(parts.dropFirst().first ?? "")
            }
            try await step.dropColumn("name", in: Staff.self)
        }
        migrations.append("'age' as a number") { step in
            try await step.retypeColumn("age", in: Staff.self)
        }
        // snippet: store-migrations-end
        return migrations
    }

    /// A store holding what the first version saved.
    func oldStore(_ kind: StoreKind, in directory: TemporaryDirectory) async throws -> any ModelStore {
        let store = try kind.make(in: directory)
        try await store.save([
            MemberV0(id: 1, name: "Ada Lovelace", nick: "ada", age: "36"),
            MemberV0(id: 2, name: "Grace Brewster Hopper", nick: nil, age: "85"),
            MemberV0(id: 3, name: "Alan", nick: "prof", age: nil),
        ])
        return store
    }

    @Test(arguments: StoreKind.allCases)
    func queriesSeeTheValuesTheStepsMoved(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try await oldStore(kind, in: directory)
        var first = StoreMigrations()
        first.append("rename 'Member' to 'Staff'") { step in try await step.renameTable("Member", to: "Staff") }
        try expectEqual(await store.migrate(first), ["rename 'Member' to 'Staff'"])
        // A later version saves a row: its new columns are added, NULL in the old rows.
        try await store.save(Staff(id: 4, firstName: "Edsger", lastName: "Dijkstra", nickname: "ewd", age: nil))
        // The failing case: a query on the new columns misses the old rows, whose values sit in
        // the old columns still.
        try expectEqual(await store.fetchCount(ModelQuery(Staff.self).filter(\Staff.lastName == "Lovelace")), 0)
        try expectEqual(await store.fetchCount(ModelQuery(Staff.self).filter(\Staff.nickname != nil)), 1)

        let ran = try await store.migrate(Self.staffMigrations)
        expectEqual(ran, ["merge 'nick' into 'nickname'", "split 'name'", "'age' as a number"])
        try expectEqual(await store.fetchAll(ModelQuery(Staff.self).filter(\Staff.lastName == "Lovelace")).map(\.id), [1])
        try expectEqual(
            await store.fetchAll(ModelQuery(Staff.self).filter(\Staff.nickname != nil).order(by: \Staff.id)).map(\.nickname),
            ["ada", "prof", "ewd"])
        try expectEqual(
            await store.fetchAll(ModelQuery(Staff.self).filter(\Staff.age > 30).order(by: \Staff.age)).map(\.id), [1, 2])
        let edsger = try #require(try await store.fetchOne(Staff.self, id: 4))
        #expect(edsger.firstName == "Edsger" && edsger.lastName == "Dijkstra" && edsger.nickname == "ewd", "\(edsger)")
        let grace = try #require(try await store.fetchOne(Staff.self, id: 2))
        #expect(grace.firstName == "Grace" && grace.lastName == "Brewster Hopper" && grace.nickname == nil && grace.age == 85)

        // Recorded, in order; run again, nothing runs.
        let records = try await store.migrationRecords()
        expectEqual(records.map(\.name), ["rename 'Member' to 'Staff'"] + ran)
        expectEqual(records.map(\.position), [1, 2, 3, 4])
        #expect(records.allSatisfy { abs($0.appliedAt.timeIntervalSinceNow) < 600 }, "\(records)")
        try expectEqual(await store.migrate(Self.staffMigrations), [])
        try expectEqual(await store.fetchCount(Staff.self), 4)
    }

    @Test(arguments: StoreKind.allCases)
    func aFailingStepLeavesTheStoreAsItWas(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        try await store.save([GaugeV0(id: 1, reading: "12"), GaugeV0(id: 2, reading: "twelve"), GaugeV0(id: 3, reading: "7.0")])
        var migrations = StoreMigrations()
        migrations.append("rename") { step in try await step.renameTable("Gauge_v0", to: "Gauge") }
        migrations.append("retype") { step in try await step.retypeColumn("reading", in: Gauge.self) }
        let error = await #expect(throws: StoreError.self) { try await store.migrate(migrations) }
        expectEqual(error?.kind, .migrationFailed)
        expectEqual(
            error?.description,
            "cannot migrate 'Gauge': the step 'retype' failed, and the store is as it was before: "
                + "2: 'reading' holds 'twelve', which is not an integer")
        // Nothing ran: the old table, its values, no records.
        try expectEqual(await store.migrationRecords(), [])
        try expectEqual(await store.fetchAll(ModelQuery(GaugeV0.self).order(by: \GaugeV0.id)).map(\.reading), ["12", "twelve", "7.0"])

        // Fixed in Swift first, the retype goes through.
        migrations = StoreMigrations()
        migrations.append("rename") { step in try await step.renameTable("Gauge_v0", to: "Gauge") }
        migrations.append("spell out") { step in
            try await step.updateRows(of: Gauge.self) { row in
                if row["reading"] == .text("twelve") { row["reading"] = .text("12") }
            }
        }
        migrations.append("retype") { step in try await step.retypeColumn("reading", in: Gauge.self) }
        try expectEqual(await store.migrate(migrations), ["rename", "spell out", "retype"])
        try expectEqual(await store.fetchAll(ModelQuery(Gauge.self).order(by: \Gauge.id)).map(\.reading), [12, 12, 7])
        try expectEqual(await store.fetchAll(ModelQuery(Gauge.self).filter(\Gauge.reading > 10)).map(\.id).sorted(), [1, 2])
    }

    @Test(arguments: StoreKind.allCases)
    func aStoreANewerProgramMigratedIsRefused(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        var newer = StoreMigrations()
        newer.append("one") { _ in }
        newer.append("two") { _ in }
        try expectEqual(await store.migrate(newer), ["one", "two"])
        var older = StoreMigrations()
        older.append("one") { _ in }
        let error = await #expect(throws: StoreError.self) { try await store.migrate(older) }
        expectEqual(error?.kind, .newerStore)
        #expect(
            error?.description.hasPrefix(
                "cannot migrate: the store records the step 'two' (2 of 2, run 20") == true
                && error?.description.hasSuffix("which this program does not have: a newer version of the program migrated the store") == true,
            "\(String(describing: error))")
        // A step added later, in the middle, runs after the ones recorded.
        var later = newer
        later.append("three") { _ in }
        try expectEqual(await store.migrate(later), ["three"])
        try expectEqual(await store.migrationRecords().map(\.position), [1, 2, 3])
    }

    @Test(arguments: StoreKind.allCases)
    func aUniqueIndexIsRefusedWhileRowsClash(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        try await store.save([
            Account(id: 1, firstName: "A", lastName: "L", email: nil, number: 1),
            Account(id: 2, firstName: "B", lastName: "L", email: nil, number: 2),
        ])
        var migrations = StoreMigrations()
        migrations.append("same last names") { step in
            try await step.addIndex(on: ["lastName"], unique: true, in: Account.self)
        }
        let error = await #expect(throws: StoreError.self) { try await store.migrate(migrations) }
        expectEqual(error?.kind, .migrationFailed)
        expectEqual((error?.underlying as? StoreError)?.kind, .uniqueViolation)
        expectEqual((error?.underlying as? StoreError)?.properties, ["lastName"])
        #expect(
            error?.description == "cannot migrate 'Account': the step 'same last names' failed, and the store is as it was "
                + "before: rows hold the same 'lastName' already, which must be unique", "\(String(describing: error))")

        migrations = StoreMigrations()
        migrations.append("by last name") { step in try await step.addIndex(on: ["lastName", "number"], in: Account.self) }
        migrations.append("and again without it") { step in try await step.dropIndex(on: ["lastName", "number"], in: Account.self) }
        try expectEqual(await store.migrate(migrations), ["by last name", "and again without it"])
    }

    /// What a step gets wrong.
    enum Mistake: String, CaseIterable, CustomTestStringConvertible {
        case noColumn, noTable, takenName, unknownColumn
        var testDescription: String { rawValue }

        nonisolated(nonsending) func make(_ step: StoreMigrationStep) async throws {
            switch self {
            case .noColumn: try await step.dropColumn("nope", in: Gauge.self)
            case .noTable: try await step.renameTable("Nothing", to: "Else")
            case .takenName: try await step.renameTable("Gauge", to: "Gauge")
            case .unknownColumn: try await step.updateRows(of: Gauge.self) { $0["readings"] = .integer(1) }
            }
        }

        /// The start of the error's message.
        var message: String {
            let failed = "the step 's' failed, and the store is as it was before: "
            switch self {
            case .noColumn: return "cannot migrate 'Gauge': " + failed + "there is no column 'nope' (the columns: "
            case .noTable: return "cannot migrate 'Nothing': " + failed + "there is no such table to rename"
            case .takenName: return "cannot migrate 'Gauge': " + failed + "cannot take the name 'Gauge': a table has it"
            case .unknownColumn: return "cannot migrate 'Gauge': " + failed + "1: there is no column 'readings' to set"
            }
        }
    }

    /// What a step gets wrong is an error naming the step, the table and what is there; nothing
    /// is recorded and nothing changes.
    @Test(arguments: StoreKind.allCases, Mistake.allCases)
    func mistakesAreNamed(kind: StoreKind, mistake: Mistake) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        try await store.save(Gauge(id: 1, reading: 3))
        var migrations = StoreMigrations()
        migrations.append("s") { step in try await mistake.make(step) }
        let error = await #expect(throws: StoreError.self) { try await store.migrate(migrations) }
        #expect(error?.description.hasPrefix(mistake.message) == true, "\(String(describing: error))")
        try expectEqual(await store.migrationRecords(), [])
        try expectEqual(await store.fetchOne(Gauge.self, id: 1)?.reading, 3)
    }

    @Test func aStepNamedTwiceIsRefused() async throws {
        let store = MemoryStore()
        var twice = StoreMigrations()
        twice.append("a") { _ in }
        twice.append("a") { _ in }
        let error = await #expect(throws: StoreError.self) { try await store.migrate(twice) }
        expectEqual(error?.description, "cannot migrate: the step 'a' is named twice: a store could not tell which one ran")
        try expectEqual(await store.migrationRecords(), [])
    }

    /// Two stores on one database (two processes, say) migrating at once: each step runs once,
    /// in the first migration; the second finds it recorded and runs nothing.
    @Test(arguments: StoreKind.allCases.filter { $0 == .sqliteFile || $0.isPostgres })
    func twoStoresMigratingOneDatabaseRunEachStepOnce(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let (first, second) = try Self.twoStores(kind, in: directory)
        let runs = RunCount()
        var migrations = StoreMigrations()
        migrations.append("count") { step in
            await runs.add()
            try await step.transaction.save(Gauge(id: 1, reading: 1))
            try await Task.sleep(for: .milliseconds(50))   // the other migration waits meanwhile
        }
        async let a = first.migrate(migrations)
        async let b = second.migrate(migrations)
        let ran = try await [a, b]
        expectEqual(ran.map(\.count).sorted(), [0, 1])
        expectEqual(await runs.value, 1)
        try expectEqual(await second.migrationRecords().map(\.name), ["count"])
    }

    /// Two stores on the same database.
    static func twoStores(_ kind: StoreKind, in directory: TemporaryDirectory) throws -> (any ModelStore, any ModelStore) {
        #if PostgreSQL
            if kind.isPostgres {
                let schema = PostgresTestServer.newSchema()
                return (try PostgresTestServer.makeStore(schema: schema), try PostgresTestServer.makeStore(schema: schema))
            }
        #endif
        let path = directory.path("shared.sqlite")
        return (try SQLiteStore(path: path), try SQLiteStore(path: path))
    }

    actor RunCount {
        private(set) var value = 0
        func add() { value += 1 }
    }

    /// `modelkit store migrations --db PATH|URL` lists what the store records, in another process.
    @Test(arguments: StoreKind.allCases.filter { $0 == .sqliteFile || $0.isPostgres })
    func theToolListsTheRecordedSteps(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        var arguments: [String]
        let store: any ModelStore
        #if PostgreSQL
            if kind.isPostgres, let url = PostgresTestServer.url {
                let schema = PostgresTestServer.newSchema()
                store = try PostgresTestServer.makeStore(schema: schema)
                arguments = ["--db", url, "--schema", schema]
            } else {
                store = try kind.make(in: directory)
                arguments = ["--db", directory.path("store.sqlite")]
            }
        #else
            store = try kind.make(in: directory)
            arguments = ["--db", directory.path("store.sqlite")]
        #endif
        try await store.save(Gauge(id: 1, reading: 1))
        let empty = try await ModelKitTool.run(["store", "migrations"] + arguments)
        #expect(empty.status == 0 && empty.output == "no migrations recorded\n", "\(empty.output)\(empty.errorOutput)")

        var migrations = StoreMigrations()
        migrations.append("index readings") { step in try await step.addIndex(on: ["reading"], in: Gauge.self) }
        migrations.append("double them") { step in
            try await step.updateRows(of: Gauge.self) { row in row["reading"] = .integer((row["reading"].integer ?? 0) * 2) }
        }
        try await store.migrate(migrations)
        let records = try await store.migrationRecords()
        let listed = try await ModelKitTool.run(["store", "migrations"] + arguments)
        #expect(listed.status == 0, "\(listed.errorOutput)")
        expectEqual(listed.output, records.map { "\($0)\n" }.joined())
        #expect(listed.output.hasPrefix("1  index readings  20") && listed.output.contains("\n2  double them  20"), "\(listed.output)")
        try expectEqual(await store.fetchOne(Gauge.self, id: 1)?.reading, 2)
    }

    @Test func theToolSaysWhenThereIsNoStore() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("none.sqlite")
        let result = try await ModelKitTool.run(["store", "migrations", "--db", path])
        #expect(result.status != 0)
        #expect(result.errorOutput.contains("there is no store at '\(path)'"), "\(result.errorOutput)")
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    /// The SQLite file after the steps: the columns as the model has them, the record table.
    @Test func theFileHoldsTheMigratedLayout() async throws {
        let directory = try TemporaryDirectory()
        let store = try #require(try await oldStore(.sqliteFile, in: directory) as? SQLiteStore)
        try await store.migrate(Self.staffMigrations)
        let (columns, ageType, records) = try await store.database.read { db in
            (
                try db.columns(in: "Staff").map(\.name),
                try db.columns(in: "Staff").first { $0.name == "age" }?.type,
                try String.fetchAll(db, sql: #"SELECT "name" FROM "_modelkit_migrations" ORDER BY "position""#)
            )
        }
        expectEqual(Set(columns), ["id", "nickname", "_version", "firstName", "lastName", "age"])
        expectEqual(ageType, "INTEGER")
        expectEqual(records.count, 4)
        try expectEqual(await store.database.read { db in try db.tableExists("Member") }, false)
    }

    /// The store article's example: the steps above, then what the store records.
    @Test func theArticlesExample() async throws {
        let directory = try TemporaryDirectory()
        let store = try await oldStore(.sqliteFile, in: directory)
        let output = try await ExampleOutput.capture {
            let migrations = Self.staffMigrations
            // snippet: store-migrations-start
            let ran = try await store.migrate(migrations)
            print(ran.count)   // 4
            try await store.migrate(migrations)   // none left to run
            print(try await store.fetchAll(ModelQuery(Staff.self).filter(\Staff.lastName == "Lovelace")).map(\.firstName))   // ["Ada"]
            print(try await store.migrationRecords().map(\.name).last ?? "")   // 'age' as a number
            // snippet: store-migrations-end
        }
        #expect(
            output == DocumentationExamples.commentedOutput(of: try DocumentationExamples.snippet("store-migrations", inFile: #filePath)),
            "printed:\n\(output.joined(separator: "\n"))")
    }
}
