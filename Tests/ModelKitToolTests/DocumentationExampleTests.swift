import Foundation
import ModelKit
import ModelKitTestSupport
import Testing

/// The command-line tool article's transcript, run as written: every `$ ` line runs in a shell
/// in a new directory, with the built `modelkit` first on `PATH`, and what it prints (standard
/// output and error) must be the lines that follow it, up to the next command.
@Suite struct ToolArticleExampleTests {
    @Test func theTranscriptRunsAsShown() throws {
        let article = DocumentationExamples.catalogue.appendingPathComponent("CommandLineTool.md")
        let markdown = try String(contentsOf: article, encoding: .utf8)
        let transcript = try #require(DocumentationExamples.firstCodeBlock("sh", in: markdown), "no sh block in the article")
        let steps = Self.steps(of: transcript)
        #expect(steps.count >= 5)

        let directory = try TemporaryDirectory()
        // The archive the keyed archives article's example writes (its models are below).
        try Self.boardArchive().write(to: directory.file("board.archive"))
        let tool = try ModelKitToolLocation.executable()
        for step in steps {
            let printed = try Self.runShell(step.command, in: directory.url, toolDirectory: tool.deletingLastPathComponent())
            #expect(printed == step.output, "\(step.command)")
        }
    }

    /// The commands of a transcript and the output shown after each.
    static func steps(of transcript: String) -> [(command: String, output: String)] {
        var steps: [(command: String, output: [Substring])] = []
        for line in transcript.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("$ ") {
                steps.append((String(line.dropFirst(2)), []))
            } else if !steps.isEmpty {
                steps[steps.count - 1].output.append(line)
            }
        }
        return steps.map { ($0.command, $0.output.joined(separator: "\n")) }
    }

    /// Runs `command` with bash in `directory`; returns standard output and error together,
    /// without the last newline.
    static func runShell(_ command: String, in directory: URL, toolDirectory: URL) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", command]
        process.currentDirectoryURL = directory
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = toolDirectory.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        var text = String(decoding: data, as: UTF8.self)
        if text.hasSuffix("\n") { text.removeLast() }
        return text
    }

    /// The board of the keyed archives article's example, archived.
    static func boardArchive() throws -> Data {
        let board = Board(title: "Launch")
        let design = Card(text: "design")
        let build = Card(text: "build")
        build.related = [design]
        board.cards = [design, build]
        for card in board.cards { card.board = board }
        return try KeyedArchiver.archivedData(withRootObject: board)
    }
}

// The keyed archives article's models.

@Model final class Board {
    var title: String
    var cards: [Card] = []
    @Transient var isOpen = false

    init(title: String) { self.title = title }
}

@Model final class Card {
    var text: String
    weak var board: Board?
    var related: [Card] = []

    init(text: String) { self.text = text }
}
