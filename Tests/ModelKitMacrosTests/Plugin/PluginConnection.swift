import Foundation
import ModelKitTestSupport

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A plugin process and the framing of its messages, as swiftc runs a plugin it loads with
/// `-load-plugin-executable`: messages on the plugin's standard input and output, each an 8-byte
/// little-endian length followed by that many bytes of JSON. The plugin ends when its input closes.
final class PluginConnection {
    /// How long one answer may take before the plugin is killed (a debug build on a busy machine
    /// answers in well under a second).
    static let answerTimeout: TimeInterval = 120

    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    /// Holds the plugin's standard error (a crash report, "Internal Error: ..."), for failure messages.
    private let errorLog: TemporaryLog
    private let exited = DispatchSemaphore(value: 0)

    /// Launches the executable.
    init(executable: URL) throws {
        _ = Self.brokenPipesAreErrors
        errorLog = try TemporaryLog()
        process.executableURL = executable
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errorLog.handle
        let exited = self.exited
        process.terminationHandler = { _ in exited.signal() }
        defer { try? errorLog.handle.close() }  // the plugin has its own descriptor for it
        do {
            try process.run()
        } catch {
            throw MacroPluginError.launchFailed(executable.path, "\(error)")
        }
    }

    deinit {
        if process.isRunning { process.terminate() }
    }

    /// Sends `message` and reads the plugin's answer.
    func exchange(_ message: HostMessage) throws -> PluginResponse {
        let payload = try JSONEncoder().encode(message)
        let header = withUnsafeBytes(of: UInt64(payload.count).littleEndian) { Data($0) }
        do {
            try input.fileHandleForWriting.write(contentsOf: header + payload)
        } catch {
            throw MacroPluginError.stopped("stopped reading before it was sent \(message.kind)", log: errorLog.text)
        }
        let watchdog = Watchdog(pid: process.processIdentifier, after: Self.answerTimeout)
        defer { watchdog.cancel() }
        let answer = try readAnswer(to: message.kind, watchdog: watchdog)
        do {
            return try JSONDecoder().decode(PluginResponse.self, from: answer)
        } catch {
            let text = String(decoding: answer.prefix(2000), as: UTF8.self)
            throw MacroPluginError.malformedAnswer(to: message.kind, "\(error)", text: text)
        }
    }

    /// Closes the plugin's input and waits for it to exit; throws if it did not exit cleanly.
    func close() throws {
        try? input.fileHandleForWriting.close()
        if exited.wait(timeout: .now() + 10) == .timedOut {
            process.terminate()
            exited.wait()
            throw MacroPluginError.exitedAbnormally("it did not exit within 10 s of its input closing", log: errorLog.text)
        }
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            let reason = process.terminationReason == .exit ? "exit status" : "signal"
            throw MacroPluginError.exitedAbnormally("\(reason) \(process.terminationStatus)", log: errorLog.text)
        }
    }

    /// Reads one framed message: the length, then the JSON.
    private func readAnswer(to kind: String, watchdog: Watchdog) throws -> Data {
        let header = try read(count: 8, answering: kind, watchdog: watchdog)
        let length = header.reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        guard length > 0, length < 1 << 30 else {
            throw MacroPluginError.malformedAnswer(to: kind, "a message length of \(length) bytes", text: "")
        }
        return try read(count: Int(length), answering: kind, watchdog: watchdog)
    }

    private func read(count: Int, answering kind: String, watchdog: Watchdog) throws -> Data {
        var data = Data()
        while data.count < count {
            let chunk = try output.fileHandleForReading.read(upToCount: count - data.count) ?? Data()
            guard !chunk.isEmpty else {
                let what =
                    watchdog.fired
                    ? "was killed after \(Int(Self.answerTimeout)) s without answering \(kind)"
                    : "closed its output answering \(kind)"
                throw MacroPluginError.stopped(what, log: errorLog.text)
            }
            data.append(chunk)
        }
        return data
    }

    /// Writing to a plugin that died must fail with EPIPE rather than kill the test process.
    private static let brokenPipesAreErrors: Void = { _ = signal(SIGPIPE, SIG_IGN) }()
}

/// A file in a new temporary directory that a child process writes to; removed with the value.
private final class TemporaryLog {
    private let directory: TemporaryDirectory
    let handle: FileHandle

    init() throws {
        directory = try TemporaryDirectory()
        let path = directory.path("stderr.log")
        guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path)
        else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path]) }
        self.handle = handle
    }

    /// What was written so far, without surrounding blank lines.
    var text: String {
        let text = (try? String(contentsOfFile: directory.path("stderr.log"), encoding: .utf8)) ?? ""
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// Kills a plugin that does not answer in time, so that the blocked read ends.
private final class Watchdog {
    private let work: DispatchWorkItem
    private let state = FiredFlag()

    init(pid: Int32, after seconds: TimeInterval) {
        let state = self.state
        work = DispatchWorkItem {
            state.set()
            _ = kill(pid, SIGKILL)
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds, execute: work)
    }

    var fired: Bool { state.value }

    func cancel() { work.cancel() }
}

/// A flag set once from another thread.
private final class FiredFlag: @unchecked Sendable {
    // @unchecked: `isSet` is only touched under `lock` (NSLock.withLock needs macOS 14).
    private let lock = NSLock()
    private var isSet = false

    var value: Bool {
        lock.lock()
        defer { lock.unlock() }
        return isSet
    }

    func set() {
        lock.lock()
        defer { lock.unlock() }
        isSet = true
    }
}
