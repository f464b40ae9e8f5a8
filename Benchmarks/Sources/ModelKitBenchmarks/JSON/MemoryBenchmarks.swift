import Foundation
import ModelKit

// `memory.decode.NAME`: the peak resident memory one decode of a corpus adds, ModelKit against
// JSONDecoder, each run in a child process of its own.
//
// A child loads nothing but the corpus (from a file the parent writes) and decodes it once to
// warm up before the measured decode, so the figure is the decoder's own: the models it makes
// plus whatever it holds while it runs. Measured
// in the benchmarks' own process, a decode reused the free memory earlier lines had left in the
// heap without the resident size growing, and the figure told more about what ran before than
// about the decoder: memory.decode.twitter read 0.10 MB against JSONDecoder's 0.21 MB beside the
// other groups' inputs, and 0.31 MB against 0.31 MB alone (25 decodes held at once).

/// The memory comparison of one corpus: `decode` runs in this process for `--runs` and
/// `--profile`; the line itself is measured in child processes (``runMemoryChild(_:)``).
func memoryComparison(_ corpus: String, json: Data) -> Comparison {
    let decoders = corpusDecoders(corpus)
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("modelkit-memory-\(corpus)-\(getpid()).json")
    return Comparison(
        name: "memory.decode.\(corpus)", baselineName: "JSONDecoder",
        unit: .peakMemory { modelKitSide in
            if !FileManager.default.fileExists(atPath: file.path) { try json.write(to: file) }
            return try childPeakMemory(corpus: corpus, side: modelKitSide ? "modelkit" : "baseline", file: file)
        },
        modelKit: { _ = try decoders?.modelKit(json) },
        baseline: { _ = try decoders?.baseline(json) },
        notes: {
            try? FileManager.default.removeItem(at: file)
            return "peak resident memory one decode of \(json.count) bytes adds, models and all, "
                + "each in a process of its own (median of 3)"
        })
}

/// The JSONDecoder each corpus's baseline decodes with (the dates as the corpus writes them).
func corpusJSONDecoder(_ corpus: String) -> JSONDecoder {
    let decoder = JSONDecoder()
    switch corpus {
    case "twitter": decoder.dateDecodingStrategy = .formatted(twitterDateFormatter())
    case "users": decoder.dateDecodingStrategy = .iso8601
    default: break
    }
    return decoder
}

/// Both sides' decoders of a corpus, made without its input.
func corpusDecoders(_ corpus: String) -> (modelKit: (Data) throws -> Any, baseline: (Data) throws -> Any)? {
    let decoder = corpusJSONDecoder(corpus)
    switch corpus {
    case "twitter":
        return ({ try BenchTimeline(jsonData: $0) }, { try decoder.decode(CodableTimeline.self, from: $0) })
    case "users":
        return ({ try [SyntheticUser](jsonData: $0) }, { try decoder.decode([CodableSyntheticUser].self, from: $0) })
    case "catalogue":
        return ({ try Catalogue(jsonData: $0) }, { try decoder.decode(CodableCatalogue.self, from: $0) })
    case "nested":
        return ({ try NestedNode(jsonData: $0) }, { try decoder.decode(CodableNestedNode.self, from: $0) })
    default:
        return nil
    }
}

/// The peak resident memory a child process adds decoding `file` with one side's decoder.
func childPeakMemory(corpus: String, side: String, file: URL) throws -> Int {
    guard let executable = Bundle.main.executableURL else { throw BenchmarkError("no path to this executable") }
    let process = Process()
    process.executableURL = executable
    process.arguments = ["--memory-child", corpus, side, file.path]
    // No per-thread cache of freed blocks in the child: glibc's malloc_trim leaves those
    // resident, and the measured decode would reuse the warm-up's without growing.
    var environment = ProcessInfo.processInfo.environment
    environment["GLIBC_TUNABLES"] = "glibc.malloc.tcache_count=0"
    process.environment = environment
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let printed = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let text = String(decoding: printed, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    guard process.terminationStatus == 0, let bytes = Int(text) else {
        throw BenchmarkError("the \(side) memory child for '\(corpus)' failed: \(text)")
    }
    return bytes
}

/// `--memory-child CORPUS SIDE FILE`: decodes FILE with one side's decoder (`modelkit` or
/// `baseline`) and prints the peak resident bytes the second decode added: the first brings in
/// what any first call does (code pages, type metadata, date formats' data), which is not the
/// decode's memory.
func runMemoryChild(_ arguments: [String]) throws {
    guard arguments.count == 3, let decoders = corpusDecoders(arguments[0]), ["modelkit", "baseline"].contains(arguments[1])
    else { throw BenchmarkError("usage: --memory-child twitter|users|catalogue|nested modelkit|baseline FILE") }
    let json = try Data(contentsOf: URL(fileURLWithPath: arguments[2]))
    let decode = arguments[1] == "modelkit" ? decoders.modelKit : decoders.baseline
    _ = try decode(json)
    let bytes = try PeakMemory.measure { _ = try decode(json) }
    print(bytes)
}
