// snippet: reference-json-start
import Foundation
import ModelKit
// snippet: reference-json-end
import ModelKitTestSupport
import Testing

// The example ModelKitJSON's reference page starts from (see `DocumentationArticleTests`): it
// runs here, and what it prints is checked against the comments it shows.

/// Collects the example's prints (outside `ExampleOutput.capture` it prints as usual).
private func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    ExampleOutput.print(items, separator: separator, terminator: terminator)
}

// snippet: reference-json-start
@Model struct Song {
    var title: String
    var seconds: Int = 0
}
// snippet: reference-json-end

@Suite struct JSONReferenceExampleTests {
    @Test func json() async throws {
        let output = try await ExampleOutput.capture {
            // snippet: reference-json-start
            let data = Data(#"{"title": "So What", "seconds": 562, "tags": ["modal"]}"#.utf8)
            let song = try Song(jsonData: data)                      // bytes straight into the model
            print(String(decoding: try song.jsonData(), as: UTF8.self))  // {"title":"So What","seconds":562}
            let tree = try JSONValue(parsing: data)                  // any JSON document, as a tree
            print(try tree["tags"]?.jsonString() ?? "-")  // ["modal"]

            let export = URL(fileURLWithPath: NSTemporaryDirectory() + "songs-\(UUID()).ndjson")
            try Data(#"{"title": "Blue in Green"}\#n{"title": "Flamenco Sketches"}\#n"#.utf8).write(to: export)
            var titles: [String] = []
            for try await track in ModelJSON.elements(of: Song.self, in: export) {
                titles.append(track.title)                           // an array or NDJSON file, one at a time
            }
            print(titles)  // ["Blue in Green", "Flamenco Sketches"]
            // snippet: reference-json-end
            try? FileManager.default.removeItem(at: export)
        }
        #expect(
            output == DocumentationExamples.commentedOutput(of: try DocumentationExamples.snippet("reference-json", inFile: #filePath)),
            "printed:\n\(output.joined(separator: "\n"))")
    }
}
