// snippet: generic-models-start
import Foundation
import ModelKit
// snippet: generic-models-end
import ModelKitTestSupport
import Testing

// The example the Generic models article starts from (see `DocumentationArticleTests`): it runs
// here, and what it prints is checked against the comments it shows.

/// Collects the example's prints (outside `ExampleOutput.capture` it prints as usual).
private func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    ExampleOutput.print(items, separator: separator, terminator: terminator)
}

// snippet: generic-models-start
@Model struct Listing<Item: ModelValue> {
    var items: [Item]
    @Key("paging.next") var next: URL?
}

@Model struct Tune {
    var title: String
}
// snippet: generic-models-end

@Suite struct GenericModelArticleExampleTests {
    @Test func genericModels() throws {
        let output = try ExampleOutput.capture {
            // snippet: generic-models-start
            let json = #"{"items": [{"title": "Blue"}], "paging": {"next": "/tunes?page=2"}}"#
            let tunes = try Listing<Tune>(jsonString: json)
            print(tunes.items[0].title, tunes.next?.relativeString ?? "-")  // Blue /tunes?page=2
            print(Listing<Tune>.modelSchema.modelName)                      // Listing<Tune>

            let tags = try Listing<String>(jsonString: #"{"items": ["a", "b"]}"#)
            print(tags.items)                                               // ["a", "b"]
            do {
                _ = try Listing<Tune>(jsonString: #"{"items": [{"name": "Blue"}]}"#)
            } catch {
                print(error)  // cannot map 'Tune.title' at 'items[0].title': missing key
            }
            // snippet: generic-models-end
        }
        #expect(
            output == DocumentationExamples.commentedOutput(of: try DocumentationExamples.snippet("generic-models", inFile: #filePath)),
            "printed:\n\(output.joined(separator: "\n"))")
    }
}
