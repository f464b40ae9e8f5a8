import Foundation
import ModelKit
import ModelKitTestSupport
import Testing

/// The byte reader's fast paths against the general ones: keys compared where they lie in the
/// document, and arrays gathered on the stack before they are allocated.
@Suite struct JSONBytesFastPathTests {
    /// The key expected next is compared with the document's bytes; keys out of order, escaped,
    /// spaced, unknown or needing escapes themselves map as they do through JSON objects.
    @Test(arguments: [
        #"{"id":1,"say \"hi\"":2,"café":3}"#,
        #"{"café":3,"say \"hi\"":2,"id":1}"#,
        #"{"i\u0064":1,"say \u0022hi\u0022":2,"caf\u00e9":3}"#,
        #"{ "id" : 1 ,"say \"hi\"":2 , "café":3 }"#,
        #"{"idx":0,"id":1,"i":0,"say \"hi\"":2,"say":0,"café":3,"caf":0}"#,
        #"{"id":1,"say "hi"":2,"café":3}"#,
        #"{"id":1,"say \"hi\"":2,"café"3}"#,
        #"{"id":1,"say \"hi\"":2,"café":3"#,
    ])
    func keysMapAsThroughJSONObjects(_ json: String) {
        let data = Data(json.utf8)
        let fromBytes = try? JSONOddKeys(jsonData: data)
        let fromObjects = try? JSONOddKeys(json: JSONSerialization.jsonObject(with: data))
        #expect(fromBytes == fromObjects)
        #expect(fromBytes == nil || fromBytes == JSONOddKeys(id: 1, quoted: 2, accented: 3))
    }

    /// Arrays on both sides of the stack buffer's size (16 small elements, one or two models of
    /// many properties) read the same elements, and a bad last element names its index.
    @Test(arguments: [0, 1, 2, 3, 15, 16, 17, 40])
    func arraysOfEveryLength(count: Int) throws {
        let strings = (0..<count).map { "element \($0) of the array" }
        #expect(try ModelJSON.decode([String].self, from: Data(ModelJSON.encode(strings))) == strings)
        let grid = (0..<count).map { Array(0..<$0 % 19) }
        #expect(try ModelJSON.decode([[Int]].self, from: Data(ModelJSON.encode(grid))) == grid)
        let statuses = Array(try [Status](jsonData: fixtureData("twitter.json"), at: "statuses").prefix(count))
        #expect(try [Status](jsonBytes: ModelJSON.encode(statuses)) == statuses)
        guard count > 0 else { return }
        let bad = "[" + strings.dropLast().map { "\"\($0)\"," }.joined() + "7]"
        #expect(modelError { _ = try ModelJSON.decode([String].self, from: Data(bad.utf8)) }?.path.description == "[\(count - 1)]")
    }
}

@Model
struct JSONOddKeys: Equatable {
    var id: Int
    @Key("say \"hi\"") var quoted: Int
    @Key("café") var accented: Int
}
