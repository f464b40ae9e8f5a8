import ArgumentParser
import Foundation
import ModelKitGenerator

/// `modelkit generate [FILE] [--root NAME]`: `@Model` declarations for a sample JSON payload.
struct GenerateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Print @Model declarations that map a sample JSON payload.",
        discussion: """
            Reads the payload from FILE, or from standard input when FILE is omitted or '-'. The top \
            level must be an object or an array of objects. Stops with exit status 1 when the input \
            cannot be read or is not JSON, giving the reason.
            """)

    @Argument(help: "The JSON file to read ('-' or nothing for standard input).")
    var file: String?

    @Option(help: "The name of the top-level model.")
    var root = "Root"

    func run() async throws {
        try ToolFailure.reporting {
            let (data, source) = try readInput()
            do {
                print(try ModelGenerator(rootName: root).generate(fromJSON: data), terminator: "")
            } catch let error as GeneratorError {
                throw error
            } catch {
                throw ToolFailure("\(source): \(error)")
            }
        }
    }

    /// The payload's bytes, and how errors name where they came from.
    private func readInput() throws -> (Data, String) {
        guard let file, file != "-" else {
            return (FileHandle.standardInput.readDataToEndOfFile(), "standard input")
        }
        do {
            return (try Data(contentsOf: URL(fileURLWithPath: file)), "'\(file)'")
        } catch {
            throw ToolFailure("cannot read '\(file)': \(ToolFailure.reason(error))")
        }
    }
}
