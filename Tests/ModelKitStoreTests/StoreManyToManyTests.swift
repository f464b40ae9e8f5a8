import Foundation
import GRDB
import ModelKit
import ModelKitStore
import ModelKitTestSupport
import Testing

/// A to-many whose inverse is a to-many lies in a join table: both owners' columns hold `NULL`,
/// saving an owner replaces its join rows, deleting one removes them (and follows its rule), a
/// read fills both sides with a query of the join table and one of the related table per
/// relationship and level, and conditions on the related models go through the join table.
@Suite struct StoreManyToManyTests {
    /// Essays 1 and 2, keywords "a", "b", "c": 1 has "b" and "a", 2 has "a".
    func savedEssays(in store: any ModelStore) async throws -> [Essay] {
        let keywords = ["a", "b", "c"].map { Keyword(id: $0) }
        let essays = [Essay(id: 1, title: "one"), Essay(id: 2, title: "two")]
        essays[0].keywords = [keywords[1], keywords[0]]
        keywords[0].essays.append(essays[1])
        try await store.save(essays + [])
        try await store.save(keywords[2])
        return essays
    }

    @Test(arguments: StoreKind.allCases)
    func aManyToManyLivesInAJoinTable(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        let essays = try await savedEssays(in: store)
        // The inverse was kept in memory: the essay's keywords know it.
        expectEqual(essays[0].keywords.map { $0.essays.map(\.id) }, [[1], [1, 2]])

        if let sqlite = store as? SQLiteStore {
            try await sqlite.database.read { db in
                #expect(try DatabaseValue.fetchAll(db, sql: #"SELECT "keywords" FROM "Essay""#).allSatisfy(\.isNull))
                #expect(try DatabaseValue.fetchAll(db, sql: #"SELECT "essays" FROM "Keyword""#).allSatisfy(\.isNull))
                let rows = try Row.fetchAll(db, sql: #"SELECT "essays", "keywords" FROM "Essay_keywords" ORDER BY 1, 2"#)
                expectEqual(rows.map { "\($0[0] as Int)\($0[1] as String)" }, ["1a", "1b", "2a"])
            }
        }
        let loaded = try #require(try await store.fetchOne(Essay.self, id: 1))
        expectEqual(loaded.keywords.map(\.id), ["a", "b"])  // by identifier: the join rows hold no order
        #expect(loaded.keywords.allSatisfy { $0.essays.contains { $0 === loaded } })
        expectEqual(loaded.keywords[0].essays.map(\.id), [1, 2])
        let keywords = try await store.fetchAll(ModelQuery(Keyword.self).order(by: \Keyword.id))
        expectEqual(keywords.map { $0.essays.map(\.id) }, [[1, 2], [1], []])
        Essay.breakCycles(essays + [loaded] + keywords.flatMap(\.essays))
    }

    /// A context's edit of either side is an edit of both, saved as join rows; a rollback
    /// restores both; a context's delete takes the model out of the other side's arrays.
    @Test(arguments: StoreKind.allCases)
    func aContextEditsAndDeletesThroughTheJoinTable(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        let saved = try await savedEssays(in: store)
        let context = ModelContext(store: store)
        let essays = try await store.fetchAll(ModelQuery(Essay.self).order(by: \Essay.id), context: context)
        #expect(!context.hasChanges)
        let c = try #require(try await store.fetchOne(Keyword.self, id: "c", context: context))
        essays[1].keywords.append(c)
        expectEqual(c.essays.map(\.id), [2])
        expectEqual(context.changedProperties(of: essays[1]), ["keywords"])
        expectEqual(context.changedProperties(of: c), ["essays"])
        try context.rollback()
        expectEqual(essays[1].keywords.map(\.id), ["a"])
        expectEqual(c.essays.map(\.id), [])

        essays[1].keywords.append(c)
        essays[0].keywords.removeAll { $0.id == "b" }
        try await context.save()
        expectEqual(try await store.fetchOne(Essay.self, id: 2)?.keywords.map(\.id), ["a", "c"])
        expectEqual(try await store.fetchOne(Keyword.self, id: "b")?.essays.map(\.id), [])

        let a = essays[0].keywords[0]
        try context.delete(essays[0])
        try await context.save()
        expectEqual(a.essays.map(\.id), [2])
        #expect(!context.hasChanges)
        expectEqual(try await store.fetchOne(Keyword.self, id: "a")?.essays.map(\.id), [2])
        try await expectEqual(store.fetchCount(Keyword.self), 3)  // `.nullify`: the keywords stay
        Essay.breakCycles(saved + essays)
    }

    /// Each side's rule applies to its own deletes: a keyword that essays still hold cannot be
    /// deleted (`.deny`), an essay can (`.nullify`), and its join rows go with it.
    @Test(arguments: StoreKind.allCases)
    func eachSidesDeleteRule(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        let saved = try await savedEssays(in: store)
        let error = await #expect(throws: StoreError.self) { try await store.deleteOne(Keyword.self, id: "a") }
        expectEqual(
            error?.description,
            #"cannot delete 'Keyword' "a": its 'essays' refers to 'Essay' 1, 2 and its rule is '.deny': delete or unlink those first"#)
        #expect(try await store.deleteOne(Keyword.self, id: "c"))
        #expect(try await store.deleteOne(Essay.self, id: 1))
        expectEqual(try await store.fetchOne(Keyword.self, id: "b")?.essays.map(\.id), [])
        expectEqual(try await store.fetchOne(Keyword.self, id: "a")?.essays.map(\.id), [2])
        try await expectEqual(store.deleteAll(Essay.self), 1)
        #expect(try await store.deleteOne(Keyword.self, id: "a"))
        if let sqlite = store as? SQLiteStore {
            try await sqlite.database.read { db in
                expectEqual(try Int.fetchOne(db, sql: #"SELECT COUNT(*) FROM "Essay_keywords""#), 0)
            }
        }
        Essay.breakCycles(saved)
    }

    /// A many-to-many of one model with itself, whose saved cycles load back.
    @Test(arguments: StoreKind.allCases)
    func aManyToManyOfAModelWithItself(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        let fans = (1...3).map { Fan(id: $0) }
        fans[0].following = [fans[1], fans[2]]
        fans[1].following = [fans[0]]
        expectEqual(fans[0].followers.map(\.id), [2])
        try await store.save(fans)

        let loaded = try await store.fetchAll(ModelQuery(Fan.self).order(by: \Fan.id))
        expectEqual(loaded.map { $0.following.map(\.id) }, [[2, 3], [1], []])
        expectEqual(loaded.map { $0.followers.map(\.id) }, [[2], [1], [1]])
        #expect(loaded[0].following[0] === loaded[1])
        Fan.breakCycles(fans + loaded)
    }

    /// A `.cascade` deletes the related models, whose join rows go too: the other owners lose them.
    @Test(arguments: StoreKind.allCases)
    func aCascadeThroughTheJoinTable(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        let tracks = (1...3).map { Track(id: $0) }
        let albums = [Album(id: 1), Album(id: 2)]
        albums[0].tracks = [tracks[0], tracks[1]]
        albums[1].tracks = [tracks[1], tracks[2]]
        try await store.save(albums)
        #expect(try await store.deleteOne(Album.self, id: 1))
        expectEqual(try await store.fetchAll(ModelQuery(Track.self).order(by: \Track.id)).map(\.id), [3])
        let left = try #require(try await store.fetchOne(Album.self, id: 2))
        expectEqual(left.tracks.map(\.id), [3])
        (albums + [left]).forEach { $0.tracks = [] }
    }

    /// Arrays that disagree (a class that keeps no inverses) are refused at the save, naming the
    /// model: both sides write the one join table.
    @Test(arguments: StoreKind.allCases)
    func arraysThatDisagreeAreRefused(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        let dish = Dish(id: 1)
        dish.ingredients = [Ingredient(id: 7)]
        let error = await #expect(throws: StoreError.self) { try await store.save(dish) }
        expectEqual(
            error?.description,
            "cannot save 'Dish' 1: cannot map value at 'ingredients': expected models whose 'dishes' holds this model "
                + "(the store keeps both in one join table), found '7' whose 'dishes' does not: add it, or use an "
                + "observable model, which keeps inverses")
        dish.ingredients[0].dishes = [dish]
        try await store.save(dish)
        expectEqual(try await store.fetchOne(Ingredient.self, id: 7)?.dishes.map(\.id), [1])
        dish.ingredients = []
    }

    /// A join row that names a model the store does not hold is refused by the join table's
    /// foreign keys; written by a program that turns them off, it is an error naming the owner,
    /// the join table and the model.
    @Test func aJoinRowNamingNoModelIsAnError() async throws {
        let store = try SQLiteStore()
        let saved = try await savedEssays(in: store)
        let insert = #"INSERT INTO "Essay_keywords" ("id", "essays", "keywords") VALUES ('[2,"zz"]', 2, 'zz')"#
        await #expect(throws: DatabaseError.self) { try await store.database.write { db in try db.execute(sql: insert) } }
        try await store.database.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA foreign_keys = OFF")
            try db.execute(sql: insert)
            try db.execute(sql: "PRAGMA foreign_keys = ON")
        }
        // Prefetched, the fetch throws; loaded on first access, the accessor leaves the array
        // empty and the context keeps the error, which an explicit load throws.
        let query = ModelQuery(Essay.self).filter(\Essay.id == 2).prefetching(\.keywords)
        await #expect(throws: StoreError.self) { try await store.fetchOne(query) }
        let context = ModelContext(store: store)
        let essay = try #require(try await store.fetchOne(Essay.self, id: 2, context: context))
        expectEqual(essay.keywords.map(\.id), [])
        #expect(context.relationshipLoadError is StoreError)
        let error = #expect(throws: StoreError.self) { try essay.loadPendingRelationships() }
        expectEqual(
            error?.description,
            #"cannot load 'Essay' 2: its 'keywords' holds 'Keyword' "zz" (by a row of 'Essay_keywords'), and no such row is in the store"#)
        Essay.breakCycles(saved)
    }

    /// A store written when both sides kept JSON arrays of identifiers loads them, and the
    /// next save moves them into join rows.
    @Test func arraysOfIdentifiersLoadAndMoveToJoinRows() async throws {
        let store = try SQLiteStore()
        let saved = try await savedEssays(in: store)
        try await store.database.write { db in
            try db.execute(sql: #"DELETE FROM "Essay_keywords""#)
            try db.execute(sql: #"UPDATE "Essay" SET "keywords" = '["a","b"]' WHERE "id" = 1"#)
            try db.execute(sql: #"UPDATE "Keyword" SET "essays" = '[1]' WHERE "id" IN ('a', 'b')"#)
        }
        let essay = try #require(try await store.fetchOne(Essay.self, id: 1))
        expectEqual(essay.keywords.map(\.id), ["a", "b"])
        expectEqual(essay.keywords.map { $0.essays.map(\.id) }, [[1], [1]])
        try await store.save(essay)
        try await store.database.read { db in
            expectEqual(try Int.fetchOne(db, sql: #"SELECT COUNT(*) FROM "Essay_keywords""#), 2)
            #expect(try DatabaseValue.fetchOne(db, sql: #"SELECT "keywords" FROM "Essay" WHERE "id" = 1"#)?.isNull == true)
        }
        try await expectEqual(store.fetchCount(ModelQuery(Essay.self).filter((\Essay.keywords).count == 2)), 1)
        Essay.breakCycles(saved + [essay])
    }

    @Test(arguments: StoreKind.allCases)
    func conditionsThroughTheJoinTable(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        let saved = try await savedEssays(in: store)
        let b = try #require(saved[0].keywords.first { $0.id == "b" })
        func essays(_ predicate: ModelPredicate<Essay>) async throws -> [Int] {
            try await store.fetchAll(ModelQuery(Essay.self).filter(predicate).order(by: \Essay.id)).map(\.id)
        }
        func keywords(_ predicate: ModelPredicate<Keyword>) async throws -> [String] {
            try await store.fetchAll(ModelQuery(Keyword.self).filter(predicate).order(by: \Keyword.id)).map(\.id)
        }
        expectEqual(try await essays((\Essay.keywords).count == 2), [1])
        expectEqual(try await essays((\Essay.keywords).count >= 1), [1, 2])
        expectEqual(try await essays((\Essay.keywords).contains(b)), [1])
        expectEqual(try await essays((\Essay.keywords).contains(where: \Keyword.id == "a")), [1, 2])
        expectEqual(try await essays((\Essay.keywords).allSatisfy(\Keyword.id == "a")), [2])
        expectEqual(try await keywords((\Keyword.essays).count == 0), ["c"])
        expectEqual(try await keywords((\Keyword.essays).contains(where: \Essay.title == "two")), ["a"])
        try await expectEqual(store.fetchCount(ModelQuery(Keyword.self).filter((\Keyword.essays).count > 1)), 1)
        Essay.breakCycles(saved)
    }

    /// Reading essays with their keywords (and the keywords' essays), prefetched, costs the same
    /// number of queries for 5 essays as for 50, by SQLite's own trace.
    @Test(arguments: [5, 50])
    func aReadIsTwoQueriesPerRelationship(essays count: Int) async throws {
        let directory = try TemporaryDirectory()
        let statements = StatementLog()
        let store = try statements.tracedStore(in: directory)
        let keywords = (0..<10).map { Keyword(id: "k\($0)") }
        let essays = (0..<count).map { Essay(id: $0, title: "essay \($0)") }
        for essay in essays { essay.keywords = [keywords[essay.id % 10], keywords[(essay.id + 3) % 10]] }
        try await store.save(essays)

        statements.reset()
        let loaded = try await store.fetchAll(ModelQuery(Essay.self).prefetching(\.keywords).prefetching(\Keyword.essays))
        #expect(loaded.allSatisfy { $0.keywords.count == 2 })
        // The essays, their join rows and keywords, then the keywords' join rows (their essays
        // are all loaded already).
        expectEqual(statements.selects, 4, "\(statements.all)")
        Essay.breakCycles(essays + loaded)
    }
}

@Model final class Essay {
    @Identifier var id: Int
    var title: String
    @Relationship(inverse: \Keyword.essays) var keywords: [Keyword] = []

    /// Ends the reference cycles a test made, so its instances go.
    static func breakCycles(_ essays: [Essay]) {
        for essay in essays { essay.keywords = [] }
    }
}

@Model final class Keyword {
    @Identifier var id: String
    @Relationship(deleteRule: .deny) var essays: [Essay] = []
}

/// Fans following fans.
@Model final class Fan {
    @Identifier var id: Int
    @Relationship(inverse: \Fan.followers) var following: [Fan] = []
    var followers: [Fan] = []

    static func breakCycles(_ fans: [Fan]) {
        for member in fans {
            member.following = []
            member.followers = []
        }
    }
}

/// Albums that take their tracks with them.
@Model final class Album {
    @Identifier var id: Int
    @Relationship(deleteRule: .cascade, inverse: \Track.albums) var tracks: [Track] = []
}

@Model final class Track {
    @Identifier var id: Int
    var albums: [Album] = []
}

/// Classes that keep no inverses: the arrays are the app's to keep in step.
@Model(observable: false) final class Dish {
    @Identifier var id: Int
    @Relationship(inverse: \Ingredient.dishes) var ingredients: [Ingredient] = []
}

@Model(observable: false) final class Ingredient {
    @Identifier var id: Int
    var dishes: [Dish] = []
}
