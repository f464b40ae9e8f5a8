import Foundation
import Testing
@testable import ModelKitPropertyList
import ModelKitTestSupport

/// Damaged inputs: every truncation, bit flips at every byte, random mutations and random values.
/// Readers must return a value or throw a `PropertyListError` (typed throws make any other error
/// impossible); they must never trap, hang or read out of bounds. Whatever they accept must write
/// back and read again to the same value.
struct PropertyListRobustnessTests {
    static let binaryFixtures = [
        "corelibs/NSKeyedUnarchiver-ComplexTest.plist", "go-ios/arrays.bin", "go-ios/primitives.bin",
        "bpylist2/date_archive.plist",
    ]
    static let xmlFixtures = [
        "corelibs/NSKeyedUnarchiver-ArrayTest.plist", "go-ios/primitives.xml", "corelibs/NSKeyedUnarchiver-UUIDTest.plist",
    ]

    /// Reads damaged binary input; returns whether it was accepted.
    @discardableResult
    private func readBinary(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        do {
            let value = try PropertyListValue(binary: bytes)
            let again = try PropertyListValue(binary: value.binaryBytes(), limits: PropertyListLimits(maxDepth: 1_000))
            #expect(again == value, sourceLocation: sourceLocation)
            return true
        } catch {
            let offset = error.byteOffset ?? -1
            #expect(offset >= 0 && offset <= bytes.count, "\(error)", sourceLocation: sourceLocation)
            #expect(error.operation == .readingBinary, sourceLocation: sourceLocation)
            return false
        }
    }

    /// Reads damaged XML input; returns whether it was accepted.
    @discardableResult
    private func readXML(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        do {
            let value = try PropertyListValue(xml: bytes)
            #expect(try PropertyListValue(binary: value.binaryBytes()) == value, sourceLocation: sourceLocation)
            _ = try PropertyListValue(xml: value.xmlBytes())
            return true
        } catch {
            #expect((error.line ?? 0) >= 1 && (error.column ?? 0) >= 1, "\(error)", sourceLocation: sourceLocation)
            return false
        }
    }

    /// The damage done at one byte: its rotating bit, and all eight bits. (The fuzz harnesses go
    /// further.)
    static func masks(at position: Int) -> [UInt8] {
        [rotatingBit(at: position), 0xFF]
    }

    @Test(arguments: binaryFixtures)
    func everyTruncationOfABinaryFixtureFailsCleanly(_ path: String) {
        let bytes = Fixtures.named(path).bytes
        var accepted = 0
        for length in 0..<bytes.count where readBinary(Array(bytes.prefix(length))) {
            accepted += 1
        }
        // The trailer sits at the end: no proper prefix is a valid file.
        expectEqual(accepted, 0)
    }

    @Test(arguments: binaryFixtures)
    func bitFlipsAtEveryByteOfABinaryFixture(_ path: String) {
        let original = Fixtures.named(path).bytes
        var cases = 0
        for position in original.indices {
            for mask in Self.masks(at: position) {
                var bytes = original
                bytes[position] ^= mask
                readBinary(bytes)
                cases += 1
            }
        }
        expectEqual(cases, original.count * 2)
        #expect(original.count >= 350)
    }

    @Test(arguments: xmlFixtures)
    func everyTruncationOfAnXMLFixtureFailsCleanly(_ path: String) {
        let bytes = Fixtures.named(path).bytes
        var accepted = 0
        for length in 0..<bytes.count where readXML(Array(bytes.prefix(length))) {
            accepted += 1
        }
        // Only the cut that drops the final newline leaves a complete document.
        expectEqual(accepted, 1)
        #expect(readXML(Array(bytes.dropLast())))
    }

    @Test(arguments: xmlFixtures)
    func bitFlipsAtEveryByteOfAnXMLFixture(_ path: String) {
        let original = Fixtures.named(path).bytes
        var cases = 0
        for position in original.indices {
            for mask in Self.masks(at: position) {
                var bytes = original
                bytes[position] ^= mask
                readXML(bytes)
                cases += 1
            }
        }
        expectEqual(cases, original.count * 2)
        #expect(original.count >= 800)
    }

    @Test func randomMutationsOfEveryFixture() {
        var generator = SeededGenerator(seed: 42)
        for file in Fixtures.all {
            let original = file.bytes
            for _ in 0..<150 {
                var bytes = original
                let edits = Int(generator.next() % 4) + 1
                for _ in 0..<edits {
                    let position = Int(generator.next() % UInt64(bytes.count))
                    switch generator.next() % 3 {
                    case 0: bytes[position] = UInt8(truncatingIfNeeded: generator.next())
                    case 1: bytes.remove(at: position)
                    default: bytes.insert(UInt8(truncatingIfNeeded: generator.next()), at: position)
                    }
                }
                if bytes.starts(with: Array("bplist".utf8)) {
                    readBinary(bytes)
                } else {
                    readXML(bytes)
                }
            }
        }
    }

    @Test func randomBytesNeverCrashEitherReader() {
        var generator = SeededGenerator(seed: 7)
        for length in [0, 1, 8, 39, 40, 41, 64, 200] {
            for _ in 0..<100 {
                var bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
                readXML(bytes)
                if length >= 8 { bytes.replaceSubrange(0..<8, with: Array("bplist00".utf8)) }
                readBinary(bytes)
            }
        }
    }

    @Test func randomValuesRoundTripThroughBothFormats() throws {
        var generator = SeededGenerator(seed: 2024)
        for _ in 0..<300 {
            let value = Self.randomValue(&generator, depth: 0, allowBinaryOnly: true)
            try expectEqual(PropertyListValue(binary: value.binaryBytes()), value)
            let xmlSafe = Self.randomValue(&generator, depth: 0, allowBinaryOnly: false)
            try expectEqual(PropertyListValue(xml: xmlSafe.xmlBytes()), xmlSafe)
            try expectEqual(PropertyListValue(binary: xmlSafe.binaryBytes()), xmlSafe)
        }
    }

    /// A random value; `allowBinaryOnly` adds nulls, single-precision reals, fractional dates and
    /// negative zero, which XML cannot carry exactly.
    static func randomValue(_ generator: inout SeededGenerator, depth: Int, allowBinaryOnly: Bool) -> PropertyListValue {
        let pick = generator.next() % (depth > 4 ? 8 : 11)
        switch pick {
        case 0:
            let scalars = ["", "a", "é", "😀", "<&>", "line\nbreak", "\u{0}", "e\u{301}", "CF$UID"]
            return .string(scalars[Int(generator.next() % UInt64(scalars.count))] + String(generator.next() % 100))
        case 1:
            return .integer(PropertyListInteger(Int64(bitPattern: generator.next()) >> (generator.next() % 64)))
        case 2:
            return .integer(PropertyListInteger(generator.next()))
        case 3:
            if allowBinaryOnly, generator.next() % 3 == 0 { return .real(PropertyListReal(Float(bitPattern: UInt32(truncatingIfNeeded: generator.next())))) }
            let real = Double(bitPattern: generator.next())
            return .real(PropertyListReal(allowBinaryOnly || real != 0 ? real : 0))
        case 4:
            return .bool(generator.next() % 2 == 0)
        case 5:
            let seconds = Double(Int64(bitPattern: generator.next()) % 100_000_000_000)
            return .date(Date(timeIntervalSinceReferenceDate: allowBinaryOnly ? seconds + 0.25 : seconds))
        case 6:
            return .data(Data((0..<Int(generator.next() % 100)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }))
        case 7:
            if allowBinaryOnly, generator.next() % 4 == 0 { return .null }
            return .uid(generator.next() >> (generator.next() % 64))
        case 8, 9:
            return .array((0..<Int(generator.next() % 6)).map { _ in randomValue(&generator, depth: depth + 1, allowBinaryOnly: allowBinaryOnly) })
        default:
            var dictionary = PropertyListDictionary()
            for _ in 0..<Int(generator.next() % 6) {
                let key = ["a", "b", "é", "$class", "NS.objects", "k\(generator.next() % 20)"][Int(generator.next() % 6)]
                dictionary[key] = randomValue(&generator, depth: depth + 1, allowBinaryOnly: allowBinaryOnly)
            }
            // A lone CF$UID → integer entry reads back as a UID from XML; keep such values binary-only.
            if !allowBinaryOnly, dictionary.count == 1, dictionary.keys[0] == "CF$UID" { dictionary["x"] = true }
            return .dictionary(dictionary)
        }
    }
}
