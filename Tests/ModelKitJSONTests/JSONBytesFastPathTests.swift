import Foundation
import ModelKit
import ModelKitTestSupport
import Testing

/// The byte reader's fast paths against the general ones: arrays gathered on the stack before
/// they are allocated.
@Suite struct JSONBytesFastPathTests {
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
