// snippet: enums-start
import Foundation
import ModelKit
// snippet: enums-end
import ModelKitTestSupport
import Testing

// The example the Enums article starts from (see `DocumentationArticleTests`): it runs here, and
// what it prints is checked against the comments it shows.

/// Collects the example's prints (outside `ExampleOutput.capture` it prints as usual).
private func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    ExampleOutput.print(items, separator: separator, terminator: terminator)
}

// snippet: enums-start
@Model struct Mention {
    var user: String
}

@Model(tag: "type") enum Notification {
    case mention(Mention)                  // {"type": "mention", "user": "ada"}
    case follow(from: String, at: Date?)   // {"type": "follow", "from": "alan"}
    @Key("sys") case maintenance           // {"type": "sys"}
    @UnknownCase case other(JSONValue)     // any other type, kept as it came
}
// snippet: enums-end

@Suite struct EnumArticleExampleTests {
    @Test func enums() throws {
        let output = try ExampleOutput.capture {
            // snippet: enums-start
            let json = #"""
                [{"type": "mention", "user": "ada"}, {"from": "alan", "type": "follow"},
                 {"type": "sys"}, {"type": "badge", "level": 3}]
                """#
            let notifications = try ModelJSON.decode([Notification].self, from: Data(json.utf8))
            if case .follow(let from, _) = notifications[1] {
                print(from)  // alan
            }
            if case .other(let badge) = notifications[3] {
                print(try badge.jsonString())  // {"type":"badge","level":3}
            }
            print(String(decoding: try ModelJSON.encode(notifications[2]), as: UTF8.self))  // {"type":"sys"}
            do {
                _ = try ModelJSON.decode([Notification].self, from: Data(#"[{"type": "mention"}]"#.utf8))
            } catch {
                print(error)  // cannot map 'Mention.user' at '[0].user': missing key
            }
            // snippet: enums-end
        }
        #expect(
            output == DocumentationExamples.commentedOutput(of: try DocumentationExamples.snippet("enums", inFile: #filePath)),
            "printed:\n\(output.joined(separator: "\n"))")
    }
}
