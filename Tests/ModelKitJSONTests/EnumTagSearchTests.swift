import Foundation
import ModelKit
import ModelKitJSON
import ModelKitTestSupport
import Testing

/// An internally tagged enum without a fallback case: what a missing or unknown tag is then.
@Model(tag: "type") enum StrictBlock: Equatable {
    case text(TextBlock)
    case rule
}

@Model struct StrictBlockPage: Equatable {
    var blocks: [StrictBlock]
}

/// Internally tagged enums inside each other's payloads, the outer tag after the inner one.
@Model(tag: "kind") enum BlockEnvelope: Equatable {
    case wrap(inner: Block, note: String)
    case empty
}

/// A model that reads the tag again beside the enum that reads the same object.
@Model struct TaggedHolder: Equatable {
    var block: Block
    @Key("block.type") var kind: String
    @Key("block.body") var body: String?
}

/// The search for an internal tag over JSON bytes looks through the members before it without
/// validating them, since the payload's read goes over the whole object again: whatever comes
/// before the tag, every reader must find the same case, and malformed input must stay an error
/// about the JSON, never about the tag.
@Suite struct EnumTagSearchTests {
    /// Objects with the tag after members a structural look must step over correctly.
    @Test(arguments: [
        (#"{"body": "a } ] { [ \" \"type\": x", "type": "text"}"#, #"a } ] { [ " "type": x"#),
        (#"{"meta": {"type": "rule", "list": [1, {"type": "x"}, "]"]}, "body": "b", "type": "text"}"#, "b"),
        ("{ \"body\" :\n \"c\" ,\r\n\t\"type\"  :  \"text\" }", "c"),
        (#"{"body": "d", "ty\u0070e": "text"}"#, "d"),
        (#"{"b\u006fdy": "e", "type": "text"}"#, "e"),
        (#"{"n": -12.5e3, "t": true, "z": null, "e": [], "o": {}, "body": "f", "type": "text"}"#, "f"),
        (#"{"body": "g\\", "type": "text"}"#, #"g\"#),
        (#"{"typ": 1, "types": 2, "Type": 3, "body": "h", "type": "text"}"#, "h"),
    ])
    func theTagIsFoundWhateverComesBeforeIt(object: String, body: String) throws {
        let payload = #"{"blocks": [\#(object)], "shape": "point"}"#
        for mapper in payloadReaders {
            let page = try mapper.map(BlockPage.self, from: payload, options: .default)
            expectEqual(page.blocks, [.text(TextBlock(body: body))], "\(type(of: mapper))")
        }
    }

    @Test(arguments: [
        #"{"x": tru, "type": "text", "body": "a"}"#,
        #"{"x": [1, 2}, "type": "text", "body": "a"}"#,
        #"{"x": "\q", "type": "text", "body": "a"}"#,
        #"{"x": 1 "type": "text", "body": "a"}"#,
        #"{"x": tru, "type": "video"}"#,
        #"{"x": tru}"#,
        #"{"x": "unterminated, "type": "text"}"#,
        #"{"type": "text", "body": "a",}"#,
    ])
    func malformedJSONBeforeOrAroundTheTagIsReportedAsSuch(object: String) {
        for json in [#"{"blocks": [\#(object)], "shape": "point"}"#] {
            let error = modelError { _ = try BlockPage(jsonString: json) }
            #expect(error?.kind == .malformedInput, "\(object): \(String(describing: error))")
        }
        let strict = modelError { _ = try StrictBlockPage(jsonString: #"{"blocks": [\#(object)]}"#) }
        #expect(strict?.kind == .malformedInput, "\(object): \(String(describing: strict))")
    }

    @Test(arguments: [
        (#"{"body": "a"}"#, "cannot map 'StrictBlockPage.blocks' at 'blocks[0].type': missing key"),
        (#"{"body": "a", "type": "video"}"#,
         #"cannot map 'StrictBlockPage.blocks' at 'blocks[0].type': expected one of the tags 'text', 'rule' of 'StrictBlock', found "video""#),
        (#"{"body": "a", "type": 5}"#, "cannot map 'StrictBlockPage.blocks' at 'blocks[0].type': expected a string, found 5"),
        (#"["type", "text"]"#, "cannot map 'StrictBlockPage.blocks' at 'blocks[0]': expected an object with a 'type' tag, found an array of 2 elements"),
    ])
    func aMissingUnknownOrMistypedTagSaysSoOnEveryReader(object: String, message: String) {
        let payload = #"{"blocks": [\#(object)]}"#
        for mapper in payloadReaders {
            let error = modelError { _ = try mapper.map(StrictBlockPage.self, from: payload, options: .default) }
            #expect(error?.description == message, "\(type(of: mapper))")
        }
    }

    @Test(arguments: 0..<payloadReaders.count)
    func nestedTagsAndATagReadTwiceMapOnEveryReader(reader: Int) throws {
        let mapper = payloadReaders[reader]
        let json = #"{"block": {"type": "text", "body": "b"}, "kind": "text"}"#
        expectEqual(try mapper.map(TaggedHolder.self, from: json, options: .default),
                    TaggedHolder(block: .text(TextBlock(body: "b")), kind: "text", body: "b"))
        let nested = #"{"blocks": [], "shape": "point", "ids": []}"#
        _ = try mapper.map(BlockPage.self, from: nested, options: .default)
        let envelope = try ModelJSON.decode(
            [BlockEnvelope].self,
            from: Data(#"[{"inner": {"body": "x", "type": "text"}, "kind": "wrap", "note": "n"}, {"kind": "empty"}]"#.utf8))
        expectEqual(envelope, [.wrap(inner: .text(TextBlock(body: "x")), note: "n"), .empty])
    }

    @Test func aMissingTagGoesToTheFallbackWhole() throws {
        let page = try BlockPage(jsonString: #"{"blocks": [{"x": {"y": [1]}, "body": "a"}], "shape": "point"}"#)
        expectEqual(page.blocks, [.unknown(try JSONValue(parsing: #"{"x": {"y": [1]}, "body": "a"}"#))])
        let rule = try StrictBlockPage(jsonString: #"{"blocks": [{"n": [1, {"a": "}"}], "type": "rule"}]}"#)
        expectEqual(rule.blocks, [.rule])
    }
}
