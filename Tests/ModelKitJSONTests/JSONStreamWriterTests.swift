import Foundation
import ModelKit
import ModelKitJSON
import ModelKitTestSupport
import Testing

/// Writing a stream element by element: what the element reader reads back, in every format.
@Suite struct JSONStreamWriterTests {
    static let formats: [JSONStreamFormat] = [.array, .automatic, .ndjson, .nestedArray(at: "data.items"), .nestedArray(at: "page")]

    @Test(arguments: formats)
    func whatIsWrittenReadsBackElementByElement(_ format: JSONStreamFormat) async throws {
        let items = try JSONElementStreamTests.expected()
        var writer = JSONStreamWriter(format: format)
        let bytes = try writer.bytes(of: items)
        #expect(writer.count == items.count)
        let read = try await collect(ModelJSON.elements(of: StreamItem.self, fromChunks: chunks(bytes, 7), format: format))
        #expect(read == items)
        // The whole is one document of its format: one array, or one value per line.
        if format == .ndjson {
            #expect(bytes.split(separator: UInt8(ascii: "\n")).count == items.count && bytes.last == UInt8(ascii: "\n"))
        } else {
            var value: JSONValue? = try JSONValue(parsing: bytes)
            if case .nestedArray(let path) = format {
                for key in path.split(separator: ".") { value = value?[String(key)] }
            }
            guard case .array(let elements) = value else { Issue.record("no array in \(format)"); return }
            #expect(elements.count == items.count)
        }
    }

    @Test(arguments: formats)
    func noElementsIsAnEmptyStream(_ format: JSONStreamFormat) async throws {
        var writer = JSONStreamWriter(format: format)
        let bytes = try writer.bytes(of: [StreamItem]())
        let read = try await collect(ModelJSON.elements(of: StreamItem.self, fromChunks: chunks(bytes, 3), format: format))
        #expect(read.isEmpty)
        #expect(format == .ndjson ? bytes.isEmpty : !bytes.isEmpty)
    }

    @Test func ndjsonIsNeverPrettyPrinted() throws {
        var writer = JSONStreamWriter(format: .ndjson, formatting: [.prettyPrinted, .sortedKeys])
        let bytes = try writer.bytes(of: try JSONElementStreamTests.expected())
        #expect(writer.formatting == [.sortedKeys])
        #expect(String(decoding: bytes, as: UTF8.self).split(separator: "\n").first == #"{"id":0,"name":"plain","tags":[]}"#)
    }

    /// A value that cannot be written leaves the output as it was: the elements before it stand.
    @Test func aFailingElementLeavesTheOutputAsItWas() throws {
        var writer = JSONStreamWriter(format: .array)
        var output = writer.prefix
        try writer.write([1.5], into: &output)
        let before = output
        #expect(throws: ModelError.self) { try writer.write([Double.nan], into: &output) }
        #expect(output == before && writer.count == 1)
        output += writer.suffix
        #expect(String(decoding: output, as: UTF8.self) == "[[1.5]]")
    }
}
