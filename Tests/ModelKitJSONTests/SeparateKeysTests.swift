import Foundation
import ModelKit
import ModelKitTestSupport
import Testing

/// A contact whose API sends one spelling and takes another: `@Key(decode:..., encode:)`.
@Model struct RenamedContact: Equatable {
    @Key(decode: "full_name", "name", encode: "name") var name: String
    @Key(decode: "user.mail", encode: "contact.email") var email: String?
    @Key(decode: "n", encode: "count", null: .useDefault) var count: Int = 1
    var note: String = ""
}

// snippet: separate-keys-start
@Model struct Customer {
    @Key(decode: "display_name", "name", encode: "name") var name: String
    @Key(decode: "e_mail", encode: "email") var email: String
}
// snippet: separate-keys-end

/// `@Key(decode: "a", "b", encode: "c")`: a property reads the first of its decode keys the
/// payload has and is written under its encode key, on every path that maps payloads.
@Suite struct SeparateKeysTests {
    static let readers = payloadReaders

    static let writers = payloadWriters

    @Test(arguments: 0..<readers.count)
    func decodeKeysAreReadInOrder(reader: Int) throws {
        let mapper = Self.readers[reader]
        let first = try mapper.map(
            RenamedContact.self, from: #"{"full_name": "Ada", "name": "ignored", "user": {"mail": "ada@example.com"}, "n": null}"#,
            options: .default)
        expectEqual(first, RenamedContact(name: "Ada", email: "ada@example.com", count: 1))
        let fallback = try mapper.map(RenamedContact.self, from: #"{"name": "Bea", "n": 4, "note": "x"}"#, options: .default)
        expectEqual(fallback, RenamedContact(name: "Bea", email: nil, count: 4, note: "x"))
        // The encode key is no decode key: a payload that has only it lacks the property.
        let error = modelError { _ = try mapper.map(RenamedContact.self, from: #"{"contact": {"email": "e"}}"#, options: .default) }
        #expect(error?.kind == .missingValue, "\(String(describing: error))")
    }

    @Test(arguments: 0..<writers.count)
    func theEncodeKeyIsWritten(writer: Int) throws {
        let contact = RenamedContact(name: "Ada", email: "ada@example.com", count: 3, note: "n")
        let data = try Self.writers[writer].write(contact)
        let written = try #require(try JSONSerialization.jsonObject(with: data) as? NSDictionary)
        let expected: NSDictionary = ["name": "Ada", "contact": ["email": "ada@example.com"], "count": 3, "note": "n"]
        #expect(written.isEqual(to: expected as! [AnyHashable: Any]), "\(Self.writers[writer].name): \(written)")
        // What it wrote reads back through the fallback decode key; `contact.email` and `count`
        // are the other API's spelling, not this one's.
        let readBack = try RenamedContact(jsonData: data)
        expectEqual(readBack, RenamedContact(name: "Ada", email: nil, count: 1, note: "n"))
    }

    /// The example of the article "Mapping models".
    @Test func theArticleExample() throws {
        // snippet: separate-keys-start
        let customer = try Customer(jsonData: Data(#"{"display_name": "Ada", "e_mail": "ada@example.com"}"#.utf8))
        print(String(decoding: try customer.jsonData(), as: UTF8.self))  // {"name":"Ada","email":"ada@example.com"}
        // snippet: separate-keys-end
        #expect(String(decoding: try customer.jsonData(), as: UTF8.self) == #"{"name":"Ada","email":"ada@example.com"}"#)
    }

    @Test func theSchemaSaysBoth() throws {
        let schema = RenamedContact.modelSchema
        let name = try #require(schema["name"])
        #expect(name.remoteKeyPaths.map(\.description) == ["full_name", "name"])
        #expect(name.remoteWritingKeyPath?.description == "name")
        let email = try #require(schema["email"])
        #expect(email.remoteWritingKeyPath?.description == "contact.email")
        #expect(email.description == "email: String? <- 'user.mail' -> 'contact.email'")
        // Without `encode:` the first decode key is the one written.
        #expect(schema["note"]?.remoteWritingKeyPath?.description == "note")
    }
}
