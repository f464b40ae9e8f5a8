@testable import ModelKitCore
import Testing

/// The identity table's map from integer identifiers to slots finds every key it was given,
/// whatever their pattern: consecutive identifiers kept nearby, and keys that would pile up
/// in one place when kept nearby (the same low bits, a stride of the capacity) scattered instead.
@Suite struct IntegerSlotMapTests {
    /// Key patterns: a table's rows from 1, a payload's ids past a billion, negative ones, keys
    /// that share their low bits, keys a stride of a power of two apart, and keys in no order.
    static let patterns: [(name: String, keys: [Int64])] = [
        ("consecutive", (1...5_000).map { Int64($0) }),
        ("past a billion", (0..<5_000).map { 1_000_000_000 + Int64($0) }),
        ("negative", (0..<5_000).map { -Int64($0) - 1 }),
        ("same low bits", (0..<5_000).map { Int64($0) << 32 }),
        ("stride of 4096", (0..<5_000).map { Int64($0) * 4_096 }),
        ("stride of 4095", (0..<5_000).map { Int64($0) * 4_095 }),
        ("in no order", (0..<5_000).map { Int64(bitPattern: UInt64($0) &* 0x9E37_79B9_7F4A_7C15) }),
    ]

    @Test(arguments: [IntegerSlotMap.Spread.nearby, .scattered], patterns.indices)
    func findsEveryKeyAndForgetsRemovedOnes(spread: IntegerSlotMap.Spread, pattern: Int) {
        let keys = Self.patterns[pattern].keys
        var map = IntegerSlotMap(spread: spread)
        defer { map.deallocate() }
        for (slot, key) in keys.enumerated() { map.set(slot, for: key) }
        #expect(keys.indices.allSatisfy { map.slot(for: keys[$0]) == $0 }, "\(Self.patterns[pattern].name)")
        for key in keys.enumerated() where key.offset.isMultiple(of: 2) { map.remove(key.element) }
        #expect(
            keys.indices.allSatisfy { map.slot(for: keys[$0]) == ($0.isMultiple(of: 2) ? nil : $0) },
            "\(Self.patterns[pattern].name)")
        // Set again, each to another slot: found there, nothing else moved.
        for (slot, key) in keys.enumerated() { map.set(slot + keys.count, for: key) }
        #expect(keys.indices.allSatisfy { map.slot(for: keys[$0]) == $0 + keys.count }, "\(Self.patterns[pattern].name)")
        var visited = 0
        map.forEach { _, _ in visited += 1 }
        #expect(visited == keys.count)
    }
}
