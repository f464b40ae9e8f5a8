import Foundation
import ModelKit
import ModelKitJSON
import ModelKitTestSupport
import Testing

/// A profile a PATCH endpoint updates: what the payload gave is kept in `presence`.
@Model(unknownKeys: .reject) struct EditableProfile {
    var name: String
    var bio: String?
    var age: Int = 0
    @Key("meta.city") var city: String?
    @Key(onError: .useDefault) var rank: Int = 1
    @Validate(.range(0...150)) var years: Int = 0
    @Presence var presence = ModelPresence()
}

/// The same as an identified class, updated in place.
@Model final class EditableAccount {
    @Identifier var id: Int
    var email: String
    var nickname: String?
    @Validate(.nonEmpty) var plan: String = "free"

    init(id: Int, email: String, nickname: String? = nil) {
        self.id = id
        self.email = email
        self.nickname = nickname
    }
}

/// `@Presence` and `applyPatch`: a payload's "absent", "null" and "value" on every path that
/// reads payloads; a PATCH that changes only what it gives, all or nothing.
@Suite struct PresenceTests {
    static let readers = payloadReaders

    @Test(arguments: 0..<readers.count)
    func aModelKeepsWhatItsPayloadGave(reader: Int) throws {
        let payload = #"{"name": "Ada", "bio": null, "meta": {"city": "London"}, "rank": "high"}"#
        let profile = try Self.readers[reader].map(EditableProfile.self, from: payload, options: .default)
        #expect(profile.presence["name"] == .value)
        #expect(profile.presence["bio"] == .null)
        #expect(profile.presence["age"] == .absent)
        #expect(profile.presence[\EditableProfile.city] == .value)
        // A value taken as the default because it did not map was not given.
        #expect(profile.presence["rank"] == .absent)
        expectEqual(profile.presence.givenProperties, ["name", "bio", "city"])
    }

    /// Presence is about one mapping: it is not compared, written, or a key of the payload.
    @Test func presenceIsNoValueOfTheModel() throws {
        let mapped = try EditableProfile(jsonString: #"{"name": "Ada", "bio": null}"#)
        let made = EditableProfile(name: "Ada")
        #expect(mapped == made)
        #expect(mapped.presence != made.presence)
        let written = try JSONValue(parsing: mapped.jsonData())
        #expect(written["presence"] == nil, "\(written)")
        #expect(EditableProfile.jsonSchema["properties"]?["presence"] == nil)
        #expect(EditableProfile.modelSchema["presence"]?.flags.contains([.presence, .transient]) == true)
        // Strict mode: `presence` is no key a payload may give.
        #expect(throws: ModelError.self) { try EditableProfile(jsonString: #"{"name": "Ada", "presence": 1}"#) }
    }

    @Test func aPatchChangesOnlyWhatItGives() throws {
        var profile = EditableProfile(name: "Ada", bio: "Mathematician", age: 36, city: "London")
        let given = try profile.applyPatch(jsonData: Data(#"{"bio": null, "meta": {"city": "Paris"}, "age": 37}"#.utf8))
        expectEqual(profile, EditableProfile(name: "Ada", bio: nil, age: 37, city: "Paris"))
        #expect(given["bio"] == .null && given["city"] == .value && given["age"] == .value && given["name"] == .absent)
    }

    @Test(arguments: [
        #"{"age": 40, "name": null}"#,          // null for a property that cannot hold it
        #"{"age": 40, "years": 200}"#,          // a value that fails its constraint
        #"{"age": 40, "surprise": true}"#,      // an unknown key, in strict mode
        #"{"age": 40, "meta": {"city": 7}}"#,   // a value of the wrong type
    ])
    func aPatchThatFailsChangesNothing(patch: String) throws {
        let before = EditableProfile(name: "Ada", bio: "x", age: 36)
        var profile = before
        #expect(throws: ModelError.self) { try profile.applyPatch(jsonData: Data(patch.utf8)) }
        expectEqual(profile, before)
    }

    @Test func aPatchReportsEveryProblemWhenAskedAndChangesNothing() throws {
        var options = MappingOptions()
        options.collectsAllErrors = true
        var profile = EditableProfile(name: "Ada")
        let error = modelError { _ = try profile.applyPatch(JSONValue(parsing: #"{"age": "old", "years": -1}"#), options: options) }
        expectEqual(error?.allProblems.map(\.propertyName), ["age", "years"])
        expectEqual(profile, EditableProfile(name: "Ada"))
    }

    @Test func aClassInstanceIsPatchedInPlaceOrNotAtAll() throws {
        let account = EditableAccount(id: 1, email: "a@example.com", nickname: "ada")
        let given = try account.applyPatch(json: ["nickname": NSNull(), "id": 99, "email": "b@example.com"])
        #expect(account.nickname == nil && account.email == "b@example.com")
        // The identifier is not applied: the PATCH names its model elsewhere.
        #expect(account.id == 1)
        #expect(given["nickname"] == .null && given["email"] == .value)
        #expect(throws: ModelError.self) { try account.applyPatch(JSONValue(parsing: #"{"email": "c@example.com", "plan": ""}"#)) }
        #expect(account.email == "b@example.com" && account.plan == "free")
    }
}
