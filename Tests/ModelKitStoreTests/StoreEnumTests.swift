import Foundation
import ModelKit
import ModelKitStore
import ModelKitTestSupport
import Testing

@Model(tag: "type") enum StoredEvent: Equatable {
    case opened(by: String)
    case moved(from: Int, to: Int)
    case closed
    @Key(9) case reopened(count: Int)
    @UnknownCase case other(JSONValue)
}

@Model struct EventTicket: Equatable {
    @Identifier var id: Int
    var last: StoredEvent
    var history: [StoredEvent] = []
}

/// A `@Model` enum a stored model holds is a column of its tagged JSON, and loads back, on every
/// store; so does a value of a tag it does not know.
@Suite struct StoreEnumTests {
    @Test(arguments: StoreKind.allCases)
    func enumsAreStoredAsTheirTaggedJSON(_ kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        let ticket = EventTicket(
            id: 1, last: .closed,
            history: [.opened(by: "ada"), .moved(from: 1, to: 2), .reopened(count: 2), .other(.object([JSONMember("type", .string("merged"))]))])
        try await store.save(ticket)
        #expect(try await store.fetchOne(EventTicket.self, id: 1) == ticket)
    }
}
