import Foundation
import ModelKit

// `json.stream.ndjson` and `json.stream.array`: a ~1 GB file of synthetic users, decoded with
// the streaming API one user at a time, then checked with the streaming validator (what
// `modelkit json check` runs), each with its rate and its peak resident memory over the
// baseline. They run only when named (an argument starting with `json.stream`), as writing the
// files takes a while:
//
//     swift run -c release --package-path Benchmarks modelkit-benchmarks json.stream
//
// MODELKIT_STREAM_BYTES sets the target size (default 1 GB); MODELKIT_STREAM_DIRECTORY writes
// the files there and keeps them (for `/usr/bin/time -v modelkit json check FILE`), otherwise
// they go to a temporary directory that is deleted afterwards.

/// The streaming comparisons whose names start with one of `arguments` (which must start with
/// `json.stream`); the files are generated only when one runs.
func streamingBenchmarks(_ arguments: [String]) throws {
    let prefixes = arguments.filter { $0.hasPrefix("json.stream") }
    let names = ["json.stream.ndjson", "json.stream.array"].filter { name in prefixes.contains(where: name.hasPrefix) }
    guard !names.isEmpty else { return }
    let environment = ProcessInfo.processInfo.environment
    let target = environment["MODELKIT_STREAM_BYTES"].flatMap(Int.init) ?? 1_000_000_000
    let kept = environment["MODELKIT_STREAM_DIRECTORY"].map { URL(fileURLWithPath: $0) }
    let directory = kept ?? FileManager.default.temporaryDirectory
        .appendingPathComponent("modelkit-stream-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { if kept == nil { try? FileManager.default.removeItem(at: directory) } }

    let ndjson = directory.appendingPathComponent("users.ndjson")
    let array = directory.appendingPathComponent("users.json")
    let users = try writeSyntheticUserFiles(ndjson: ndjson, array: array, targetBytes: target)
    for name in names {
        let url = name == "json.stream.ndjson" ? ndjson : array
        let format: JSONStreamFormat = name == "json.stream.ndjson" ? .ndjson : .array
        let size = try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int ?? 0

        PeakMemory.reset()
        let baseline = PeakMemory.resident()
        var start = Date()
        var count = 0
        var ages = 0
        try ModelJSON.forEachElement(SyntheticUser.self, in: url, format: format) { user in
            count += 1
            ages &+= user.age
        }
        var seconds = Date().timeIntervalSince(start)
        guard count == users else { throw StreamingBenchmarkFailure("decoded \(count) users of \(users)") }
        print("\(name): \(gigabytes(size)), \(grouped(count)) users, modelkit \(rate(size, seconds)), "
            + "peak RSS \(megabytes(PeakMemory.growth())) over baseline (\(megabytes(baseline)); ages sum \(ages))")

        PeakMemory.reset()
        start = Date()
        let summary = try JSONValidator.validateElements(in: url, format: format)
        seconds = Date().timeIntervalSince(start)
        print("\(name).check: \(gigabytes(summary.byteCount)), \(grouped(summary.elementCount)) elements, "
            + "validator \(rate(size, seconds)), peak RSS \(megabytes(PeakMemory.growth())) over baseline")
    }
}

/// Writes the same users to an NDJSON file and a top-level-array file, a megabyte at a time,
/// until each holds about `targetBytes`; returns how many users each holds.
func writeSyntheticUserFiles(ndjson: URL, array: URL, targetBytes: Int) throws -> Int {
    for url in [ndjson, array] { try Data().write(to: url) }
    let lines = try FileHandle(forWritingTo: ndjson)
    let elements = try FileHandle(forWritingTo: array)
    defer {
        try? lines.close()
        try? elements.close()
    }
    var writer = SyntheticUserWriter()
    var linesText = ""
    var elementsText = "["
    var written = 0
    var count = 0
    while written < targetBytes {
        let user = writer.user(id: count)
        if count > 0 { elementsText += ",\n" }
        elementsText += user
        linesText += user + "\n"
        count += 1
        if linesText.utf8.count >= 1 << 20 {
            written += linesText.utf8.count
            try lines.write(contentsOf: Data(linesText.utf8))
            try elements.write(contentsOf: Data(elementsText.utf8))
            linesText = ""
            elementsText = ""
        }
    }
    try lines.write(contentsOf: Data(linesText.utf8))
    try elements.write(contentsOf: Data((elementsText + "]\n").utf8))
    return count
}

/// A streaming benchmark that decoded the wrong thing.
struct StreamingBenchmarkFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}

/// `1.07 GB`.
func gigabytes(_ bytes: Int) -> String { String(format: "%.2f GB", Double(bytes) / 1e9) }

/// `150 MB/s`.
func rate(_ bytes: Int, _ seconds: Double) -> String { "\(format(Double(bytes) / 1e6 / max(seconds, 1e-9))) MB/s" }

/// `2,000,000`.
func grouped(_ value: Int) -> String {
    let digits = Array(String(value))
    var text = ""
    for (index, digit) in digits.enumerated() {
        if index > 0 && (digits.count - index) % 3 == 0 { text += "," }
        text.append(digit)
    }
    return text
}
