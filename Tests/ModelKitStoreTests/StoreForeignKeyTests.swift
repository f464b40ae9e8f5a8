import Foundation
import GRDB
import ModelKit
import ModelKitStore
import ModelKitTestSupport
import Testing

#if PostgreSQL
    import ModelKitPostgres
    import Logging
    import PostgresNIO
#endif

/// References are foreign keys in the databases that have them (SQLite, PostgreSQL), with the
/// relationships' rules as their `ON DELETE` actions: raw SQL and other programs see the
/// integrity ModelKit keeps.
@Suite struct StoreForeignKeyTests {
    /// Raw SQL on one of the stores with foreign keys, and how it names a table.
    struct RawSQL {
        let run: (String) async throws -> Void
        let count: (String) async throws -> Int
        let table: (String) -> String
    }

    static var databases: [StoreKind] { StoreKind.allCases.filter { $0 != .memory && $0 != .memoryInRounds } }

    func raw(_ store: any ModelStore) throws -> RawSQL {
        if let sqlite = store as? SQLiteStore {
            return RawSQL(
                run: { sql in try await sqlite.database.write { db in try db.execute(sql: sql) } },
                count: { sql in try await sqlite.database.read { db in try Int.fetchOne(db, sql: sql) ?? -1 } },
                table: { "\"\($0)\"" })
        }
        #if PostgreSQL
            if let postgres = store as? PostgresStore {
                return RawSQL(
                    // In a transaction of its own: the foreign keys are checked at its commit,
                    // whose error the commit statement then gets.
                    run: { sql in
                        try await postgres.client.withConnection { connection in
                            for statement in ["BEGIN", sql, "COMMIT"] {
                                _ = try await connection.query(PostgresQuery(unsafeSQL: statement), logger: Logger(label: "StoreForeignKeyTests")).collect()
                            }
                        }
                    },
                    count: { sql in
                        try await postgres.client.query(PostgresQuery(unsafeSQL: sql)).collect().first?.decode(Int.self) ?? -1
                    },
                    table: { "\"\(postgres.schema)\".\"\($0)\"" })
            }
        #endif
        throw StoreError(.database, reason: "no raw SQL for this store")
    }

    @Test(arguments: databases)
    func rawSQLSeesTheRelationshipsRules(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        let topic = Topic(id: 1, title: "t")
        for id in 1...2 { _ = Reaction(id: id * 10, emoji: "+1", reply: Reply(id: id, text: "r\(id)", topic: topic)) }
        let shelf = Shelf(id: 1)
        _ = Volume(id: 7, shelf: shelf)
        let essays = [Essay(id: 1, title: "one"), Essay(id: 2, title: "two")]
        let keyword = Keyword(id: "a")
        essays.forEach { $0.keywords = [keyword] }
        try await store.save(topic)
        try await store.save(shelf)
        try await store.save(essays)
        let sql = try raw(store)

        // A row that refers to no row is refused.
        let orphan = "INSERT INTO \(sql.table("Reply")) (\"id\", \"text\", \"topic\", \"_version\") VALUES (9, 'x', 99, 0)"
        await #expect(throws: (any Error).self) { try await sql.run(orphan) }
        // `.cascade` (Topic.replies, Reply.reactions): the replies and their reactions go.
        try await sql.run("DELETE FROM \(sql.table("Topic")) WHERE \"id\" = 1")
        try await expectEqual(sql.count("SELECT COUNT(*) FROM \(sql.table("Reply"))"), 0)
        try await expectEqual(sql.count("SELECT COUNT(*) FROM \(sql.table("Reaction"))"), 0)
        // `.nullify` (no rule on an optional reference): the volume stays, without its shelf.
        try await sql.run("DELETE FROM \(sql.table("Shelf")) WHERE \"id\" = 1")
        try await expectEqual(sql.count("SELECT COUNT(*) FROM \(sql.table("Volume")) WHERE \"shelf\" IS NULL"), 1)
        // A join row goes with either side.
        try await sql.run("DELETE FROM \(sql.table("Essay")) WHERE \"id\" = 1")
        try await expectEqual(sql.count("SELECT COUNT(*) FROM \(sql.table("Essay_keywords"))"), 1)
        expectEqual(try await store.fetchOne(Keyword.self, id: "a")?.essays.map(\.id), [2])
        Topic.breakCycles([topic])
        shelf.volumes = []
        Essay.breakCycles(essays)
    }
}
