import Foundation
import GRDB
import ModelKit
import ModelKitStore

// `store.query.join`: a filter through a to-one reference (the posts of the author of a given
// name), ModelKit's `(\JoinPost.author).matching(\JoinAuthor.name == name)` against the join a GRDB user writes by hand,
// each side reading posts with their author, on the same tables and indexes in files of their own.

/// An author, found by name (indexed).
@Model(indexes: [["name"]]) final class JoinAuthor {
    @Identifier var id: Int
    var name: String
}

/// A post and its author (the reference indexed, as a foreign key would be).
@Model(indexes: [["author"]]) final class JoinPost {
    @Identifier var id: Int
    var title: String
    var author: JoinAuthor?
}

/// The hand-written side's records.
struct RawJoinedPost: Equatable {
    var id: Int
    var title: String
    var authorID: Int
    var authorName: String
}

func relationshipComparisons(in directory: URL) throws -> [Comparison] {
    let authorCount = 1_000
    let postsPerAuthor = 10
    let store = try SQLiteStore(path: directory.appendingPathComponent("join.sqlite").path)
    try waitFor {
        let authors = (0..<authorCount).map { JoinAuthor(id: $0, name: "author-\($0)") }
        try await store.save((0..<authorCount * postsPerAuthor).map { index in
            JoinPost(id: index, title: "post \(index)", author: authors[index % authorCount])
        })
    }
    let raw = try walQueue(directory.appendingPathComponent("join-raw.sqlite").path)
    let schema = try store.database.read { db in
        try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE tbl_name IN ('JoinAuthor', 'JoinPost') AND sql IS NOT NULL ORDER BY type DESC")
    }
    try raw.write { db in
        for statement in schema { try db.execute(sql: statement) }
        for id in 0..<authorCount {
            try db.execute(sql: #"INSERT INTO "JoinAuthor" ("id", "name", "_version") VALUES (?, ?, 0)"#, arguments: [id, "author-\(id)"])
        }
        for index in 0..<authorCount * postsPerAuthor {
            try db.execute(
                sql: #"INSERT INTO "JoinPost" ("id", "title", "author", "_version") VALUES (?, ?, ?, 0)"#,
                arguments: [index, "post \(index)", index % authorCount])
        }
    }
    let joinSQL = #"""
        SELECT "JoinPost"."id", "JoinPost"."title", "JoinAuthor"."id", "JoinAuthor"."name" FROM "JoinPost" \#
        JOIN "JoinAuthor" ON "JoinAuthor"."id" = "JoinPost"."author" WHERE "JoinAuthor"."name" = ? ORDER BY "JoinPost"."id"
        """#
    let names = (0..<200).map { "author-\(($0 &* 7) % authorCount)" }
    let rawJoin = { (name: String) in
        try raw.read { db in
            try Row.fetchAll(db.cachedStatement(sql: joinSQL), arguments: [name]).map { row in
                RawJoinedPost(id: row[0], title: row[1], authorID: row[2], authorName: row[3])
            }
        }
    }
    let modelKitJoin = { (name: String) in
        try waitFor {
            try await store.fetchAll(ModelQuery(JoinPost.self).filter((\JoinPost.author).matching(\JoinAuthor.name == name)).order(by: \JoinPost.id))
                .map { RawJoinedPost(id: $0.id, title: $0.title, authorID: $0.author?.id ?? -1, authorName: $0.author?.name ?? "") }
        }
    }
    for name in names.prefix(5) {
        let expected = try rawJoin(name)
        guard expected.count == postsPerAuthor, try modelKitJoin(name) == expected else {
            throw BenchmarkError("the two sides of the join comparison do not read the same posts")
        }
    }
    return [
        Comparison(
            name: "store.query.join", baselineName: "GRDB", unit: .operations(names.count, label: "query"),
            modelKit: {
                try waitFor {
                    for name in names {
                        _ = try await store.fetchAll(ModelQuery(JoinPost.self).filter((\JoinPost.author).matching(\JoinAuthor.name == name))).count
                    }
                }
            },
            baseline: { for name in names { _ = try rawJoin(name) } },
            notes: {
                "the \(postsPerAuthor) posts (with their author) of an author found by name, of \(authorCount * postsPerAuthor) posts "
                    + "by \(authorCount) authors: a subquery through the reference against a hand-written JOIN"
            }),
    ]
}
