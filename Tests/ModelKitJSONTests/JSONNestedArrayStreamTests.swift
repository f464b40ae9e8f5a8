import Foundation
import ModelKit
import ModelKitJSON
import ModelKitTestSupport
import Testing

/// Streaming an array inside an envelope (`.nestedArray(at: "data.items")`): the members around
/// it are checked and skipped at every chunk size, and what is wrong is an error with its offset.
@Suite struct JSONNestedArrayStreamTests {
    /// An envelope whose skipped members hold every byte that could be taken for structure or for
    /// the path's keys: a decoy `items` outside `data`, escaped quotes in keys and strings,
    /// nested arrays and objects, scalars ending at `}` and `,`.
    static let envelope = #"""
        { "meta": {"items": [{"id": 99, "name": "decoy"}], "note": "a \"}\" ], {", "k\"ey": [1, [2, {"x": "]"}]]},
          "count": 5 , "ok" : true,
          "data" : { "next" : null, "items" : [
        """# + JSONElementStreamTests.elements.joined(separator: ",\n ") + #"""
         ], "total": 5.0e0, "tail": {"items": []} },
          "after": "\\" }
        """#

    @Test func everyChunkSizeGivesTheNestedArraysModels() async throws {
        let expected = try JSONElementStreamTests.expected()
        let bytes = Array(Self.envelope.utf8)
        for size in 1...bytes.count {
            let items = try await collect(
                ModelJSON.elements(of: StreamItem.self, fromChunks: chunks(bytes, size), format: .nestedArray(at: "data.items")))
            #expect(items == expected, "chunk size \(size)")
        }
    }

    @Test func aFileStreamsSynchronouslyToo() throws {
        let directory = try TemporaryDirectory()
        let url = try directory.file("envelope.json", contents: Self.envelope)
        var items: [StreamItem] = []
        let count = try ModelJSON.forEachElement(StreamItem.self, in: url, format: .nestedArray(at: "data.items"), chunkSize: 7) {
            items.append($0)
        }
        #expect(count == 5)
        #expect(items == (try JSONElementStreamTests.expected()))
    }

    @Test(arguments: [
        (#"{"items": []}"#, "items"), (#" {"a": 1, "items" : [ ] } "#, "items"), (#"{"d": {"e": {"f": []}}}"#, "d.e.f"),
    ])
    func emptyNestedArraysHaveNoElements(document: String, keyPath: String) async throws {
        let items = try await collect(
            ModelJSON.elements(of: StreamItem.self, fromChunks: chunks(Array(document.utf8), 3), format: .nestedArray(at: keyPath)))
        #expect(items.isEmpty)
    }

    /// A malformed envelope, and what the error says.
    struct ErrorCase: Sendable, CustomTestStringConvertible {
        let name: String
        let document: String
        let keyPath: String
        let code: JSONStreamError.Kind
        let message: String
        var testDescription: String { name }
    }

    static let errors: [ErrorCase] = [
        ErrorCase(
            name: "no such key", document: #"{"data": {"list": []}}"#, keyPath: "data.items", code: .unexpectedByte,
            message: "expected 'items' in the envelope before '}', found '}' at byte 20"),
        ErrorCase(
            name: "not an array", document: #"{"data": {"items": null}}"#, keyPath: "data.items", code: .unexpectedByte,
            message: "expected '[' to start the array at 'items', found 'n' at byte 19"),
        ErrorCase(
            name: "not an object", document: #"{"data": [1]}"#, keyPath: "data.items", code: .unexpectedByte,
            message: "expected '{' to start the object at 'data', found '[' at byte 9"),
        ErrorCase(
            name: "not an envelope", document: #"[{"id": 1}]"#, keyPath: "items", code: .unexpectedByte,
            message: "expected '{' to start the envelope, found '[' at byte 0"),
        ErrorCase(
            name: "missing colon", document: #"{"data" {"items": []}}"#, keyPath: "data.items", code: .unexpectedByte,
            message: "expected ':' after a key of the envelope, found '{' at byte 8"),
        ErrorCase(
            name: "missing comma", document: #"{"a": 1 "items": []}"#, keyPath: "items", code: .unexpectedByte,
            message: "expected ',' or '}' after a member of the envelope, found '\"' at byte 8"),
        ErrorCase(
            name: "truncated after the array", document: #"{"items": [], "more": [1, 2"#, keyPath: "items", code: .unexpectedEnd,
            message: "unexpected end of input at byte 27, expected the end of the value of a member"),
        ErrorCase(
            name: "unclosed envelope", document: #"{"items": []"#, keyPath: "items", code: .unexpectedEnd,
            message: "unexpected end of input at byte 12, expected '}' to close the envelope"),
        ErrorCase(
            name: "garbage after the envelope", document: #"{"items": []} x"#, keyPath: "items", code: .unexpectedByte,
            message: "expected the end of input after the array's closing ']', found 'x' at byte 14"),
    ]

    @Test(arguments: errors)
    func aMalformedEnvelopeIsAnErrorAtItsByte(_ errorCase: ErrorCase) async throws {
        for size in [1, 4, 65_536] {
            let stream = ModelJSON.elements(
                of: StreamItem.self, fromChunks: chunks(Array(errorCase.document.utf8), size), format: .nestedArray(at: errorCase.keyPath))
            let error = await #expect(throws: JSONStreamError.self) { _ = try await collect(stream) }
            #expect(error?.kind == errorCase.code, "chunk size \(size)")
            #expect(error?.description == errorCase.message, "chunk size \(size)")
        }
    }
}
