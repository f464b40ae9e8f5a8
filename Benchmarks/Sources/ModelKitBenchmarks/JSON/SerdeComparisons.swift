import Foundation
import ModelKit

// `json.serde.CORPUS.LAYOUT.decode` and `.encode`: ModelKit against serde_json, the Rust library
// most JSON libraries measure themselves by, on the corpora of SerdeCorpora.swift (and
// citm_catalog.json), each pretty-printed and compact. JSONDecoder is a slow anchor; serde_json
// says how far from a fast one ModelKit is.
//
// serde_json runs in a process of its own (Benchmarks/SerdeAnchor, never needed to build or test
// ModelKit), which times itself as `Stopwatch` does: one warm-up run, then rounds of at least
// 0.2 s of repeated decodes (or encodes) of the document in its memory. It serves one round per
// request, so that its rounds alternate with ModelKit's within the line like any baseline's.
// Both rates are MB/s of the input document; both encoders write compact JSON, so a pretty
// line's encode does what the compact line's does, counted against the larger document.
//
// Before a document's first line is timed, both sides decode it and encode it back, and the two
// encodings and the document must hold the same values (numbers by value, object members by
// key), or the line fails.

/// The Rust program: where its release build lies, and how to build it.
enum SerdeAnchor {
    // From the program's folder: cargo reads the folder's .cargo/config.toml (the offline registry)
    // from where it runs, not from the manifest's path.
    static let buildCommand = "cd Benchmarks/SerdeAnchor && cargo build --release --offline"

    /// `MODELKIT_SERDE_ANCHOR`, or the release build beside these sources.
    static let executable: URL = {
        if let path = ProcessInfo.processInfo.environment["MODELKIT_SERDE_ANCHOR"] { return URL(fileURLWithPath: path) }
        return benchmarksDirectory.appendingPathComponent("SerdeAnchor/target/release/serde-anchor")
    }()

    /// `Benchmarks/`, from this file's path at build time (the benchmarks run from a checkout).
    static let benchmarksDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static var isBuilt: Bool { FileManager.default.isExecutableFile(atPath: executable.path) }

    /// Said once, by the first corpus that finds the anchor missing (a static's initializer runs once).
    static let missingNotice: Void = print(
        "json.serde: skipped, serde_json's anchor is not built: apt-get install -y librust-serde-json-dev "
            + "librust-serde-derive-dev && \(buildCommand)")
}

/// The lines of one corpus (floats, integers, dictionaries, strings, citm), or none when the
/// anchor is not built.
func serdeComparisons(_ corpus: String) throws -> [Comparison] {
    guard SerdeAnchor.isBuilt else {
        _ = SerdeAnchor.missingNotice
        return []
    }
    switch corpus {
    case "floats":
        return try serdeComparisons(corpus, compact: geoFeaturesJSON(), decode: { try GeoCollection(jsonData: $0) }) {
            "\($0.features.count) features, \($0.features.reduce(0) { $0 + $1.geometry.coordinates.joined().count }) points"
        }
    case "integers":
        return try serdeComparisons(corpus, compact: ledgerJSON(), decode: { try Ledger(jsonData: $0) }) {
            "\($0.accounts.count) accounts, \($0.accounts.reduce(0) { $0 + 4 + $1.history.count + $1.linkedIds.count }) integers of 9-19 digits or small"
        }
    case "dictionaries":
        return try serdeComparisons(corpus, compact: ticketCatalogueJSON(), decode: { try TicketCatalogue(jsonData: $0) }) {
            "\($0.areaNames.count + $0.seatCategoryNames.count) names, \($0.events.count) events keyed by id"
        }
    case "strings":
        return try serdeComparisons(corpus, compact: textCorpusJSON(), decode: { try TextCorpus(jsonData: $0) }) {
            "\($0.messages.count) messages, \($0.messages.reduce(0) { $0 + $1.body.count }) characters of bodies"
        }
    case "citm":
        // The public file is pretty-printed (4 spaces); its compact form is made from it.
        let file = SerdeAnchor.benchmarksDirectory.deletingLastPathComponent()
            .appendingPathComponent("Tests/ModelKitTestSupport/Fixtures/citm_catalog.json")
        let pretty = try Data(contentsOf: file)
        return try serdeComparisons(corpus, compact: compactJSON(pretty), pretty: pretty, decode: { try CitmCatalog(jsonData: $0) }) {
            "\($0.events.count) events, \($0.performances.count) performances"
        }
    default:
        throw BenchmarkError("no serde_json corpus named \(corpus)")
    }
}

/// The four lines of one corpus: decode and encode, pretty and compact. `pretty` defaults to
/// `compact` laid out by prettyPrintedJSON; `describe` says what a document holds.
func serdeComparisons<M: ModelValue>(
    _ corpus: String, compact: Data, pretty: Data? = nil, decode: @escaping (Data) throws -> M,
    describe: (M) -> String
) throws -> [Comparison] {
    try [("pretty", pretty ?? prettyPrintedJSON(compact)), ("compact", compact)].flatMap { layout, json -> [Comparison] in
        let models = try decode(json)
        let document = try SerdeDocument(corpus: corpus, layout: layout, json: json)
        let name = "json.serde.\(corpus).\(layout)"
        let description = "\(describe(models)), \(json.count) bytes"
        let check = { try document.checkSameValues(modelKitEncoding: ModelJSON.encode(models)) }
        return [
            Comparison(
                name: "\(name).decode", baselineName: "serde_json", unit: .bytes(json.count),
                modelKit: { _ = try decode(json) },
                baseline: check,
                notes: { description },
                baselineRound: { try document.anchorRound("decode") }),
            Comparison(
                name: "\(name).encode", baselineName: "serde_json", unit: .bytes(json.count),
                modelKit: { _ = try ModelJSON.encode(models) },
                baseline: check,
                notes: { "output: modelkit \(try ModelJSON.encode(models).count) bytes, serde_json \(try document.anchorEncoding().count) bytes" },
                baselineRound: { try document.anchorRound("encode") }),
        ]
    }
}

/// One document of a corpus, in a file the anchor reads, with the anchor that serves its rounds.
final class SerdeDocument {
    let corpus: String
    let json: Data
    let file: URL
    private var checked = false

    init(corpus: String, layout: String, json: Data) throws {
        self.corpus = corpus
        self.json = json
        file = FileManager.default.temporaryDirectory.appendingPathComponent("modelkit-serde-\(corpus)-\(layout)-\(getpid()).json")
        try json.write(to: file)
    }

    deinit { try? FileManager.default.removeItem(at: file) }

    /// The `serve` process, started at the document's first timed round and ended with it.
    private var anchor: SerdeAnchorProcess?

    /// Seconds per run of one of serde_json's rounds of `side` (`decode` or `encode`).
    func anchorRound(_ side: String) throws -> Double {
        if anchor == nil {
            anchor = try SerdeAnchorProcess(corpus: corpus, file: file, minimumRoundSeconds: Stopwatch().minimumRoundSeconds)
        }
        return try anchor!.round(side)
    }

    /// serde_json's encoding of what it decoded from the document (`serde-anchor check`).
    func anchorEncoding() throws -> Data {
        try runProcess(SerdeAnchor.executable, ["check", corpus, file.path])
    }

    /// Throws unless ModelKit's encoding, serde_json's and the document hold the same values; runs once.
    func checkSameValues(modelKitEncoding: [UInt8]) throws {
        guard !checked else { return }
        let document = canonicalJSON(try JSONValue(parsing: json))
        let sides = [("modelkit", modelKitEncoding), ("serde_json", [UInt8](try anchorEncoding()))]
        for (side, encoding) in sides {
            if let difference = firstDifference(document, canonicalJSON(try JSONValue(parsing: encoding)), at: "$") {
                throw BenchmarkError("\(side) does not read the document's values: at \(difference)")
            }
        }
        checked = true
    }
}

/// `serde-anchor serve`: one process per document, answering one timed round per request.
final class SerdeAnchorProcess {
    private let process = Process()
    private let requests = Pipe()
    private let answers = Pipe()
    private var pending = Data()

    init(corpus: String, file: URL, minimumRoundSeconds: Double) throws {
        process.executableURL = SerdeAnchor.executable
        process.arguments = ["serve", corpus, file.path, String(minimumRoundSeconds)]
        process.standardInput = requests
        process.standardOutput = answers
        // A request to a process that died would otherwise end this one; the read after it throws.
        signal(SIGPIPE, SIG_IGN)
        try process.run()
    }

    /// Ends the process: it exits when its requests end.
    deinit {
        try? requests.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    /// Seconds per run of one round of `side` (`decode` or `encode`), timed by the process.
    func round(_ side: String) throws -> Double {
        try requests.fileHandleForWriting.write(contentsOf: Data("\(side)\n".utf8))
        while !pending.contains(UInt8(ascii: "\n")) {
            let more = answers.fileHandleForReading.availableData
            guard !more.isEmpty else {
                process.waitUntilExit()
                throw BenchmarkError("serde-anchor ended (status \(process.terminationStatus))")
            }
            pending += more
        }
        let line = pending.prefix { $0 != UInt8(ascii: "\n") }
        pending.removeSubrange(..<(pending.startIndex + line.count + 1))
        // "SECONDS-PER-RUN RUNS"
        guard let seconds = String(decoding: line, as: UTF8.self).split(separator: " ").first.flatMap({ Double($0) }) else {
            throw BenchmarkError("serde-anchor answered \(String(decoding: line, as: UTF8.self))")
        }
        return seconds
    }
}

/// What `executable` writes on its standard output; throws when it fails.
func runProcess(_ executable: URL, _ arguments: [String]) throws -> Data {
    let process = Process()
    let output = Pipe()
    process.executableURL = executable
    process.arguments = arguments
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()  // before waiting: the pipe holds only 64 KB
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        throw BenchmarkError("\(executable.lastPathComponent) \(arguments.joined(separator: " ")) exited with status \(process.terminationStatus)")
    }
    return data
}

// MARK: Comparing values

/// `value` as both sides must agree on it: object members by key (a dictionary's order is its hash
/// table's, on either side), numbers by value (`12.0` is `12`; a 17-digit literal that the parser
/// kept as a Decimal is the Double it rounds to).
func canonicalJSON(_ value: JSONValue) -> JSONValue {
    switch value {
    case .array(let elements):
        return .array(elements.map(canonicalJSON))
    case .object(let members):
        return .object(members.map { JSONMember($0.key, canonicalJSON($0.value)) }.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) })
    case .decimal(let number):
        return canonicalJSON(.double(Double(number.description) ?? .nan))
    case .double(let number) where number.rounded() == number && abs(number) < 9_007_199_254_740_992:
        return .int(Int64(number))
    default:
        return value
    }
}

/// Where `left` and `right` first differ (`$.features[3].bbox[0]: 1.5 against 1.25`), nil when they
/// hold the same values; strings compare by their UTF-8 bytes, not as Swift's canonically equivalent.
func firstDifference(_ left: JSONValue, _ right: JSONValue, at path: String) -> String? {
    switch (left, right) {
    case (.array(let lefts), .array(let rights)):
        guard lefts.count == rights.count else { return "\(path): \(lefts.count) elements against \(rights.count)" }
        return lefts.indices.lazy.compactMap { firstDifference(lefts[$0], rights[$0], at: "\(path)[\($0)]") }.first
    case (.object(let lefts), .object(let rights)):
        guard lefts.map(\.key) == rights.map(\.key) else {
            let (leftKeys, rightKeys) = (Set(lefts.map(\.key)), Set(rights.map(\.key)))
            return "\(path): keys \(leftKeys.subtracting(rightKeys).sorted()) against \(rightKeys.subtracting(leftKeys).sorted())"
        }
        return lefts.indices.lazy.compactMap { firstDifference(lefts[$0].value, rights[$0].value, at: "\(path).\(lefts[$0].key)") }.first
    case (.string(let lefts), .string(let rights)):
        return lefts.utf8.elementsEqual(rights.utf8) ? nil : "\(path): \(excerpt(left)) against \(excerpt(right))"
    default:
        return left == right ? nil : "\(path): \(excerpt(left)) against \(excerpt(right))"
    }
}

/// A value for an error message, cut short.
private func excerpt(_ value: JSONValue) -> String {
    let text = (try? value.jsonString()) ?? "\(value)"
    return text.count > 80 ? String(text.prefix(80)) + "…" : text
}
