import Foundation
import ModelKit
import ModelKitJSON
import ModelKitTestSupport
import Testing

/// A page of anything, as list endpoints return them.
@Model struct Page<Item: ModelValue> {
    var items: [Item]
    @Key("next_cursor") var next: String?
    @Validate(.count(...3)) var tags: [String] = []
}

/// An API's envelope around any payload, with nested key paths and a transformer.
@Model struct Envelope<Payload: ModelValue> {
    var data: Payload
    @Key("meta.request_id") var requestID: String
    @Key("meta.at") @Transform(.iso8601) var at: Date?
}

@Model struct PagedUser {
    var name: String
    @Validate(.range(0...150)) var age: Int = 0
}

/// A generic final class.
@Model final class Box<Content: ModelValue> {
    var content: Content
    var label: String = ""

    init(content: Content, label: String = "") {
        self.content = content
        self.label = label
    }
}

/// Generic models map on every path, each specialisation with a schema of its own.
@Suite struct GenericModelTests {
    static let readers = payloadReaders
    static let payload = #"""
        {"data": {"items": [{"name": "Ada", "age": 36}, {"name": "Alan"}], "next_cursor": "c2"},
         "meta": {"request_id": "r1", "at": "2026-12-07T10:00:00Z"}}
        """#

    @Test(arguments: 0..<readers.count)
    func aGenericEnvelopeOfAGenericPageMaps(reader: Int) throws {
        let envelope = try Self.readers[reader].map(Envelope<Page<PagedUser>>.self, from: Self.payload, options: .default)
        #expect(envelope.data.items == [PagedUser(name: "Ada", age: 36), PagedUser(name: "Alan")])
        #expect(envelope.data.next == "c2" && envelope.requestID == "r1")
        #expect(envelope.at == Date(timeIntervalSince1970: 1_796_637_600))
    }

    @Test(arguments: 0..<payloadWriters.count)
    func whatAGenericModelWritesReadsBack(writer: Int) throws {
        let envelope = try Envelope<Page<PagedUser>>(jsonString: Self.payload)
        let written = try payloadWriters[writer].write(envelope)
        let back = try Envelope<Page<PagedUser>>(jsonData: written)
        #expect(back == envelope, "\(payloadWriters[writer].name)")
        let json = try JSONValue(parsing: written)
        #expect(json["meta"]?["request_id"] == .string("r1"), "\(json)")
        #expect(json["data"]?["next_cursor"] == .string("c2"), "\(json)")
    }

    @Test func eachSpecialisationHasASchemaOfItsOwn() throws {
        let users = Page<PagedUser>.modelSchema
        let names = Page<String>.modelSchema
        #expect(users.modelName == "Page<PagedUser>")
        #expect(names.modelName == "Page<String>")
        #expect(users !== names)
        #expect(users === Page<PagedUser>.modelSchema)
        #expect(users["items"]?.typeName == "[Item]")
        // A page of strings maps strings.
        let page = try Page<String>(jsonString: #"{"items": ["a", "b"]}"#)
        #expect(page.items == ["a", "b"])
        // Errors name the specialisation.
        let error = modelError { _ = try Page<PagedUser>(jsonString: #"{"items": [{"name": "Ada", "age": 200}], "tags": []}"#) }
        #expect(error?.description == "invalid 'PagedUser.age' at 'items[0].age': expected a value in 0...150, found 200", "\(String(describing: error))")
        let missing = modelError { _ = try Page<String>(jsonString: #"{"next_cursor": "x"}"#) }
        #expect(missing?.description == "cannot map 'Page<String>.items' at 'items': missing key", "\(String(describing: missing))")
    }

    @Test func theJSONSchemaOfASpecialisationDescribesItsItems() throws {
        let schema = Envelope<Page<PagedUser>>.jsonSchema
        let valid = try JSONValue(parsing: Self.payload)
        let broken = JSONSchemaExportTests.mutate(valid, ["data", "items"], to: .array([.int(1)]))
        expectEqual(try JSONSchemaExportTests.validate([valid, broken], against: schema), [true, false])
    }

    @Test func aGenericClassMapsAndKeepsItsValues() throws {
        let box = try Box<PagedUser>(jsonString: #"{"content": {"name": "Ada"}, "label": "first"}"#)
        #expect(box.content == PagedUser(name: "Ada") && box.label == "first")
        let back = try Box<PagedUser>(jsonData: box.jsonData())
        #expect(back.content == box.content && back.label == box.label)
        #expect(Box<Int>.modelSchema.modelName == "Box<Int>")
    }
}
