// snippet: json-schema-start
import Foundation
import ModelKit
// snippet: json-schema-end
import ModelKitTestSupport
import Testing

// The example the JSON Schema article starts from (see `DocumentationArticleTests`): it runs
// here, and what it prints is checked against the comments it shows.

/// Collects the example's prints (outside `ExampleOutput.capture` it prints as usual).
private func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    ExampleOutput.print(items, separator: separator, terminator: terminator)
}

// snippet: json-schema-start
@Model(keys: .snakeCase)
struct Ticket {
    @Key("id", "ticket_id") var id: Int
    var title: String
    @Key("meta.labels") var labels: [String] = []
    @Transform(.dateFormat("yyyy-MM-dd")) var dueOn: Date?
}
// snippet: json-schema-end

@Suite struct JSONSchemaArticleExampleTests {
    @Test func jsonSchema() throws {
        let output = try ExampleOutput.capture {
            // snippet: json-schema-start
            let schema = Ticket.jsonSchema                       // JSON Schema, draft 2020-12
            print(try schema["required"]?.jsonString() ?? "-")   // ["title"]
            let labels = schema["properties"]?["meta"]?["properties"]?["labels"]
            print(try labels?.jsonString() ?? "-")                // {"type":"array","items":{"type":"string"},"default":[]}
            print(try schema["allOf"]?.jsonString() ?? "-")      // [{"anyOf":[{"required":["id"]},{"required":["ticket_id"]}]}]
            print(try schema.jsonString(options: [.prettyPrinted]).count > 500)  // true
            // snippet: json-schema-end
        }
        #expect(
            output == DocumentationExamples.commentedOutput(of: try DocumentationExamples.snippet("json-schema", inFile: #filePath)),
            "printed:\n\(output.joined(separator: "\n"))")
    }
}
