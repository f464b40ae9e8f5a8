import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs the built `modelkit` tool (found by ``ModelKitToolLocation``) as another process, the
/// way a person would from a shell.
///
/// ```swift
/// let result = try ModelKitTool.run(["json", "check", path])     // blocking, from sync tests
/// let saved = try await ModelKitTool.run(["prefs", "set", ...])  // off the task pool
/// expectEqual(result.status, 0)
/// ```
public enum ModelKitTool {
    /// Starts the tool without waiting for it. With `fileSizeLimit`, it runs under `ulimit -f`
    /// (512-byte blocks) with SIGXFSZ ignored, so that writing past the limit fails with EFBIG
    /// as on a full disk. With `standardInput`, it reads that file on its standard input.
    public static func start(
        _ arguments: [String], fileSizeLimit: Int? = nil, environment: [String: String]? = nil,
        standardInput: URL? = nil
    ) throws -> RunningTool {
        let process = Process()
        (process.executableURL, process.arguments) = try ModelKitToolLocation.invocation(
            arguments, fileSizeLimit: fileSizeLimit)
        if let environment { process.environment = environment }
        if let standardInput { process.standardInput = try FileHandle(forReadingFrom: standardInput) }
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        return RunningTool(process: process, output: output, errors: errors)
    }

    /// Runs the tool to its end, blocking the calling thread.
    public static func run(
        _ arguments: [String], fileSizeLimit: Int? = nil, environment: [String: String]? = nil,
        standardInput: URL? = nil
    ) throws -> ToolResult {
        try start(arguments, fileSizeLimit: fileSizeLimit, environment: environment, standardInput: standardInput)
            .wait()
    }

    /// Runs the tool to its end, waiting off the cooperative thread pool.
    public static func run(
        _ arguments: [String], fileSizeLimit: Int? = nil, environment: [String: String]? = nil
    ) async throws -> ToolResult {
        try await start(arguments, fileSizeLimit: fileSizeLimit, environment: environment).finish()
    }
}

/// A started `modelkit` process, its standard output and error on pipes.
public struct RunningTool: @unchecked Sendable {
    // @unchecked: Process and Pipe are used from one thread at a time.
    public let process: Process
    public let output: Pipe
    public let errors: Pipe

    public var processIdentifier: Int32 { process.processIdentifier }

    /// Sends SIGKILL.
    public func kill() {
        _ = sendSignal(SIGKILL, to: process.processIdentifier)
    }

    /// Waits for the process to end and collects what it printed, blocking the calling thread.
    /// Both pipes are read at once, so a child that fills one cannot block on it.
    public func wait() -> ToolResult {
        let errorData = DataSlot()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) { [self] in
            errorData.set(errors.fileHandleForReading.readDataToEndOfFile())
        }
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return ToolResult(
            status: process.terminationStatus, outputData: outputData,
            errorOutput: String(decoding: errorData.value, as: UTF8.self),
            wasKilled: process.terminationReason == .uncaughtSignal)
    }

    /// ``wait()`` on a thread of its own, so that waiting does not hold the cooperative pool.
    public func finish() async -> ToolResult {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: wait()) }
        }
    }
}

/// How a run of the `modelkit` tool ended, and what it printed.
public struct ToolResult: Sendable {
    public var status: Int32
    /// Everything written to standard output.
    public var outputData: Data
    public var errorOutput: String
    /// Whether a signal ended the process.
    public var wasKilled: Bool

    /// Standard output as text.
    public var output: String { String(decoding: outputData, as: UTF8.self) }
}

/// `kill(2)`.
public func sendSignal(_ signal: Int32, to pid: pid_t) -> Int32 {
    kill(pid, signal)
}

/// Data one thread sets and another reads after a `DispatchGroup` wait.
private final class DataSlot: @unchecked Sendable {
    // @unchecked: `value` is only touched under `lock`.
    private let lock = NSLock()
    private var stored = Data()

    var value: Data {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }

    func set(_ data: Data) {
        lock.lock()
        stored = data
        lock.unlock()
    }
}
