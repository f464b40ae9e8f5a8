import Foundation
import ModelKit
import ModelKitStore
import ModelKitTestSupport
import Testing

/// A payload that names related models by identifier (`@Relationship(representation:
/// .identifiers)`), mapped through a context on a store: the identifiers are the models the
/// store holds, loaded as the payload maps.
@Suite struct StoreRelationshipPayloadTests {
    @Test(arguments: StoreKind.loading)
    func identifiersInAPayloadLoadFromTheStore(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        try await store.save([Courier(code: "ups", name: "UPS"), Courier(code: "dhl", name: "DHL")])

        let context = ModelContext(store: store)
        let dispatch = try Dispatch(jsonData: Data(#"{"id": 1, "courier": "dhl"}"#.utf8), context: context)
        expectEqual(dispatch.courier?.name, "DHL")
        try context.insert(dispatch)
        try await context.save()
        expectEqual(try await store.fetchOne(Dispatch.self, id: 1)?.courier?.code, "dhl")
        expectEqual(String(decoding: try dispatch.jsonData(), as: UTF8.self), #"{"id":1,"courier":"dhl"}"#)

        let error = modelError { _ = try Dispatch(jsonData: Data(#"{"id": 2, "courier": "fedex"}"#.utf8), context: context) }
        expectEqual(
            error?.description,
            "cannot map 'Dispatch.courier' at 'courier': expected a 'Courier' as an object, or the identifier of one the "
                + "context holds or loads, found fedex")
    }
}

@Model final class Dispatch {
    @Identifier var id: Int
    @Relationship(representation: .identifiers) var courier: Courier?
}

@Model final class Courier {
    @Identifier var code: String
    var name: String = ""
}
