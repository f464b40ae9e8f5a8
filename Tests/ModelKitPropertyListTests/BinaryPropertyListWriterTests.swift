import Foundation
import Testing
@testable import ModelKitPropertyList
import ModelKitTestSupport

/// The object bytes of a written property list, by object index, for layout assertions.
private func objectBytes(_ bytes: [UInt8]) -> (objects: [[UInt8]], offsetSize: Int, referenceSize: Int) {
    let trailer = bytes.count - 32
    let offsetSize = Int(bytes[trailer + 6])
    let referenceSize = Int(bytes[trailer + 7])
    let count = Int(BinaryPlistBuilder.readBigEndian(bytes, at: trailer + 8, size: 8))
    let table = Int(BinaryPlistBuilder.readBigEndian(bytes, at: trailer + 24, size: 8))
    let offsets = (0..<count).map { Int(BinaryPlistBuilder.readBigEndian(bytes, at: table + $0 * offsetSize, size: offsetSize)) }
    let sorted = offsets.sorted() + [table]
    var ends: [Int: Int] = [:]
    for index in 0..<(sorted.count - 1) { ends[sorted[index]] = sorted[index + 1] }
    let objects = offsets.map { Array(bytes[$0..<(ends[$0] ?? table)]) }
    return (objects, offsetSize, referenceSize)
}

extension BinaryPlistBuilder {
    static func readBigEndian(_ bytes: [UInt8], at offset: Int, size: Int) -> UInt64 {
        bytes[offset..<(offset + size)].reduce(0) { $0 << 8 | UInt64($1) }
    }
}

struct BinaryPropertyListWriterTests {
    @Test func writesTheExactLayoutOfASmallDictionary() {
        let bytes = PropertyListValue.dictionary(["a": 1]).binaryBytes()
        let expected: [UInt8] = Array("bplist00".utf8)
            + [0x51, 0x61]  // object 1 at 8: "a"
            + [0x10, 0x01]  // object 2 at 10: 1
            + [0xD1, 0x01, 0x02]  // object 0 at 12: { 1: 2 }
            + [0x0C, 0x08, 0x0A]  // offset table at 15
            + [0, 0, 0, 0, 0, 0, 1, 1]
            + [0, 0, 0, 0, 0, 0, 0, 3]  // objects
            + [0, 0, 0, 0, 0, 0, 0, 0]  // top
            + [0, 0, 0, 0, 0, 0, 0, 15]  // table
        expectEqual(bytes, expected)
    }

    @Test func uniquesScalarsButNotContainers() throws {
        let value: PropertyListValue = ["x", "x", 1, 1, 1.0, true, true, .uid(3), .uid(3), [], [], [:], [:], .null, .null]
        let layout = objectBytes(value.binaryBytes())
        // Root, "x", 1, 1.0, true, uid, two empty arrays, two empty dictionaries, null.
        expectEqual(layout.objects.count, 11)
        expectEqual(layout.objects.filter { $0 == [0xA0] }.count, 2)
        expectEqual(layout.objects.filter { $0 == [0xD0] }.count, 2)
        try expectEqual(PropertyListValue(binary: value.binaryBytes()), value)
    }

    @Test func keepsCanonicallyEquivalentStringsApart() throws {
        let value: PropertyListValue = ["\u{E9}", "e\u{301}", ["\u{E9}": 1, "e\u{301}": 2]]
        let again = try PropertyListValue(binary: value.binaryBytes())
        expectEqual(again, value)
        #expect(again[0]?.stringValue?.unicodeScalars.count == 1)
        #expect(again[1]?.stringValue?.unicodeScalars.count == 2)
        #expect(again[2]?.dictionaryValue?.count == 2)
    }

    @Test(arguments: [
        (PropertyListValue.integer(0), [0x10, 0x00] as [UInt8]),
        (255, [0x10, 0xFF]),
        (256, [0x11, 0x01, 0x00]),
        (65_535, [0x11, 0xFF, 0xFF]),
        (65_536, [0x12, 0x00, 0x01, 0x00, 0x00]),
        (.integer(PropertyListInteger(UInt64(1) << 32)), [0x13, 0, 0, 0, 1, 0, 0, 0, 0]),
        (.integer(PropertyListInteger(Int64.max)), [0x13, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]),
        (-1, [0x13, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]),
        (.integer(PropertyListInteger(UInt64.max)), [0x14] + [UInt8](repeating: 0, count: 8) + [UInt8](repeating: 0xFF, count: 8)),
        (.real(PropertyListReal(Float(1.5))), [0x22, 0x3F, 0xC0, 0x00, 0x00]),
        (1.5, [0x23, 0x3F, 0xF8, 0, 0, 0, 0, 0, 0]),
        (.date(Date(timeIntervalSinceReferenceDate: 1.5)), [0x33, 0x3F, 0xF8, 0, 0, 0, 0, 0, 0]),
        (.data(Data([1, 2])), [0x42, 1, 2]),
        ("abc", [0x53, 0x61, 0x62, 0x63]),
        ("", [0x50]),
        ("é", [0x61, 0x00, 0xE9]),
        ("a😀", [0x63, 0x00, 0x61, 0xD8, 0x3D, 0xDE, 0x00]),
        ("abcdefghijklmno", [0x5F, 0x10, 0x0F] + Array("abcdefghijklmno".utf8)),
        (.uid(0), [0x80, 0x00]),
        (.uid(255), [0x80, 0xFF]),
        (.uid(256), [0x81, 0x01, 0x00]),
        (.uid(70_000), [0x83, 0x00, 0x01, 0x11, 0x70]),
        (.uid(UInt64(1) << 32), [0x87, 0, 0, 0, 1, 0, 0, 0, 0]),
        (true, [0x09]),
        (false, [0x08]),
        (.null, [0x00]),
    ] as [(PropertyListValue, [UInt8])])
    func writesTheSmallestEncodingOfEachScalar(_ value: PropertyListValue, _ expected: [UInt8]) throws {
        let bytes = value.binaryBytes()
        expectEqual(objectBytes(bytes).objects, [expected])
        try expectEqual(PropertyListValue(binary: bytes), value)
    }

    @Test func widensReferencesAndOffsetsAsNeeded() throws {
        let small: PropertyListValue = .array((0..<254).map { .string("s\($0)") })
        expectEqual(objectBytes(small.binaryBytes()).referenceSize, 1)
        // 256 objects need 2-byte references (Apple sizes references by the object count).
        let wider: PropertyListValue = .array((0..<255).map { .string("s\($0)") })
        let layout = objectBytes(wider.binaryBytes())
        expectEqual(layout.referenceSize, 2)
        expectEqual(layout.offsetSize, 2)
        let big: PropertyListValue = [.data(Data(count: 70_000)), "end"]
        let bigLayout = objectBytes(big.binaryBytes())
        expectEqual(bigLayout.offsetSize, 4)
        try expectEqual(PropertyListValue(binary: big.binaryBytes()), big)
        let many: PropertyListValue = .array((0..<70_000).map { .integer(PropertyListInteger($0)) })
        expectEqual(objectBytes(many.binaryBytes()).referenceSize, 4)
        try expectEqual(PropertyListValue(binary: many.binaryBytes()), many)
    }

    @Test func writesDictionariesInDocumentOrder() throws {
        let value: PropertyListValue = ["zebra": 1, "apple": 2, "mango": 3]
        let again = try PropertyListValue(binary: value.binaryBytes())
        #expect(again.dictionaryValue?.keys == ["zebra", "apple", "mango"])
    }

    @Test func writesDeepValuesWithoutRecursion() throws {
        var value: PropertyListValue = "bottom"
        for _ in 0..<1_000 { value = [value] }
        let bytes = value.binaryBytes()
        #expect(throws: PropertyListError.self) { try PropertyListValue(binary: bytes) }
        let again = try PropertyListValue(binary: bytes, limits: PropertyListLimits(maxDepth: 1_000))
        expectEqual(again, value)
    }

    @Test func foundationReadsWhatWeWrite() throws {
        let value: PropertyListValue = [
            "string": "hello", "unicode": "Zürich 😀", "int": 42, "negative": -7, "big": .integer(PropertyListInteger(Int64.max)),
            "real": 2.5, "true": true, "false": false, "data": .data(Data([0, 1, 2, 255])),
            "date": .date(Date(timeIntervalSinceReferenceDate: 86_400)), "array": [1, "two", [3]], "empty": [:],
        ]
        let object = try PropertyListSerialization.propertyList(from: value.binaryData(), options: [], format: nil)
        let dictionary = try #require(object as? [String: Any])
        #expect(dictionary["string"] as? String == "hello")
        #expect(dictionary["unicode"] as? String == "Zürich 😀")
        #expect((dictionary["int"] as? NSNumber)?.int64Value == 42)
        #expect((dictionary["negative"] as? NSNumber)?.int64Value == -7)
        #expect((dictionary["big"] as? NSNumber)?.int64Value == Int64.max)
        #expect((dictionary["real"] as? NSNumber)?.doubleValue == 2.5)
        #expect(dictionary["true"] as? Bool == true)
        #expect(dictionary["false"] as? Bool == false)
        #expect(dictionary["data"] as? Data == Data([0, 1, 2, 255]))
        #expect(dictionary["date"] as? Date == Date(timeIntervalSinceReferenceDate: 86_400))
        let array = try #require(dictionary["array"] as? [Any])
        expectEqual(array.count, 3)
        #expect(array[1] as? String == "two")
        #expect((dictionary["empty"] as? [String: Any])?.isEmpty == true)
    }

    @Test func weReadWhatFoundationWrites() throws {
        let object: [String: Any] = [
            "name": "ModelKit", "count": 3, "ratio": 0.25, "flag": true, "bytes": Data([9, 8, 7]),
            "list": ["a", "b", "a"], "when": Date(timeIntervalSinceReferenceDate: 1_000), "nested": ["k": "v"],
        ]
        let data = try PropertyListSerialization.data(fromPropertyList: object, format: .binary, options: 0)
        let value = try PropertyListValue(binary: data)
        expectEqual(value["name"], "ModelKit")
        expectEqual(value["count"], 3)
        #expect(value["ratio"]?.doubleValue == 0.25)
        expectEqual(value["flag"], true)
        expectEqual(value["bytes"], .data(Data([9, 8, 7])))
        expectEqual(value["list"], ["a", "b", "a"])
        expectEqual(value["when"], .date(Date(timeIntervalSinceReferenceDate: 1_000)))
        expectEqual(value["nested"], ["k": "v"])
    }
}
