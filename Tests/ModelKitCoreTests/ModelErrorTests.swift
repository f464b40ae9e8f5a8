import Foundation
import ModelKit
import ModelKitTestSupport
import Testing

@Suite struct ModelErrorTests {
    /// The error table on the JSON-object path and the Codable path (Foundation's `JSONDecoder`
    /// through the generated `init(from:)`): the same messages, word for word.
    @Test(arguments: MappingErrorCase.all)
    func errorsNameModelPropertyPathAndValue(_ testCase: MappingErrorCase) {
        for mapper in [JSONObjectMapper(), CodableMapper()] as [any PayloadMapper] {
            let error = testCase.run(mapper)
            #expect((error as? ModelError)?.description == testCase.message, "\(type(of: mapper))")
        }
    }

    @Test func collectAllModeReportsEveryProblem() throws {
        var options = MappingOptions()
        options.collectsAllErrors = true
        let payload = MappingErrorCase.collectAll.payload
        let error = modelError { _ = try JSONObjectMapper().map(Feed.self, from: payload, options: options) }
        #expect(error?.kind == .multiple)
        #expect(error?.problems.map(\.description) == MappingErrorCase.collectAll.messages)
        #expect(error?.description.hasPrefix("5 problems mapping 'Feed': cannot map 'Post.id'") == true)

        let first = modelError { _ = try JSONObjectMapper().map(Feed.self, from: payload, options: .default) }
        #expect(first?.description == MappingErrorCase.collectAll.messages[0])
    }

    @Test func collectAllModeStillMapsAGoodPayload() throws {
        var options = MappingOptions()
        options.collectsAllErrors = true
        let order = try JSONObjectMapper().map(Order.self, from: #"{"items": [{"name": "a"}]}"#, options: options)
        expectEqual(order.items, [Item(name: "a")])
    }

    @Test func errorsCarryTheirParts() throws {
        let error = try #require(modelError { _ = try Item(json: ["name": 42]) })
        #expect(error.kind == .typeMismatch && error.modelName == "Item" && error.propertyName == "name")
        #expect(error.path == [.key("name")] && error.expected == "a string" && error.found == "42")
        expectEqual(error.reason, "expected a string, found 42")
    }

    @Test func longValuesAreShortened() {
        let long = String(repeating: "x", count: 100)
        let error = modelError { _ = try Item(json: ["name": "a", "quantity": long]) }
        #expect(error?.found == "\"" + String(repeating: "x", count: 40) + "…\"")
        expectEqual(ModelError.describe([1, 2, 3]), "an array of 3 elements")
        expectEqual(ModelError.describe(["a": 1]), "an object with 1 key")
        expectEqual(ModelError.describe("tab\there"), #""tab\there""#)
    }

    @Test func underlyingErrorsAreKept() {
        struct Refusal: Error, CustomStringConvertible { var description: String { "refused" } }
        struct Refusing: ModelTransformer {
            func transformedValue(_ text: String) throws -> String { throw Refusal() }
            func reverseTransformedValue(_ value: String) throws -> String { value }
        }
        var reader = JSONObjectReader(value: "x")
        let error = modelError { _ = try reader.decodeValue(String.self, transformer: Refusing()) }
        #expect(error?.underlying is Refusal && error?.found == "\"x\"")
        #expect(error?.reason.contains("(refused)") == true)
    }
}
