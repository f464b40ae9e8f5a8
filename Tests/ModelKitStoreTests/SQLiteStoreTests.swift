import Foundation
import GRDB
import ModelKit
import ModelKitStore
import ModelKitTestSupport
import Testing

/// The SQLite layout: what someone opening the file with `sqlite3` finds.
@Suite struct SQLiteStoreTests {
    @Test func aTablePerTypeAColumnPerStoredProperty() async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(path: directory.path("books.sqlite"))
        try await store.save(makeBook(author: Author(id: 1, name: "Ada", tags: ["math"], address: Address(city: "London"))))

        let tables = try rawRows(store, "SELECT name, sql FROM sqlite_master WHERE type = 'table' ORDER BY name")
        expectEqual(tables.map { $0["name"] }, ["'Author'", "'Book'"])
        #expect(
            tables[0]["sql"]
                == #"'CREATE TABLE "Author" ("id" INTEGER PRIMARY KEY NOT NULL, "name" TEXT, "born" TEXT, "tags" TEXT, "address" TEXT, "rating" REAL, "_version" INTEGER NOT NULL DEFAULT 0)'"#)
        #expect(
            tables[1]["sql"]
                == #"'CREATE TABLE "Book" ("isbn" TEXT PRIMARY KEY NOT NULL, "title" TEXT, "author" INTEGER REFERENCES "Author" ("id") ON DELETE NO ACTION DEFERRABLE INITIALLY DEFERRED, "editor" INTEGER REFERENCES "Author" ("id") ON DELETE SET NULL DEFERRABLE INITIALLY DEFERRED, "pages" INTEGER, "price" TEXT, "cover" BLOB, "published" TEXT, "ratings" TEXT, "chapters" TEXT, "link" TEXT, "code" TEXT, "format" TEXT, "kind" TEXT, "_version" INTEGER NOT NULL DEFAULT 0)'"#)

        // Each to-one's column is indexed, declared or not.
        let indexes = try rawRows(store, "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'Book' AND sql IS NOT NULL ORDER BY name")
        expectEqual(indexes.map { $0["name"] }, ["'Book_author_index'", "'Book_editor_index'"])
        // A reference is a foreign key: one that cannot be nil refuses the delete, an optional
        // one becomes NULL (the check deferred to the commit, so a save writes in any order).
        // Scalars as SQLite values, nested values as JSON text, the author as its identifier.
        let book = try rawRows(store, #"SELECT * FROM "Book""#)
        #expect(
            book == [[
                "isbn": "'978-0'", "title": "'Notes on 978-0'", "author": "1", "editor": "NULL", "pages": "100",
                "price": "'12.5'", "cover": "X'000102FF'", "published": "'2023-11-14T22:13:20.250000000+00:00'",
                "ratings": #"'{"ada":5,"bob":3}'"#, "chapters": #"'[{"title":"One","pages":10}]'"#,
                "link": "'https://example.com/b'", "code": "'E621E1F8-C36C-495A-93FC-0C247A3E6E5F'", "format": "'ebook'",
                "kind": "'book'", "_version": "0",
            ]])
        let author = try rawRows(store, #"SELECT "tags", "address", "born", typeof("rating") AS t FROM "Author""#)
        expectEqual(author, [["tags": #"'["math"]'"#, "address": #"'{"city":"London","zip":null}'"#, "born": "NULL", "t": "'real'"]])
    }

    @Test func newPropertiesBecomeNewColumnsAndOldRowsTakeDefaults() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("counters.sqlite")
        do {
            let database = try DatabaseQueue(path: path)
            try await database.write { db in
                try db.execute(sql: #"CREATE TABLE "Counter" ("id" TEXT PRIMARY KEY NOT NULL)"#)
                try db.execute(sql: #"INSERT INTO "Counter" ("id") VALUES ('old')"#)
            }
        }
        let store = try SQLiteStore(path: path)
        #expect(try await store.fetchOne(Counter.self, id: "old")?.count == 0)
        let columns = try await store.database.read { db in try db.columns(in: "Counter").map { "\($0.name) \($0.type)" } }
        expectEqual(columns, ["id TEXT", "count INTEGER", "_version INTEGER"])
    }

    @Test func theFileIsInWriteAheadLogModeAndReopens() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("wal.sqlite")
        do {
            let store = try SQLiteStore(path: path)
            try await store.save((0..<10).map { Seat(number: $0, taken: $0 % 2 == 0) })
            try expectEqual(rawRows(store, "PRAGMA journal_mode"), [["journal_mode": "'wal'"]])
        }
        let reopened = try SQLiteStore(path: path)
        try await expectEqual(reopened.fetchCount(ModelQuery(Seat.self).filter(\Seat.taken == true)), 5)
        expectEqual(reopened.path, path)
    }

    /// `close()` ends the connection at a point the caller chooses: the write-ahead log is folded
    /// into the file (and removed), later calls are `.closed` errors, change sequences end.
    @Test func closingEndsTheConnectionAndLaterCallsAreErrors() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("closed.sqlite")
        let store = try SQLiteStore(path: path)
        let changes = store.changes(to: Seat.self)
        try await store.save((0..<10).map { Seat(number: $0, taken: $0 % 2 == 0) })
        #expect(FileManager.default.fileExists(atPath: path + "-wal"))
        try store.close()
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        try store.close()
        let error = await #expect(throws: StoreError.self) { try await store.fetchCount(ModelQuery(Seat.self)) }
        #expect(error?.kind == .closed)
        #expect(error?.description == "cannot use the store: it was closed ('\(path)')")
        await #expect(throws: StoreError.self) { try await store.save(Seat(number: 11, taken: false)) }
        var seen = 0
        for await change in changes { seen += change.saved }
        expectEqual(seen, 10)
        try await expectEqual(SQLiteStore(path: path).fetchCount(ModelQuery(Seat.self)), 10)
    }

    @Test func unopenableFilesAreStoreErrors() async throws {
        let error = #expect(throws: StoreError.self) { try SQLiteStore(path: "/nonexistent/directory/file.sqlite") }
        #expect(error?.kind == .cannotOpen)
        #expect(error?.description.hasPrefix("cannot open the store: '/nonexistent/directory/file.sqlite': ") == true)
    }

    @Test func rowsThatDoNotFitTheModelAreStoreErrors() async throws {
        let store = try SQLiteStore()
        try await store.save(Seat(number: 1))
        try await store.database.write { db in try db.execute(sql: #"UPDATE "Seat" SET "taken" = 'yes'"#) }
        let error = await #expect(throws: StoreError.self) { try await store.fetchOne(Seat.self, id: 1) }
        #expect(error?.kind == .undecodableRow)
        #expect(error?.description == #"cannot load 'Seat' 1: cannot map 'Seat.taken' at 'taken': expected a boolean, found "yes""#)
    }
}
