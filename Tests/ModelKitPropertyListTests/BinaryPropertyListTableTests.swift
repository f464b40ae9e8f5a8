import Foundation
import Testing
@testable import ModelKitPropertyList
import ModelKitTestSupport

/// The table reads a binary property list in place; it must read exactly what the tree reader
/// (`PropertyListValue(binary:)`) reads, and accept nothing the tree reader rejects: whatever it
/// declines goes to the tree reader, for the value or the precise error.
struct BinaryPropertyListTableTests {
    private func readTable(_ bytes: [UInt8], limits: PropertyListLimits = .default) -> BinaryPropertyListTable? {
        bytes.withUnsafeBytes { BinaryPropertyListTable(validating: $0, limits: limits) }
    }

    /// When the table accepts `bytes`, the tree reader reads them to the value the table holds.
    @discardableResult
    private func agree(_ bytes: [UInt8], limits: PropertyListLimits = .default, sourceLocation: SourceLocation = #_sourceLocation)
        -> Bool
    {
        guard let table = readTable(bytes, limits: limits) else { return false }
        let tree = Result { () throws(PropertyListError) in try PropertyListValue(binary: bytes, limits: limits) }
        guard case .success(let value) = tree else {
            Issue.record("the table accepted what the tree reader rejects: \(tree)", sourceLocation: sourceLocation)
            return true
        }
        #expect(table.value(of: table.topObject) == value, sourceLocation: sourceLocation)
        return true
    }

    @Test(arguments: Fixtures.binary)
    func everyBinaryFixtureReadsAsTheTree(_ file: Fixtures.File) {
        #expect(agree(file.bytes), "the table declined a well-formed fixture")
    }

    /// Bit flips and byte replacements at every byte of archives: the table accepts some of the
    /// damaged files, and reads each as the tree reader does.
    @Test(arguments: ["corelibs/NSKeyedUnarchiver-ComplexTest.plist", "go-ios/arrays.bin", "bpylist2/date_archive.plist"])
    func damagedFilesTheTableAcceptsReadAsTheTree(_ path: String) {
        let bytes = Fixtures.named(path).bytes
        var accepted = 0
        for position in bytes.indices {
            for mask: UInt8 in [0x01, 0x10, 0x80, 0xFF] {
                var damaged = bytes
                damaged[position] ^= mask
                if agree(damaged) { accepted += 1 }
            }
        }
        #expect(accepted > 0)
    }

    @Test func randomDamageTheTableAcceptsReadsAsTheTree() {
        var generator = SeededGenerator(seed: 0x7AB1E)
        let bytes = Fixtures.named("corelibs/NSKeyedUnarchiver-ComplexTest.plist").bytes
        for _ in 0..<3_000 {
            var damaged = bytes
            for _ in 0..<Int(generator.next() % 4 + 1) {
                damaged[Int(generator.next() % UInt64(damaged.count))] = UInt8(truncatingIfNeeded: generator.next())
            }
            agree(damaged)
        }
    }

    /// A dictionary that repeats a key is read by the tree reader (the last value wins): the
    /// table declines it, so that a key looked up in place never finds the other value.
    @Test func aRepeatedKeyIsLeftToTheTreeReader() throws {
        let key = BinaryPlistBuilder.ascii("k")
        let bytes = BinaryPlistBuilder([
            BinaryPlistBuilder.dict(keys: [1, 1], values: [2, 3]), key, BinaryPlistBuilder.int(1), BinaryPlistBuilder.int(2),
        ]).build()
        #expect(readTable(bytes) == nil)
        try expectEqual(PropertyListValue(binary: bytes), ["k": 2])
        // Two key objects with the same string repeat the key too.
        let twice = BinaryPlistBuilder([
            BinaryPlistBuilder.dict(keys: [1, 2], values: [3, 3]), key, key, BinaryPlistBuilder.int(1),
        ]).build()
        #expect(readTable(twice) == nil)
    }

    /// An object no reference reaches is not read by the tree reader, which accepts it damaged;
    /// the table checks every object and declines.
    @Test func aDamagedUnreachableObjectIsLeftToTheTreeReader() throws {
        let bytes = BinaryPlistBuilder([BinaryPlistBuilder.int(7), [0xF7]]).build()
        #expect(readTable(bytes) == nil)
        try expectEqual(PropertyListValue(binary: bytes), 7)
    }

    /// Limits on the tree the objects expand to: a small file of shared arrays.
    @Test func sharedArraysThatExpandBeyondTheLimitsAreDeclined() throws {
        // Each array holds the next twice: 2^9 leaves from ten objects.
        var objects: [[UInt8]] = (UInt64(1)...9).map { BinaryPlistBuilder.array([$0, $0]) }
        objects.append(BinaryPlistBuilder.int(1))
        expectHeldToTheLimitsOfNineSharedArrays(BinaryPlistBuilder(objects).build())
    }

    /// The same tree numbered children first (as the keyed archiver numbers objects): the
    /// table adds it up in one pass, and holds it to the same limits.
    @Test func sharedArraysNumberedChildrenFirstAreHeldToTheLimits() throws {
        var objects: [[UInt8]] = [BinaryPlistBuilder.int(1)]
        objects += (UInt64(0)..<9).map { BinaryPlistBuilder.array([$0, $0]) }
        var builder = BinaryPlistBuilder(objects)
        builder.top = 9
        expectHeldToTheLimitsOfNineSharedArrays(builder.build())
        let short = PropertyListLimits(maxTotalLength: 10)
        var withText = BinaryPlistBuilder([BinaryPlistBuilder.ascii("abcdef"), BinaryPlistBuilder.array([0, 0])])
        withText.top = 1
        #expect(readTable(withText.build(), limits: short) == nil)
        #expect(throws: PropertyListError.self) { try PropertyListValue(binary: withText.build(), limits: short) }
        #expect(agree(withText.build(), limits: PropertyListLimits(maxTotalLength: 12)))
    }

    /// Nine arrays deep, each holding the next twice (2^9 leaves): the table and the tree reader
    /// both read it, both decline it past 500 objects or 8 levels, and agree at 9 levels.
    private func expectHeldToTheLimitsOfNineSharedArrays(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(agree(bytes), sourceLocation: sourceLocation)
        for limits in [PropertyListLimits(maxObjectCount: 500), PropertyListLimits(maxDepth: 8)] {
            #expect(readTable(bytes, limits: limits) == nil, sourceLocation: sourceLocation)
            #expect(throws: PropertyListError.self, sourceLocation: sourceLocation) {
                try PropertyListValue(binary: bytes, limits: limits)
            }
        }
        #expect(agree(bytes, limits: PropertyListLimits(maxDepth: 9)), sourceLocation: sourceLocation)
    }

    /// The walk counts the scalars between two containers together: the limits on the expanded
    /// size and on the text hold at the tree reader's boundaries, before, between and after them.
    @Test(arguments: [
        (PropertyListLimits(maxObjectCount: 6), true), (PropertyListLimits(maxObjectCount: 5), false),
        (PropertyListLimits(maxTotalLength: 8), true), (PropertyListLimits(maxTotalLength: 7), false),
        (PropertyListLimits(maxDepth: 2), true), (PropertyListLimits(maxDepth: 1), false),
    ])
    func runsOfScalarsAreHeldToTheLimits(_ limits: PropertyListLimits, accepted: Bool) {
        // ["abc", 1, ["de"], "fgh"]: six values, eight code units, two levels; with references
        // of every width the walk reads (1, 2 and 4 bytes apart, and any other).
        for width in [1, 2, 3, 4, 8] {
            var builder = BinaryPlistBuilder([
                BinaryPlistBuilder.array([1, 2, 3, 5], referenceSize: width), BinaryPlistBuilder.ascii("abc"),
                BinaryPlistBuilder.int(1), BinaryPlistBuilder.array([4], referenceSize: width), BinaryPlistBuilder.ascii("de"),
                BinaryPlistBuilder.ascii("fgh"),
            ])
            builder.referenceSize = width
            let bytes = builder.build()
            #expect(agree(bytes, limits: limits) == accepted, "references of \(width) bytes")
            if !accepted {
                #expect(throws: PropertyListError.self) { try PropertyListValue(binary: bytes, limits: limits) }
            }
        }
    }

    /// Dictionaries of one key shape have their keys' totals added at once: the limits on the
    /// expanded size and on the text still hold at the tree reader's boundaries.
    @Test(arguments: [
        (PropertyListLimits(maxObjectCount: 16), true), (PropertyListLimits(maxObjectCount: 15), false),
        (PropertyListLimits(maxTotalLength: 18), true), (PropertyListLimits(maxTotalLength: 17), false),
    ])
    func dictionariesOfOneShapeAreHeldToTheLimits(_ limits: PropertyListLimits, accepted: Bool) {
        // [{"ab": 1, "cde": "f"}, {"ab": 1, "cde": "g"}, {"ab": 1, "cde": "f"}]: 16 values (the
        // array, and 3 dictionaries of 1 + 4) and 3 * 6 code units, the third dictionary an object
        // of its own with the same keys.
        let bytes = BinaryPlistBuilder([
            BinaryPlistBuilder.array([1, 2, 3]), BinaryPlistBuilder.dict(keys: [4, 5], values: [6, 7]),
            BinaryPlistBuilder.dict(keys: [4, 5], values: [6, 8]), BinaryPlistBuilder.dict(keys: [4, 5], values: [6, 7]),
            BinaryPlistBuilder.ascii("ab"), BinaryPlistBuilder.ascii("cde"), BinaryPlistBuilder.int(1),
            BinaryPlistBuilder.ascii("f"), BinaryPlistBuilder.ascii("g"),
        ]).build()
        let tree = Result { () throws(PropertyListError) in try PropertyListValue(binary: bytes, limits: limits) }
        #expect(((try? tree.get()) != nil) == accepted)
        #expect(agree(bytes, limits: limits) == accepted)
    }

    /// An object's references are checked in one call: scalars and UIDs below the limit pass,
    /// and the first container or UID out of range from a position is found.
    @Test func theFirstValueToCheckIsAContainerOrAUIDOutOfRange() throws {
        // {k0: 7, k1: UID 2, k2: UID 9, k3: [], k4: "s"}
        let bytes = BinaryPlistBuilder([
            BinaryPlistBuilder.dict(keys: [1, 2, 3, 4, 5], values: [6, 7, 8, 9, 10]),
            BinaryPlistBuilder.ascii("k0"), BinaryPlistBuilder.ascii("k1"), BinaryPlistBuilder.ascii("k2"),
            BinaryPlistBuilder.ascii("k3"), BinaryPlistBuilder.ascii("k4"), BinaryPlistBuilder.int(7), [0x80, 0x02], [0x80, 0x09],
            BinaryPlistBuilder.array([]), BinaryPlistBuilder.ascii("s"),
        ]).build()
        let table = try #require(readTable(bytes))
        let dictionary = try #require(table.container(0))
        expectEqual(table.firstValueToCheck(in: dictionary, from: 0, uidsBelow: 3), 2)
        expectEqual(table.firstValueToCheck(in: dictionary, from: 0, uidsBelow: 10), 3)
        expectEqual(table.firstValueToCheck(in: dictionary, from: 3, uidsBelow: 3), 3)
        #expect(table.firstValueToCheck(in: dictionary, from: 4, uidsBelow: 3) == nil)
        expectEqual(table.firstValueToCheck(in: dictionary, from: 0, uidsBelow: 2), 1)
    }

    @Test func aCycleIsDeclined() {
        let bytes = BinaryPlistBuilder([BinaryPlistBuilder.array([1]), BinaryPlistBuilder.array([0])]).build()
        #expect(readTable(bytes) == nil)
        #expect(throws: PropertyListError.self) { try PropertyListValue(binary: bytes) }
    }

    /// Keys are numbered by their strings: the same key in two dictionaries, written once or
    /// twice, has one number, found by its string.
    @Test func equalKeysShareANumber() throws {
        let bytes = BinaryPlistBuilder([
            BinaryPlistBuilder.array([1, 2]), BinaryPlistBuilder.dict(keys: [3], values: [5]),
            BinaryPlistBuilder.dict(keys: [4], values: [5]), BinaryPlistBuilder.ascii("name"), BinaryPlistBuilder.ascii("name"),
            BinaryPlistBuilder.int(9),
        ]).build()
        let table = try #require(readTable(bytes))
        let id = try #require(table.keyID(for: "name"))
        #expect(table.keyID(ofObject: 3) == id && table.keyID(ofObject: 4) == id)
        #expect(table.keyID(for: "other") == nil)
        let second = try #require(table.container(2))
        expectEqual(table.object(forKey: id, in: second), 5)
        expectEqual(table.value(of: 0), [["name": 9], ["name": 9]])
    }
}
