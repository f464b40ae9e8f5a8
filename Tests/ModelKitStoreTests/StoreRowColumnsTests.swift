import Foundation
import GRDB
import ModelKit
@testable import ModelKitStore
import ModelKitTestSupport
import Testing

/// Every kind of column a model's properties make: scalars of each width and kind, optionals,
/// defaults, JSON text, a raw-value enum.
@Model struct ColumnSample: Sendable {
    @Identifier var id: Int
    var small: Int8
    var unsigned: UInt16
    var flag: Bool
    var ratio: Double
    var single: Float
    var text: String
    var when: Date
    var bytes: Data
    var link: URL
    var code: UUID
    var price: Decimal
    var note: String?
    var count: Int = 7
    var tags: [String] = []
    var address: Address?
    var format: BookFormat = .paper
}

extension ColumnSample {
    static func make(_ id: Int) -> ColumnSample {
        ColumnSample(
            id: id, small: -8, unsigned: 65_535, flag: true, ratio: 0.1, single: 2.5, text: "row \(id) é",
            when: Date(timeIntervalSince1970: 1_700_000_000.123_456_7), bytes: Data([0, 1, 254, 255]),
            link: URL(string: "https://example.com/\(id)")!, code: UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!,
            price: Decimal(string: "12.345")!, note: id.isMultiple(of: 2) ? "even" : nil, count: id, tags: ["a", "b"],
            address: Address(city: "Paris", zip: nil), format: .ebook)
    }
}

/// What reading a row gave: the model, or the error's kind and message.
enum RowOutcome<M: Model & Equatable>: Equatable, CustomStringConvertible {
    case model(M)
    case missing
    case error(StoreError.Kind, String)

    init(_ read: () throws -> M?) {
        do {
            self = try read().map(RowOutcome.model) ?? .missing
        } catch let error as StoreError {
            self = .error(error.kind, error.description)
        } catch {
            self = .error(.database, "untyped: \(error)")
        }
    }

    var description: String {
        switch self {
        case .model(let model): return "\(model)"
        case .missing: return "no row"
        case .error(let kind, let message): return "\(kind): \(message)"
        }
    }
}

/// The row of `id` read from the statement in place (the store's fetch) and from its values
/// copied out first (the path rows of other stores and of references take): the same outcome.
func bothPaths<M: Model & Equatable>(
    _ type: M.Type, id: Int, in store: SQLiteStore, context: (() -> ModelContext)? = nil
) async throws -> (inPlace: RowOutcome<M>, values: RowOutcome<M>) {
    var inPlace = RowOutcome<M>.missing
    do {
        inPlace = try await store.fetchOne(M.self, id: id, context: context?()).map(RowOutcome.model) ?? .missing
    } catch let error as StoreError {
        inPlace = .error(error.kind, error.description)
    }
    let values = RowOutcome<M> {
        let table = try StoreTable.of(M.self)
        let context = context?()
        return try store.withConnectionNow { connection in
            guard let row = try connection.selectRowNow(table, identifier: .integer(Int64(id))) else { return nil }
            let loader = RowLoader(synchronous: connection)
            func read() throws -> M {
                try loader.model(
                    M.self, from: .values(row.values), version: row.version, table: table, context: context,
                    decoder: StoreModelDecoder())
            }
            guard let context else { return try read() }
            return try context.performMapping(read)
        }
    }
    return (inPlace, values)
}

/// A row saved whole, then one column set by raw SQL: what the store finds there.
struct ColumnCase: Sendable, CustomTestStringConvertible {
    let name: String
    let column: String
    let sql: String
    let expected: Expected

    enum Expected: Sendable {
        /// The model, with this change from the saved one.
        case model(@Sendable (inout ColumnSample) -> Void)
        /// An error whose message ends with this.
        case error(String)
    }

    var testDescription: String { name }

    static let all: [ColumnCase] = [
        ColumnCase(name: "as saved", column: "text", sql: "'row 1 é'", expected: .model { _ in }),
        ColumnCase(name: "NULL in an optional column", column: "note", sql: "NULL", expected: .model { $0.note = nil }),
        ColumnCase(name: "NULL in a column with a default", column: "count", sql: "NULL", expected: .model { $0.count = 7 }),
        ColumnCase(name: "NULL in a collection with a default", column: "tags", sql: "NULL", expected: .model { $0.tags = [] }),
        ColumnCase(name: "NULL in an enum with a default", column: "format", sql: "NULL", expected: .model { $0.format = .paper }),
        ColumnCase(name: "a whole real in an integer column", column: "small", sql: "CAST(3.0 AS REAL)", expected: .model { $0.small = 3 }),
        ColumnCase(name: "an integer in a real column", column: "ratio", sql: "2", expected: .model { $0.ratio = 2 }),
        ColumnCase(name: "any integer in a boolean column", column: "flag", sql: "0", expected: .model { $0.flag = false }),
        ColumnCase(name: "a millisecond date written by an older version", column: "when", sql: "'2023-11-14T22:13:20.123Z'",
                   expected: .model { $0.when = StoreDates.parse("2023-11-14T22:13:20.123Z")! }),
        ColumnCase(name: "seconds in a date column (a text column keeps them as text)", column: "when", sql: "86400",
                   expected: .error("'ColumnSample.when' at 'when': expected an ISO 8601 date, found \"86400\"")),
        ColumnCase(name: "text holding a NUL byte, kept whole", column: "text", sql: "'a' || char(0) || 'b'",
                   expected: .model { $0.text = "a\u{0}b" }),
        ColumnCase(name: "NULL in a required column", column: "text", sql: "NULL",
                   expected: .error("'ColumnSample.text' at 'text': missing key")),
        ColumnCase(name: "text in an integer column", column: "small", sql: "'many'",
                   expected: .error("'ColumnSample.small' at 'small': expected an integer, found \"many\"")),
        ColumnCase(name: "an integer out of range", column: "small", sql: "300",
                   expected: .error("'ColumnSample.small' at 'small': expected a number that fits 'Int8', found 300")),
        ColumnCase(name: "a negative integer in an unsigned column", column: "unsigned", sql: "-1",
                   expected: .error("'ColumnSample.unsigned' at 'unsigned': expected a number that fits 'UInt64', found -1")),
        ColumnCase(name: "a fraction in an integer column", column: "small", sql: "2.5",
                   expected: .error("'ColumnSample.small' at 'small': expected an integer, found 2.5")),
        ColumnCase(name: "a bad date", column: "when", sql: "'yesterday'",
                   expected: .error("'ColumnSample.when' at 'when': expected an ISO 8601 date, found \"yesterday\"")),
        ColumnCase(name: "bytes in a text column", column: "text", sql: "x'00ff'",
                   expected: .error("'ColumnSample.text' at 'text': expected a string, found 2 bytes")),
        ColumnCase(name: "text in a blob column", column: "bytes", sql: "'abc'",
                   expected: .error("'ColumnSample.bytes' at 'bytes': expected bytes, found \"abc\"")),
        ColumnCase(name: "a bad UUID", column: "code", sql: "'nope'",
                   expected: .error("'ColumnSample.code' at 'code': expected a UUID, found \"nope\"")),
        ColumnCase(name: "a bad decimal", column: "price", sql: "'twelve'",
                   expected: .error("'ColumnSample.price' at 'price': expected a decimal number, found \"twelve\"")),
        ColumnCase(name: "malformed JSON text", column: "tags", sql: "'[1,'",
                   expected: .error(
                    "'ColumnSample.tags' at 'tags': expected JSON text, found \"[1,\" (invalid JSON at line 1, column 4 (byte 3): "
                        + "unexpected end of input, expected a value)")),
        ColumnCase(name: "JSON of the wrong shape", column: "address", sql: "'[1]'",
                   expected: .error("'ColumnSample.address' at 'address': expected an object, found an array of 1 element")),
        ColumnCase(name: "an unknown enum case", column: "format", sql: "'vinyl'",
                   expected: .error("'ColumnSample.format' at 'format': expected one of the cases of 'BookFormat', found \"vinyl\"")),
    ]
}

@Suite struct StoreRowColumnsTests {
    /// Each column kind, NULL, default and bad value: a statement's row read in place gives the
    /// model, or the typed error, that the same row's values give, and the error names the
    /// model, the row's identifier, the property and what the column held.
    @Test(arguments: ColumnCase.all)
    func aRowReadInPlaceIsTheRowReadFromItsValues(_ testCase: ColumnCase) async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(path: directory.path("columns.sqlite"))
        try await store.save(ColumnSample.make(1))
        try await store.database.write { db in
            try db.execute(sql: #"UPDATE "ColumnSample" SET "\#(testCase.column)" = \#(testCase.sql) WHERE "id" = 1"#)
        }
        let (inPlace, values) = try await bothPaths(ColumnSample.self, id: 1, in: store)
        #expect(inPlace == values, "in place: \(inPlace)\nvalues:   \(values)")
        switch testCase.expected {
        case .model(let change):
            var expected = ColumnSample.make(1)
            change(&expected)
            expectEqual(inPlace, .model(expected))
        case .error(let message):
            guard case .error(let kind, let description) = inPlace else {
                Issue.record("expected an error, read \(inPlace)")
                return
            }
            expectEqual(kind, .undecodableRow)
            #expect(description.hasPrefix("cannot load 'ColumnSample' 1: cannot map "), "\(description)")
            #expect(description.hasSuffix(message), "\(description)")
        }
    }

    /// A row that is not there: nil, on both paths.
    @Test func aMissingRowIsNil() async throws {
        let store = try SQLiteStore()
        try await store.save(ColumnSample.make(1))
        let (inPlace, values) = try await bothPaths(ColumnSample.self, id: 2, in: store)
        #expect(inPlace == .missing && values == .missing)
    }

    /// Rows of every kind, one fetch: the same models as one fetch per row, in the store's
    /// order; a bad row among them fails the whole fetch with its error.
    @Test func aFetchOfManyRowsReadsEachInPlace() async throws {
        let store = try SQLiteStore()
        let samples = (1...40).map(ColumnSample.make)
        try await store.save(samples)
        try await expectEqual(store.fetchAll(ColumnSample.self), samples)
        let odd = try await store.fetchAll(
            ModelQuery(ColumnSample.self).filter(\ColumnSample.note == nil).order(by: \ColumnSample.id, .descending))
        expectEqual(odd, samples.filter { $0.note == nil }.reversed())
        try await store.database.write { db in try db.execute(sql: #"UPDATE "ColumnSample" SET "small" = 'x' WHERE "id" = 17"#) }
        let error = await #expect(throws: StoreError.self) { try await store.fetchAll(ColumnSample.self) }
        #expect(
            error?.description == "cannot load 'ColumnSample' 17: cannot map 'ColumnSample.small' at 'small': expected an integer, found \"x\"",
            "\(String(describing: error))")
        // The statement was reset: the next fetch reads again from the start.
        try await expectEqual(store.fetchOne(ColumnSample.self, id: 18), samples[17])
    }
}
