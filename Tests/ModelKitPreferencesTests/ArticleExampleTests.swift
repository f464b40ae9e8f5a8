// snippet: preferences-start
import Foundation
import ModelKit
import ModelKitPreferences
// snippet: preferences-end
import ModelKitTestSupport
import Testing

// The example the preferences article starts from (see `DocumentationArticleTests`): it runs
// here, and what it prints is checked against the comments it shows.

/// Collects the example's prints (outside `ExampleOutput.capture` it prints as usual).
private func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    ExampleOutput.print(items, separator: separator, terminator: terminator)
}

// snippet: preferences-start
extension Preferences.Keys {
    static let fontScale = Key<Double>("fontScale", default: 1.0)
    static let recentDocuments = Key<[String]>("recentDocuments", default: [])
}

@Model struct EditorSettings {
    var fontScale: Double = 1.0
    var theme: String = "light"
    var wrapsLines = true
}
// snippet: preferences-end

@Suite struct PreferencesArticleExampleTests {
    @Test func preferences() throws {
        let output = try ExampleOutput.capture {
            // snippet: preferences-start
            // Preferences(name: "com.example.editor") lives in ~/.config/com.example.editor/preferences.json
            let file = URL(fileURLWithPath: NSTemporaryDirectory() + "editor-\(UUID()).json")
            let prefs = try Preferences(name: "com.example.editor", file: file)
            print(prefs[.fontScale])  // 1.0
            prefs[.fontScale] = 1.25                                  // in memory at once, saved shortly
            prefs[.recentDocuments] = ["/tmp/notes.md"]
            try prefs.update(EditorSettings.self) { $0.theme = "dark" }   // only 'theme' is written
            try prefs.flush()                                         // saved now

            let reopened = try Preferences(file: file)                // another instance, or another process
            print(reopened[.fontScale], reopened[.recentDocuments])  // 1.25 ["/tmp/notes.md"]
            print(try reopened.read(EditorSettings.self))  // EditorSettings(fontScale: 1.25, theme: "dark", wrapsLines: true)
            print(try reopened.allValues().keys.sorted())  // ["fontScale", "recentDocuments", "theme"]
            // snippet: preferences-end
            try? FileManager.default.removeItem(at: file)
        }
        #expect(output == DocumentationExamples.commentedOutput(of: try DocumentationExamples.snippet("preferences", inFile: #filePath)), "printed:\n\(output.joined(separator: "\n"))")
    }
}
