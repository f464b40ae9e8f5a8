import Foundation
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

/// Runs the built `modelkit` tool as another process.
///
/// The tool is found next to the test binary, which is where SwiftPM puts every product of
/// the build, whatever the scratch path (`.build/<triple>/debug`, `.build-x/debug`, ...):
/// `$MODELKIT_TOOL` if set, else `modelkit` in the directory of the running executable or of
/// any loaded `.xctest` bundle, or one of their parents.
enum ModelKitTool {
    /// The tool's location, or nil with the places searched.
    static let location: Result<URL, ToolNotFound> = {
        let environment = ProcessInfo.processInfo.environment
        if let explicit = environment["MODELKIT_TOOL"], !explicit.isEmpty {
            return .success(URL(fileURLWithPath: explicit))
        }
        var starts: [URL] = []
        if let executable = Bundle.main.executableURL { starts.append(executable.deletingLastPathComponent()) }
        starts.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent())
        for bundle in Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" {
            starts.append(bundle.bundleURL.deletingLastPathComponent())
        }
        var searched: [String] = []
        for start in starts {
            var directory = start.standardizedFileURL
            for _ in 0..<4 {
                let candidate = directory.appendingPathComponent("modelkit")
                searched.append(candidate.path)
                if FileManager.default.isExecutableFile(atPath: candidate.path) { return .success(candidate) }
                directory = directory.deletingLastPathComponent()
            }
        }
        return .failure(ToolNotFound(searched: searched))
    }()

    struct ToolNotFound: Error, CustomStringConvertible {
        let searched: [String]
        var description: String {
            "the 'modelkit' tool was not found (build it with 'swift build --build-tests'); searched "
                + searched.joined(separator: ", ")
        }
    }

    /// The tool's URL; throws (failing the test) when it was not built.
    static func url() throws -> URL {
        try location.get()
    }

    /// Starts the tool without waiting for it.
    static func start(_ arguments: [String], environment: [String: String]? = nil) throws -> RunningTool {
        let process = Process()
        process.executableURL = try url()
        process.arguments = arguments
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

    /// Runs the tool to completion with files limited to `blocks` blocks of 512 bytes (the
    /// shell's `ulimit -f`) and SIGXFSZ ignored, so a write past the limit fails with EFBIG as
    /// on a full disk instead of killing the process.
    static func run(_ arguments: [String], fileSizeLimit blocks: Int) async throws -> ToolResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "trap '' XFSZ; ulimit -f \(blocks) && exec \"$0\" \"$@\"", try url().path] + arguments
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
