import ArgumentParser
import Foundation
import ModelKit
import ModelKitGenerator

/// `modelkit generate [FILE ...] [--ndjson] [--root NAME]`: `@Model` declarations for sample
/// JSON payloads.
struct GenerateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Print @Model declarations that map sample JSON payloads.",
        discussion: """
            Reads the payloads from the FILEs, or from standard input when no FILE is given or for \
            '-'. Each file holds one JSON value whose top level is an object or an array of \
            objects; files ending in .ndjson or .jsonl, and every input with --ndjson, hold one \
            such value a line. All the samples, and the elements of top-level arrays, merge into \
            one declaration per shape: a key missing from some samples is optional.

            Objects whose keys are identifiers (digits, UUIDs, long hexadecimal strings, dates), or \
            that have 20 keys or more whose values are alike, become dictionaries ([String: T]) \
            with one type for all their values. Objects in arrays, in dictionaries or at the top \
            level that carry a 'type'-like key (type, kind, @type, ...) and whose shapes differ \
            from one of its values to another become a @Model(tag:) enum with a case, and a \
            model, for each value.

            Stops with exit status 1 when an input cannot be read or is not JSON, giving the file \
            and, for NDJSON, the line.
            """)

    @Argument(help: "The JSON or NDJSON files to read ('-' or nothing for standard input).")
    var files: [String] = []

    @Flag(help: "Read every input as NDJSON, one JSON value a line (.ndjson and .jsonl files always are).")
    var ndjson = false

    @Option(help: "The name of the top-level model.")
    var root = "Root"

    func run() async throws {
        try ToolFailure.reporting {
            var samples: [JSONValue] = []
            let inputs = files.isEmpty ? ["-"] : files
            for file in inputs {
                samples += try readSamples(file, naming: inputs.count > 1)
            }
            print(try ModelGenerator(rootName: root).generate(fromSamples: samples), terminator: "")
        }
    }

    /// The samples in one input: its JSON value, or the values of its lines (which name their
    /// line when they are not samples). With `naming`, when there are several inputs, a JSON value
    /// that is not a sample is named by its input too.
    private func readSamples(_ file: String, naming: Bool) throws -> [JSONValue] {
        let (data, source) = try readInput(file)
        if ndjson || NDJSONSamples.isNDJSONFile(file) {
            return try NDJSONSamples.values(in: data, source: source)
        }
        let value: JSONValue
        do {
            value = try JSONValue(parsing: data)
        } catch {
            throw ToolFailure("\(source): \(error)")
        }
        do {
            try ModelGenerator.checkTopLevel(value)
        } catch let error as GeneratorError where naming {
            throw ToolFailure("\(source): \(error)")
        }
        return [value]
    }

    /// An input's bytes, and how errors name where they came from.
    private func readInput(_ file: String) throws -> (Data, String) {
        guard file != "-" else {
            return (FileHandle.standardInput.readDataToEndOfFile(), "standard input")
        }
        do {
            return (try Data(contentsOf: URL(fileURLWithPath: file)), "'\(file)'")
        } catch {
            throw ToolFailure("cannot read '\(file)': \(ToolFailure.reason(error))")
        }
    }
}
