import Foundation
import ModelKit
import ModelKitStore
import ModelKitTestSupport
import Testing

/// Collects the article example's prints (outside `ExampleOutput.capture` it prints as usual).
private func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    ExampleOutput.print(items, separator: separator, terminator: terminator)
}

/// `store.cursor(query)`: the models a query selects, a batch at a time, in one read
/// transaction, on every store.
@Suite(.timeLimit(.minutes(2))) struct StoreCursorTests {
    /// Ten authors and 57 books, each by one author and some edited by another.
    func store(_ kind: StoreKind, in directory: TemporaryDirectory) async throws -> any ModelStore {
        let store = try kind.make(in: directory)
        let authors = (1...10).map { Author(id: $0, name: "Author \($0)") }
        let books = (1...57).map { (index: Int) -> Book in
            let editor: Author? = index % 3 == 0 ? authors[(index + 1) % 10] : nil
            let published = Date(timeIntervalSince1970: Double(index) * 86_400)
            return Book(
                isbn: String(format: "isbn-%03d", index), title: "Book \(index)", author: authors[index % 10],
                editor: editor, pages: index * 13 % 400, published: published)
        }
        try await store.save(books)
        return store
    }

    @Test(arguments: StoreKind.allCases, [1, 7, 500])
    func aCursorYieldsWhatFetchAllReturns(kind: StoreKind, batchSize: Int) async throws {
        let directory = try TemporaryDirectory()
        let store = try await store(kind, in: directory)
        let query = ModelQuery(Book.self).filter(\Book.pages > 50).order(by: \Book.pages, .descending).order(by: \Book.isbn)
        let expected = try await store.fetchAll(query)
        var seen: [Book] = []
        for try await book in store.cursor(query, batchSize: batchSize) { seen.append(book) }
        expectEqual(seen.map(\.isbn), expected.map(\.isbn))
        expectEqual(seen.map(\.author.name), expected.map(\.author.name))
        expectEqual(seen.map { $0.editor?.id }, expected.map { $0.editor?.id })
        #expect(seen.count > 30)
        // Within a batch, one instance per identifier.
        if batchSize == 500, let first = seen.first(where: { $0.author.id == 1 }), let second = seen.last(where: { $0.author.id == 1 }) {
            #expect(first.author === second.author)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aCursorReadsOneSnapshot(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try await store(kind, in: directory)
        var count = 0
        var writer: Task<Void, any Error>?
        for try await _ in store.cursor(ModelQuery(Book.self), batchSize: 10) {
            count += 1
            if count == 1 {
                // Another task commits meanwhile (on SQLite, once the cursor's transaction ends).
                writer = Task {
                    try await store.save(Book(
                        isbn: "isbn-new", title: "New", author: Author(id: 11, name: "New"), pages: 1,
                        published: Date(timeIntervalSince1970: 0)))
                }
                try await Task.sleep(for: .milliseconds(100))
            }
        }
        expectEqual(count, 57)
        try await writer?.value
        try expectEqual(await store.fetchCount(Book.self), 58)
    }

    @Test(arguments: StoreKind.allCases)
    func theLoopsOwnCallsToTheStoreAreRefusedAndLeavingEarlyEndsTheTransaction(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try await store(kind, in: directory)
        var read = 0
        for try await book in store.cursor(ModelQuery(Book.self).order(by: \Book.isbn), batchSize: 5) {
            read += 1
            if read == 1 {
                let error = await #expect(throws: StoreError.self) { try await store.save(book) }
                expectEqual(error?.kind, .misusedTransaction)
            }
            if read == 8 { break }
        }
        expectEqual(read, 8)
        // The transaction has ended: the store writes again (on SQLite this would wait forever otherwise).
        try await store.save(Author(id: 99, name: "After"))
        try expectEqual(await store.fetchOne(Author.self, id: 99)?.name, "After")
    }

    @Test(arguments: StoreKind.allCases)
    func aCancelledLoopThrowsAndEndsTheTransaction(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try await store(kind, in: directory)
        let loop = Task {
            var read = 0
            for try await _ in store.cursor(ModelQuery(Book.self), batchSize: 3) {
                read += 1
                if read == 4 { withUnsafeCurrentTask { $0?.cancel() } }
            }
            return read
        }
        await #expect(throws: CancellationError.self) { try await loop.value }
        try await store.save(Author(id: 98, name: "After"))
        try expectEqual(await store.fetchCount(Author.self), 11)
    }

    @Test(arguments: StoreKind.allCases)
    func aRowThatCannotBeReadEndsTheLoopWithItsError(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        let bookcases = (0..<3).map { Bookcase(id: $0) }
        try await store.save((0..<12).map { Tome(id: $0, bookcase: bookcases[$0 % 3]) })
        // `.noAction` leaves the tomes of bookcase 1 referring to a row that is gone.
        try await store.deleteOne(Bookcase.self, id: 1)
        var read = 0
        let error = await #expect(throws: StoreError.self) {
            for try await _ in store.cursor(ModelQuery(Tome.self).order(by: \Tome.id), batchSize: 4) { read += 1 }
        }
        expectEqual(error?.kind, .missingReference)
        #expect(read < 12)
        try await store.save(Bookcase(id: 1))
        var all = 0
        for try await _ in store.cursor(ModelQuery(Tome.self), batchSize: 4) { all += 1 }
        expectEqual(all, 12)
    }

    /// The store article's example.
    @Test func theArticlesExample() async throws {
        let directory = try TemporaryDirectory()
        let store = try await store(.sqliteFile, in: directory)
        let output = try await ExampleOutput.capture {
            // snippet: store-cursor-start
            var pages = 0
            var longest = ""
            for try await book in store.cursor(ModelQuery(Book.self).order(by: \Book.isbn), batchSize: 10) {
                pages += book.pages
                if book.pages >= 390 { longest = "\(book.title) by \(book.author.name)" }
            }
            print(pages)     // 10689
            print(longest)   // Book 30 by Author 1
            // snippet: store-cursor-end
        }
        #expect(
            output == DocumentationExamples.commentedOutput(of: try DocumentationExamples.snippet("store-cursor", inFile: #filePath)),
            "printed:\n\(output.joined(separator: "\n"))")
    }
}
