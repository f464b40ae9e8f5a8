import Foundation
import ModelKit
import ModelKitTestSupport
import Testing

// snippet: unknown-keys-start
@Model struct Profile {
    var name: String
    @Key("settings.theme") var theme: String = "light"
    @UnknownKeys var extra: [String: JSONValue] = [:]
}
// snippet: unknown-keys-end

/// `@UnknownKeys`: the keys of a model's object no property reads are kept and written back,
/// so a read-modify-write keeps what the client does not model.
@Suite struct UnknownKeysTests {
    static let readers = payloadReaders
    static let writers = payloadWriters
    static let payload = #"""
        {"name": "Ada", "badge": {"level": 3, "since": "2024"}, "settings": {"theme": "dark", "font": 12},
         "tags": ["a", null, 1.5], "verified": true}
        """#

    static func sorted(_ data: Data) throws -> String {
        let object = try JSONSerialization.jsonObject(with: data)
        return String(decoding: try JSONSerialization.data(withJSONObject: object, options: .sortedKeys), as: UTF8.self)
    }

    @Test(arguments: 0..<readers.count)
    func theOtherKeysAreKept(reader: Int) throws {
        let profile = try Self.readers[reader].map(Profile.self, from: Self.payload, options: .default)
        #expect(profile.name == "Ada" && profile.theme == "dark")
        // The top-level keys no property reads; `settings.font` is inside an object a key path
        // opens, which is not kept.
        #expect(profile.extra == [
            "badge": .object([JSONMember("level", .int(3)), JSONMember("since", .string("2024"))]),
            "tags": .array([.string("a"), .null, .double(1.5)]),
            "verified": .bool(true),
        ], "\(profile.extra)")
    }

    @Test(arguments: 0..<writers.count)
    func writingPutsThemBack(writer: Int) throws {
        var profile = try Profile(jsonData: Data(Self.payload.utf8))
        profile.name = "Ada L."
        let written = try Self.sorted(Self.writers[writer].write(profile))
        #expect(written == #"{"badge":{"level":3,"since":"2024"},"name":"Ada L.","settings":{"theme":"dark"},"tags":["a",null,1.5],"verified":true}"#,
            "\(Self.writers[writer].name): \(written)")
        // A kept key the model also writes is the model's.
        profile.extra["name"] = .string("stale")
        let again = try Self.sorted(Self.writers[writer].write(profile))
        #expect(again.contains(#""name":"Ada L.""#) && !again.contains("stale"), "\(again)")
    }

    @Test func strictModeRejectsOnlyInsideKeyPaths() throws {
        // Keeping the other keys is the model's answer to them at the top; inside an object a
        // key path opens, strict mode still rejects what no property reads.
        var options = MappingOptions()
        options.unknownKeys = .reject
        let profile = try JSONBytesMapper().map(Profile.self, from: #"{"name": "A", "x": 1}"#, options: options)
        #expect(profile.extra == ["x": .int(1)])
        let error = modelError {
            _ = try JSONBytesMapper().map(Profile.self, from: #"{"name": "A", "settings": {"font": 1}}"#, options: options)
        }
        #expect(error?.description == "cannot map 'Profile' at 'settings.font': unknown key")
    }

    @Test func theSchemaSaysIt() {
        let schema = Profile.modelSchema
        #expect(schema.unknownKeysIndex == schema.index(ofProperty: "extra"))
        #expect(schema["extra"]?.flags.contains(.unknownKeys) == true)
    }

    /// The example of the article "Mapping models".
    @Test func theArticleExample() throws {
        // snippet: unknown-keys-start
        var profile = try Profile(jsonData: Data(#"{"name": "Ada", "badge": "gold", "settings": {"theme": "dark"}}"#.utf8))
        profile.name = "Ada L."
        print(String(decoding: try profile.jsonData(), as: UTF8.self))  // {"name":"Ada L.","settings":{"theme":"dark"},"badge":"gold"}
        // snippet: unknown-keys-end
        #expect(String(decoding: try profile.jsonData(), as: UTF8.self) == #"{"name":"Ada L.","settings":{"theme":"dark"},"badge":"gold"}"#)
    }
}
