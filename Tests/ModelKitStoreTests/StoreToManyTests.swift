import Foundation
import GRDB
import ModelKit
import ModelKitStore
import ModelKitTestSupport
import Testing

/// A to-many whose inverse is a to-one lies in the inverse's column: the owner's column holds
/// `NULL`, a read fills the arrays with one query per relationship (never one per row), and
/// conditions on the related models are subqueries over that column.
@Suite struct StoreToManyTests {
    @Test(arguments: StoreKind.allCases)
    func aToManyLivesInItsInversesColumn(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        let topic = Topic(id: 1, title: "Relationships")
        for id in [3, 1, 2] { _ = Reply(id: id, text: "reply \(id)", topic: topic) }
        expectEqual(topic.replies.map(\.id), [3, 1, 2])
        try await store.save(topic)

        if let sqlite = store as? SQLiteStore {
            try await sqlite.database.read { db in
                #expect(try DatabaseValue.fetchOne(db, sql: #"SELECT "replies" FROM "Topic""#)?.isNull == true)
                expectEqual(try Int.fetchAll(db, sql: #"SELECT "topic" FROM "Reply" ORDER BY "id""#), [1, 1, 1])
            }
        }
        let loaded = try #require(try await store.fetchOne(Topic.self, id: 1))
        // The rows hold no order: the related identifiers give one, the same on every store.
        expectEqual(loaded.replies.map(\.id), [1, 2, 3])
        #expect(loaded.replies.allSatisfy { $0.topic === loaded })
        let reply = try #require(try await store.fetchOne(Reply.self, id: 2))
        expectEqual(reply.topic?.replies.map(\.id), [1, 2, 3])
        #expect(reply.topic?.replies.contains { $0 === reply } == true)
        Topic.breakCycles([topic, loaded, reply.topic].compactMap { $0 })
    }

    /// Rows read one after another that name one model, then another, then the first again:
    /// each reference is its own model's live instance (a reader remembers the last instance a
    /// column named, and must not give it for another identifier), in a plain fetch and in a fill.
    @Test(arguments: StoreKind.allCases)
    func referencesOfConsecutiveRowsEachFindTheirOwnModel(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        let topics = [Topic(id: 1, title: "one"), Topic(id: 2, title: "two")]
        let pattern = [1, 1, 2, 1, 2, 2, 1]
        for (index, topic) in pattern.enumerated() { _ = Reply(id: index, text: "reply \(index)", topic: topics[topic - 1]) }
        try await store.save(topics)

        let context = ModelContext(store: store as? any ModelLoading)
        let replies = try await store.fetchAll(ModelQuery(Reply.self).order(by: \Reply.id), context: context)
        expectEqual(replies.map { $0.topic?.id }, pattern)
        let live = try [1, 2].map { try #require(context.registeredModel(Topic.self, id: $0)) }
        #expect(replies.allSatisfy { reply in reply.topic === live[pattern[reply.id] - 1] })
        expectEqual(live.map { $0.replies.map(\.id) }, [[0, 1, 3, 6], [2, 4, 5]])

        let filled = try await store.fetchAll(ModelQuery(Topic.self).order(by: \Topic.id).prefetching(\.replies))
        expectEqual(filled.map { $0.replies.map(\.id) }, [[0, 1, 3, 6], [2, 4, 5]])
        #expect(filled.allSatisfy { topic in topic.replies.allSatisfy { $0.topic === topic } })
        Topic.breakCycles(topics + live + filled)
    }

    /// A tree in one table: each node's children are the nodes whose parent it is.
    @Test(arguments: StoreKind.allCases)
    func aTreeInOneTableLoadsAndCascades(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        let root = Outline(id: 1, title: "root")
        let chapter = Outline(id: 2, title: "chapter", parent: root)
        _ = Outline(id: 3, title: "section", parent: chapter)
        _ = Outline(id: 4, title: "appendix", parent: root)
        try await store.save(root)

        let loaded = try #require(try await store.fetchOne(Outline.self, id: 1))
        expectEqual(loaded.children.map(\.title), ["chapter", "appendix"])
        expectEqual(loaded.children.first?.children.map(\.title), ["section"])
        #expect(loaded.children.first?.children.first?.parent === loaded.children.first)
        let leaves = try await store.fetchAll(ModelQuery(Outline.self).filter((\Outline.children).count == 0).order(by: \Outline.id))
        expectEqual(leaves.map(\.id), [3, 4])
        let parents = try await store.fetchAll(
            ModelQuery(Outline.self).filter((\Outline.children).contains(where: \Outline.title == "section")))
        expectEqual(parents.map(\.id), [2])

        #expect(try await store.deleteOne(Outline.self, id: 1))
        try await expectEqual(store.fetchCount(Outline.self), 0)
        Outline.breakCycles([root, loaded] + leaves + parents)
    }

    /// The inverse may be declared on the to-one's side; a cursor fills each batch's owners; a
    /// tracking context's fills are no edits.
    @Test(arguments: StoreKind.allCases)
    func anInverseDeclaredOnTheOtherSideACursorAndATrackingContext(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        let shelves = (1...5).map { Shelf(id: $0) }
        for id in 1...10 { _ = Volume(id: id, shelf: shelves[id % 5]) }  // shelf 2 holds 1 and 6, shelf 1 5 and 10
        try await store.save(shelves)

        var seen: [Int: [Int]] = [:]
        for try await shelf in store.cursor(ModelQuery(Shelf.self).order(by: \Shelf.id), batchSize: 2) {
            seen[shelf.id] = shelf.volumes.map(\.id)
            #expect(shelf.volumes.allSatisfy { $0.shelf === shelf })
            shelf.volumes = []
        }
        expectEqual(seen, [1: [5, 10], 2: [1, 6], 3: [2, 7], 4: [3, 8], 5: [4, 9]])

        let context = ModelContext(store: store)
        let loaded = try await store.fetchAll(ModelQuery(Shelf.self).order(by: \Shelf.id), context: context)
        expectEqual(loaded.map { $0.volumes.count }, [2, 2, 2, 2, 2])
        #expect(!context.hasChanges)
        loaded[0].volumes[0].shelf = loaded[1]
        expectEqual(context.changedProperties(of: loaded[0]), ["volumes"])
        try await context.save()
        expectEqual(try await store.fetchOne(Shelf.self, id: 2)?.volumes.map(\.id), [1, 5, 6])
        (shelves + loaded).forEach { $0.volumes = [] }
    }

    /// An owner whose related models were never saved (no table for them yet) loads with an
    /// empty array.
    @Test(arguments: StoreKind.allCases)
    func anOwnerWhoseRelatedTableIsNotThereYet(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        try await store.save(Ledger(id: 1))
        expectEqual(try await store.fetchOne(Ledger.self, id: 1)?.entries.count, 0)
        try await expectEqual(store.fetchCount(ModelQuery(Ledger.self).filter((\Ledger.entries).count == 0)), 1)
    }

    /// More owners than one query binds (30,000): each chunk of owners gets the models of its
    /// own query, none loses them to another chunk's.
    @Test func moreOwnersThanOneQueryBinds() async throws {
        let store = try SQLiteStore()
        let ends = [Topic(id: 0, title: ""), Topic(id: 30_001, title: "")]
        _ = Reply(id: 1, text: "first", topic: ends[0])
        _ = Reply(id: 2, text: "last", topic: ends[1])
        try await store.save(ends)
        // The topics between, by SQL: 30,000 saves would cost the test most of its time.
        try await store.database.write { db in
            try db.execute(
                sql: #"WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 30000) "#
                    + #"INSERT INTO "Topic" ("id", "title", "_version") SELECT i, '', 0 FROM n"#)
        }
        let loaded = try await store.fetchAll(ModelQuery(Topic.self).order(by: \Topic.id).prefetching(\.replies))
        expectEqual(loaded.count, 30_002)
        expectEqual(loaded[0].replies.map(\.id), [1])
        expectEqual(loaded[30_001].replies.map(\.id), [2])
        expectEqual(loaded[1].replies.count, 0)
        Topic.breakCycles(ends + loaded)
    }

    /// A context's owners follow the deletes of the models their to-many holds: the array loses
    /// them, without counting as an edit.
    @Test(arguments: StoreKind.allCases)
    func anOwnerLosesTheModelsADeleteRemoves(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        let topic = Topic(id: 1, title: "t")
        for id in 1...3 { _ = Reaction(id: id * 10, emoji: "+1", reply: Reply(id: id, text: "r\(id)", topic: topic)) }
        try await store.save(topic)

        let context = ModelContext(store: store)
        let loaded = try #require(try await store.fetchOne(Topic.self, id: 1, context: context))
        let second = loaded.replies[1]
        try context.delete(second)
        try await context.save()
        expectEqual(loaded.replies.map(\.id), [1, 3])
        #expect(!context.hasChanges)
        try await expectEqual(store.fetchCount(Reaction.self), 2)  // the reply's reactions went with it
        expectEqual(try await store.fetchOne(Topic.self, id: 1)?.replies.map(\.id), [1, 3])
        Topic.breakCycles([topic, loaded])
        second.reactions = []
    }

    /// Conditions on a to-many's models, the same on every store: how many, whether one of them
    /// is a given model or matches, whether all of them match.
    @Test(arguments: StoreKind.allCases)
    func conditionsOnTheModelsOfAToMany(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        let topics = (1...4).map { Topic(id: $0, title: "topic \($0)") }
        let replies = [
            Reply(id: 10, text: "first", topic: topics[0]), Reply(id: 11, text: "second", topic: topics[0]),
            Reply(id: 20, text: "first", topic: topics[1]), Reply(id: 30, text: "second", topic: topics[2]),
        ]
        _ = Reaction(id: 100, emoji: "+1", reply: replies[0])
        try await store.save(topics)
        func ids(_ predicate: ModelPredicate<Topic>) async throws -> [Int] {
            try await store.fetchAll(ModelQuery(Topic.self).filter(predicate).order(by: \Topic.id)).map(\.id)
        }
        try await expectEqual(ids((\Topic.replies).count == 2), [1])
        try await expectEqual(ids((\Topic.replies).count < 1), [4])
        try await expectEqual(ids((\Topic.replies).contains(replies[2])), [2])
        try await expectEqual(ids((\Topic.replies).contains(where: \Reply.text == "first")), [1, 2])
        try await expectEqual(ids(!(\Topic.replies).contains(where: \Reply.text == "first")), [3, 4])
        try await expectEqual(ids((\Topic.replies).allSatisfy(\Reply.text == "second")), [3, 4])
        try await expectEqual(
            ids((\Topic.replies).contains(where: (\Reply.reactions).contains(where: \Reaction.emoji == "+1"))), [1])
        try await expectEqual(store.fetchCount(ModelQuery(Topic.self).filter((\Topic.replies).count >= 1)), 3)
        try await expectEqual(store.deleteAll(ModelQuery(Topic.self).filter((\Topic.replies).count == 0)), 1)
        Topic.breakCycles(topics)
    }

    /// A condition on the models of a to-many that keeps identifiers (no inverse to-one) is a
    /// typed error, not a silent match.
    @Test func aConditionOnAToManyOfIdentifiersIsRefused() async throws {
        let store = MemoryStore()
        let error = await #expect(throws: StoreError.self) {
            try await store.fetchAll(ModelQuery(TaggedNote.self).filter((\TaggedNote.tags).contains(where: \NoteTag.name == "swift")))
        }
        #expect(error?.kind == .unknownKeyPath)
        #expect(error?.description.contains("'TaggedNote.tags' keeps the identifiers of its models") == true)
    }

    /// A class that keeps no inverses may hold a model whose inverse says otherwise: saving it
    /// is refused, naming the model, rather than losing it from the array on the next read.
    @Test(arguments: StoreKind.allCases)
    func anArrayThatDisagreesWithItsInverseIsRefused(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        let ledger = Ledger(id: 1)
        ledger.entries = [LedgerEntry(id: 7)]
        let error = await #expect(throws: StoreError.self) { try await store.save(ledger) }
        #expect(error?.description.contains("'7' whose 'ledger' is nil: set it") == true)
        try await expectEqual(store.fetchCount(Ledger.self), 0)
        ledger.entries[0].ledger = ledger
        try await store.save(ledger)
        expectEqual(try await store.fetchOne(Ledger.self, id: 1)?.entries.map(\.id), [7])
        ledger.entries = []
    }

    /// Reading models with the to-many relationships a query prefetches costs one query per
    /// relationship (and per level), whatever the number of rows: counted by SQLite itself, on a
    /// store with one connection whose statements are traced. N+1 would grow with the rows.
    @Test(arguments: [5, 50])
    func aPrefetchIsOneQueryPerRelationship(topics count: Int) async throws {
        let directory = try TemporaryDirectory()
        let statements = StatementLog()
        let store = try statements.tracedStore(in: directory)
        let topics = try await savedTopics(count, in: store)

        statements.reset()
        let loaded = try await store.fetchAll(ModelQuery(Topic.self).prefetching(\.replies).prefetching(\Reply.reactions))
        expectEqual(loaded.count, count)
        #expect(loaded.allSatisfy { $0.replies.count == 4 && $0.replies.allSatisfy { $0.reactions.count == 2 } })
        // The topics, then every topic's replies, then every reply's reactions.
        expectEqual(statements.selects, 3, "\(statements.all)")

        statements.reset()
        let replies = try await store.fetchAll(ModelQuery(Reply.self).prefetching(\.reactions).prefetching(\Topic.replies))
        expectEqual(replies.count, count * 4)
        #expect(replies.allSatisfy { reply in reply.topic?.replies.contains { $0 === reply } == true })
        // The replies, then their topics (a to-one, loaded for all of them at once), then the
        // topics' replies and the replies' reactions.
        expectEqual(statements.selects, 4, "\(statements.all)")
        Topic.breakCycles(replies.compactMap(\.topic))

        statements.reset()
        let query = ModelQuery(Reply.self).filter(\Reply.id == 1).prefetching(\.reactions).prefetching(\Topic.replies)
        let reply = try #require(try await store.fetchOne(query))
        expectEqual(reply.topic?.replies.count, 4)
        // The reply, its topic, the topic's replies, their reactions.
        expectEqual(statements.selects, 4, "\(statements.all)")
        Topic.breakCycles(topics + loaded + [reply.topic].compactMap { $0 })
    }

    /// A prefetch written where the related model's type is concrete carries that model's
    /// decoder, specialized there; one written in generic code carries none and reads the rows
    /// with the loader's generic decoder. Both read the same models, one query per relationship.
    @Test func aPrefetchCarriesTheRelatedModelsDecoderWhereItsTypeIsKnown() async throws {
        func generic<Owner: Model, Value: RelationshipValue>(_ keyPath: KeyPath<Owner, Value>) -> ModelQuery<Owner> {
            ModelQuery(Owner.self).prefetching(keyPath)
        }
        let concrete = ModelQuery(Topic.self).prefetching(\.replies).prefetching(\Reply.reactions)
        expectEqual(Set(concrete.relatedDecoders.keys.map(\.property)), ["replies", "reactions"])
        expectEqual(ModelQuery(Topic.self).prefetching(\Topic.replies).relatedDecoders.count, 1)
        expectEqual(ModelQuery(Topic.self).prefetching(\.replies, \.replies).relatedDecoders.count, 1)
        let unspecialized = generic(\Topic.replies)
        #expect(unspecialized.relatedDecoders.isEmpty)
        expectEqual(unspecialized.prefetched.map(\.property), ["replies"])

        let directory = try TemporaryDirectory()
        let statements = StatementLog()
        let store = try statements.tracedStore(in: directory)
        let topics = try await savedTopics(3, in: store)
        var read: [[Int]] = []
        for query in [ModelQuery(Topic.self).prefetching(\.replies), unspecialized] {
            statements.reset()
            let loaded = try await store.fetchAll(query.order(by: \Topic.id))
            read.append(loaded.flatMap { $0.replies.map(\.id) })
            expectEqual(statements.selects, 2, "\(statements.all)")
            Topic.breakCycles(loaded)
        }
        expectEqual(read[0].count, 12)
        expectEqual(read[0], read[1])
        Topic.breakCycles(topics)
    }

    /// Without a prefetch, a to-many loads on its first access: one query for that owner, none
    /// on the next access; the fetch itself is one query.
    @Test(arguments: [5, 50])
    func aToManyLoadsOnItsFirstAccess(topics count: Int) async throws {
        let directory = try TemporaryDirectory()
        let statements = StatementLog()
        let store = try statements.tracedStore(in: directory)
        let topics = try await savedTopics(count, in: store)

        statements.reset()
        let loaded = try await store.fetchAll(ModelQuery(Topic.self).order(by: \Topic.id))
        expectEqual(statements.selects, 1, "\(statements.all)")
        expectEqual(loaded[1].replies.map(\.id), [1, count + 1, 2 * count + 1, 3 * count + 1])
        expectEqual(statements.selects, 2, "\(statements.all)")
        #expect(loaded[1].replies.allSatisfy { $0.topic === loaded[1] })
        expectEqual(statements.selects, 2, "\(statements.all)")
        expectEqual(loaded[1].replies[0].reactions.map(\.id), [2, 3])
        expectEqual(statements.selects, 3, "\(statements.all)")
        #expect(loaded.allSatisfy { $0.replies.count == 4 })
        expectEqual(statements.selects, 3 + count - 1, "one query for each other topic's first access")

        // A tracking context (which watches every property) leaves them for first access too.
        statements.reset()
        let context = ModelContext(store: store)
        let tracked = try await store.fetchAll(ModelQuery(Topic.self).order(by: \Topic.id), context: context)
        expectEqual(statements.selects, 1, "\(statements.all)")
        expectEqual(tracked[0].replies.count, 4)
        expectEqual(statements.selects, 2, "\(statements.all)")
        #expect(!context.hasChanges)
        Topic.breakCycles(topics + loaded + tracked)
    }

    /// `count` topics with 4 replies each, each reply with 2 reactions, saved.
    private func savedTopics(_ count: Int, in store: SQLiteStore) async throws -> [Topic] {
        let topics = (0..<count).map { Topic(id: $0, title: "topic \($0)") }
        for index in 0..<count * 4 {
            let reply = Reply(id: index, text: "reply \(index)", topic: topics[index % count])
            _ = Reaction(id: index * 2, emoji: "+1", reply: reply)
            _ = Reaction(id: index * 2 + 1, emoji: "-1", reply: reply)
        }
        try await store.save(topics)
        return topics
    }
}

/// The SQL statements a traced connection ran.
final class StatementLog: Sendable {
    private let statements = Locked<[String]>([])

    func record(_ statement: String) { statements.withLock { $0.append(statement) } }
    func reset() { statements.withLock { $0 = [] } }
    var all: [String] { statements.withLock { $0 } }
    /// An SQLite store on one connection (a file in `directory`) whose statements this log records.
    func tracedStore(in directory: TemporaryDirectory) throws -> SQLiteStore {
        var configuration = Configuration()
        configuration.allowsUnsafeTransactions = true
        configuration.prepareDatabase { db in db.trace { self.record($0.expandedDescription) } }
        return SQLiteStore(database: try DatabaseQueue(path: directory.path("traced.sqlite"), configuration: configuration))
    }

    /// How many statements read rows.
    var selects: Int { all.filter { $0.uppercased().hasPrefix("SELECT") }.count }
}

@Model final class Topic {
    @Identifier var id: Int
    var title: String
    @Relationship(deleteRule: .cascade, inverse: \Reply.topic) var replies: [Reply] = []

    /// Ends the reference cycles a test made, so its instances go.
    static func breakCycles(_ topics: [Topic]) {
        for topic in topics {
            for reply in topic.replies { reply.reactions = [] }
            topic.replies = []
        }
    }
}

@Model(indexes: [["topic"]]) final class Reply {
    @Identifier var id: Int
    var text: String
    var topic: Topic?
    @Relationship(deleteRule: .cascade, inverse: \Reaction.reply) var reactions: [Reaction] = []
}

@Model(indexes: [["reply"]]) final class Reaction {
    @Identifier var id: Int
    var emoji: String
    var reply: Reply?
}

@Model(indexes: [["parent"]]) final class Outline {
    @Identifier var id: Int
    var title: String
    var parent: Outline?
    @Relationship(deleteRule: .cascade, inverse: \Outline.parent) var children: [Outline] = []

    static func breakCycles(_ nodes: [Outline]) {
        for node in nodes {
            breakCycles(node.children)
            node.children = []
        }
    }
}

@Model(observable: false) final class Ledger {
    @Identifier var id: Int
    @Relationship(inverse: \LedgerEntry.ledger) var entries: [LedgerEntry] = []
}

@Model(observable: false) final class LedgerEntry {
    @Identifier var id: Int
    var ledger: Ledger?
}

/// A shelf whose volumes' inverse is declared on the volume.
@Model final class Shelf {
    @Identifier var id: Int
    var volumes: [Volume] = []
}

@Model(indexes: [["shelf"]]) final class Volume {
    @Identifier var id: Int
    @Relationship(inverse: \Shelf.volumes) var shelf: Shelf?
}
