import ArgumentParser
import Foundation
import ModelKit

/// `modelkit json`: work with JSON files.
struct JSONCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "json", abstract: "Check JSON files.", subcommands: [JSONCheckCommand.self])
}

/// `modelkit json check FILE...`: whether each file is valid JSON (RFC 8259) or NDJSON.
///
/// Memory: a top-level array and NDJSON are streamed, 64 KiB at a time, and checked element by
/// element, so memory stays near the largest element whatever the file's size. Any other
/// document (an object, a scalar) is one value that can only be checked whole: the file is
/// memory-mapped, not copied, so its pages are the kernel's page cache and can be dropped
/// under pressure, but they do count in the resident size while they are read.
struct JSONCheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Report whether each file is valid JSON (RFC 8259) or NDJSON.",
        discussion: """
            Stops with exit status 1 at the first invalid file, giving the position and the reason. \
            A top-level array and NDJSON (--ndjson, or a file named *.ndjson or *.jsonl) are read in \
            chunks and checked element by element, in memory bounded by the largest element; errors \
            name the element's index and byte offset. Long files report progress on standard error.
            """)

    @Argument(help: "The files to check.")
    var files: [String]

    @Option(help: "The deepest nesting of arrays and objects accepted.")
    var maxDepth = JSONLimits.default.maxDepth

    @Flag(help: "Check the files as newline-delimited JSON (one value per line).")
    var ndjson = false

    func run() async throws {
        var limits = JSONLimits.default
        limits.maxDepth = maxDepth
        for file in files {
            let url = URL(fileURLWithPath: file)
            do {
                print("\(file): \(try check(url, limits: limits))")
            } catch let error as JSONStreamError where error.kind == .readFailed {
                printError("\(file): cannot read the file: \(error.underlying.map(Self.reason) ?? "\(error)")")
                throw ExitCode.failure
            } catch where error is JSONStreamError || error is JSONSyntaxError {
                printError("\(file): \(error)")
                throw ExitCode.failure
            } catch {
                // Opening or mapping the file failed.
                printError("\(file): cannot read the file: \(Self.reason(error))")
                throw ExitCode.failure
            }
        }
    }

    /// Checks one file; returns the sentence saying it is valid.
    func check(_ url: URL, limits: JSONLimits) throws -> String {
        let extensionSaysNDJSON = ["ndjson", "jsonl"].contains(url.pathExtension.lowercased())
        if ndjson || extensionSaysNDJSON {
            let summary = try validate(url, format: .ndjson, limits: limits)
            let noun = summary.elementCount == 1 ? "value" : "values"
            return "valid NDJSON: \(summary.elementCount) \(noun), \(summary.byteCount) bytes"
        }
        if try Self.firstSignificantByte(of: url) == UInt8(ascii: "[") {
            let summary = try validate(url, format: .array, limits: limits)
            return "valid JSON (\(summary.byteCount) bytes)"
        }
        let data = try Data(contentsOf: url, options: .alwaysMapped)
        try data.withUnsafeBytes { try JSONValidator.validate($0, limits: limits) }
        return "valid JSON (\(data.count) bytes)"
    }

    /// Streams the file through the element validator, with progress on standard error.
    func validate(_ url: URL, format: JSONStreamFormat, limits: JSONLimits) throws -> JSONStreamSummary {
        let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? nil
        let progress = ProgressLine(total: size)
        return try JSONValidator.validateElements(in: url, format: format, limits: limits) { progress.update($0) }
    }

    /// The first byte that is not whitespace, reading no more of the file than it takes; nil
    /// for an empty (or all-whitespace) file.
    static func firstSignificantByte(of url: URL) throws -> UInt8? {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        while let chunk = try handle.read(upToCount: 4096), !chunk.isEmpty {
            if let byte = chunk.first(where: { ![0x20, 0x0A, 0x0D, 0x09].contains($0) }) { return byte }
        }
        return nil
    }

    /// A short reason for a read error.
    static func reason(_ error: any Error) -> String {
        (error as? any LocalizedError)?.errorDescription ?? error.localizedDescription
    }
}

/// Progress on standard error for long checks: nothing during the first second, then at most
/// one line a second, `checked 512 MB of 1.07 GB (48%)`.
final class ProgressLine {
    let total: Int?
    let start = Date()
    var lastPrinted: Date?

    init(total: Int?) {
        self.total = total
    }

    /// Reports that `bytes` have been read, if a line is due.
    func update(_ bytes: Int) {
        let now = Date()
        guard now.timeIntervalSince(start) >= 1, now.timeIntervalSince(lastPrinted ?? start) >= 1 else { return }
        lastPrinted = now
        guard let total, total > 0 else {
            printError("checked \(Self.size(bytes))")
            return
        }
        printError("checked \(Self.size(bytes)) of \(Self.size(total)) (\(bytes * 100 / total)%)")
    }

    /// A byte count in MB or GB (powers of ten): `512 MB`, `1.07 GB`.
    static func size(_ bytes: Int) -> String {
        if bytes >= 1_000_000_000 { return String(format: "%.2f GB", Double(bytes) / 1e9) }
        return "\(bytes / 1_000_000) MB"
    }
}
