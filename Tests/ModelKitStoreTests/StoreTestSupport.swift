import Foundation
import GRDB
import ModelKit
import ModelKitStore
import ModelKitTestSupport
import Testing

/// The stores every behaviour is checked against: PostgreSQL's too when the package's
/// `PostgreSQL` trait is on and a server is at hand (``PostgresTestServer``).
enum StoreKind: String, CaseIterable, CustomTestStringConvertible {
    /// `memoryInRounds` is the memory store reading references in rounds, as PostgreSQL's must.
    case sqliteFile, sqliteMemory, memory, memoryInRounds
    #if PostgreSQL
        case postgres
    #endif

    static var allCases: [StoreKind] {
        var kinds: [StoreKind] = [.sqliteFile, .sqliteMemory, .memory, .memoryInRounds]
        #if PostgreSQL
            if PostgresTestServer.isAvailable { kinds.append(.postgres) }
        #endif
        return kinds
    }

    /// The stores a context loads from as it maps (SQLite and memory: they read without suspending).
    static var loading: [StoreKind] {
        allCases.filter(\.loadsAsItMaps)
    }

    var testDescription: String { rawValue }

    /// A new, empty store of this kind (a file in `directory` for `sqliteFile`, a schema of its
    /// own for `postgres`).
    func make(in directory: TemporaryDirectory) throws -> any ModelStore {
        switch self {
        case .sqliteFile: return try SQLiteStore(path: directory.path("store.sqlite"))
        case .sqliteMemory: return try SQLiteStore()
        case .memory: return MemoryStore()
        case .memoryInRounds: return MemoryStore(readingInRounds: true)
        #if PostgreSQL
            case .postgres: return try PostgresTestServer.makeStore()
        #endif
        }
    }

    /// Whether this is the PostgreSQL store.
    var isPostgres: Bool {
        #if PostgreSQL
            return self == .postgres
        #else
            return false
        #endif
    }

    /// Whether the store keeps dates to the microsecond only (PostgreSQL's `timestamptz`).
    var keepsMicroseconds: Bool { isPostgres }
    /// Whether rows fetched without an order come in insertion order (not on PostgreSQL).
    var keepsInsertionOrder: Bool { !isPostgres }
    /// Whether a context loads from the store as it maps (SQLite and memory read without suspending).
    var loadsAsItMaps: Bool { !isPostgres }
}

extension Date {
    /// Whether `self`, read back from a microsecond column, is `saved` to the nearest microsecond:
    /// within half a microsecond, plus one unit in the last place, since the nearest microsecond
    /// comes back as the nearest `Double` (5.96e-7 s was seen on CI).
    func isNearestMicrosecond(of saved: Date) -> Bool {
        abs(timeIntervalSince(saved)) <= 0.000_000_5 + saved.timeIntervalSinceReferenceDate.ulp
    }
}

/// Runs raw SQL on a store's file, the way `sqlite3` would see it.
func rawRows(_ store: SQLiteStore, _ sql: String, _ arguments: StatementArguments = []) throws -> [[String: String]] {
    try store.database.read { db in
        try Row.fetchAll(db, sql: sql, arguments: arguments).map { row in
            var columns: [String: String] = [:]
            for (name, value) in row { columns[name] = literal(value) }
            return columns
        }
    }
}

/// A value as `sqlite3` would quote it: `NULL`, `42`, `4.5`, `'text'`, `X'00FF'`.
func literal(_ value: DatabaseValue) -> String {
    switch value.storage {
    case .null: return "NULL"
    case .int64(let number): return String(number)
    case .double(let number): return String(number)
    case .string(let text): return "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    case .blob(let data): return "X'" + data.map { String(format: "%02X", $0) }.joined() + "'"
    }
}

/// The twitter.json fixture mapped through `context`.
func twitterTimeline(context: ModelContext) throws -> Timeline {
    try Timeline(jsonData: fixtureData("twitter.json"), context: context)
}

// MARK: Models the store tests use

@Model final class Author {
    @Identifier var id: Int
    var name: String
    var born: Date?
    var tags: [String] = []
    var address: Address?
    var rating: Double = 0
    @Transient var visits = 0
}

@Model struct Address: Sendable {
    var city: String
    var zip: String?
}

@Model final class Book {
    @Identifier var isbn: String
    var title: String
    var author: Author
    var editor: Author?
    var pages: Int
    var price: Decimal?
    var cover: Data?
    var published: Date
    var ratings: [String: Int] = [:]
    var chapters: [Chapter] = []
    var link: URL?
    var code: UUID?
    var format: BookFormat = .paper
    let kind = "book"
}

@Model struct Chapter: Sendable {
    var title: String
    var pages: Int
}

enum BookFormat: String, Codable, Sendable, ModelValue {
    case paper, ebook
}

/// A model stored as a struct: no identity, a row all the same.
@Model struct Note: Sendable {
    @Identifier var id: UUID
    var text: String
    var pinned: Bool = false
}

/// A model without an identifier: it cannot have a row.
@Model struct Loose: Sendable {
    var text: String
}

/// Two nodes that refer to each other: a cycle the store cannot load.
@Model final class Link {
    @Identifier var id: String
    var next: Link?
}

func makeBook(_ isbn: String = "978-0", author: Author, pages: Int = 100) -> Book {
    Book(
        isbn: isbn, title: "Notes on \(isbn)", author: author, editor: nil, pages: pages, price: Decimal(string: "12.50"),
        cover: Data([0, 1, 2, 255]), published: Date(timeIntervalSince1970: 1_700_000_000.25),
        ratings: ["ada": 5, "bob": 3], chapters: [Chapter(title: "One", pages: 10)], link: URL(string: "https://example.com/b"),
        code: UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"), format: .ebook)
}

/// A knot holds its tie by a reference that cannot wait (not optional), the tie its knot by one
/// that can: a cycle through both loads from either end.
@Model final class Knot {
    @Identifier var id: String
    var tie: Tie

    init(id: String, tie: Tie) {
        self.id = id
        self.tie = tie
    }
}

@Model final class Tie {
    @Identifier var id: String
    var knot: Knot?
}

/// A chain whose every link cannot wait: no program can make a cycle of them in memory, but raw
/// SQL can write one.
@Model final class Chain {
    @Identifier var id: String
    var next: Chain

    init(id: String, next: Chain) {
        self.id = id
        self.next = next
    }
}

