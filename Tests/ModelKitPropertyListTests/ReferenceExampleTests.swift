// snippet: reference-propertylist-start
import Foundation
import ModelKitPropertyList
// snippet: reference-propertylist-end
import ModelKitTestSupport
import Testing

// The example ModelKitPropertyList's reference page starts from (see `DocumentationArticleTests`):
// it runs here, and what it prints is checked against the comments it shows.

/// Collects the example's prints (outside `ExampleOutput.capture` it prints as usual).
private func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    ExampleOutput.print(items, separator: separator, terminator: terminator)
}

@Suite struct PropertyListReferenceExampleTests {
    @Test func propertyList() throws {
        let output = try ExampleOutput.capture {
            // snippet: reference-propertylist-start
            let url = URL(fileURLWithPath: NSTemporaryDirectory() + "Info-\(UUID()).plist")
            let info: PropertyListValue = ["CFBundleIdentifier": "com.example.app", "CFBundleVersion": "42"]
            try info.xmlData().write(to: url)                                 // XML, as Apple writes it

            let value = try PropertyListValue(parsing: Data(contentsOf: url))   // binary or XML
            print(value["CFBundleIdentifier"]?.stringValue ?? "-")  // com.example.app
            let binary = value.binaryData()
            print(PropertyListFormat.detect(binary), try PropertyListValue(parsing: binary) == info)  // binary true
            // snippet: reference-propertylist-end
            try? FileManager.default.removeItem(at: url)
        }
        #expect(
            output == DocumentationExamples.commentedOutput(of: try DocumentationExamples.snippet("reference-propertylist", inFile: #filePath)),
            "printed:\n\(output.joined(separator: "\n"))")
    }
}
