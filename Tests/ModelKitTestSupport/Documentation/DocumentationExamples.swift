import Foundation

/// The examples the DocC articles start from, as the tests run them.
///
/// An example lives in a test source between `// snippet: NAME-start` and
/// `// snippet: NAME-end` comments; several such segments (the declarations at file scope, the
/// calls inside the test) make one example, joined by a blank line, each without its common
/// indentation. Segments of several examples may nest (examples that share their imports): an
/// example leaves out the other examples' markers. An article's or a reference page's first
/// `swift` code block must be that text, word for word, and each `print` in it ends with a
/// comment showing what it prints:
///
/// ```swift
/// let output = try ExampleOutput.capture {
///     // snippet: archives-start
///     print(notes.count)  // 2
///     // snippet: archives-end
/// }
/// expectEqual(output, DocumentationExamples.commentedOutput(of: try DocumentationExamples.snippet("archives", inFile: #filePath)))
/// ```
public enum DocumentationExamples {
    /// The package's root: the nearest folder above `filePath` that holds `Package.swift`.
    public static func packageRoot(from filePath: String = #filePath) -> URL {
        var directory = URL(fileURLWithPath: filePath).deletingLastPathComponent()
        while directory.path != "/" {
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
                return directory
            }
            directory = directory.deletingLastPathComponent()
        }
        return directory
    }

    /// The DocC catalogue of the `ModelKit` module.
    public static var catalogue: URL {
        catalogue(of: "ModelKit")
    }

    /// The DocC catalogue of `module`: `Sources/MODULE/MODULE.docc`.
    public static func catalogue(of module: String) -> URL {
        packageRoot().appendingPathComponent("Sources/\(module)/\(module).docc")
    }

    /// The Markdown pages of every DocC catalogue in the package (`Sources/*/*.docc`, folders
    /// included), relative to the package: `Sources/ModelKitStore/ModelKitStore.docc/KeyPath.md`.
    public static func cataloguePages() throws -> [String] {
        let root = packageRoot()
        let files = FileManager.default
        var pages: [String] = []
        for module in try files.contentsOfDirectory(atPath: root.appendingPathComponent("Sources").path) {
            let sources = "Sources/" + module
            for folder in try files.contentsOfDirectory(atPath: root.appendingPathComponent(sources).path)
            where folder.hasSuffix(".docc") {
                let catalogue = sources + "/" + folder
                let contents = try files.subpathsOfDirectory(atPath: root.appendingPathComponent(catalogue).path)
                pages += contents.filter { $0.hasSuffix(".md") }.map { catalogue + "/" + $0 }
            }
        }
        return pages.sorted()
    }

    /// The example `name` in the source file at `path`: every marked segment, each without its
    /// common indentation, joined by a blank line.
    public static func snippet(_ name: String, inFile path: String) throws -> String {
        try snippet(name, in: String(contentsOfFile: path, encoding: .utf8))
    }

    /// The example `name` in `source`.
    public static func snippet(_ name: String, in source: String) throws -> String {
        let start = "// snippet: \(name)-start"
        let end = "// snippet: \(name)-end"
        var segments: [[Substring]] = []
        var current: [Substring]?
        for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed == start {
                guard current == nil else { throw SnippetError("snippet '\(name)' starts twice without an end") }
                current = []
            } else if trimmed == end {
                guard let lines = current else { throw SnippetError("snippet '\(name)' ends without a start") }
                segments.append(lines)
                current = nil
            } else if current != nil && !isMarker(trimmed) {
                current?.append(line)
            }
        }
        guard current == nil else { throw SnippetError("snippet '\(name)' has no end") }
        guard !segments.isEmpty else { throw SnippetError("no snippet '\(name)'") }
        return segments.map(dedent).joined(separator: "\n\n")
    }

    /// Whether a trimmed line marks where some example's segment starts or ends.
    static func isMarker(_ trimmed: String) -> Bool {
        trimmed.hasPrefix("// snippet: ") && (trimmed.hasSuffix("-start") || trimmed.hasSuffix("-end"))
    }

    /// Lines without the indentation they all share (blank lines do not count), and without
    /// blank lines at either end.
    static func dedent(_ lines: [Substring]) -> String {
        var lines = lines.map { $0.allSatisfy(\.isWhitespace) ? "" : String($0) }
        while lines.first == "" { lines.removeFirst() }
        while lines.last == "" { lines.removeLast() }
        let indent = lines.filter { !$0.isEmpty }.map { $0.prefix { $0 == " " }.count }.min() ?? 0
        return lines.map { $0.isEmpty ? $0 : String($0.dropFirst(indent)) }.joined(separator: "\n")
    }

    /// The first fenced code block of `language` in a Markdown text, without its fences.
    public static func firstCodeBlock(_ language: String, in markdown: String) -> String? {
        codeBlocks(language, in: markdown).first
    }

    /// The fenced code blocks of `language` in a Markdown text, in order, without their fences
    /// (a fence starts its line; one that is not closed ends no block).
    public static func codeBlocks(_ language: String, in markdown: String) -> [String] {
        var blocks: [String] = []
        var block: [Substring]?
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if block == nil {
                if line == "```\(language)" { block = [] }
            } else if line == "```" {
                blocks.append(block?.joined(separator: "\n") ?? "")
                block = nil
            } else {
                block?.append(line)
            }
        }
        return blocks
    }

    /// What an example says it prints: the comment after each `print(...)` line, in order; an
    /// uncommented print gives `"(no comment)"`, which no output matches.
    public static func commentedOutput(of snippet: String) -> [String] {
        snippet.split(separator: "\n").compactMap { line -> String? in
            guard line.trimmingCharacters(in: .whitespaces).hasPrefix("print(") else { return nil }
            guard let comment = line.range(of: "  // ", options: .backwards) else { return "(no comment)" }
            return String(line[comment.upperBound...])
        }
    }
}

/// A malformed snippet: its markers do not pair.
public struct SnippetError: Error, CustomStringConvertible {
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}

/// What an example prints, one entry per `print` call, collected per task.
///
/// An example's file declares a `print` that shadows the standard one and calls
/// ``print(_:separator:terminator:)``; outside ``capture(_:)`` it prints as usual.
public final class ExampleOutput: @unchecked Sendable {
    // @unchecked: `printed` is guarded by `lock`.
    @TaskLocal public static var current: ExampleOutput?

    private let lock = NSLock()
    private var printed: [String] = []

    init() {}

    /// Prints the items to the current output, if one is collecting, or to standard output.
    public static func print(_ items: [Any], separator: String, terminator: String) {
        let text = items.map { "\($0)" }.joined(separator: separator)
        guard let output = current else {
            Swift.print(text, terminator: terminator)
            return
        }
        output.lock.withLock { output.printed.append(text) }
    }

    /// Runs `body`, returning what it printed, one entry per `print` call.
    public static func capture(_ body: () throws -> Void) rethrows -> [String] {
        let output = ExampleOutput()
        try $current.withValue(output) { try body() }
        return output.lock.withLock { output.printed }
    }

    /// Runs `body`, returning what it printed, one entry per `print` call.
    public static func capture(_ body: () async throws -> Void) async rethrows -> [String] {
        let output = ExampleOutput()
        try await $current.withValue(output) { try await body() }
        return output.lock.withLock { output.printed }
    }
}
