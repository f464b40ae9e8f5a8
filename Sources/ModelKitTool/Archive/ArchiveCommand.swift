import ArgumentParser
import Foundation
import ModelKit

/// `modelkit archive`: inspect and convert keyed archives (Apple's `NSKeyedArchiver` format).
struct ArchiveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "archive", abstract: "Inspect and convert keyed archives (NSKeyedArchiver format).",
        subcommands: [ArchiveDumpCommand.self, ArchiveConvertCommand.self])
}

/// `modelkit archive dump FILE [--format text|json]`: prints any keyed archive.
struct ArchiveDumpCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dump",
        abstract: "Print a keyed archive as an indented tree or as JSON.",
        discussion: """
            The tree shows class names, keys and values; an object referenced more than once is \
            marked shared, and later references point back to its number. JSON prints objects as \
            {"$class": name, key: value, ...}, a second reference as {"$ref": n}, and data as base64.
            """)

    /// How to print.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text
        case json
    }

    @Argument(help: "A keyed archive: a binary or XML property list.")
    var file: String

    @Option(name: .long, help: "text (an indented tree) or json.")
    var format: Format = .text

    func run() async throws {
        try ToolFailure.reporting {
            let document = try ArchiveTool.readDocument(at: file)
            let output = format == .json ? try ArchiveDump.json(document) : try ArchiveDump.text(document)
            FileHandle.standardOutput.write(Data(output.utf8))
        }
    }
}

/// `modelkit archive convert FILE --to xml|binary -o OUT`: rewrites an archive in the other
/// property-list format.
struct ArchiveConvertCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert", abstract: "Rewrite a keyed archive as a binary or XML property list.")

    /// The property-list format to write.
    enum Target: String, ExpressibleByArgument, CaseIterable {
        case xml
        case binary
    }

    @Argument(help: "A keyed archive: a binary or XML property list.")
    var file: String

    @Option(name: .long, help: "The format to write: xml or binary.")
    var to: Target

    @Option(name: .shortAndLong, help: "The file to write.")
    var output: String

    func run() async throws {
        try ToolFailure.reporting {
            let document = try ArchiveTool.readDocument(at: file)
            let data: Data
            switch to {
            case .binary:
                data = document.propertyList.binaryData()
            case .xml:
                do {
                    data = try document.propertyList.xmlData()
                } catch let error as PropertyListError {
                    throw ToolFailure("cannot write '\(output)' as xml: \(error.kind.message)")
                }
            }
            do {
                try data.write(to: URL(fileURLWithPath: output))
            } catch {
                throw ToolFailure("cannot write '\(output)': \(ToolFailure.reason(error))")
            }
        }
    }
}
