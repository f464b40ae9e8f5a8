import Foundation
import ModelKitTestSupport

/// Runs the built `modelkit` tool, the way a person would from a shell.
struct ToolProcess {
    /// What a run printed and how it ended.
    struct Result {
        var status: Int32
        var output: String
        var errorOutput: String
    }

    /// Runs `modelkit` with `arguments` and waits for it to end.
    static func run(_ arguments: [String]) throws -> Result {
        let process = Process()
        (process.executableURL, process.arguments) = try ModelKitToolLocation.invocation(arguments)
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let outData = output.fileHandleForReading.readDataToEndOfFile()
        let errData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, output: String(decoding: outData, as: UTF8.self),
            errorOutput: String(decoding: errData, as: UTF8.self))
    }

    /// A file in a new temporary directory holding `contents`.
    static func temporaryFile(_ name: String, _ contents: String) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("modelkit-tool-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent(name)
        try Data(contents.utf8).write(to: url)
        return url
    }
}
