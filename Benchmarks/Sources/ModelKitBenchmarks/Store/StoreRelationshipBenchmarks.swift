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

// `store.fetch.prefetch`: every post with its comments, ModelKit's fetch prefetching them (the
// to-many kept in its inverse's column, filled with one query for every post read) against GRDB
// reading the posts and then their comments in one query, grouped by post by hand;
// `store.fetch.prefetch.records` against GRDB's own prefetching (`including(all:)`) into records.

/// A post and its comments (the inverse of `PrefetchComment.post`).
@Model final class PrefetchPost {
    @Identifier var id: Int
    var title: String
    @Relationship(deleteRule: .cascade, inverse: \PrefetchComment.post) var comments: [PrefetchComment] = []
}

/// A comment on a post (the reference indexed, as a foreign key would be).
@Model(indexes: [["post"]]) final class PrefetchComment {
    @Identifier var id: Int
    var text: String
    var post: PrefetchPost?
}

/// GRDB's own prefetching: a post record with its comments (`including(all:)`), decoded by hand.
struct GRDBPrefetchPost: FetchableRecord, TableRecord {
    static let databaseTableName = "PrefetchPost"
    static let comments = hasMany(GRDBPrefetchComment.self, key: "comments", using: ForeignKey(["post"]))
    var id: Int
    var title: String
    var comments: [GRDBPrefetchComment]
    init(row: Row) {
        id = row["id"]
        title = row["title"]
        comments = (row.prefetchedRows["comments"] ?? []).map(GRDBPrefetchComment.init(row:))
    }
}

/// A comment record of GRDB's side.
struct GRDBPrefetchComment: FetchableRecord, TableRecord {
    static let databaseTableName = "PrefetchComment"
    var id: Int
    var text: String
    init(row: Row) {
        id = row["id"]
        text = row["text"]
    }
}

func prefetchComparison(in directory: URL) throws -> [Comparison] {
    let postCount = 10_000
    let perPost = 10
    let store = try SQLiteStore(path: directory.appendingPathComponent("prefetch.sqlite").path)
    try waitFor {
        let posts = (0..<postCount).map { PrefetchPost(id: $0, title: "post \($0)") }
        for index in 0..<postCount * perPost { _ = PrefetchComment(id: index, text: "comment \(index)", post: posts[index / perPost]) }
        try await store.save(posts)
    }
    let raw = try walQueue(directory.appendingPathComponent("prefetch-raw.sqlite").path)
    let schema = try store.database.read { db in
        try String.fetchAll(
            db, sql: "SELECT sql FROM sqlite_master WHERE tbl_name IN ('PrefetchPost', 'PrefetchComment') AND sql IS NOT NULL ORDER BY type DESC")
    }
    try raw.write { db in
        for statement in schema { try db.execute(sql: statement) }
        for id in 0..<postCount {
            try db.execute(
                sql: #"INSERT INTO "PrefetchPost" ("id", "title", "_version") VALUES (?, ?, 0)"#, arguments: [id, "post \(id)"])
        }
        for index in 0..<postCount * perPost {
            try db.execute(
                sql: #"INSERT INTO "PrefetchComment" ("id", "text", "post", "_version") VALUES (?, ?, ?, 0)"#,
                arguments: [index, "comment \(index)", index / perPost])
        }
    }
    /// The hand-written side: posts, then every comment, grouped by post.
    let rawFetch = {
        try raw.read { db -> [(id: Int, title: String, comments: [(id: Int, text: String)])] in
            var comments: [Int: [(id: Int, text: String)]] = [:]
            for row in try Row.fetchAll(db, sql: #"SELECT "id", "text", "post" FROM "PrefetchComment" ORDER BY "id""#) {
                comments[row[2], default: []].append((row[0], row[1]))
            }
            return try Row.fetchAll(db, sql: #"SELECT "id", "title" FROM "PrefetchPost""#).map { row in
                (row[0], row[1], comments[row[0]] ?? [])
            }
        }
    }
    let prefetching = ModelQuery(PrefetchPost.self).prefetching(\.comments)
    let counts = try waitFor {
        let posts = try await store.fetchAll(prefetching)
        let result = (posts.count, posts.reduce(0) { $0 + $1.comments.count }, posts.allSatisfy { $0.comments.allSatisfy { $0.post != nil } })
        posts.forEach { $0.comments = [] }
        return result
    }
    let rawPosts = try rawFetch()
    guard counts.0 == postCount, counts.1 == postCount * perPost, counts.2, rawPosts.count == postCount,
        rawPosts.reduce(0, { $0 + $1.comments.count }) == postCount * perPost
    else { throw BenchmarkError("the two sides of the prefetch comparison do not read the same posts and comments") }
    /// GRDB's own prefetching, into records.
    let associations = { try raw.read { db in try GRDBPrefetchPost.including(all: GRDBPrefetchPost.comments).fetchAll(db) } }
    guard try associations().reduce(0, { $0 + $1.comments.count }) == postCount * perPost
    else { throw BenchmarkError("GRDB's prefetching does not read the same comments") }
    let modelKitFetch = {
        try waitFor {
            let posts = try await store.fetchAll(prefetching)
            posts.forEach { $0.comments = [] }  // No cycle left alive.
        }
    }
    let unit = RateUnit.operations(postCount * (perPost + 1), label: "model")
    return [
        Comparison(
            name: "store.fetch.prefetch", baselineName: "GRDB", unit: unit, modelKit: modelKitFetch, baseline: { _ = try rawFetch() },
            notes: { "\(postCount) posts with \(perPost) comments each: ModelKit's fetch of the posts against two hand-written queries" }),
        Comparison(
            name: "store.fetch.prefetch.records", baselineName: "GRDB including(all:)", unit: unit, modelKit: modelKitFetch,
            baseline: { _ = try associations() },
            notes: { "the same, against GRDB's own prefetching into records (`including(all:)`, each decoded by hand)" }),
    ]
}
