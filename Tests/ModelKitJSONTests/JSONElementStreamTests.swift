import Foundation
import ModelKit
import ModelKitJSON
import ModelKitTestSupport
import Testing

@Model
struct StreamItem: Equatable {
    var id: Int
    var name: String
    var tags: [String] = []
}

/// Streaming decode: a top-level array or NDJSON, split into elements across chunks of any size
/// and mapped one at a time.
@Suite struct JSONElementStreamTests {
    /// Elements whose strings hold every byte the splitter must not take for structure.
    static let elements: [String] = [
        #"{"id":0,"name":"plain","tags":[]}"#,
        #"{"id":1,"name":"brackets [],{} and \"quotes\"","tags":["a,b","]","}"]}"#,
        #"{"id":2,"name":"back\\slash\\","tags":["\\\"","\\"]}"#,
        #"{ "id" : 3 , "name" : "caf\u00e9 \"[{\" \\\\ \/" , "tags" : [ "{" , "\\]" ] }"#,
        #"{"id":4,"name":"line\nbreak\ttab \ud83d\ude00","tags":["x"]}"#,
    ]
    /// The elements as a pretty top-level array.
    static let array = "  [\n  " + elements.joined(separator: " ,\n\t") + "\r\n]\n"
    /// The elements as NDJSON, with CRLF line ends, blank lines and indentation.
    static let ndjson = "\n" + elements.map { "  " + $0 + " \r\n" }.joined(separator: "\n") + "\n\n"

    static func expected() throws -> [StreamItem] {
        try [StreamItem](jsonBytes: Array(array.utf8))
    }

    @Test(arguments: [(array, JSONStreamFormat.array), (array, .automatic), (ndjson, .ndjson), (ndjson, .automatic)])
    func everyChunkSizeGivesTheWholeDocumentsModels(document: String, format: JSONStreamFormat) async throws {
        let expected = try Self.expected()
        #expect(expected.count == 5 && expected[3].name == #"café "[{" \\ /"# && expected[2].tags == [#"\""#, #"\"#])
        let bytes = Array(document.utf8)
        for size in 1...bytes.count {
            let items = try await collect(ModelJSON.elements(of: StreamItem.self, fromChunks: chunks(bytes, size), format: format))
            #expect(items == expected, "chunk size \(size)")
        }
    }

    @Test(arguments: [JSONStreamFormat.array, .ndjson])
    func filesDecodeAtEveryChunkSizeSynchronously(format: JSONStreamFormat) throws {
        let directory = try TemporaryDirectory()
        let url = try directory.file("items.json", contents: format == .array ? Self.array : Self.ndjson)
        let expected = try Self.expected()
        for size in 1...Self.array.utf8.count {
            var items: [StreamItem] = []
            let count = try ModelJSON.forEachElement(StreamItem.self, in: url, chunkSize: size) { items.append($0) }
            #expect(items == expected && count == 5, "chunk size \(size)")
        }
    }

    @Test(arguments: ["[]", " [ \n ] \n", "", "\n\r\n  \n"])
    func emptyStreamsHaveNoElements(document: String) async throws {
        let items = try await collect(ModelJSON.elements(of: StreamItem.self, fromChunks: chunks(Array(document.utf8), 2)))
        #expect(items.isEmpty)
    }

    @Test func scalarsAndStringsAreElementsToo() async throws {
        let numbers = try await collect(
            ModelJSON.elements(of: Double.self, fromChunks: chunks(Array("[1,-2.5e3 ,0.5\n,\n0]".utf8), 1)))
        expectEqual(numbers, [1, -2500, 0.5, 0])
        let values = try await collect(ModelJSON.elements(of: Int.self, fromChunks: chunks(Array("[1, -2 ,30\n,\n0]".utf8), 1)))
        expectEqual(values, [1, -2, 30, 0])
        let strings = try await collect(
            ModelJSON.elements(of: String.self, fromChunks: chunks(Array(#"["a\"]", "[,]" ,"\\"]"#.utf8), 1)))
        expectEqual(strings, [#"a"]"#, "[,]", #"\"#])
        let lines = try await collect(ModelJSON.elements(of: Int.self, fromChunks: chunks(Array("1\n 2 \r\n\n3".utf8), 1)))
        expectEqual(lines, [1, 2, 3])
    }

    @Test func fileHandleURLAndByteSequenceSources() async throws {
        let directory = try TemporaryDirectory()
        let url = try directory.file("items.json", contents: Self.array)
        let expected = try Self.expected()
        try await expectEqual(collect(ModelJSON.elements(of: StreamItem.self, in: url, chunkSize: 7)), expected)

        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        try await expectEqual(collect(ModelJSON.elements(of: StreamItem.self, from: handle, chunkSize: 5)), expected)
        try handle.seek(toOffset: 0)
        var items: [StreamItem] = []
        try ModelJSON.forEachElement(StreamItem.self, from: handle, chunkSize: 3) { items.append($0) }
        expectEqual(items, expected)

        let bytes = AsyncStream<UInt8> { continuation in
            for byte in Self.ndjson.utf8 { continuation.yield(byte) }
            continuation.finish()
        }
        try await expectEqual(collect(ModelJSON.elements(of: StreamItem.self, from: bytes, chunkSize: 16)), expected)
    }

    @Test func anIdentityContextUpdatesOneInstance() throws {
        let directory = try TemporaryDirectory()
        let url = try directory.file("counters.ndjson", contents: "{\"id\":\"a\",\"count\":1}\n{\"id\":\"a\",\"count\":2}\n")
        let context = ModelContext()
        var counters: [Counter] = []
        try ModelJSON.forEachElement(Counter.self, in: url, context: context) { counters.append($0) }
        #expect(counters.count == 2 && counters[0] === counters[1] && counters[1].count == 2)
    }

    @Test(arguments: StreamErrorCase.all)
    func errorsNameTheElementAndItsOffset(_ errorCase: StreamErrorCase) async throws {
        for size in [1, 3, 65_536] {
            let stream = ModelJSON.elements(
                of: StreamItem.self, fromChunks: chunks(Array(errorCase.document.utf8), size), format: errorCase.format)
            let error = await #expect(throws: JSONStreamError.self) { _ = try await collect(stream) }
            #expect(error?.kind == errorCase.code, "chunk size \(size)")
            #expect(error?.elementIndex == errorCase.index, "chunk size \(size)")
            #expect(error?.byteOffset == errorCase.offset, "chunk size \(size)")
            #expect(error?.failureOffset == errorCase.failure, "chunk size \(size)")
            if let message = errorCase.message { #expect(error?.description == message) }
        }
    }

    @Test func readErrorsAreWrapped() async throws {
        let missing = URL(fileURLWithPath: "/nonexistent/items.json")
        let error = #expect(throws: JSONStreamError.self) { try ModelJSON.forEachElement(Int.self, in: missing) { _ in } }
        #expect(error?.kind == .readFailed && error?.elementIndex == 0 && error?.byteOffset == 0)
        #expect(error?.description.hasPrefix("cannot read the input at byte 0: ") == true)
        let asyncError = await #expect(throws: JSONStreamError.self) {
            _ = try await collect(ModelJSON.elements(of: Int.self, in: missing))
        }
        #expect(asyncError?.kind == .readFailed)
    }

    @Test func anElementOverTheDocumentSizeLimitIsAnError() async throws {
        var options = MappingOptions()
        options.maxDocumentSize = 10
        let stream = ModelJSON.elements(of: [Int].self, fromChunks: chunks(Array("[[1],[1,2,3,4,5,6,7]]".utf8), 4), options: options)
        let error = await #expect(throws: JSONStreamError.self) { _ = try await collect(stream) }
        #expect(error?.kind == .elementTooLarge && error?.elementIndex == 1 && error?.byteOffset == 5)
    }

    /// A file of about two megabytes, read 4 KiB at a time: the buffer never holds much more
    /// than the largest element and one chunk.
    @Test(arguments: [JSONStreamFormat.array, .ndjson])
    func memoryIsBoundedByTheLargestElement(format: JSONStreamFormat) throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("large.json")
        let (count, largest, size) = try Self.writeLargeFile(url, format: format)
        #expect(size > 1_500_000)
        let chunkSize = 4096
        let reader = try JSONFileReader(url: url, chunkSize: chunkSize)
        var splitter = JSONElementSplitter(format: .automatic)
        var next = 0
        let found = try splitter.forEachElement(reading: reader) { buffer, span, _ in
            let item = try ModelJSON.decode(
                StreamItem.self, from: UnsafeRawBufferPointer(rebasing: buffer[span.range]), at: nil, options: .default)
            expectEqual(item.id, next)
            next += 1
        }
        #expect(found == count && next == count && splitter.format == format)
        #expect(splitter.highWaterMark <= largest + 2 * chunkSize, "high-water mark \(splitter.highWaterMark)")
        #expect(splitter.highWaterMark < size / 50)
    }

    /// Writes `StreamItem`s, one of them about 20 KB, in chunks; returns the element count,
    /// the largest element's size and the file's size.
    static func writeLargeFile(_ url: URL, format: JSONStreamFormat) throws -> (Int, Int, Int) {
        try Data().write(to: url)
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        var text = format == .array ? "[" : ""
        var largest = 0
        var size = 0
        let count = 30_000
        for id in 0..<count {
            let tags = id == 7_000 ? Array(repeating: "xyzzy", count: 2_500) : ["t\(id % 7)", "u"]
            let element = try StreamItem(id: id, name: "item \(id) \"[{,}]\"", tags: tags).jsonString()
            largest = max(largest, element.utf8.count)
            if format == .array && id > 0 { text += ",\n" }
            text += element
            if format == .ndjson { text += "\n" }
            if text.utf8.count > 1 << 20 || id == count - 1 {
                if id == count - 1 && format == .array { text += "]" }
                size += text.utf8.count
                try handle.write(contentsOf: Data(text.utf8))
                text = ""
            }
        }
        return (count, largest, size)
    }
}

/// A stream that must fail, and how.
struct StreamErrorCase: Sendable, CustomTestStringConvertible {
    let name: String
    let document: String
    var format = JSONStreamFormat.automatic
    let code: JSONStreamError.Kind
    let index: Int
    let offset: Int
    let failure: Int
    var message: String?

    var testDescription: String { name }

    static let all: [StreamErrorCase] = [
        StreamErrorCase(
            name: "element that cannot be mapped", document: #"[{"id":0,"name":"a"},{"id":"x","name":"b"}]"#,
            code: .invalidElement, index: 1, offset: 21, failure: 21,
            message: #"cannot decode element 1 at byte 21: cannot map 'StreamItem.id' at 'id': expected an integer, found "x""#),
        StreamErrorCase(
            name: "element that is not valid JSON", document: #"[{"id":0,"name":"a"}, {"id":1,,"name":"b"}]"#,
            code: .invalidElement, index: 1, offset: 22, failure: 30,
            message: "cannot decode element 1 at byte 22: invalid JSON at byte 30 (line 1, column 9 of the element): "
                + "expected a string key, found ','"),
        StreamErrorCase(
            name: "truncated inside an element", document: #"[{"id":0,"name":"a"}, {"id":1,"na"#,
            code: .unexpectedEnd, index: 1, offset: 22, failure: 33,
            message: "unexpected end of input at byte 33 in element 1 at byte 22, expected '\"' to close a string"),
        StreamErrorCase(
            name: "truncated before ']'", document: #"[{"id":0,"name":"a"} "#, code: .unexpectedEnd, index: 1,
            offset: 21, failure: 21,
            message: "unexpected end of input at byte 21, expected ',' or ']' after element 0"),
        StreamErrorCase(
            name: "truncated after an escaped quote", document: #"[{"id":0,"name":"a\"]}"#, code: .unexpectedEnd,
            index: 0, offset: 1, failure: 22),
        StreamErrorCase(
            name: "garbage after ']'", document: #"[{"id":0,"name":"a"}] x"#, code: .unexpectedByte, index: 1,
            offset: 22, failure: 22,
            message: "expected the end of input after the array's closing ']', found 'x' at byte 22"),
        StreamErrorCase(
            name: "missing comma", document: #"[{"id":0,"name":"a"} {"id":1,"name":"b"}]"#, code: .unexpectedByte,
            index: 1, offset: 21, failure: 21, message: "expected ',' or ']' after element 0, found '{' at byte 21"),
        StreamErrorCase(
            name: "trailing comma", document: #"[{"id":0,"name":"a"},]"#, code: .trailingComma, index: 1, offset: 21,
            failure: 21, message: "a trailing comma is not allowed before ']' at byte 21"),
        StreamErrorCase(
            name: "not an array in array mode", document: #" {"id":0}"#, format: .array, code: .unexpectedByte,
            index: 0, offset: 1, failure: 1, message: "expected '[' to start a top-level array, found '{' at byte 1"),
        StreamErrorCase(
            name: "empty in array mode", document: "  ", format: .array, code: .unexpectedEnd, index: 0, offset: 2,
            failure: 2),
        StreamErrorCase(
            name: "NDJSON line that cannot be mapped", document: "{\"id\":0,\"name\":\"a\"}\n\n{\"id\":1,\"name\":2}\n",
            code: .invalidElement, index: 1, offset: 21, failure: 21),
        StreamErrorCase(
            name: "NDJSON line that is not valid JSON", document: "{\"id\":0,\"name\":\"a\"}\r\n{\"id\":1 \"name\":\"b\"}",
            code: .invalidElement, index: 1, offset: 21, failure: 29),
    ]
}

/// `bytes` as an asynchronous sequence of chunks of `size` bytes.
func chunks(_ bytes: [UInt8], _ size: Int) -> AsyncStream<[UInt8]> {
    AsyncStream { continuation in
        for start in stride(from: 0, to: bytes.count, by: size) {
            continuation.yield(Array(bytes[start..<min(start + size, bytes.count)]))
        }
        continuation.finish()
    }
}

/// Every element of a stream, in order.
func collect<S: AsyncSequence>(_ sequence: S) async throws -> [S.Element] {
    var elements: [S.Element] = []
    for try await element in sequence { elements.append(element) }
    return elements
}
