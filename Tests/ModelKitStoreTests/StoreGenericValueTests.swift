import Foundation
import ModelKit
import ModelKitStore
import ModelKitTestSupport
import Testing

@Model struct StoredRange<Bound: ModelValue & Equatable>: Equatable {
    var lower: Bound
    var upper: Bound
}

@Model struct Booking: Equatable {
    @Identifier var id: Int
    var nights: StoredRange<Int>
    var dates: StoredRange<Date>?
}

/// Identified generic models are refused by the macro (a table is per type); a generic value a
/// stored model holds is stored with it, and loads back, on every store.
@Suite struct StoreGenericValueTests {
    @Test(arguments: StoreKind.allCases)
    func aGenericValueIsStoredWithItsModel(_ kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        let booking = Booking(
            id: 1, nights: StoredRange(lower: 2, upper: 5),
            dates: StoredRange(lower: Date(timeIntervalSince1970: 1_800_000_000), upper: Date(timeIntervalSince1970: 1_800_432_000)))
        try await store.save(booking)
        #expect(try await store.fetchOne(Booking.self, id: 1) == booking)
    }
}
