import Foundation
import ModelKit
import ModelKitTestSupport
import Testing

/// A property may be named like a member `@Model` generates or a name its generated code uses:
/// Twitter's users have a `description`, payloads have `hash`, `index`, `value`...
@Suite struct ReservedNameTests {
    static let integerNames = [
        "copy", "fields", "reader", "writer", "index", "hasher", "decoder", "encoder", "mapping", "missing",
        "modelSchema", "propertyKeys", "modelIdentifier", "jsonObject", "dictionaryValue", "lhs", "rhs", "other",
        "value",
    ]

    static func payload() -> [String: Any] {
        var payload: [String: Any] = ["description": "bio", "hash": "abc", "modelDescription": "text"]
        for (offset, name) in integerNames.enumerated() { payload[name] = offset + 1 }
        return payload
    }

    @Test func everyReservedNameMapsBothWays() throws {
        let model = try ReservedNames(json: Self.payload())
        #expect(model.description == "bio" && model.hash == "abc" && model.modelDescription == "text")
        #expect(model.fields == 2 && model.mapping == 9 && model.missing == 10 && model.value == 19)
        // `model.jsonObject` is the property here; generic code reaches the library's method.
        let back = try #require(try Self.jsonObject(of: model) as? [String: Any])
        #expect(back["description"] as? String == "bio")
        expectEqual(Set(back.keys), Set(Self.payload().keys))
        try expectEqual(ReservedNames(json: back), model)
        // The data stays data: the type is not made CustomStringConvertible over it.
        #expect(!((model as Any) is any CustomStringConvertible))
    }

    @Test func aMissingReservedNameIsReportedByName() {
        var payload = Self.payload()
        payload["fields"] = nil
        payload["mapping"] = nil
        let error = modelError { _ = try ReservedNames(json: payload) }
        #expect(error?.description.contains("'ReservedNames.fields'") == true)
        #expect(error?.description.contains("'ReservedNames.mapping'") == true)
    }

    @Test func anIdentifiedClassWithReservedNames() throws {
        let record = try ReservedNamesRecord(json: ["id": 1, "description": "d", "hash": "h", "fields": 3, "other": 4])
        #expect(record.description == "d" && record.hash == "h" && record.fields == 3 && record.other == 4)
        let back = try #require(try Self.jsonObject(of: record) as? [String: Any])
        expectEqual(back.keys.sorted(), ["description", "fields", "hash", "id", "mapping", "other", "reader"])
        #expect(record.modelDescription.contains("description: \"d\""))
    }

    static func jsonObject(of model: some Model) throws -> Any {
        try model.jsonObject()
    }
}
