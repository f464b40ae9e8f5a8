import Foundation
import ModelKit
import ModelKitStore
import ModelKitTestSupport
import Testing

/// Save, fetch, count and delete, the same on every store.
@Suite struct ModelStoreTests {
    @Test(arguments: StoreKind.allCases)
    func savedModelsReadBackWithEveryValue(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        let author = Author(id: 1, name: "Ada", born: Date(timeIntervalSince1970: -4_000_000_000), tags: ["math", "poetry"],
            address: Address(city: "London", zip: nil), rating: 4.5)
        let book = makeBook(author: author)
        try await store.save(book)

        let loaded = try #require(try await store.fetchOne(Book.self, id: "978-0"))
        #expect(loaded !== book)
        #expect(loaded.title == book.title && loaded.pages == 100 && loaded.price == Decimal(string: "12.50"))
        #expect(loaded.cover == Data([0, 1, 2, 255]) && loaded.published == book.published)
        #expect(loaded.ratings == ["ada": 5, "bob": 3] && loaded.chapters.map(\.title) == ["One"])
        #expect(loaded.link == book.link && loaded.code == book.code && loaded.format == .ebook && loaded.editor == nil)
        // The author was saved with the book, and comes back as a model of its own.
        #expect(loaded.author.name == "Ada" && loaded.author.tags == ["math", "poetry"])
        #expect(loaded.author.address?.city == "London" && loaded.author.address?.zip == nil)
        #expect(loaded.author.born == author.born && loaded.author.rating == 4.5 && loaded.author.visits == 0)
        try await expectEqual(store.fetchCount(Author.self), 1)
    }

    @Test(arguments: StoreKind.allCases)
    func saveManyFetchAllCountAndDelete(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        let counters = (0..<50).map { Counter(id: "c\($0)", count: $0) }
        try await store.save(counters)
        try await expectEqual(store.fetchCount(Counter.self), 50)
        // Without an order, SQLite and memory return rows in insertion order; PostgreSQL in its own.
        let all = try await store.fetchAll(Counter.self).map(\.count)
        expectEqual((kind.keepsInsertionOrder ? all : all.sorted()), Array(0..<50))
        #expect(try await store.fetchOne(Counter.self, id: "c7")?.count == 7)
        #expect(try await store.fetchOne(Counter.self, id: "none") == nil)

        // Saving again replaces the row.
        counters[7].count = 700
        try await store.save(counters[7])
        #expect(try await store.fetchOne(Counter.self, id: "c7")?.count == 700)
        try await expectEqual(store.fetchCount(Counter.self), 50)

        #expect(try await store.deleteOne(Counter.self, id: "c7"))
        #expect(try await !store.deleteOne(Counter.self, id: "c7"))
        #expect(try await store.delete(counters[8]))
        try await expectEqual(store.fetchCount(Counter.self), 48)
        try await expectEqual(store.deleteAll(Counter.self), 48)
        try await expectEqual(store.fetchCount(Counter.self), 0)
        #expect(try await store.fetchAll(Counter.self).isEmpty)
    }

    @Test(arguments: StoreKind.allCases)
    func identifiersOfEveryKind(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        let uuid = UUID()
        try await store.save(Ticket(id: uuid, title: "a"))
        try await store.save([Seat(number: 12, taken: true), Seat(number: 13)])
        try await store.save(Note(id: uuid, text: "struct", pinned: true))
        #expect(try await store.fetchOne(Ticket.self, id: uuid)?.title == "a")
        #expect(try await store.fetchOne(Seat.self, id: 12)?.taken == true)
        #expect(try await store.fetchOne(Seat.self, id: 13)?.taken == false)
        #expect(try await store.fetchOne(Note.self, id: uuid)?.pinned == true)
    }

    @Test(arguments: StoreKind.allCases)
    func aBatchThatFailsSavesNothing(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        try await store.save(Author(id: 1, name: "kept"))
        let batch = [Author(id: 2, name: "b"), Author(id: 3, name: "c", rating: .nan), Author(id: 4, name: "d")]
        let error = await #expect(throws: StoreError.self) { try await store.save(batch) }
        #expect(error?.kind == .unencodableValue)
        #expect(error?.description == "cannot save 'Author' 3: cannot map 'Author.rating' at 'rating': expected a number, found nan")
        try await expectEqual(store.fetchAll(Author.self).map(\.name), ["kept"])
    }

    @Test(arguments: StoreKind.allCases)
    func modelsWithoutIdentifierHaveNoRow(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        let error = await #expect(throws: StoreError.self) { try await store.save(Loose(text: "x")) }
        #expect(error?.description == "cannot store 'Loose': the model has no '@Identifier' property")
    }

    /// Deleting a model others refer to follows the rule: `Book.author` cannot be nil and no
    /// rule says otherwise, so the delete is refused and every row still loads (a reference left
    /// dangling by `.noAction` is in StoreDeleteRuleTests).
    @Test(arguments: StoreKind.allCases)
    func deletingAReferencedModelFollowsItsRule(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        try await store.save(makeBook("978-1", author: Author(id: 9, name: "Kept")))
        let denied = await #expect(throws: StoreError.self) { try await store.deleteOne(Author.self, id: 9) }
        #expect(denied?.kind == .deleteDenied)
        #expect(denied?.description.hasPrefix(#"cannot delete 'Author' 9: 'Book' "978-1" refers to it through 'author'"#) == true)
        try await expectEqual(store.fetchOne(Book.self, id: "978-1")?.author.name, "Kept")
    }
}
