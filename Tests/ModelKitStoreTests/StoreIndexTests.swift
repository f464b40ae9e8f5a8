import Foundation
import GRDB
import ModelKit
import ModelKitStore
import ModelKitTestSupport
import Testing

/// Collects the article example's prints (outside `ExampleOutput.capture` it prints as usual).
private func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    ExampleOutput.print(items, separator: separator, terminator: terminator)
}

// snippet: store-indexes-start
@Model(indexes: [["lastName", "firstName"]], unique: [["email"], ["team", "number"]])
final class Account {
    @Identifier var id: Int
    var firstName: String
    var lastName: String
    var email: String?
    var team: Int = 0
    var number: Int = 0
}
// snippet: store-indexes-end

/// `@Model(indexes:unique:)` on every store: a unique constraint refuses a second row with the
/// same values (and the whole transaction with it), `nil`s never clash, a row keeps its own
/// values across saves; SQLite and PostgreSQL keep real indexes.
@Suite struct StoreIndexTests {
    /// Account `id`, number `id` in team 0 unless told otherwise.
    func account(_ id: Int, _ email: String?, team: Int = 0, number: Int? = nil) -> Account {
        Account(id: id, firstName: "First \(id)", lastName: "Last \(id)", email: email, team: team, number: number ?? id)
    }

    /// The store article's example.
    @Test func theArticlesExample() async throws {
        let output = try await ExampleOutput.capture {
            // snippet: store-indexes-start
            let store = try SQLiteStore()
            try await store.save(Account(id: 1, firstName: "Ada", lastName: "Lovelace", email: "ada@example.com", number: 1))
            do {
                try await store.save(Account(id: 2, firstName: "Augusta", lastName: "King", email: "ada@example.com", number: 2))
            } catch let error as StoreError where error.kind == .uniqueViolation {
                print(error.properties)   // ["email"]
                print(error)              // cannot save 'Account' 2: another 'Account' has 'email' "ada@example.com", which must be unique
            }
            // snippet: store-indexes-end
        }
        #expect(
            output == DocumentationExamples.commentedOutput(of: try DocumentationExamples.snippet("store-indexes", inFile: #filePath)),
            "printed:\n\(output.joined(separator: "\n"))")
    }

    @Test(arguments: StoreKind.allCases)
    func aSecondRowWithAUniqueValueIsRefusedWithItsBatch(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        try await store.save(account(1, "ada@example.com"))
        let error = await #expect(throws: StoreError.self) {
            try await store.save([account(2, "grace@example.com"), account(3, "ada@example.com")])
        }
        expectEqual(error?.kind, .uniqueViolation)
        expectEqual(error?.properties, ["email"])
        #expect(
            error?.description.contains(#"cannot save 'Account'"#) == true
                && error?.description.contains(#"another 'Account' has 'email' "ada@example.com", which must be unique"#) == true,
            "\(String(describing: error))")
        try await expectEqual(store.fetchAll(ModelQuery(Account.self).order(by: \Account.id)).map(\.id), [1])
    }

    @Test(arguments: StoreKind.allCases)
    func aRowKeepsItsOwnValuesAndNilsNeverClash(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        try await store.save([account(1, "ada@example.com"), account(2, nil), account(3, nil)])
        // Saved again by its identifier (an upsert): its own email is no clash.
        let ada = account(1, "ada@example.com")
        ada.firstName = "Ada"
        try await store.save(ada)
        // An email given up by one row can be taken by another in the same batch.
        try await store.save([account(1, "countess@example.com"), account(2, "ada@example.com")])
        let emails = try await store.fetchAll(ModelQuery(Account.self).order(by: \Account.id)).map(\.email)
        expectEqual(emails, ["countess@example.com", "ada@example.com", nil])
    }

    @Test(arguments: StoreKind.allCases)
    func aCompositeUniqueConstraintRefusesOnlyTheSamePair(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        try await store.save([account(1, nil, team: 1, number: 7), account(2, nil, team: 2, number: 7)])
        let error = await #expect(throws: StoreError.self) { try await store.save(account(3, nil, team: 1, number: 7)) }
        expectEqual(error?.kind, .uniqueViolation)
        expectEqual(error?.properties, ["team", "number"])
        try await expectEqual(store.fetchCount(Account.self), 2)
    }

    /// Through a transaction and a context: the violation rolls everything back, and the
    /// context keeps its changes to fix and save again.
    @Test(arguments: StoreKind.allCases)
    func aViolationRollsBackTheTransactionAndTheContextKeepsItsChanges(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        try await store.save(account(1, "ada@example.com"))
        await #expect(throws: StoreError.self) {
            try await store.write { tx in
                try await tx.save(account(2, "grace@example.com"))
                try await tx.save(account(3, "ada@example.com"))
            }
        }
        try await expectEqual(store.fetchCount(Account.self), 1)
        let context = ModelContext(store: store)
        let grace = account(2, "ada@example.com")
        try context.insert(grace)
        let error = await #expect(throws: StoreError.self) { try await context.save() }
        expectEqual(error?.kind, .uniqueViolation)
        #expect(context.hasChanges)
        grace.email = "grace@example.com"
        try await context.save()
        try await expectEqual(store.fetchCount(Account.self), 2)
    }

    /// SQLite keeps the indexes, adds them to a table an older version made, and plans a query
    /// by name through the composite one.
    @Test func sqliteKeepsTheIndexesAndUsesThem() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("accounts.sqlite")
        let old = try DatabaseQueue(path: path)
        try await old.write { db in
            try db.execute(
                sql: #"CREATE TABLE "Account" ("id" INTEGER PRIMARY KEY NOT NULL, "firstName" TEXT, "lastName" TEXT, "email" TEXT, "team" INTEGER, "number" INTEGER, "_version" INTEGER NOT NULL DEFAULT 0)"#)
        }
        try old.close()
        let store = try SQLiteStore(path: path)
        try await store.save(account(1, "ada@example.com"))
        try store.close()
        let database = try DatabaseQueue(path: path)
        let (indexes, plan) = try await database.read { db in
            (
                try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'Account' AND sql IS NOT NULL ORDER BY name"),
                try String.fetchAll(db, sql: #"EXPLAIN QUERY PLAN SELECT * FROM "Account" WHERE "lastName" = 'Last 1'"#, adapter: ColumnMapping(["detail": "detail"])).joined()
            )
        }
        expectEqual(indexes, ["Account_email_unique", "Account_lastName_firstName_index", "Account_team_number_unique"])
        #expect(plan.contains("USING INDEX Account_lastName_firstName_index"), "\(plan)")
        try database.close()
    }
}
