// snippet: reference-preferences-start
import Foundation
import ModelKitPreferences
// snippet: reference-preferences-end
import ModelKitTestSupport
import Testing

// The example ModelKitPreferences' reference page starts from (see `DocumentationArticleTests`):
// it runs here, on a temporary file, and what it prints is checked against the comments it shows.

/// Collects the example's prints (outside `ExampleOutput.capture` it prints as usual).
private func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    ExampleOutput.print(items, separator: separator, terminator: terminator)
}

// snippet: reference-preferences-start
extension Preferences.Keys {
    static let tabWidth = Key<Int>("tabWidth", default: 4)
}
// snippet: reference-preferences-end

@Suite struct PreferencesReferenceExampleTests {
    @Test func preferences() async throws {
        let output = try await ExampleOutput.capture {
            // snippet: reference-preferences-start
            // Without `file:`, ~/.config/com.example.editor/preferences.json on Linux
            let file = URL(fileURLWithPath: NSTemporaryDirectory() + "editor-\(UUID()).json")
            let prefs = try Preferences(name: "com.example.editor", file: file)
            var widths = prefs.changes(of: .tabWidth).makeAsyncIterator()
            prefs[.tabWidth] = 2                    // in memory at once, saved shortly
            try prefs.flush()                       // saved now
            print(await widths.next() ?? 0)  // 2
            print(try Preferences(file: file)[.tabWidth])  // 2
            // snippet: reference-preferences-end
            try? FileManager.default.removeItem(at: file)
        }
        #expect(
            output == DocumentationExamples.commentedOutput(of: try DocumentationExamples.snippet("reference-preferences", inFile: #filePath)),
            "printed:\n\(output.joined(separator: "\n"))")
    }
}
