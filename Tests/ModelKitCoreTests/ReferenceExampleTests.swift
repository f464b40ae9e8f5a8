// snippet: reference-core-start
import ModelKit
// snippet: reference-core-end
import ModelKitTestSupport
import Testing

// The example ModelKitCore's reference page starts from (see `DocumentationArticleTests`): it
// runs here, and what it prints is checked against the comments it shows.

/// Collects the example's prints (outside `ExampleOutput.capture` it prints as usual).
private func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    ExampleOutput.print(items, separator: separator, terminator: terminator)
}

// snippet: reference-core-start
@Model(keys: .snakeCase)
struct Novel {
    var title: String
    @Key("author.name", "author_name") var author: String   // a nested path, then a fallback
    var pageCount: Int = 0                                   // missing: the initial value
}
// snippet: reference-core-end

@Suite struct CoreReferenceExampleTests {
    @Test func core() throws {
        let output = try ExampleOutput.capture {
            // snippet: reference-core-start
            let emma = try Novel(json: ["title": "Emma", "author": ["name": "Jane Austen"], "page_count": 474])
            let persuasion = try Novel(json: ["title": "Persuasion", "author_name": "Jane Austen"])
            print(emma.author, emma.pageCount)  // Jane Austen 474
            print(persuasion.author, persuasion.pageCount)  // Jane Austen 0
            print(Novel.modelSchema.propertyKeys)  // ["title", "author", "pageCount"]
            // snippet: reference-core-end
        }
        #expect(
            output == DocumentationExamples.commentedOutput(of: try DocumentationExamples.snippet("reference-core", inFile: #filePath)),
            "printed:\n\(output.joined(separator: "\n"))")
    }
}
