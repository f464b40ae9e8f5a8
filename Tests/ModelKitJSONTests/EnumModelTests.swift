import Foundation
import ModelKit
import ModelKitJSON
import ModelKitTestSupport
import Testing

@Model struct TextBlock: Equatable {
    var body: String
}

/// Internally tagged: the payload's keys beside the tag; a case of its own tag; unknown tags kept.
@Model(tag: "type") enum Block: Equatable {
    case text(TextBlock)
    case image(url: URL, width: Int?)
    @Key("hr") case divider
    @UnknownCase case unknown(JSONValue)
}

/// Adjacently tagged.
@Model(tag: "kind", content: "data") enum Signal: Equatable {
    case move(x: Int, y: Int)
    case say(String)
    case stop
}

/// Externally tagged.
@Model(.external) enum Figure: Equatable {
    case circle(radius: Double)
    case square(Double)
    case point
}

/// Untagged: the first case whose payload maps.
@Model(.untagged) enum LooseID: Equatable {
    case number(Int)
    case text(String)
    case pair(Int, Int)
    case none
}

/// A model that holds enums, as payloads do.
@Model struct BlockPage: Equatable {
    var blocks: [Block]
    var signal: Signal?
    var shape: Figure
    var ids: [LooseID] = []
}

/// `@Model` enums in the four representations, on every path that reads and writes payloads.
@Suite struct EnumModelTests {
    static let readers = payloadReaders
    static let payload = #"""
        {"blocks": [
            {"type": "text", "body": "Hello"},
            {"url": "https://example.com/a.png", "type": "image", "width": 640},
            {"type": "hr"},
            {"type": "video", "src": "v.mp4", "length": 12}
         ],
         "signal": {"data": {"x": 1, "y": 2}, "kind": "move"},
         "shape": {"circle": {"radius": 2.5}},
         "ids": [7, "seven", [1, 2], null]}
        """#
    static let expected = BlockPage(
        blocks: [
            .text(TextBlock(body: "Hello")), .image(url: URL(string: "https://example.com/a.png")!, width: 640), .divider,
            .unknown(.object([
                JSONMember("type", .string("video")), JSONMember("src", .string("v.mp4")), JSONMember("length", .int(12)),
            ])),
        ],
        signal: .move(x: 1, y: 2), shape: .circle(radius: 2.5), ids: [.number(7), .text("seven"), .pair(1, 2), .none])

    @Test(arguments: 0..<readers.count)
    func everyRepresentationMaps(reader: Int) throws {
        let page = try Self.readers[reader].map(BlockPage.self, from: Self.payload, options: .default)
        expectEqual(Array(page.blocks.prefix(3)), Array(Self.expected.blocks.prefix(3)))
        expectEqual(page.signal, Self.expected.signal)
        expectEqual(page.shape, Self.expected.shape)
        expectEqual(page.ids, Self.expected.ids)
        // An unknown tag's whole value, as it came (JSON objects and Codable keep no key order).
        guard case .unknown(let kept) = page.blocks[3], case .unknown(let expected) = Self.expected.blocks[3] else {
            Issue.record("\(page.blocks[3]) is not the unknown case")
            return
        }
        expectEqual(Self.sorted(kept), Self.sorted(expected))
    }

    /// `value` with every object's members in key order (Foundation's writers order keys their
    /// own way).
    static func sorted(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let members): .object(members.map { JSONMember($0.key, sorted($0.value)) }.sorted { $0.key < $1.key })
        case .array(let elements): .array(elements.map(sorted))
        default: value
        }
    }

    @Test(arguments: 0..<payloadWriters.count)
    func everyRepresentationRoundTrips(writer: Int) throws {
        let written = try payloadWriters[writer].write(Self.expected)
        let back = try BlockPage(jsonData: written)
        expectEqual(Self.sorted(try JSONValue(parsing: back.jsonData())), Self.sorted(try JSONValue(parsing: Self.expected.jsonData())))
        let json = Self.sorted(try JSONValue(parsing: written))
        expectEqual(json["blocks"]?[1], .object([
            JSONMember("type", .string("image")), JSONMember("url", .string("https://example.com/a.png")), JSONMember("width", .int(640)),
        ]))
        expectEqual(json["blocks"]?[0], .object([JSONMember("body", .string("Hello")), JSONMember("type", .string("text"))]))
        expectEqual(json["blocks"]?[2], .object([JSONMember("type", .string("hr"))]))
        // An unknown tag's value is written back as it came.
        expectEqual(json["blocks"]?[3]?["src"], .string("v.mp4"))
        expectEqual(json["signal"], .object([
            JSONMember("data", .object([JSONMember("x", .int(1)), JSONMember("y", .int(2))])), JSONMember("kind", .string("move")),
        ]))
        expectEqual(json["shape"], .object([JSONMember("circle", .object([JSONMember("radius", .double(2.5))]))]))
        expectEqual(json["ids"], .array([.int(7), .string("seven"), .array([.int(1), .int(2)]), .null]))
    }

    @Test(arguments: [
        (#"{"blocks": [], "signal": {"data": {}}, "shape": "point"}"#, "cannot map 'BlockPage.signal' at 'signal.kind': missing key"),
        (#"{"blocks": [], "signal": {"kind": "say"}, "shape": "point"}"#, "cannot map 'BlockPage.signal' at 'signal.data': missing key"),
        (#"{"blocks": [], "signal": {"kind": "jump"}, "shape": "point"}"#,
         #"cannot map 'BlockPage.signal' at 'signal.kind': expected one of the tags 'move', 'say', 'stop' of 'Signal', found "jump""#),
        (#"{"blocks": [], "shape": {"hexagon": {}}}"#,
         "cannot map 'BlockPage.shape' at 'shape': expected an object with one of the tags 'circle', 'square', 'point' of 'Figure' as its key, found 'hexagon'"),
        (#"{"blocks": [{"type": "image", "url": 5}], "shape": "point"}"#,
         "cannot map 'Block.image.url' at 'blocks[0].url': expected a URL string, found 5"),
        (#"{"blocks": [], "shape": "point", "ids": [true]}"#,
         "cannot map 'BlockPage.ids' at 'ids[0]': expected a value one of the cases of 'LooseID' maps, found true"),
    ])
    func aPayloadThatMapsToNoCaseIsAnErrorThatSaysWhere(payload: String, message: String) {
        for mapper in Self.readers {
            let error = modelError { _ = try mapper.map(BlockPage.self, from: payload, options: .default) }
            #expect(error?.description == message, "\(type(of: mapper))")
        }
    }

    /// The exported JSON Schema describes each representation, checked by an independent
    /// validator: the sample validates, and each payload the readers refuse does not (an
    /// unknown tag validates where a fallback case keeps it).
    @Test func theJSONSchemaDescribesEveryRepresentation() throws {
        let valid = try JSONValue(parsing: Self.payload)
        let mutate = JSONSchemaExportTests.mutate
        let block = { (json: String) throws -> JSONValue in mutate(valid, ["blocks"], .array([try JSONValue(parsing: json)])) }
        let payloads = [
            valid,
            try block(#"{"type": "image", "url": 5}"#),                     // a payload value of the wrong type
            try block(#"{"type": "text"}"#),                                // a payload's required key missing
            mutate(valid, ["signal"], .object([JSONMember("kind", .string("jump"))])),  // an unknown tag, no fallback
            mutate(valid, ["signal"], .object([JSONMember("kind", .string("say"))])),   // the content missing
            mutate(valid, ["shape"], .object([JSONMember("hexagon", .object([]))])),    // an unknown external tag
            mutate(valid, ["ids"], .array([.bool(true)])),                               // no untagged case maps
            mutate(valid, ["ids"], .array([.array([.int(1)])])),                         // a tuple too short
            try block(#"{"type": "poll", "options": []}"#),                 // an unknown tag the fallback keeps
        ]
        let results = try JSONSchemaExportTests.validate(payloads, against: BlockPage.jsonSchema)
        expectEqual(results, [true, false, false, false, false, false, false, false, true])
        // And the readers agree.
        for (payload, valid) in zip(payloads, results) {
            let mapped = (try? BlockPage(jsonData: Data(ModelJSON.encode(payload)))) != nil
            #expect(mapped == valid, "\(payload)")
        }
        let definitions = BlockPage.jsonSchema["$defs"]
        expectEqual(definitions?["Block"]?["discriminator"], .object([JSONMember("propertyName", .string("type"))]))
    }

    @Test func theSchemaListsTheCasesAndTheirTags() {
        let schema = Block.modelEnumSchema
        #expect(schema.representation == .internal(tag: "type"))
        expectEqual(schema.cases.map(\.tag), ["text", "image", "hr"])
        #expect(schema.fallbackCaseName == "unknown")
        #expect(Signal.modelEnumSchema.representation == .adjacent(tag: "kind", content: "data"))
    }
}
