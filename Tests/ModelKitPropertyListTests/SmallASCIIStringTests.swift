import Foundation
import Testing
@testable import ModelKitPropertyList
import ModelKitShared
import ModelKitTestSupport

/// Short ASCII strings are made in the standard library's small form from their words: they
/// must be the strings the public initializers make, at every length.
struct SmallASCIIStringTests {
    private static let text = Array("The quick brown fox jumps over the lazy dog".utf8)

    /// The first `count` bytes of `bytes` as two little-endian words, with other bytes after them.
    private func words(_ bytes: [UInt8]) -> (UInt64, UInt64) {
        var padded = bytes + Array(repeating: 0x7A, count: 16)
        return padded.withUnsafeMutableBytes {
            (UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self)),
             UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self)))
        }
    }

    @Test func everyLengthMakesTheStringOfItsBytes() throws {
        for count in 0...15 {
            let bytes = Array(Self.text.prefix(count))
            let (low, high) = words(bytes)
            let made = try #require(SmallASCIIString.make(low: low, high: high, count: count))
            let expected = String(decoding: bytes, as: UTF8.self)
            expectEqual(made, expected)
            expectEqual(made.utf8.count, count)
            expectEqual(made.hashValue, expected.hashValue)
            expectEqual(made + "!", expected + "!")
        }
    }

    @Test func nonASCIIBytesAndLongStringsAreDeclined() {
        let (low, high) = words(Array("caf\u{E9}".utf8))
        #expect(SmallASCIIString.make(low: low, high: high, count: 5) == nil)
        // A byte past the count does not matter.
        expectEqual(SmallASCIIString.make(low: low, high: high, count: 3), "caf")
        #expect(SmallASCIIString.make(low: 0, high: 0, count: 16) == nil)
        #expect(SmallASCIIString.make(low: 0, high: 0, count: -1) == nil)
    }

    /// The table reads ASCII strings of every length, short ones in the small form, as the tree
    /// reader does.
    @Test func theTableReadsASCIIStringsOfEveryLength() throws {
        let strings = (0...40).map { String(decoding: Self.text.prefix($0), as: UTF8.self) }
        let objects = [BinaryPlistBuilder.array((1...strings.count).map { UInt64($0) })] + strings.map { BinaryPlistBuilder.ascii($0) }
        var builder = BinaryPlistBuilder(objects)
        builder.offsetSize = 2
        let bytes = builder.build()
        let table = try #require(bytes.withUnsafeBytes { BinaryPropertyListTable(validating: $0, limits: .default) })
        for (index, string) in strings.enumerated() {
            expectEqual(table.string(index + 1), string)
            expectEqual(table.value(of: index + 1), .string(string))
        }
        try expectEqual(PropertyListValue(binary: bytes), .array(strings.map { .string($0) }))
    }
}
