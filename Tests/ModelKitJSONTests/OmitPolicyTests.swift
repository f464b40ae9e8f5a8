import Foundation
import ModelKit
import ModelKitTestSupport
import Testing

// snippet: omit-policy-start
@Model struct SearchQuery {
    var text: String
    @Key(omit: .ifDefault) var limit: Int = 20
    @Key("next_cursor", omit: .ifNil) var cursor: String?
    @Key(omit: .ifDefault) var filters: [String] = []
}
// snippet: omit-policy-end

/// A model whose nested key path holds an omitted property beside one that is always written.
@Model struct PagedRequest: Equatable {
    @Key("page.size", omit: .ifDefault) var size: Int = 50
    @Key("page.token", omit: .ifNil) var token: String?
    var note: String?
}

/// `@Key(omit:)`: a property left out of the payloads a model writes while nil or equal to its
/// default, on every writer of payloads; readers take such a payload back to the same model.
@Suite struct OmitPolicyTests {
    static let writers = payloadWriters

    /// What writer `writer` wrote for `model`, with sorted keys, to compare with a literal.
    static func written(_ model: any Model, by writer: Int) throws -> String {
        let object = try JSONSerialization.jsonObject(with: writers[writer].write(model))
        return String(decoding: try JSONSerialization.data(withJSONObject: object, options: .sortedKeys), as: UTF8.self)
    }

    @Test(arguments: 0..<writers.count)
    func defaultsAndNilsAreLeftOut(writer: Int) throws {
        let name = Self.writers[writer].name
        #expect(try Self.written(SearchQuery(text: "swift"), by: writer) == #"{"text":"swift"}"#, "\(name)")
        let full = try Self.written(SearchQuery(text: "swift", limit: 5, cursor: "c2", filters: ["new"]), by: writer)
        #expect(full == #"{"filters":["new"],"limit":5,"next_cursor":"c2","text":"swift"}"#, "\(name)")
        // In a nested key path: the object stays for what is written.
        let nested = try Self.written(PagedRequest(size: 50, token: "t"), by: writer)
        #expect(nested == #"{"note":null,"page":{"token":"t"}}"#, "\(name)")
    }

    @Test(arguments: 0..<writers.count)
    func whatIsWrittenReadsBack(writer: Int) throws {
        for request in [PagedRequest(), PagedRequest(size: 10, token: "x", note: "n"), PagedRequest(size: 50, token: nil, note: "n")] {
            let data = try Self.writers[writer].write(request)
            try expectEqual(PagedRequest(jsonData: data), request)
            try expectEqual(JSONDecoder().decode(PagedRequest.self, from: data), request)
        }
    }

    @Test func theSchemaSaysIt() {
        #expect(SearchQuery.modelSchema["limit"]?.flags.contains(.omitsDefault) == true)
        #expect(SearchQuery.modelSchema["cursor"]?.flags.contains(.omitsNil) == true)
        #expect(SearchQuery.modelSchema["text"]?.flags.intersection([.omitsNil, .omitsDefault]).isEmpty == true)
    }

    /// The example of the article "Mapping models".
    @Test func theArticleExample() throws {
        // snippet: omit-policy-start
        let first = SearchQuery(text: "swift")
        print(String(decoding: try first.jsonData(), as: UTF8.self))  // {"text":"swift"}
        let next = SearchQuery(text: "swift", limit: 50, cursor: "c2")
        print(String(decoding: try next.jsonData(), as: UTF8.self))  // {"text":"swift","limit":50,"next_cursor":"c2"}
        // snippet: omit-policy-end
        #expect(String(decoding: try first.jsonData(), as: UTF8.self) == #"{"text":"swift"}"#)
        #expect(String(decoding: try next.jsonData(), as: UTF8.self) == #"{"text":"swift","limit":50,"next_cursor":"c2"}"#)
    }
}
