import Foundation
import ModelKit
import ModelKitTestSupport
import Testing

/// Inputs built to be slow finish in time proportional to their size: each reader of JSON
/// bytes takes under 20 times as long on the 10x input as on the 1x one.
///
/// Swift's `Hasher` is seeded per process, so keys that collide in a dictionary cannot be
/// computed ahead of time; the worst cases used instead are 100,000 distinct keys, 100,000
/// copies of one key, and keys that differ only after a long common prefix.
@Suite(.serialized) struct JSONComplexityTests {
    @Model
    struct Named: Equatable {
        var name: String = ""
    }

    /// A slow input at a scale (1 or 10).
    struct Input: CustomStringConvertible, Sendable {
        let description: String
        let make: @Sendable (_ scale: Int) -> [UInt8]
    }

    /// `{"k0":0,"k1":1,…}` with `count` members whose keys start with `prefix`.
    static func object(keys count: Int, prefix: String = "k", distinct: Bool = true) -> [UInt8] {
        var text = "{"
        text.reserveCapacity(count * (prefix.utf8.count + 12))
        for index in 0..<count {
            if index > 0 { text += "," }
            text += distinct ? "\"\(prefix)\(index)\":\(index)" : "\"\(prefix)\":\"v\(index)\""
        }
        text += #","name":"end"}"#
        return Array(text.utf8)
    }

    /// `{"name":"…"}` whose string is `count` copies of `piece`, built by doubling.
    static func string(repeating piece: String, count: Int) -> [UInt8] {
        var repeated = Array(piece.utf8)
        let length = repeated.count * count
        repeated.reserveCapacity(length * 2)
        while repeated.count < length { repeated += repeated }
        return Array(#"{"name":""#.utf8) + repeated[..<length] + Array(#""}"#.utf8)
    }

    static let inputs: [Input] = [
        Input(description: "100,000 distinct keys") { scale in object(keys: 10_000 * scale) },
        Input(description: "100,000 copies of one key") { scale in object(keys: 10_000 * scale, prefix: "name", distinct: false) },
        Input(description: "10,000 keys after a 256-byte common prefix") { scale in
            object(keys: 1_000 * scale, prefix: String(repeating: "p", count: 256))
        },
        // 1 MB at 10x: the 1x string still takes 4 to 12 ms to read in a debug build.
        Input(description: "1 MB of escapes in one string") { scale in
            string(repeating: #"\n"#, count: 50_000 * scale)
        },
        Input(description: "1 MB of \\u escapes with surrogate pairs") { scale in
            string(repeating: #"\ud83d\ude00"#, count: 8_333 * scale)
        },
    ]

    enum Reader: String, CaseIterable, CustomStringConvertible, Sendable {
        case validator, value, model
        var description: String { rawValue }

        func read(_ bytes: [UInt8]) throws {
            switch self {
            case .validator: try JSONValidator.validate(bytes)
            case .value: _ = try JSONValue(parsing: bytes)
            case .model: _ = try Named(jsonData: Data(bytes))
            }
        }
    }

    @Test(arguments: inputs, Reader.allCases)
    func readingGrowsLinearly(_ input: Input, _ reader: Reader) async throws {
        // The inputs are valid: each reader succeeds at both scales.
        try reader.read(input.make(1))
        let growth = try await onDedicatedThread { try growthRatio(make: input.make) { bytes in try reader.read(bytes) } }
        #expect(growth.ratio < 20, "\(input) through the \(reader) reader: \(growth)")
    }
}
