import Foundation
import Testing
@testable import ModelKitPropertyList
import ModelKitTestSupport

struct PropertyListValueTests {
    // MARK: Integers

    @Test func integersHaveOneCanonicalForm() {
        expectEqual(PropertyListInteger(UInt64(5)), PropertyListInteger(Int64(5)))
        expectEqual(PropertyListInteger(UInt64(5)).hashValue, PropertyListInteger(5).hashValue)
        expectEqual(PropertyListInteger(exactly: UInt8(7)), 7)
        expectEqual(PropertyListInteger(exactly: UInt64.max), PropertyListInteger(UInt64.max))
        expectEqual(PropertyListInteger(exactly: Int64.min), PropertyListInteger(Int64.min))
    }

    @Test func integersCoverBothSixtyFourBitRanges() {
        let large = PropertyListInteger(UInt64.max)
        #expect(large.int64Value == nil)
        expectEqual(large.uint64Value, UInt64.max)
        #expect(large.needsUnsigned128BitEncoding)
        expectEqual(large.description, "18446744073709551615")
        let negative = PropertyListInteger(Int64.min)
        #expect(negative.uint64Value == nil)
        expectEqual(negative.int64Value, Int64.min)
        #expect(negative.isNegative)
        expectEqual(negative.description, "-9223372036854775808")
        expectEqual(PropertyListInteger(Int64.max).needsUnsigned128BitEncoding, false)
        #expect(PropertyListInteger(-1) < PropertyListInteger(0))
        #expect(PropertyListInteger(Int64.max) < PropertyListInteger(UInt64(Int64.max) + 1))
        #expect(!(large < PropertyListInteger(-1)))
        expectEqual(PropertyListInteger(3).intValue, 3)
        expectEqual(PropertyListInteger(UInt64.max).doubleValue, 18_446_744_073_709_551_615.0)
    }

    // MARK: Reals

    @Test func realsCompareByWidthAndBits() {
        #expect(PropertyListReal(0.0) != PropertyListReal(-0.0))
        expectEqual(PropertyListReal(Double.nan), PropertyListReal(Double.nan))
        #expect(PropertyListReal(Float(1.5)) != PropertyListReal(1.5))
        expectEqual(PropertyListReal(Float(1.5)).widened, PropertyListReal(1.5))
        expectEqual(PropertyListReal(Float(1.5)).width, .single)
        expectEqual(PropertyListReal(1.5).width, .double)
        expectEqual(PropertyListReal(Float(0.1)).doubleValue, Double(Float(0.1)))
        expectEqual(PropertyListReal(0.1).floatValue, Float(0.1))
        let values: Set<PropertyListReal> = [0.0, -0.0, 1.0, PropertyListReal(Float(1))]
        expectEqual(values.count, 4)
    }

    @Test func datesCompareByBitPattern() {
        let zero = PropertyListValue.date(Date(timeIntervalSinceReferenceDate: 0))
        let negativeZero = PropertyListValue.date(Date(timeIntervalSinceReferenceDate: -0.0))
        expectEqual(zero, zero)
        #expect(zero != negativeZero)
        let nan = PropertyListValue.date(Date(timeIntervalSinceReferenceDate: .nan))
        expectEqual(nan, nan)
    }

    // MARK: Strings

    @Test func stringsCompareByExactBytes() {
        let composed = PropertyListValue.string("\u{E9}")
        let decomposed = PropertyListValue.string("e\u{301}")
        #expect(composed != decomposed)
        expectEqual(Set([composed, decomposed]).count, 2)
        expectEqual(composed, "é")
    }

    // MARK: Dictionaries

    @Test func dictionariesKeepDocumentOrder() {
        var dictionary: PropertyListDictionary = ["z": 1, "a": 2, "m": 3]
        expectEqual(dictionary.keys, ["z", "a", "m"])
        dictionary["b"] = 4
        dictionary["z"] = 5
        expectEqual(dictionary.keys, ["z", "a", "m", "b"])
        expectEqual(dictionary["z"], 5)
        expectEqual(dictionary.removeValue(forKey: "a"), 2)
        expectEqual(dictionary.keys, ["z", "m", "b"])
        dictionary["m"] = nil
        expectEqual(dictionary.map(\.key), ["z", "b"])
        #expect(dictionary.updateValue(6, forKey: "new") == nil)
        expectEqual(dictionary.index(forKey: "new"), 2)
        expectEqual(dictionary[1].key, "b")
        expectEqual(dictionary.values, [5, 4, 6])
    }

    @Test func repeatedKeysKeepFirstPositionAndLastValue() {
        let dictionary: PropertyListDictionary = ["a": 1, "b": 2, "a": 3]
        expectEqual(dictionary.keys, ["a", "b"])
        expectEqual(dictionary["a"], 3)
        let large = PropertyListDictionary((0..<40).map { ("k\($0 % 20)", PropertyListValue.integer(PropertyListInteger($0))) })
        expectEqual(large.count, 20)
        expectEqual(large.keys.first, "k0")
        expectEqual(large["k0"], 20)
        expectEqual(large["k19"], 39)
    }

    @Test func longKeysOfEqualLengthAreDeduplicatedByHashing() {
        let stem = String(repeating: "x", count: 100)
        let dictionary = PropertyListDictionary([(stem + "a", 1), (stem + "b", 2), (stem + "a", 3), ("short", 4)])
        expectEqual(dictionary.keys, [stem + "a", stem + "b", "short"])
        expectEqual(dictionary[stem + "a"], 3)
        expectEqual(dictionary[stem + "b"], 2)
        expectEqual(dictionary["short"], 4)
    }

    @Test func dictionaryEqualityIgnoresOrder() {
        let first: PropertyListDictionary = ["a": 1, "b": [2], "c": ["d": true]]
        let second: PropertyListDictionary = ["c": ["d": true], "a": 1, "b": [2]]
        expectEqual(first, second)
        expectEqual(first.hashValue, second.hashValue)
        #expect(first != ["a": 1, "b": [2]])
        #expect(first != ["a": 1, "b": [2], "x": ["d": true]])
        #expect(first != ["a": 1, "b": [3], "c": ["d": true]])
    }

    @Test func canonicallyEquivalentKeysAreDistinct() {
        var dictionary: PropertyListDictionary = ["\u{E9}": 1, "e\u{301}": 2]
        expectEqual(dictionary.count, 2)
        expectEqual(dictionary["\u{E9}"], 1)
        expectEqual(dictionary["e\u{301}"], 2)
        dictionary["e\u{301}"] = nil
        expectEqual(dictionary.keys, ["\u{E9}"])
    }

    @Test func largeDictionariesUseAnIndexAndStayConsistent() {
        var dictionary = PropertyListDictionary()
        for index in 0..<100 { dictionary["key\(index)"] = .integer(PropertyListInteger(index)) }
        expectEqual(dictionary.count, 100)
        expectEqual(dictionary["key73"], 73)
        for index in stride(from: 0, to: 100, by: 2) { dictionary["key\(index)"] = nil }
        expectEqual(dictionary.count, 50)
        expectEqual(dictionary["key73"], 73)
        #expect(dictionary["key72"] == nil)
        expectEqual(dictionary.keys.first, "key1")
        for index in stride(from: 1, to: 90, by: 2) { dictionary["key\(index)"] = nil }
        expectEqual(dictionary.keys, ["key91", "key93", "key95", "key97", "key99"])
        expectEqual(dictionary["key95"], 95)
        let reordered = PropertyListDictionary(dictionary.reversed().map { ($0.key, $0.value) })
        expectEqual(reordered, dictionary)
    }

    // MARK: Accessors and literals

    @Test func accessorsReturnPayloadsOfTheirCaseOnly() {
        let value: PropertyListValue = [
            "s": "text", "i": 7, "r": 0.5, "b": true, "d": .date(Date(timeIntervalSinceReferenceDate: 3)),
            "x": .data(Data([1])), "a": [1, 2], "u": .uid(4), "n": .null,
        ]
        #expect(value["s"]?.stringValue == "text")
        #expect(value["i"]?.int64Value == 7)
        #expect(value["i"]?.doubleValue == 7)
        #expect(value["r"]?.doubleValue == 0.5)
        #expect(value["r"]?.realValue == 0.5)
        #expect(value["b"]?.boolValue == true)
        #expect(value["d"]?.dateValue == Date(timeIntervalSinceReferenceDate: 3))
        #expect(value["x"]?.dataValue == Data([1]))
        #expect(value["a"]?.arrayValue == [1, 2])
        #expect(value["a"]?[1] == 2)
        #expect(value["a"]?[2] == nil)
        #expect(value["a"]?[-1] == nil)
        #expect(value["u"]?.uidValue == 4)
        #expect(value["n"]?.isNull == true)
        #expect(value["s"]?.int64Value == nil)
        #expect(value["s"]?["key"] == nil)
        #expect(value["missing"] == nil)
        #expect(value.dictionaryValue?.count == 9)
        #expect(value["u"]?.kindName == "uid")
    }
}
