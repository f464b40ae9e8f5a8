// snippet: presence-start
import Foundation
import ModelKit
// snippet: presence-end
import ModelKitTestSupport
import Testing

// The example the Presence article starts from (see `DocumentationArticleTests`): it runs here,
// and what it prints is checked against the comments it shows.

/// Collects the example's prints (outside `ExampleOutput.capture` it prints as usual).
private func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    ExampleOutput.print(items, separator: separator, terminator: terminator)
}

// snippet: presence-start
@Model struct Member {
    var name: String
    var bio: String?
    var age: Int = 0
    @Presence var presence = ModelPresence()
}
// snippet: presence-end

@Suite struct PresenceArticleExampleTests {
    @Test func presence() throws {
        let output = try ExampleOutput.capture {
            // snippet: presence-start
            let created = try Member(jsonString: #"{"name": "Ada", "bio": null}"#)
            print(created.presence["name"])  // value
            print(created.presence["bio"])   // null
            print(created.presence["age"])   // absent

            var member = Member(name: "Ada", bio: "Mathematician", age: 36)
            let given = try member.applyPatch(jsonData: Data(#"{"bio": null, "age": 37}"#.utf8))
            print(member.bio ?? "nil", member.age)  // nil 37
            print(given.givenProperties.sorted())   // ["age", "bio"]
            // snippet: presence-end
        }
        #expect(
            output == DocumentationExamples.commentedOutput(of: try DocumentationExamples.snippet("presence", inFile: #filePath)),
            "printed:\n\(output.joined(separator: "\n"))")
    }
}
