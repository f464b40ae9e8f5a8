import Foundation
import GRDB
import ModelKit
import ModelKitStore
import ModelKitTestSupport
import Testing

/// Version 2 of a person: version 1 renamed `nick` to `nickname`, version 2 split `name` into
/// `firstName` and `lastName`.
@Model(version: 2) final class Person {
    @Identifier var id: Int
    var firstName: String
    var lastName: String
    var nickname: String?
    var age: Int = 0

}

extension Person: ModelMigrating {
    static func decodeValue<S: ModelStoredValues>(
        forKey key: String, from stored: inout S, modelVersion: Int
    ) throws -> ModelStoredValue {
        guard key == "nickname", modelVersion < 1 else { return .stored }
        return try stored.decodeIfPresent(String.self, forKey: "nick").map { .value($0) } ?? .missing
    }

    static func decodeAdditionalValues<S: ModelStoredValues>(
        from stored: inout S, modelVersion: Int
    ) throws -> [String: Any] {
        guard modelVersion < 2, let name = try stored.decodeIfPresent(String.self, forKey: "name") else { return [:] }
        guard !name.isEmpty else { throw ModelError.invalid(expected: "a name") }
        let parts = name.split(separator: " ", maxSplits: 1).map(String.init)
        return ["firstName": parts[0], "lastName": parts.count > 1 ? parts[1] : ""]
    }
}

@Suite struct StoreMigrationTests {
    /// A file written by version 0 and 1 of the app: the old columns, the old versions.
    func oldFile(in directory: TemporaryDirectory) throws -> String {
        let path = directory.path("people.sqlite")
        let database = try DatabaseQueue(path: path)
        try database.write { db in
            try db.execute(
                sql: #"CREATE TABLE "Person" ("id" INTEGER PRIMARY KEY NOT NULL, "name" TEXT, "nick" TEXT, "nickname" TEXT, "age" INTEGER, "_version" INTEGER NOT NULL DEFAULT 0)"#)
            try db.execute(sql: #"INSERT INTO "Person" ("id", "name", "nick", "age", "_version") VALUES (1, 'Ada Lovelace', 'ada', 36, 0)"#)
            try db.execute(sql: #"INSERT INTO "Person" ("id", "name", "nickname", "_version") VALUES (2, 'Grace Brewster Hopper', 'amazing grace', 1)"#)
            try db.execute(sql: #"INSERT INTO "Person" ("id", "name", "_version") VALUES (3, '', 0)"#)
        }
        return path
    }

    @Test func olderRowsGoThroughTheMigrationHook() async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(path: try oldFile(in: directory))
        let ada = try #require(try await store.fetchOne(Person.self, id: 1))
        #expect(ada.firstName == "Ada" && ada.lastName == "Lovelace" && ada.nickname == "ada" && ada.age == 36)
        let grace = try #require(try await store.fetchOne(Person.self, id: 2))
        #expect(grace.firstName == "Grace" && grace.lastName == "Brewster Hopper" && grace.nickname == "amazing grace")
        expectEqual(grace.age, 0)

        // The new columns were added to the old table; the old ones stay.
        let columns = try await store.database.read { db in try db.columns(in: "Person").map(\.name) }
        expectEqual(columns, ["id", "name", "nick", "nickname", "age", "_version", "firstName", "lastName"])

        // Saving writes the current version; loading it again needs no migration.
        try await store.save(ada)
        let rows = try rawRows(store, #"SELECT "firstName", "_version" FROM "Person" WHERE "id" = 1"#)
        expectEqual(rows, [["firstName": "'Ada'", "_version": "2"]])
        #expect(try await store.fetchOne(Person.self, id: 1)?.lastName == "Lovelace")
    }

    @Test func aHookThatThrowsIsAMigrationError() async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(path: try oldFile(in: directory))
        let error = await #expect(throws: StoreError.self) { try await store.fetchOne(Person.self, id: 3) }
        #expect(error?.kind == .migrationFailed)
        #expect(error?.description.hasPrefix("cannot migrate 'Person' 3: from version 0 to 2: ") == true)
    }

    @Test func queriesSeeMigratedModels() async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(path: try oldFile(in: directory))
        let people = try await store.fetchAll(ModelQuery(Person.self).filter(\Person.id < 3).order(by: \Person.id))
        expectEqual(people.map(\.lastName), ["Lovelace", "Brewster Hopper"])
        expectEqual(Person.modelSchema.version, 2)
    }
}
