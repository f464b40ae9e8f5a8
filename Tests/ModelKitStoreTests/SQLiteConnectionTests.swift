import Foundation
import GRDB
import ModelKit
@testable import ModelKitStore
import ModelKitTestSupport
import Testing

/// A chain of nodes in one table: loading a node's `next` while the node's own row is read in
/// place runs the select of that same table again, inside the first one; `label` is read after.
@Model final class Node {
    @Identifier var id: Int
    var next: Node?
    var label: String
}

/// The SQLite store's reads in place: references loaded while a row is read (through the same,
/// reentrant access; a statement in use is never reset under a read), migrations, identity,
/// transactions, and the read without `BEGIN` that falls back to a transaction.
@Suite struct SQLiteConnectionTests {
    /// A book read in place and from its values: the same book, its author and editor loaded
    /// from the author table while the book's row is read; in one context, one author instance.
    @Test func referencesLoadWhileARowIsReadInPlace() async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(path: directory.path("books.sqlite"))
        let ada = Author(id: 1, name: "Ada", tags: ["math"], address: Address(city: "London", zip: nil), rating: 5)
        let book = makeBook("978-1", author: ada)
        book.editor = Author(id: 2, name: "Charles")
        try await store.save([book, makeBook("978-2", author: ada, pages: 7)])

        let context = ModelContext()
        let fetched = try #require(try await store.fetchOne(Book.self, id: "978-1", context: context))
        #expect(fetched.author.name == "Ada" && fetched.author.address?.city == "London")
        #expect(fetched.editor?.name == "Charles")
        #expect(fetched.price == book.price && fetched.cover == book.cover && fetched.published == book.published)
        #expect(fetched.chapters == book.chapters && fetched.ratings == book.ratings && fetched.format == .ebook)
        // The same context: the live instance, and one author for both books.
        #expect(try await store.fetchOne(Book.self, id: "978-1", context: context) === fetched)
        let both = try await store.fetchAll(ModelQuery(Book.self).order(by: \Book.isbn), context: context)
        #expect(both.map(\.isbn) == ["978-1", "978-2"] && both[0] === fetched)
        #expect(both[1].author === fetched.author && both[1].pages == 7)

        // Read from the row's values copied out first: the same values.
        let table = try StoreTable.of(Book.self)
        let copied = try store.withConnectionNow { connection in
            let row = try #require(try connection.selectRowNow(table, identifier: .text("978-1")))
            let context = ModelContext()
            return try context.performMapping {
                try RowLoader(synchronous: connection).model(
                    Book.self, from: .values(row.values), version: row.version, table: table, context: context,
                    decoder: StoreModelDecoder())
            }
        }
        #expect(copied.title == fetched.title && copied.author.name == fetched.author.name)
        #expect(copied.editor?.id == fetched.editor?.id && copied.link == fetched.link && copied.code == fetched.code)
    }

    /// Nodes whose `next` is a row of their own table: each is loaded while the row before it is
    /// read in place, by a select of its own (the cached one is in use), and every fetch still
    /// reads each node once, and whole.
    @Test func aReferenceToTheSameTableLoadsInsideTheRead() async throws {
        let store = try SQLiteStore()
        let last = Node(id: 3, next: nil, label: "c")
        let middle = Node(id: 2, next: last, label: "b")
        try await store.save([Node(id: 1, next: middle, label: "a"), Node(id: 4, next: last, label: "d")])

        let first = try #require(try await store.fetchOne(Node.self, id: 1))
        #expect(first.label == "a" && first.next?.label == "b" && first.next?.next?.label == "c")
        #expect(first.next?.next?.next == nil)

        let context = ModelContext()
        let nodes = try await store.fetchAll(ModelQuery(Node.self).order(by: \Node.id), context: context)
        expectEqual(nodes.map(\.label), ["a", "b", "c", "d"])
        #expect(nodes[0].next === nodes[1] && nodes[1].next === nodes[2] && nodes[3].next === nodes[2])
        // The cached statement was reset after the nested reads: point reads go on as usual.
        #expect(try await store.fetchOne(Node.self, id: 4)?.next?.label == "c")
        #expect(try await store.fetchOne(Node.self, id: 5) == nil)
    }

    /// Rows older than the model go through its migration hook, in place as from their values:
    /// the same people, and the same migration error for the row the hook refuses.
    @Test func olderRowsMigrateTheSameWayInPlace() async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(path: try StoreMigrationTests().oldFile(in: directory))
        for id in 1...3 {
            let (inPlace, values) = try await bothPaths(Person.self, id: id, in: store, context: { ModelContext() })
            switch (inPlace, values) {
            case (.model(let a), .model(let b)):
                #expect(a.firstName == b.firstName && a.lastName == b.lastName && a.nickname == b.nickname && a.age == b.age)
            case (.error(let a, let aMessage), .error(let b, let bMessage)):
                #expect(a == .migrationFailed && a == b && aMessage == bMessage, "\(aMessage)")
            default:
                Issue.record("person \(id): in place \(inPlace), from values \(values)")
            }
        }
        let people = try await store.fetchAll(ModelQuery(Person.self).filter(\Person.id < 3).order(by: \Person.id))
        #expect(people.map(\.firstName) == ["Ada", "Grace"] && people.map(\.nickname) == ["ada", "amazing grace"])
    }

    /// Reads in place inside the caller's transactions: a read sees one snapshot, a write sees
    /// what it saved before it commits.
    @Test func readsInPlaceWorkInsideTransactions() async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(path: directory.path("tx.sqlite"))
        try await store.save((1...5).map(ColumnSample.make))
        let (one, count) = try await store.read { tx in
            (try await tx.fetchOne(ColumnSample.self, id: 1), try await tx.fetchAll(ColumnSample.self).count)
        }
        #expect(one == ColumnSample.make(1) && count == 5)
        let seen = try await store.write { tx in
            try await tx.save(ColumnSample.make(6))
            return try await tx.fetchOne(ColumnSample.self, id: 6)
        }
        expectEqual(seen, ColumnSample.make(6))
        try await expectEqual(store.fetchCount(ColumnSample.self), 6)
        // Inside its own transaction, the store refuses the store's own fetches, as before.
        let nested = await #expect(throws: StoreError.self) {
            try await store.read { _ in try await store.fetchOne(ColumnSample.self, id: 1) }
        }
        #expect(nested?.kind == .misusedTransaction)
    }

    /// The read without `BEGIN`: accesses nested in the first one are part of it; a second one
    /// is refused, and marks the read as needing a transaction.
    @Test func anAutocommitReadAllowsOneAccessAndTheOnesInsideIt() throws {
        let read = AutocommitRead()
        let inner = try read.run { try read.run { try read.run { 42 } } }
        #expect(inner == 42 && !read.neededTransaction)
        #expect(throws: AutocommitRead.SecondAccess.self) { try read.run { 1 } }
        #expect(read.neededTransaction)
        #expect(throws: AutocommitRead.SecondAccess.self) { try read.run { 1 } }
    }
}
