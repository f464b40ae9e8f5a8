import Foundation
import GRDB
import ModelKit
import ModelKitStore
import ModelKitTestSupport
import Testing

@Model struct CheckedRating: Equatable {
    @Identifier var id: Int
    @Validate(.range(1...5)) var stars: Int
    @Validate(.nonEmpty) var author: String
    var remark: CheckedRemark?
}

@Model struct CheckedRemark: Equatable {
    @Validate(.length(...10)) var text: String
}

/// Stores check a model's `@Validate` constraints before they save it (reading checks them, and
/// what saves must load back): a model that fails one is refused with a typed error naming it,
/// and nothing of the save is written; a row that fails one, written by raw SQL, is an error
/// when it loads.
@Suite struct StoreConstraintTests {
    @Test(arguments: StoreKind.allCases)
    func aModelThatFailsItsConstraintsIsNotSaved(_ kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        let good = CheckedRating(id: 1, stars: 4, author: "ada", remark: CheckedRemark(text: "fine"))
        let bad = CheckedRating(id: 2, stars: 9, author: "", remark: CheckedRemark(text: "far too long"))
        let error = await #expect(throws: StoreError.self) { try await store.save([good, bad]) }
        #expect(error?.kind == .unencodableValue)
        let description = error?.description ?? ""
        for expected in [
            "invalid 'CheckedRating.stars' at 'stars': expected a value in 1...5, found 9",
            #"invalid 'CheckedRating.author' at 'author': expected a non-empty string, found """#,
            #"invalid 'CheckedRemark.text' at 'remark.text': expected a string of at most 10 characters, found "far too long""#,
        ] {
            #expect(description.contains(expected), "\(description)")
        }
        #expect(description.contains("'CheckedRating' 2"), "\(description)")
        // Nothing of the save was written, the good model included.
        #expect(try await store.fetchAll(CheckedRating.self).isEmpty)
        // A model that satisfies them saves and loads back.
        try await store.save(good)
        #expect(try await store.fetchOne(CheckedRating.self, id: 1) == good)
    }

    @Test func aRowThatFailsItsConstraintsIsAnErrorWhenItLoads() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("ratings.sqlite")
        let store = try SQLiteStore(path: path)
        try await store.save(CheckedRating(id: 1, stars: 4, author: "ada"))
        try await store.database.write { db in try db.execute(sql: #"UPDATE "CheckedRating" SET "stars" = 9"#) }
        let error = await #expect(throws: (any Error).self) { try await store.fetchOne(CheckedRating.self, id: 1) }
        let description = String(describing: error.map { $0 as Any } ?? "none")
        #expect(description.contains("invalid 'CheckedRating.stars' at 'stars': expected a value in 1...5, found 9"), "\(description)")
    }
}
