import Foundation
import ModelKit
import ModelKitStore
import ModelKitTestSupport
import Testing

/// A context backed by a store is a unit of work: it tracks inserts, edits and deletes, saves
/// exactly those in one transaction, rolls them back, and refreshes from the store.
@Suite struct ModelContextUnitOfWorkTests {
    /// A store holding three authors, and a context that fetched them.
    struct Fixture {
        let directory: TemporaryDirectory
        let store: any ModelStore
        let context: ModelContext
        let authors: [Author]

        init(_ kind: StoreKind, mergePolicy: ModelMergePolicy = .error) async throws {
            directory = try TemporaryDirectory()
            store = try kind.make(in: directory)
            try await store.save([
                Author(id: 1, name: "Ada", born: ModelContextUnitOfWorkTests.adaBorn, tags: ["math"], rating: 4),
                Author(id: 2, name: "Grace", rating: 5),
                Author(id: 3, name: "Hedy", rating: 3),
            ])
            context = ModelContext(store: store, mergePolicy: mergePolicy)
            authors = try await store.fetchAll(ModelQuery(Author.self).order(by: \Author.id), context: context)
        }

        /// The authors as stored now, read without the context.
        func stored() async throws -> [Int: Author] {
            Dictionary(uniqueKeysWithValues: try await store.fetchAll(Author.self).map { ($0.id, $0) })
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aContextKnowsWhatWasInsertedEditedAndDeleted(kind: StoreKind) async throws {
        let fixture = try await Fixture(kind)
        let context = fixture.context
        let (ada, grace, hedy) = (fixture.authors[0], fixture.authors[1], fixture.authors[2])
        #expect(!context.hasChanges)
        ada.name = "Ada Lovelace"
        ada.tags.append("poetry")
        grace.visits += 1   // transient: not stored, so no change
        #expect(context.hasChanges)
        expectEqual(context.changedModels.map { ($0 as AnyObject) === ada }, [true])
        expectEqual(context.changedProperties(of: ada), ["name", "tags"])
        #expect(context.changedProperties(of: grace).isEmpty)
        // Writing the loaded value back is no change.
        ada.tags = ["math"]
        expectEqual(context.changedProperties(of: ada), ["name"])
        let ida = Author(id: 4, name: "Ida", rating: 2)
        try context.insert(ida)
        try context.delete(hedy)
        expectEqual(context.insertedModels.map { ($0 as AnyObject) === ida }, [true])
        expectEqual(context.deletedModels.map { ($0 as AnyObject) === hedy }, [true])
        #expect(context.registeredModel(Author.self, id: 4) === ida)
        // An insert deleted before a save is simply forgotten.
        let temporary = Author(id: 5, name: "Temp")
        try context.insert(temporary)
        try context.delete(temporary)
        #expect(context.insertedModels.count == 1 && context.deletedModels.count == 1)
        #expect(context.registeredModel(Author.self, id: 5) == nil)
    }

    @Test(arguments: StoreKind.allCases)
    func mappingIntoALiveInstanceIsAnEditOnlyWhereValuesDiffer(kind: StoreKind) async throws {
        let fixture = try await Fixture(kind)
        let context = fixture.context
        let ada = fixture.authors[0]
        _ = try Author(json: ["id": 1, "name": "Ada", "tags": ["math"], "rating": 4], context: context)
        #expect(!context.hasChanges)
        let mapped = try Author(json: ["id": 1, "name": "Ada", "rating": 4.5], context: context)
        #expect(mapped === ada)
        expectEqual(context.changedProperties(of: ada), ["rating"])
        // A payload's new identifier is a new model: inserted.
        let new = try Author(json: ["id": 9, "name": "New"], context: context)
        expectEqual(context.insertedModels.map { ($0 as AnyObject) === new }, [true])
    }

    @Test(arguments: StoreKind.allCases)
    func saveWritesExactlyTheChangesInOneTransaction(kind: StoreKind) async throws {
        let fixture = try await Fixture(kind)
        let context = fixture.context
        let (ada, grace, hedy) = (fixture.authors[0], fixture.authors[1], fixture.authors[2])
        ada.name = "Ada Lovelace"
        try context.insert(Author(id: 4, name: "Ida", rating: 2))
        try context.delete(hedy)
        // Another writer changes Grace meanwhile: the context did not edit her, so its save must
        // not write her row back.
        try await fixture.store.save(Author(id: 2, name: "Grace Hopper", rating: 5))
        try await context.save()
        let stored = try await fixture.stored()
        expectEqual(stored.keys.sorted(), [1, 2, 4])
        #expect(stored[1]?.name == "Ada Lovelace" && stored[1]?.tags == ["math"])
        #expect(stored[2]?.name == "Grace Hopper")
        #expect(stored[4]?.name == "Ida")
        #expect(!context.hasChanges)
        #expect(context.registeredModel(Author.self, id: 3) == nil)
        expectEqual(grace.name, "Grace")   // not refreshed yet
        // A second save has nothing to write.
        try await context.save()
        ada.rating = 4.5
        try await context.save()
        #expect(try await fixture.stored()[1]?.rating == 4.5)
    }

    @Test(arguments: StoreKind.allCases)
    func aSaveThatFailsSavesNothingAndKeepsTheChanges(kind: StoreKind) async throws {
        let fixture = try await Fixture(kind)
        let context = fixture.context
        fixture.authors[0].name = "Ada Lovelace"
        try context.insert(Author(id: 4, name: "Broken", rating: .nan))
        let error = await #expect(throws: StoreError.self) { try await context.save() }
        #expect(error?.kind == .unencodableValue)
        let stored = try await fixture.stored()
        #expect(stored.keys.sorted() == [1, 2, 3] && stored[1]?.name == "Ada")
        #expect(context.hasChanges && context.insertedModels.count == 1)
    }

    @Test(arguments: StoreKind.allCases)
    func rollbackRestoresTheLoadedValuesAndForgetsInsertsAndDeletes(kind: StoreKind) async throws {
        let fixture = try await Fixture(kind)
        let context = fixture.context
        let (ada, hedy) = (fixture.authors[0], fixture.authors[2])
        ada.name = "typo"
        ada.tags = []
        ada.address = Address(city: "London", zip: nil)
        try context.insert(Author(id: 4, name: "Ida"))
        try context.delete(hedy)
        try context.rollback()
        #expect(ada.name == "Ada" && ada.tags == ["math"] && ada.address == nil)
        #expect(!context.hasChanges)
        #expect(context.registeredModel(Author.self, id: 4) == nil)
        #expect(context.registeredModel(Author.self, id: 3) === hedy)
        // Rolled back values are the baseline again: editing and saving still works.
        ada.rating = 1
        try await context.save()
        #expect(try await fixture.stored()[1]?.rating == 1)
    }

    @Test(arguments: StoreKind.allCases)
    func anEditedInstanceIsKeptUntilSavedThoughNobodyHoldsIt(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        try await store.save(Author(id: 1, name: "Ada"))
        let context = ModelContext(store: store)
        do {
            let ada = try #require(try await store.fetchOne(Author.self, id: 1, context: context))
            ada.name = "Ada Lovelace"
        }
        #expect(context.hasChanges)
        try await context.save()
        #expect(try await store.fetchOne(Author.self, id: 1)?.name == "Ada Lovelace")
        // Saved and unedited, it is held weakly again.
        expectEqual(context.registeredCount, 0)
    }

    @Test(arguments: StoreKind.allCases)
    func changingARegisteredIdentifierIsRefused(kind: StoreKind) async throws {
        let fixture = try await Fixture(kind)
        let context = fixture.context
        let ada = fixture.authors[0]
        ada.id = 10
        let error = await #expect(throws: StoreError.self) { try await context.save() }
        #expect(error?.kind == .identifierChanged)
        #expect(
            error?.description
                == "cannot save 'Author' 1: its identifier was changed to 10 while the context holds it under 1; an identifier is fixed once registered: insert a new model and delete this one, or roll back")
        try context.rollback()
        expectEqual(ada.id, 1)
        // A second instance for a live identifier is refused too.
        let duplicate = #expect(throws: StoreError.self) { try context.insert(Author(id: 2, name: "Other")) }
        #expect(duplicate?.kind == .misusedContext)
    }

    @Test(arguments: StoreKind.allCases)
    func twoContextsHoldTheirOwnInstancesAndRefreshSeesTheOthersSaves(kind: StoreKind) async throws {
        let fixture = try await Fixture(kind)
        let first = fixture.context
        let second = ModelContext(store: fixture.store)
        let (ada, grace) = (fixture.authors[0], fixture.authors[1])
        let secondAda = try #require(try await fixture.store.fetchOne(Author.self, id: 1, context: second))
        #expect(secondAda !== ada)
        secondAda.name = "Ada Lovelace"
        try await second.save()
        expectEqual(ada.name, "Ada")
        #expect(try await first.refresh(ada))
        #expect(ada.name == "Ada Lovelace" && !first.hasChanges)
        // A fetch through the context brings unedited instances up to date too.
        let secondGrace = try #require(try await fixture.store.fetchOne(Author.self, id: 2, context: second))
        secondGrace.rating = 1
        try await second.save()
        #expect(try await fixture.store.fetchOne(Author.self, id: 2, context: first) === grace)
        expectEqual(grace.rating, 1)
        // A row deleted elsewhere: refresh says so.
        try await fixture.store.deleteOne(Author.self, id: 3)
        try await expectEqual(first.refresh(fixture.authors[2]), false)
    }

    @Test(arguments: StoreKind.allCases)
    func anEditedInstanceKeepsItsEditsWhenAFetchMeetsANewerRow(kind: StoreKind) async throws {
        let fixture = try await Fixture(kind)
        let ada = fixture.authors[0]
        ada.rating = 1
        try await fixture.store.save(Self.renamedAda())
        _ = try await fixture.store.fetchAll(Author.self, context: fixture.context)
        #expect(ada.rating == 1 && ada.name == "Ada")
    }

    static let adaBorn = Date(timeIntervalSince1970: -4_000_000_000.123_456_7)

    /// Ada as another writer saves her: renamed, everything else as stored.
    static func renamedAda() -> Author {
        Author(id: 1, name: "Ada Lovelace", born: adaBorn, tags: ["math"], rating: 4)
    }

    static let policies: [(StoreKind, ModelMergePolicy)] = StoreKind.allCases.flatMap { kind in
        [ModelMergePolicy.error, .storeWins, .memoryWins].map { (kind, $0) }
    }

    @Test(arguments: policies)
    func aConflictFollowsTheMergePolicy(kind: StoreKind, policy: ModelMergePolicy) async throws {
        let fixture = try await Fixture(kind, mergePolicy: policy)
        let context = fixture.context
        let (ada, grace) = (fixture.authors[0], fixture.authors[1])
        // Another writer renames Ada after this context loaded her; this context edits her rating.
        try await fixture.store.save(Self.renamedAda())
        ada.rating = 2
        grace.rating = 1
        switch policy {
        case .error:
            let error = await #expect(throws: StoreError.self) { try await context.save() }
            #expect(error?.kind == .conflict && error?.properties == ["name", "rating"])
            #expect(
                error?.description
                    == "cannot save 'Author' 1: its row changed in the store since the context loaded it (there: 'name'; here: 'rating'): refresh it, or save with another merge policy")
            let stored = try await fixture.stored()
            #expect(stored[1]?.name == "Ada Lovelace" && stored[1]?.rating == 4 && stored[2]?.rating == 5)
            #expect(context.hasChanges)
        case .storeWins:
            try await context.save()
            let stored = try await fixture.stored()
            #expect(stored[1]?.name == "Ada Lovelace" && stored[1]?.rating == 4 && stored[2]?.rating == 1)
            #expect(ada.name == "Ada Lovelace" && ada.rating == 4)
            #expect(!context.hasChanges)
        case .memoryWins:
            try await context.save()
            let stored = try await fixture.stored()
            #expect(stored[1]?.name == "Ada" && stored[1]?.rating == 2 && stored[2]?.rating == 1)
            #expect(ada.name == "Ada" && !context.hasChanges)
        }
    }

    @Test(arguments: policies)
    func refreshingAnEditedInstanceFollowsTheMergePolicy(kind: StoreKind, policy: ModelMergePolicy) async throws {
        let fixture = try await Fixture(kind, mergePolicy: policy)
        let ada = fixture.authors[0]
        try await fixture.store.save(Self.renamedAda())
        ada.rating = 2
        switch policy {
        case .error:
            let error = await #expect(throws: StoreError.self) { try await fixture.context.refresh(ada) }
            #expect(error?.kind == .conflict)
            #expect(ada.name == "Ada" && ada.rating == 2)
        case .storeWins:
            try await fixture.context.refresh(ada)
            #expect(ada.name == "Ada Lovelace" && ada.rating == 4 && !fixture.context.hasChanges)
        case .memoryWins:
            try await fixture.context.refresh(ada)
            // The edits stay over the new row, and saving them meets no conflict.
            #expect(ada.name == "Ada" && ada.rating == 2)
            try await fixture.context.save()
            #expect(try await fixture.stored()[1]?.rating == 2)
        }
    }

    /// The refresh runs in a task of the test's actor, where the context and `ada` live: it
    /// writes the instance between the test's own steps, never beside them.
    @MainActor @Test(arguments: StoreKind.allCases)
    func anInstanceFollowsTheStoreWhileTheContextRefreshesOnChanges(kind: StoreKind) async throws {
        let fixture = try await Fixture(kind)
        let context = fixture.context
        let ada = fixture.authors[0]
        let refreshing = Task { try await context.refreshOnStoreChanges(of: [Author.self]) }
        defer { refreshing.cancel() }
        // The subscription starts with the task: save until the refresh has seen a change.
        var attempts = 0
        while ada.name != "Ada Lovelace", attempts < 200 {
            if attempts % 20 == 0 {
                try await fixture.store.save(Self.renamedAda())
            }
            attempts += 1
            try await Task.sleep(for: .milliseconds(25))
        }
        expectEqual(ada.name, "Ada Lovelace")
        #expect(!context.hasChanges)
    }

    @MainActor @Test(arguments: StoreKind.allCases)
    func autosaveSavesAfterAQuietInterval(kind: StoreKind) async throws {
        let fixture = try await Fixture(kind)
        let context = fixture.context
        let autosave = Task { try await context.autosave(after: .milliseconds(50)) }
        defer { autosave.cancel() }
        fixture.authors[1].rating = 1
        var attempts = 0
        while try await fixture.stored()[2]?.rating != 1, attempts < 200 {
            attempts += 1
            try await Task.sleep(for: .milliseconds(25))
        }
        #expect(try await fixture.stored()[2]?.rating == 1)
    }

    /// Rows as the store gives them back (PostgreSQL's dates to the microsecond, `jsonb` in its
    /// own key order, `numeric`) meet no false conflict with the rows the context wrote.
    @Test(arguments: StoreKind.allCases)
    func aModelOfEveryColumnTypeSavesAgainWithoutAFalseConflict(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        let context = ModelContext(store: store)
        let author = Author(id: 1, name: "Ada", born: Date(timeIntervalSince1970: -4_000_000_000.123_456_7))
        author.address = Address(city: "London", zip: "W1")
        let book = makeBook(author: author)
        book.published = Date(timeIntervalSince1970: 1_700_000_000.987_654_3)
        book.ratings = ["zed": 1, "ada": 5, "bob": 3]
        try context.insert(book)
        try await context.save()
        // Another context's fetch and the context's own refresh read the stored rows back.
        #expect(try await store.fetchOne(Book.self, id: "978-0") != nil)
        #expect(try await context.refresh(book))
        #expect(!context.hasChanges, "\(context.changedModels)")
        book.pages += 1
        author.tags = ["math"]
        try await context.save()
        #expect(try await context.refresh(book) && !context.hasChanges)
        book.title = "Notes, second edition"
        try await context.save()
        #expect(try await store.fetchOne(Book.self, id: "978-0")?.title == "Notes, second edition")
    }

    @Test func aContextWithoutAStoreHasNothingToSave() async throws {
        let context = ModelContext()
        #expect(!context.hasChanges)
        let error = await #expect(throws: StoreError.self) { try await context.save() }
        #expect(error?.description == "cannot use the context: it has no store: create it with 'ModelContext(store:)'")
    }

    /// A property a newer model version added reads as its default in older rows, whose column is
    /// `NULL`: that is no change in the store, so editing another property saves without a
    /// conflict (the column was dropped here to stand for rows written before it existed).
    @Test(arguments: StoreKind.allCases)
    func aColumnAddedLaterIsNoChangeInTheStore(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        try await store.save(Blogger(id: 1, name: "Ada"))
        var migrations = StoreMigrations()
        migrations.append("rows from before 'articles'") { step in try await step.dropColumn("articles", in: Blogger.self) }
        try await store.migrate(migrations)
        let context = ModelContext(store: store)
        let ada = try #require(try await store.fetchOne(Blogger.self, id: 1, context: context))
        #expect(!context.hasChanges)
        ada.name = "Ada Lovelace"
        try await context.save()
        try await expectEqual(store.fetchOne(Blogger.self, id: 1)?.name, "Ada Lovelace")
    }
}
