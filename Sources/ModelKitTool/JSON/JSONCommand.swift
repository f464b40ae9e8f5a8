import ArgumentParser
import Foundation
import ModelKit

/// `modelkit json`: work with JSON files.
struct JSONCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "json", abstract: "Check JSON files.", subcommands: [JSONCheckCommand.self])
}

/// `modelkit json check FILE...`: whether each file is valid JSON (RFC 8259).
struct JSONCheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Report whether each file is valid JSON (RFC 8259).",
        discussion: "Stops with exit status 1 at the first invalid file, giving the position and the reason.")

    @Argument(help: "The files to check.")
    var files: [String]

    @Option(help: "The deepest nesting of arrays and objects accepted.")
    var maxDepth = JSONLimits.default.maxDepth

    func run() async throws {
        var limits = JSONLimits.default
        limits.maxDepth = maxDepth
        for file in files {
            let data: Data
            do {
                data = try Data(contentsOf: URL(fileURLWithPath: file))
            } catch {
                printError("\(file): cannot read the file: \(error.localizedDescription)")
                throw ExitCode.failure
            }
            do {
                try data.withUnsafeBytes { try JSONValidator.validate($0, limits: limits) }
                print("\(file): valid JSON (\(data.count) bytes)")
            } catch {
                printError("\(file): \(error)")
                throw ExitCode.failure
            }
        }
    }
}
