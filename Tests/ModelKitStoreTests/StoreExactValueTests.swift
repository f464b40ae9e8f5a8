import Foundation
import ModelKit
@testable import ModelKitStore
import ModelKitTestSupport
import Testing

@Suite struct StoreExactValueTests {
    /// A date saved and fetched is the date saved, to the last bit (not to the millisecond), in a
    /// column and inside JSON text; a decimal keeps every digit.
    @Test(arguments: StoreKind.allCases)
    func aMomentRoundTripsThroughTheStore(_ kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        let moment = Moment.exacting()
        try await store.save(moment)
        let fetched = try #require(try await store.fetchOne(Moment.self, id: 1))
        if kind.keepsMicroseconds {
            // A timestamptz column holds microseconds; the dates inside JSON keep every bit.
            #expect(fetched.at.isNearestMicrosecond(of: moment.at), "\(fetched.at.timeIntervalSince(moment.at))")
            var rest = fetched
            rest.at = moment.at
            expectEqual(rest, moment)
        } else {
            expectEqual(fetched, moment)
        }
    }

    /// Empty values are values: empty data and an empty string save as empty, not as `NULL`, and
    /// load back as they were, in a column of a non-optional property and of an optional one.
    @Test(arguments: StoreKind.allCases)
    func emptyDataAndTextLoadBackEmpty(_ kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        let empty = Attachment(id: 1, bytes: Data(), name: "", note: "", extra: Data())
        try await store.save(empty)
        let fetched = try #require(try await store.fetchOne(Attachment.self, id: 1))
        expectEqual(fetched, empty)
        #expect(fetched.extra == Data() && fetched.note == "")
    }

    /// Stored dates sort in time order, so `<` on dates compares instants, sub-millisecond too.
    @Test func storedDatesCompareInTimeOrder() async throws {
        let store = try SQLiteStore()
        let base = Date(timeIntervalSince1970: 1_700_000_000)
        let offsets = [0.000_000_3, 0.5, 0, 0.000_2, 0.25, 0.000_000_25]
        for (index, offset) in offsets.enumerated() {
            try await store.save(Moment(id: index, at: base.addingTimeInterval(offset)))
        }
        let later = try await store.fetchAll(ModelQuery<Moment>().filter(\.at > base.addingTimeInterval(0.000_000_3)))
        expectEqual(Set(later.map(\.id)), [1, 3, 4])
        let ordered = try await store.fetchAll(ModelQuery<Moment>().order(by: \.at))
        expectEqual(ordered.map(\.id), [2, 5, 0, 3, 4, 1])
    }
}

/// A store's nested columns: JSON text, read by property keys (no key paths or transformers).
struct StoreColumnMapper: PayloadMapper {
    func map<M: Model>(_ type: M.Type, from json: String, options: MappingOptions) throws -> M {
        try StoreRowReader.decodeColumn(M.self, from: .text(json))
    }
}

@Suite struct StoreErrorTableTests {
    /// The error table's cases that apply to property keys, on the store's nested columns.
    @Test(arguments: MappingErrorCase.all.filter { $0.reach != .remoteOnly })
    func nestedColumnsReportTheTablesErrors(_ testCase: MappingErrorCase) async {
        let error = testCase.run(StoreColumnMapper())
        #expect((error as? ModelError)?.description == testCase.message)
    }
}

/// Values that can be empty: data and text, required and optional.
@Model struct Attachment: Equatable {
    @Identifier var id: Int
    var bytes: Data
    var name: String
    var note: String?
    var extra: Data?
}
