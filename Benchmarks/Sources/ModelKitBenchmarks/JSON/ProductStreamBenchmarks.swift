import Foundation
import ModelKit

// `json.stream.products.sync` and `json.stream.products.async`: an NDJSON file of product rows
// of the kind shops export (a payload rewritten before mapping, URLs, prices as decimal strings
// through a transformer), read once with the synchronous `ModelJSON.forEachElement` and once with
// the asynchronous `for try await ... in ModelJSON.elements(of:in:)`, alternating three times;
// the async line's ratio is the synchronous read's time over its own (1.0x: no cost for being
// asynchronous). They run only when named, as `json.stream` lines do:
//
//     swift run -c release --package-path Benchmarks modelkit-benchmarks json.stream.products
//
// MODELKIT_STREAM_BYTES sets the file's size (default 1 GB); MODELKIT_STREAM_SIDE=sync, async or
// actor runs that read alone, once (for a profiler or `perf stat`).

/// A product row; older rows say `category_name` where newer ones say `category`.
@Model(keys: .snakeCase)
struct StreamedProduct {
    var id: Int
    var sku: String
    var name: String
    @Transform(.decimalString) var price: Decimal
    var currency: String
    @Transform(.url) var url: URL
    @Transform(.url) var imageURL: URL?
    var category: String
    var stock: Int
    var tags: [String]

    static func rewriteJSON(_ json: inout JSONValue) throws {
        guard case .object(var members) = json,
            let index = members.firstIndex(where: { $0.key == "category_name" })
        else { return }
        members[index] = JSONMember("category", members[index].value)
        json = .object(members)
    }
}

/// A price written as a decimal string (`"19.99"`), exact, as a `Decimal`.
struct DecimalStringTransformer: ModelTransformer {
    var expectation: String { "a decimal number as a string" }

    func transformedValue(_ text: String) throws -> Decimal {
        guard let value = Decimal(string: text) else { throw ModelError.invalid(expected: expectation) }
        return value
    }

    func reverseTransformedValue(_ value: Decimal) throws -> String { value.description }
}

extension ModelTransformer where Self == DecimalStringTransformer {
    static var decimalString: DecimalStringTransformer { DecimalStringTransformer() }
}

/// Writes product rows to `url` until it holds about `targetBytes`; returns how many rows.
func writeProductRows(to url: URL, targetBytes: Int) throws -> Int {
    try Data().write(to: url)
    let file = try FileHandle(forWritingTo: url)
    defer { try? file.close() }
    var random = SeededGenerator(state: 7)
    let words = ["chair", "lamp", "table", "café", "sofa", "shelf", "rug", "mirror", "desk", "stool"]
    var rows = 0
    var written = 0
    var buffer = ""
    while written < targetBytes {
        let id = 1_000_000 + rows
        let word = words[Int(random.next() % UInt64(words.count))]
        let cents = Int(random.next() % 100_000)
        let category = rows % 3 == 0 ? #""category_name":"\#(word)s""# : #""category":"\#(word)s""#
        let image = rows % 4 == 0 ? "null" : #""https://cdn.example.com/images/\#(id).jpg""#
        buffer += #"{"id":\#(id),"sku":"SKU-\#(id)","name":"\#(word.capitalized) \#(id)","price":"\#(cents / 100).\#(cents % 100 < 10 ? "0" : "")\#(cents % 100)","#
            + #""currency":"EUR","url":"https://shop.example.com/products/\#(id)","image_url":\#(image),\#(category),"#
            + #""stock":\#(random.next() % 500),"tags":["\#(word)","sale","\#(words[rows % words.count])"]}"# + "\n"
        rows += 1
        if buffer.utf8.count >= 1 << 20 {
            written += buffer.utf8.count
            file.write(Data(buffer.utf8))
            buffer = ""
        }
    }
    if !buffer.isEmpty { file.write(Data(buffer.utf8)) }
    return rows
}

/// Times the synchronous and the asynchronous read of the product rows, alternating.
func productStreamBenchmarks(_ arguments: [String]) throws {
    guard arguments.contains(where: { "json.stream.products".hasPrefix($0) || $0.hasPrefix("json.stream.products") }) else { return }
    let target = ProcessInfo.processInfo.environment["MODELKIT_STREAM_BYTES"].flatMap(Int.init) ?? 1_000_000_000
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("modelkit-products-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("products.ndjson")
    let rows = try writeProductRows(to: url, targetBytes: target)
    let size = try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int ?? 0

    if let side = ProcessInfo.processInfo.environment["MODELKIT_STREAM_SIDE"] {
        let start = Date()
        var count = 0
        switch side {
        case "sync": count = try ModelJSON.forEachElement(StreamedProduct.self, in: url, format: .ndjson) { _ in }
        case "async": count = try waitFor { try await sumOfStock(in: url) }.count
        default: count = try waitFor { try await ProductReader().sumOfStock(in: url) }.count
        }
        print("json.stream.products.\(side): \(grouped(count)) rows, \(rate(size, Date().timeIntervalSince(start)))")
        return
    }
    var syncSeconds: [Double] = []
    var asyncSeconds: [Double] = []
    var syncPeak = 0
    var asyncPeak = 0
    var actorSeconds: [Double] = []
    for _ in 0..<3 {
        PeakMemory.reset()
        var start = Date()
        var count = 0
        var stock = 0
        try ModelJSON.forEachElement(StreamedProduct.self, in: url, format: .ndjson) { product in
            count += 1
            stock &+= product.stock
        }
        syncSeconds.append(Date().timeIntervalSince(start))
        syncPeak = max(syncPeak, PeakMemory.growth())
        guard count == rows else { throw StreamingBenchmarkFailure("read \(count) products of \(rows)") }

        PeakMemory.reset()
        start = Date()
        let (asyncCount, asyncStock) = try waitFor { try await sumOfStock(in: url) }
        asyncSeconds.append(Date().timeIntervalSince(start))
        asyncPeak = max(asyncPeak, PeakMemory.growth())
        guard asyncCount == rows, asyncStock == stock else {
            throw StreamingBenchmarkFailure("the asynchronous read gave \(asyncCount) products of \(rows)")
        }

        let reader = ProductReader()
        start = Date()
        let (actorCount, actorStock) = try waitFor { try await reader.sumOfStock(in: url) }
        actorSeconds.append(Date().timeIntervalSince(start))
        guard actorCount == rows, actorStock == stock else {
            throw StreamingBenchmarkFailure("the read in an actor gave \(actorCount) products of \(rows)")
        }
    }
    let sync = syncSeconds.sorted()[1]
    let async = asyncSeconds.sorted()[1]
    print("json.stream.products.sync: \(gigabytes(size)), \(grouped(rows)) rows, forEachElement \(rate(size, sync)), "
        + "peak RSS \(megabytes(syncPeak)) over baseline")
    print("json.stream.products.async: elements(of:in:) \(rate(size, async)), peak RSS \(megabytes(asyncPeak)) over baseline, "
        + "ratio \(String(format: "%.2f", sync / async))x the synchronous read "
        + "(\(String(format: "%.2f", (async - sync) / Double(rows) * 1e6)) µs per row more)")
    let actor = actorSeconds.sorted()[1]
    print("json.stream.products.actor: elements(of:in:) in an actor \(rate(size, actor)), "
        + "ratio \(String(format: "%.2f", sync / actor))x the synchronous read")
}

/// Reads the rows asynchronously in the caller's isolation domain: a task of the global executor,
/// or an actor (each element decoded in the actor, each chunk's read leaving it and coming back).
func sumOfStock(in url: URL, isolation: isolated (any Actor)? = #isolation) async throws -> (count: Int, stock: Int) {
    var count = 0
    var stock = 0
    for try await product in ModelJSON.elements(of: StreamedProduct.self, in: url, format: .ndjson) {
        count += 1
        stock &+= product.stock
    }
    return (count, stock)
}

/// An actor that reads the rows, as an app's model actor would.
actor ProductReader {
    func sumOfStock(in url: URL) async throws -> (count: Int, stock: Int) {
        try await modelkit_benchmarks.sumOfStock(in: url)
    }
}
