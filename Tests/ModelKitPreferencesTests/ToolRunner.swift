import Foundation
import ModelKitTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The outcome of one run of the `modelkit` tool.
struct ToolResult: Sendable {
    var status: Int32
    var output: String
    var errorOutput: String
    var wasKilled: Bool
}

/// Runs the built `modelkit` tool (found by `ModelKitToolLocation`) as another process.
enum ModelKitTool {
    /// Starts the tool without waiting for it.
    static func start(_ arguments: [String], environment: [String: String]? = nil) throws -> RunningTool {
        let process = Process()
        (process.executableURL, process.arguments) = try ModelKitToolLocation.invocation(arguments)
        if let environment { process.environment = environment }
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        return RunningTool(process: process, output: output, errors: errors)
    }

    /// Runs the tool to completion.
    static func run(_ arguments: [String], environment: [String: String]? = nil) async throws -> ToolResult {
        try await start(arguments, environment: environment).finish()
    }

    /// Runs the tool to completion with files limited to `blocks` blocks of 512 bytes and
    /// SIGXFSZ ignored, so a write past the limit fails as on a full disk.
    static func run(_ arguments: [String], fileSizeLimit blocks: Int) async throws -> ToolResult {
        let process = Process()
        (process.executableURL, process.arguments) = try ModelKitToolLocation.invocation(arguments, fileSizeLimit: blocks)
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        return await RunningTool(process: process, output: output, errors: errors).finish()
    }
}

/// A started tool process.
struct RunningTool: @unchecked Sendable {
    // @unchecked: Process and Pipe are used from one task at a time.
    let process: Process
    let output: Pipe
    let errors: Pipe

    var processIdentifier: Int32 { process.processIdentifier }

    /// Sends SIGKILL.
    func kill() {
        _ = sendSignal(SIGKILL, to: process.processIdentifier)
    }

    /// Waits for the process to end (off the cooperative thread pool, since waiting blocks)
    /// and collects its output.
    func finish() async -> ToolResult {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                // Read both pipes at once, so a child filling one cannot block on it.
                let errorText = LockedList<Data>()
                let group = DispatchGroup()
                DispatchQueue.global().async(group: group) {
                    errorText.append(errors.fileHandleForReading.readDataToEndOfFile())
                }
                let out = output.fileHandleForReading.readDataToEndOfFile()
                group.wait()
                let err = errorText.all.first ?? Data()
                process.waitUntilExit()
                continuation.resume(
                    returning: ToolResult(
                        status: process.terminationStatus,
                        output: String(decoding: out, as: UTF8.self),
                        errorOutput: String(decoding: err, as: UTF8.self),
                        wasKilled: process.terminationReason == .uncaughtSignal))
            }
        }
    }
}

/// `kill(2)`.
func sendSignal(_ signal: Int32, to pid: pid_t) -> Int32 {
    kill(pid, signal)
}
