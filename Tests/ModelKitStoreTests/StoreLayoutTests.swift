import Foundation
import ModelKit
import ModelKitStore
import ModelKitTestSupport
import Testing

// Models for the layout rules: a class hierarchy, and two types of one name in two outer types.

@Model class Animal {
    @Identifier var id: Int
    var name: String

    init(id: Int, name: String) { (self.id, self.name) = (id, name) }
}

@Model final class Dog: Animal {
    var breed: String

    init(id: Int, name: String, breed: String) {
        self.breed = breed
        super.init(id: id, name: name)
    }
}

@Model final class Kennel {
    @Identifier var id: Int
    var resident: Animal

    init(id: Int, resident: Animal) { (self.id, self.resident) = (id, resident) }
}

enum Shop {
    @Model struct Item {
        @Identifier var id: Int
        var price: Int
    }
}

enum Game {
    @Model struct Item {
        @Identifier var id: Int
        var power: Int
    }
}

enum Warehouse {
    @Model(table: "WarehouseItem") struct Item {
        @Identifier var id: Int
        var shelf: String
    }
}

/// What the audit of the store found: rows that lost columns, tables two types shared, dates
/// that lost their digits. Each rule holds on every store.
/// A draft whose defaults and nils payloads leave out (`@Key(omit:)`).
@Model struct OmittingDraft: Equatable {
    @Identifier var id: Int
    @Key(omit: .ifDefault) var words: Int = 0
    @Key(omit: .ifNil) var title: String?
}

/// An account that keeps the payload keys it does not model.
@Model struct KeepingAccount: Equatable {
    @Identifier var id: Int
    var name: String = ""
    @UnknownKeys var extra: [String: JSONValue] = [:]
}

@Suite struct StoreLayoutTests {
    /// The keys an `@UnknownKeys` property kept are saved with the model and load back, so a
    /// payload read, stored and written again keeps them.
    @Test(arguments: StoreKind.allCases)
    func keptUnknownKeysAreStored(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        let account = try KeepingAccount(jsonData: Data(#"{"id": 1, "name": "A", "plan": {"tier": 2}, "flags": [true]}"#.utf8))
        try await store.save(account)
        let loaded = try #require(try await store.fetchOne(KeepingAccount.self, id: 1))
        expectEqual(loaded, account)
        #expect(String(decoding: try loaded.jsonData(), as: UTF8.self) == #"{"id":1,"name":"A","flags":[true],"plan":{"tier":2}}"#)
    }

    /// What payloads leave out, stores keep: a default and a nil read back as they were saved,
    /// and other values too.
    @Test(arguments: StoreKind.allCases)
    func propertiesPayloadsOmitAreStored(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        let drafts = [OmittingDraft(id: 1), OmittingDraft(id: 2, words: 7, title: "t")]
        try await store.save(drafts)
        try await expectEqual(store.fetchAll(ModelQuery(OmittingDraft.self).order(by: \OmittingDraft.id)), drafts)
        // The column holds the default itself, not a missing value the default stands in for.
        if let sqlite = store as? SQLiteStore {
            let rows = try rawRows(sqlite, #"SELECT "words" FROM "OmittingDraft" ORDER BY "id""#)
            #expect(rows.map { $0["words"] } == ["0", "7"])
        }
    }

    /// A subclass saved as its parent (a collection of the parent type, or a property of it)
    /// would lose its own columns and read back as the parent: it is refused. Saved as itself,
    /// it keeps every column.
    @Test(arguments: StoreKind.allCases)
    func aSubclassSavedAsItsParentIsRefusedAndAsItselfKeepsItsColumns(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        let rex = Dog(id: 1, name: "Rex", breed: "collie")
        let animals: [Animal] = [Animal(id: 2, name: "Tom"), rex]
        let error = await #expect(throws: StoreError.self) { try await store.save(animals) }
        #expect(error?.kind == .unencodableValue)
        #expect(
            error?.description
                == "cannot save 'Animal' 1: it is a 'Dog', a subclass the 'Animal' table has no columns for: save it as a 'Dog', in its own table")
        let reference = await #expect(throws: StoreError.self) { try await store.save(Kennel(id: 1, resident: rex)) }
        #expect(reference?.description.hasPrefix("cannot save 'Animal' 1: it is a 'Dog'") == true)
        try await expectEqual(store.fetchCount(Animal.self), 0)

        try await store.save([rex])
        let fetched = try await store.fetchOne(Dog.self, id: 1)
        #expect(fetched?.breed == "collie" && fetched?.name == "Rex")
    }

    /// Two model types of one name (nested in two types here; two modules alike) would share a
    /// table: the second one is refused, and `@Model(table:)` gives a type a table of its own.
    @Test(arguments: StoreKind.allCases)
    func typesOfOneNameDoNotShareATable(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        // Whichever of the two a process meets first owns the table 'Item'.
        var saved: [String] = []
        var refusals: [StoreError] = []
        do {
            try await store.save(Shop.Item(id: 1, price: 5))
            saved.append("Shop.Item")
        } catch let error as StoreError { refusals.append(error) }
        do {
            try await store.save(Game.Item(id: 1, power: 9))
            saved.append("Game.Item")
        } catch let error as StoreError { refusals.append(error) }
        #expect(saved.count == 1 && refusals.count == 1)
        #expect(refusals.first?.kind == .tableClash)
        #expect(refusals.first?.description.contains("cannot store 'Item': the table 'Item' already holds 'ModelKitStoreTests.") == true)
        #expect(refusals.first?.description.hasSuffix("give one of them a table of its own with '@Model(table:)'") == true)

        try await store.save(Warehouse.Item(id: 1, shelf: "B2"))
        #expect(try await store.fetchOne(Warehouse.Item.self, id: 1)?.shelf == "B2")
        try await expectEqual(store.fetchCount(Warehouse.Item.self), 1)
        if let sqlite = store as? SQLiteStore {
            let tables = try rawRows(sqlite, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
            expectEqual(tables.map { $0["name"] }, ["'Item'", "'WarehouseItem'"])
        }
    }

    /// `Date()` carries more digits than milliseconds: saved and fetched, it is the same date.
    @Test(arguments: StoreKind.allCases)
    func aDateReadsBackExactly(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        let now = Date()
        let dates = [now, Date(timeIntervalSince1970: 1_700_000_000.123_456_7), now.addingTimeInterval(-86_400 * 365.25 * 30)]
        try await store.save(dates.enumerated().map { Stamp(id: $0.offset, at: $0.element) })
        let fetched = try await store.fetchAll(ModelQuery(Stamp.self).order(by: \Stamp.id))
        if kind.keepsMicroseconds {
            // PostgreSQL's timestamptz holds microseconds: the nearest one comes back.
            expectEqual(fetched.count, dates.count)
            for (read, saved) in zip(fetched.map(\.at), dates) {
                #expect(read.isNearestMicrosecond(of: saved), "\(read.timeIntervalSince(saved))")
            }
        } else {
            #expect(fetched.map(\.at) == dates, "\(fetched.map(\.at.timeIntervalSinceReferenceDate)) \(dates.map(\.timeIntervalSinceReferenceDate))")
        }
        try await expectEqual(store.fetchCount(ModelQuery(Stamp.self).filter(\Stamp.at == now)), 1)
    }
}

@Model struct Stamp {
    @Identifier var id: Int
    var at: Date
}
