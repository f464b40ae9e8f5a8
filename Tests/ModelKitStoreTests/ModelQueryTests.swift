import Foundation
import ModelKit
import ModelKitStore
import ModelKitTestSupport
import Testing

/// Queries: key-path predicates, orders, limits and offsets, as SQL and as results.
@Suite struct ModelQueryTests {
    static let columns =
        #""id", "numericID", "text", "createdAt", "user", "retweetedStatus", "hashtags", "urls", "mentions", "#
        + #""firstMediaURL", "inReplyToStatusIdStr", "inReplyToScreenName", "retweetCount", "favoriteCount", "#
        + #""favorited", "truncated", "source", "lang", "languageCode", "coordinates", "_version""#

    static let select = "SELECT \(columns) FROM \"Status\""

    /// Each predicate, the SQL after `WHERE` and its arguments.
    static let predicates: [(ModelPredicate<Status>, String, [StoreValue])] = [
        (\Status.lang == "ja", #""lang" = ?"#, [.text("ja")]),
        (\Status.lang != "ja", #""lang" IS NOT ?"#, [.text("ja")]),
        (\Status.retweetCount < 10, #""retweetCount" < ?"#, [.integer(10)]),
        (\Status.retweetCount <= 10, #""retweetCount" <= ?"#, [.integer(10)]),
        (\Status.retweetCount > 10, #""retweetCount" > ?"#, [.integer(10)]),
        (\Status.retweetCount >= 10, #""retweetCount" >= ?"#, [.integer(10)]),
        (\Status.favorited == true, #""favorited" = ?"#, [.integer(1)]),
        (\Status.inReplyToScreenName == nil, #""inReplyToScreenName" IS NULL"#, []),
        (\Status.inReplyToScreenName != nil, #""inReplyToScreenName" IS NOT NULL"#, []),
        (\Status.createdAt > Date(timeIntervalSince1970: 0), #""createdAt" > ?"#, [.text("1970-01-01T00:00:00.000000000+00:00")]),
        ((\Status.lang).in(["en", "ja"]), #""lang" IN (?, ?)"#, [.text("en"), .text("ja")]),
        ((\Status.lang).in([]), "0", []),
        ((\Status.text).contains("RT"), #"instr("text", ?) > 0"#, [.text("RT")]),
        (
            \Status.retweetCount > 10 && \Status.lang == "ja", #"("retweetCount" > ? AND "lang" = ?)"#,
            [.integer(10), .text("ja")]
        ),
        (
            \Status.lang == "en" || !(\Status.favoriteCount >= 2), #"("lang" = ? OR NOT ("favoriteCount" >= ?))"#,
            [.text("en"), .integer(2)]
        ),
    ]

    @Test(arguments: 0..<predicates.count)
    func predicatesBecomeSQLWithBoundArguments(index: Int) async throws {
        let (predicate, condition, arguments) = Self.predicates[index]
        let statement = try ModelQuery(Status.self).filter(predicate).selectSQL()
        expectEqual(statement.sql, "\(Self.select) WHERE \(condition)")
        expectEqual(statement.arguments, arguments)
    }

    @Test func ordersLimitsOffsetsCountsAndDeletes() async throws {
        let query = ModelQuery(Status.self)
            .filter(\Status.retweetCount > 10)
            .filter(\Status.lang == "ja")
            .order(by: \Status.createdAt, .descending)
            .order(by: \Status.id)
            .limit(20, offset: 40)
        let select = try query.selectSQL()
        #expect(
            select.sql == #"\#(Self.select) WHERE ("retweetCount" > ? AND "lang" = ?) ORDER BY "createdAt" DESC, "id" LIMIT ? OFFSET ?"#)
        expectEqual(select.arguments, [.integer(10), .text("ja"), .integer(20), .integer(40)])
        #expect(
            try query.countSQL().sql
                == #"SELECT COUNT(*) FROM (SELECT 1 FROM "Status" WHERE ("retweetCount" > ? AND "lang" = ?) ORDER BY "createdAt" DESC, "id" LIMIT ? OFFSET ?) AS selected"#)
        #expect(
            try query.deleteSQL().sql
                == #"DELETE FROM "Status" WHERE "id" IN (SELECT "id" FROM "Status" WHERE ("retweetCount" > ? AND "lang" = ?) ORDER BY "createdAt" DESC, "id" LIMIT ? OFFSET ?)"#)
        try expectEqual(ModelQuery(Status.self).filter(\Status.lang == "ja").countSQL().sql, #"SELECT COUNT(*) FROM "Status" WHERE "lang" = ?"#)
        try expectEqual(ModelQuery(Status.self).filter(\Status.lang == "ja").deleteSQL().sql, #"DELETE FROM "Status" WHERE "lang" = ?"#)
        try expectEqual(ModelQuery(Status.self).limit(5).selectSQL().description, "\(Self.select) LIMIT ? [5]")
        // A reference compares by identifier.
        let user = try TwitterUser(json: ["id_str": "7", "name": "a", "screen_name": "a", "location": "", "description": "",
            "followers_count": 0, "friends_count": 0, "verified": false, "protected": false,
            "created_at": "Sun Aug 31 00:29:15 +0000 2014", "profile_image_url_https": "https://example.com/a.png"])
        try expectEqual(ModelQuery(Status.self).filter(\Status.user == user).selectSQL().arguments, [.text("7")])
    }

    @Test func keyPathsThatAreNotStoredPropertiesAreErrors() async throws {
        // A key path through a reference names no column: the error says how to write the
        // condition on the model it refers to (StoreRelationshipQueryTests).
        let nested = #expect(throws: StoreError.self) { try ModelQuery(Status.self).filter(\Status.user.name == "x").selectSQL() }
        #expect(nested?.kind == .unknownKeyPath)
        expectEqual(
            nested?.description,
            #"cannot query 'Status': the key path '\Status.user.name' goes through the reference 'user'; a condition on the 'TwitterUser' it refers to is written '(\Status.user).matching(\TwitterUser.property == value)'"#)
        let transient = #expect(throws: StoreError.self) { try ModelQuery(Author.self).order(by: \Author.visits).selectSQL() }
        #expect(transient?.kind == .unknownKeyPath)
        #expect(transient?.description == #"cannot query 'Author': '\Author.visits' is '@Transient', so it has no column"#)
        // A computed property's name is not kept at run time on Linux, where Swift prints a
        // getter's address instead; the error shows its type, never an address.
        let computed = #expect(throws: StoreError.self) { try ModelQuery(Author.self).filter(\Author.tags.count > 1).selectSQL() }
        let text = computed?.description ?? ""
        #expect(!text.contains("0x"), "\(text)")
        #expect(text.hasPrefix(#"cannot query 'Author': the key path '\Author.tags."#))
        #expect(text.hasSuffix(#"goes inside the stored property 'tags'; a query names a stored property itself, like '\Author.tags'"#))
        #if os(Linux)
        #expect(text.contains(#"'\Author.tags.<computed Int>'"#))
        #endif
        let nan = #expect(throws: StoreError.self) { try ModelQuery(Author.self).filter(\Author.rating > .nan).selectSQL() }
        #expect(nan?.kind == .unencodableValue)
    }

    /// Each query and the identifiers of the statuses it selects, computed in Swift.
    static let queries: [(ModelQuery<Status>, @Sendable ([Status]) -> [String])] = [
        (ModelQuery(Status.self).filter(\Status.lang == "ja").order(by: \Status.id), { all in
            all.filter { $0.lang == "ja" }.map(\.id).sorted()
        }),
        (ModelQuery(Status.self).filter(\Status.retweetCount > 10 && \Status.lang != "zh").order(by: \Status.retweetCount, .descending).order(by: \Status.id), { all in
            all.filter { $0.retweetCount > 10 && $0.lang != "zh" }
                .sorted { ($0.retweetCount, $1.id) > ($1.retweetCount, $0.id) }.map(\.id)
        }),
        (ModelQuery(Status.self).filter(\Status.inReplyToScreenName != nil || (\Status.text).contains("@")).order(by: \Status.createdAt).order(by: \Status.id).limit(7, offset: 3), { all in
            Array(all.filter { $0.inReplyToScreenName != nil || $0.text.contains("@") }
                .sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }.dropFirst(3).prefix(7).map(\.id))
        }),
        (ModelQuery(Status.self).filter((\Status.lang).in(["zh", "en"]) || !(\Status.favoriteCount < 2)).order(by: \Status.id), { all in
            all.filter { ["zh", "en"].contains($0.lang) || !($0.favoriteCount < 2) }.map(\.id).sorted()
        }),
    ]

    /// Each query against a store of its own holding the statuses of twitter.json, mapped once
    /// for the four (mapping them is most of the time; saving does not change them).
    @Test(arguments: StoreKind.allCases)
    func queriesSelectWhatSwiftWouldOnEveryStore(kind: StoreKind) async throws {
        let timeline = try twitterTimeline(context: ModelContext())
        for (index, (query, expected)) in Self.queries.enumerated() {
            let directory = try TemporaryDirectory()
            let store = try kind.make(in: directory)
            try await store.save(timeline.statuses)
            let all = try await store.fetchAll(Status.self)
            let ids = expected(all)
            #expect(!ids.isEmpty && ids.count < all.count, "query \(index)")
            try await expectEqual(store.fetchAll(query).map(\.id), ids, "query \(index)")
            try await expectEqual(store.fetchCount(query), ids.count, "query \(index)")
            try await expectEqual(store.deleteAll(query), ids.count, "query \(index)")
            try await expectEqual(store.fetchCount(Status.self), all.count - ids.count, "query \(index)")
        }
    }
}
