// snippet: reference-archive-start
import ModelKit
// snippet: reference-archive-end
import ModelKitTestSupport
import Testing

// The example ModelKitArchive's reference page starts from (see `DocumentationArticleTests`): it
// runs here, and what it prints is checked against the comments it shows.

/// Collects the example's prints (outside `ExampleOutput.capture` it prints as usual).
private func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    ExampleOutput.print(items, separator: separator, terminator: terminator)
}

// snippet: reference-archive-start
@Model final class Shelf {
    var name: String
    var books: [String] = []
}
// snippet: reference-archive-end

@Suite struct ArchiveReferenceExampleTests {
    @Test func archive() throws {
        let output = try ExampleOutput.capture {
            // snippet: reference-archive-start
            let shelf = Shelf(name: "Fiction", books: ["Emma", "Persuasion"])
            let data = try KeyedArchiver.archivedData(withRootObject: shelf)   // binary, as NSKeyedArchiver writes
            let copy = try KeyedUnarchiver.unarchive(Shelf.self, from: data)
            print(copy.name, copy.books)  // Fiction ["Emma", "Persuasion"]
            let document = try KeyedArchiveDocument(data: data)                // any keyed archive, checked
            print(document.topKeys)  // ["root"]
            // snippet: reference-archive-end
        }
        #expect(
            output == DocumentationExamples.commentedOutput(of: try DocumentationExamples.snippet("reference-archive", inFile: #filePath)),
            "printed:\n\(output.joined(separator: "\n"))")
    }
}
