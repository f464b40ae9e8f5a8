import ModelKitCore
import ModelKitJSON

/// Samples read from NDJSON (newline-delimited JSON, also called JSON Lines): one JSON value a
/// line, each a sample of the same payload for ``ModelGenerator/generate(fromSamples:)``.
///
/// Lines are split at `\n` (a `\r` before it is dropped); blank lines are skipped. A line that is
/// not JSON, or not an object or an array of objects, stops the reading with
/// ``GeneratorError/invalidLine(source:line:reason:)``, which names the input, the line and, for
/// JSON errors, the column within it.
///
/// ```swift
/// let samples = try NDJSONSamples.values(in: Array("{\"a\": 1}\n{\"a\": 2}\n".utf8), source: "'a.ndjson'")
/// samples.count  // 2
/// NDJSONSamples.isNDJSONFile("events.jsonl")  // true
/// ```
package enum NDJSONSamples {
    /// The file name endings that mark NDJSON.
    package static let fileExtensions = [".ndjson", ".jsonl"]

    /// Whether a file's name says it holds NDJSON (`.ndjson`, `.jsonl`, in any case).
    package static func isNDJSONFile(_ path: String) -> Bool {
        let lower = path.lowercased()
        return fileExtensions.contains { lower.hasSuffix($0) }
    }

    /// The values of the lines of `bytes`, in order; `source` names the input in errors
    /// (`'events.ndjson'`, `standard input`).
    package static func values(in bytes: some Collection<UInt8>, source: String) throws -> [JSONValue] {
        let bytes = Array(bytes)
        var values: [JSONValue] = []
        var start = 0
        var line = 1
        while start < bytes.count {
            let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            var end = newline
            if end > start, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
            let text = bytes[start..<end]
            if !text.allSatisfy(isBlank) {
                values.append(try value(of: text, source: source, line: line))
            }
            start = newline + 1
            line += 1
        }
        return values
    }

    /// The value on one line, or the error that names it: the line is not JSON, or its top
    /// level is not what a sample must be (``ModelGenerator/checkTopLevel(_:)``).
    private static func value(of text: ArraySlice<UInt8>, source: String, line: Int) throws -> JSONValue {
        do {
            let value = try JSONValue(parsing: text)
            try ModelGenerator.checkTopLevel(value)
            return value
        } catch let error as GeneratorError {
            throw GeneratorError.invalidLine(source: source, line: line, reason: error.description)
        } catch let error as JSONSyntaxError {
            // The line was parsed alone: its own line number is always 1, its column is right.
            let reason = "invalid JSON at column \(error.column): \(error.message)"
            throw GeneratorError.invalidLine(source: source, line: line, reason: reason)
        } catch {
            throw GeneratorError.invalidLine(source: source, line: line, reason: "\(error)")
        }
    }

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
    }
}
