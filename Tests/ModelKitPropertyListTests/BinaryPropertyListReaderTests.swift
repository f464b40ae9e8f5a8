import Foundation
import Testing
@testable import ModelKitPropertyList
import ModelKitTestSupport

private typealias B = BinaryPlistBuilder

/// Reads one object as the top object of an otherwise empty file.
private func readSingle(_ object: [UInt8], limits: PropertyListLimits = .default) throws(PropertyListError) -> PropertyListValue {
    try PropertyListValue(binary: B([object]).build(), limits: limits)
}

/// Expects reading `bytes` to fail with `kind`, and returns the error.
@discardableResult
private func expectFailure(
    _ bytes: [UInt8], _ kind: PropertyListError.Kind, limits: PropertyListLimits = .default,
    sourceLocation: SourceLocation = #_sourceLocation
) -> PropertyListError? {
    do {
        let value = try PropertyListValue(binary: bytes, limits: limits)
        Issue.record("expected \(kind), read \(value)", sourceLocation: sourceLocation)
        return nil
    } catch {
        #expect(error.kind == kind, sourceLocation: sourceLocation)
        #expect(error.operation == .readingBinary, sourceLocation: sourceLocation)
        let offset = error.byteOffset ?? -1
        #expect(offset >= 0 && offset <= bytes.count, sourceLocation: sourceLocation)
        return error
    }
}

struct BinaryPropertyListReaderTests {
    // MARK: Objects

    @Test(arguments: [
        ([0x00], PropertyListValue.null),
        ([0x08], false),
        ([0x09], true),
        ([0x10, 0xFF], 255),
        ([0x11, 0x01, 0x00], 256),
        ([0x12, 0xFF, 0xFF, 0xFF, 0xFF], .integer(PropertyListInteger(UInt64(0xFFFF_FFFF)))),
        ([0x13, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFE], -2),
        ([0x13, 0x80, 0, 0, 0, 0, 0, 0, 0], .integer(PropertyListInteger(Int64.min))),
        ([0x14] + [UInt8](repeating: 0, count: 8) + [UInt8](repeating: 0xFF, count: 8), .integer(PropertyListInteger(UInt64.max))),
        ([0x14] + [UInt8](repeating: 0, count: 8) + [0, 0, 0, 0, 0, 0, 0, 7], 7),
        ([0x14] + [UInt8](repeating: 0xFF, count: 16), -1),
        ([0x22, 0x3F, 0xC0, 0x00, 0x00], .real(PropertyListReal(Float(1.5)))),
        ([0x23, 0x3F, 0xF8, 0, 0, 0, 0, 0, 0], 1.5),
        ([0x33, 0x41, 0xCE, 0x5E, 0x8E, 0x4F, 0x5E, 0x0B, 0xC8], .date(Date(timeIntervalSinceReferenceDate: 1_019_026_590.7347345))),
        ([0x43, 1, 2, 3], .data(Data([1, 2, 3]))),
        ([0x40], .data(Data())),
        ([0x53, 0x61, 0x62, 0x63], "abc"),
        ([0x50], ""),
        ([0x62, 0x00, 0xE9, 0x00, 0x21], "é!"),
        ([0x62, 0xD8, 0x3D, 0xDE, 0x00], "😀"),
        ([0x80, 0x07], .uid(7)),
        ([0x81, 0x01, 0x00], .uid(256)),
        ([0x82, 0x01, 0x00, 0x00], .uid(65536)),
        ([0x87, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], .uid(UInt64.max)),
        ([0x8F] + [UInt8](repeating: 0, count: 15) + [9], .uid(9)),
        ([0xA0], []),
        ([0xD0], [:]),
    ] as [([UInt8], PropertyListValue)])
    func readsEveryScalarMarker(_ object: [UInt8], _ expected: PropertyListValue) throws {
        try expectEqual(readSingle(object), expected)
    }

    @Test func readsContainersAndSetsAsArrays() throws {
        let bytes = B([
            B.dict(keys: [1, 2], values: [3, 4]),
            B.ascii("list"), B.ascii("set"),
            B.array([5, 6]),
            [0xC2, 5, 6],
            B.int(1), B.ascii("two"),
        ]).build()
        let value = try PropertyListValue(binary: bytes)
        expectEqual(value, ["list": [1, "two"], "set": [1, "two"]])
        #expect(value.dictionaryValue?.keys == ["list", "set"])
    }

    @Test func readsExtendedCounts() throws {
        let text = String(repeating: "x", count: 300)
        try expectEqual(readSingle(B.ascii(text)), .string(text))
        try expectEqual(readSingle(B.marker(0x4, count: 15) + [UInt8](repeating: 7, count: 15)), .data(Data(repeating: 7, count: 15)))
        // An 8-byte extended count that is small.
        try expectEqual(readSingle([0x5F, 0x13, 0, 0, 0, 0, 0, 0, 0, 2, 0x68, 0x69]), "hi")
        let elements = (0..<20).map { _ in UInt64(1) }
        let value = try PropertyListValue(binary: B([B.array(elements), B.int(3)]).build())
        #expect(value.arrayValue?.count == 20)
    }

    @Test func sharedObjectsAreDecodedOnceAndReused() throws {
        // Object 1 is referenced three times: a DAG, not a cycle.
        let bytes = B([B.array([1, 2, 1]), B.ascii("shared"), B.array([1])]).build()
        try expectEqual(PropertyListValue(binary: bytes), ["shared", ["shared"], "shared"])
    }

    @Test func duplicateKeysKeepFirstPositionAndLastValue() throws {
        let bytes = B([B.dict(keys: [1, 2, 1], values: [3, 4, 5]), B.ascii("a"), B.ascii("b"), B.int(1), B.int(2), B.int(3)]).build()
        let value = try PropertyListValue(binary: bytes)
        #expect(value.dictionaryValue?.keys == ["a", "b"])
        expectEqual(value["a"], 3)
        expectEqual(value["b"], 2)
    }

    @Test func widerOffsetAndReferenceSizesAreRead() throws {
        var builder = B([B.array([1, 2], referenceSize: 3), B.ascii("a"), B.int(5)])
        builder.referenceSize = 3
        builder.offsetSize = 5
        try expectEqual(PropertyListValue(binary: builder.build()), ["a", 5])
    }

    @Test func readsFromData() throws {
        let bytes = B([B.ascii("hello")]).build()
        try expectEqual(PropertyListValue(binary: Data(bytes)), "hello")
        try expectEqual(PropertyListValue(parsing: Data(bytes)), "hello")
    }

    // MARK: Header and trailer

    @Test func rejectsBadHeadersAndTrailers() {
        let valid = B([B.int(1)]).build()
        expectFailure(Array(valid.prefix(39)), .tooShort(length: 39))
        expectFailure([], .tooShort(length: 0))
        var magic = valid
        magic[0] = UInt8(ascii: "x")
        expectFailure(magic, .notBinaryPropertyList)
        var version = B([B.int(1)])
        version.header = Array("bplist15".utf8)
        expectFailure(version.build(), .unsupportedVersion("15"))

        for size in [0, 9, 255] {
            var builder = B([B.int(1)])
            builder.offsetSize = size
            builder.tableOffset = 10
            let bytes = builder.build()
            expectFailure(bytes, .invalidOffsetSize(size))
        }
        var reference = B([B.int(1)])
        reference.referenceSize = 0
        expectFailure(reference.build(), .invalidReferenceSize(0))
        var none = B([B.int(1)])
        none.objectCount = 0
        expectFailure(none.build(), .noObjects)
    }

    @Test func rejectsAnObjectCountTheTableCannotHold() {
        // 2^60 objects: rejected from the table's size, before anything is allocated.
        var builder = B([B.int(1)])
        builder.objectCount = 1 << 60
        let error = expectFailure(builder.build(), .objectCountExceedsData(count: 1 << 60, room: 1))
        #expect(error?.description == "invalid binary property list at byte 19: the trailer announces 1152921504606846976 objects but the offset table has room for 1")
        builder.objectCount = UInt64.max
        expectFailure(builder.build(), .objectCountExceedsData(count: UInt64.max, room: 1))
    }

    @Test func rejectsOffsetTablesOutsideTheFile() {
        for offset: UInt64 in [0, 8, 1_000, 1 << 63, UInt64.max] {
            var builder = B([B.int(1)])
            builder.tableOffset = offset
            expectFailure(builder.build(), .offsetTableOutOfRange(offset))
        }
    }

    @Test func rejectsTopObjectsOutOfRange() {
        var builder = B([B.int(1)])
        builder.top = 1
        expectFailure(builder.build(), .topObjectOutOfRange(1, objects: 1))
        builder.top = UInt64.max
        expectFailure(builder.build(), .topObjectOutOfRange(UInt64.max, objects: 1))
    }

    @Test func rejectsObjectOffsetsOutsideTheObjectArea() {
        for offset: UInt64 in [0, 7, 10, 11, 255] {
            var builder = B([B.int(1)])
            builder.offsets = [0: offset]
            expectFailure(builder.build(), .objectOffsetOutOfRange(object: 0, offset: offset))
        }
        var wide = B([B.int(1)])
        wide.offsetSize = 8
        wide.offsets = [0: UInt64.max]
        expectFailure(wide.build(), .objectOffsetOutOfRange(object: 0, offset: UInt64.max))
    }

    @Test func rejectsReferenceSizesTooSmallForTheObjectCount() {
        var objects: [[UInt8]] = [B.array([1])]
        objects += (0..<300).map { _ in [UInt8](B.int(1)) }
        let builder = B(objects)
        expectFailure(builder.build(), .referenceSizeTooSmall(size: 1, objects: 301))
    }

    // MARK: References

    @Test func rejectsObjectReferencesOutOfRange() {
        let builder = B([B.array([1, 99]), B.int(1)])
        let error = expectFailure(builder.build(), .objectReferenceOutOfRange(99, objects: 2))
        #expect(error?.byteOffset == 10)
        #expect(error?.description == "invalid binary property list at byte 10: object reference 99 is out of range (2 objects)")
    }

    @Test func rejectsAnArrayThatContainsItself() {
        expectFailure(B([B.array([0])]).build(), .referenceCycle(object: 0))
        expectFailure(B([B.array([1]), B.array([2]), B.array([0])]).build(), .referenceCycle(object: 0))
        expectFailure(B([B.array([1]), B.array([1])]).build(), .referenceCycle(object: 1))
        // A dictionary whose value is itself.
        expectFailure(B([B.dict(keys: [1], values: [0]), B.ascii("self")]).build(), .referenceCycle(object: 0))
    }

    @Test func rejectsNonStringKeysWithoutDecodingThem() {
        expectFailure(B([B.dict(keys: [1], values: [1]), B.int(1)]).build(), .nonStringKey("integer"))
        // A key that is the dictionary itself is reported as a wrong key type, not decoded.
        expectFailure(B([B.dict(keys: [0], values: [0])]).build(), .nonStringKey("array or dictionary"))
        expectFailure(B([B.dict(keys: [1], values: [2]), B.array([]), B.int(1)]).build(), .nonStringKey("array"))
        // A key already decoded as a value elsewhere.
        expectFailure(B([B.array([1, 2]), B.int(1), B.dict(keys: [1], values: [1])]).build(), .nonStringKey("integer"))
    }

    // MARK: Malformed objects

    @Test(arguments: [
        ([0x70], PropertyListError.Kind.invalidMarker(0x70)),
        ([0x0F], .invalidMarker(0x0F)),
        ([0x01], .invalidMarker(0x01)),
        ([0x15] + [UInt8](repeating: 0, count: 32), .invalidMarker(0x15)),
        ([0x21, 0, 0], .invalidMarker(0x21)),
        ([0x34, 0, 0, 0, 0, 0, 0, 0, 0], .invalidMarker(0x34)),
        ([0x90], .invalidMarker(0x90)),
        ([0xB0], .invalidMarker(0xB0)),
        ([0xE0], .invalidMarker(0xE0)),
        ([0xF0], .invalidMarker(0xF0)),
        ([0x5F, 0x23, 0, 0, 0, 0, 0, 0, 0, 0], .invalidLength(marker: 0x5F, lengthMarker: 0x23)),
        ([0x5F, 0x14] + [UInt8](repeating: 0, count: 16), .invalidLength(marker: 0x5F, lengthMarker: 0x14)),
        ([0x13, 1, 2, 3], .truncatedObject(marker: 0x13, needed: 8, available: 3)),
        ([0x53, 0x61], .truncatedObject(marker: 0x53, needed: 3, available: 1)),
        ([0x62, 0x00, 0x61], .truncatedObject(marker: 0x62, needed: 4, available: 2)),
        ([0x5F], .truncatedObject(marker: 0x5F, needed: 1, available: 0)),
        ([0x5F, 0x11, 0x00], .truncatedObject(marker: 0x5F, needed: 3, available: 2)),
        ([0x14, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0], .integerOutOfRange),
        ([0x14, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F, 0, 0, 0, 0, 0, 0, 0], .integerOutOfRange),
        ([0x8F, 1] + [UInt8](repeating: 0, count: 15), .uidOutOfRange),
        ([0x52, 0x61, 0x80], .invalidASCII(byte: 0x80)),
        ([0x61, 0xD8, 0x00], .invalidUTF16(codeUnit: 0xD800)),
        ([0x62, 0xD8, 0x00, 0x00, 0x61], .invalidUTF16(codeUnit: 0xD800)),
        ([0x61, 0xDC, 0x00], .invalidUTF16(codeUnit: 0xDC00)),
        ([0x62, 0xDB, 0xFF, 0xDB, 0xFF], .invalidUTF16(codeUnit: 0xDBFF)),
    ] as [([UInt8], PropertyListError.Kind)])
    func rejectsMalformedObjects(_ object: [UInt8], _ kind: PropertyListError.Kind) {
        expectFailure(B([object]).build(), kind)
    }

    @Test(arguments: [0x4 as UInt8, 0x5, 0x6, 0xA, 0xC, 0xD])
    func rejectsHugeCountsBeforeAllocating(_ nibble: UInt8) {
        // 2^60 elements announced by a 10-byte object: every kind fails on the count.
        let unit: UInt64 = nibble == 0x6 ? 2 : nibble == 0xD ? 2 : 1
        for count: UInt64 in [1 << 60, UInt64.max, 1 << 32] {
            let needed = count.multipliedReportingOverflow(by: unit)
            expectFailure(
                B([B.hugeCount(nibble, count)]).build(),
                .truncatedObject(
                    marker: nibble << 4 | 0xF, needed: needed.overflow ? UInt64.max : needed.partialValue, available: 0))
        }
    }

    // MARK: Limits

    @Test func depthLimitAllowsTheLimitAndRejectsOneMore() throws {
        let atLimit = try PropertyListValue(binary: B.nestedArrays(depth: 512))
        var depth = 0
        var current = atLimit
        while case .array(let elements) = current {
            depth += 1
            guard let first = elements.first else { break }
            current = first
        }
        expectEqual(depth, 512)
        let error = expectFailure(B.nestedArrays(depth: 513), .limitExceeded(.maxDepth, limit: 512, found: 513))
        #expect(error?.description.hasSuffix("nesting depth 513 exceeds the limit 'maxDepth' (512)") == true)
        let small = PropertyListLimits(maxDepth: 3)
        #expect(throws: Never.self) { try PropertyListValue(binary: B.nestedArrays(depth: 3), limits: small) }
        expectFailure(B.nestedArrays(depth: 4), .limitExceeded(.maxDepth, limit: 3, found: 4), limits: small)
    }

    @Test func depthLimitCountsSharedObjectsAtEveryPosition() {
        // Object 2 ([[ ]], height 2) is first reached at depth 1, then again below object 1.
        let bytes = B([B.array([2, 1]), B.array([2]), B.array([3]), [0xA0]]).build()
        #expect(throws: Never.self) { try PropertyListValue(binary: bytes, limits: PropertyListLimits(maxDepth: 4)) }
        expectFailure(bytes, .limitExceeded(.maxDepth, limit: 3, found: 4), limits: PropertyListLimits(maxDepth: 3))
    }

    @Test func exponentialExpansionIsBoundedByTheObjectCount() throws {
        // Object i holds object i + 1 twice: 64 objects expand to 2^64 values.
        var objects = (UInt64(1)...63).map { B.array([$0, $0]) }
        objects.append(B.int(1))
        let bytes = B(objects).build()
        let error = expectFailure(bytes, .limitExceeded(.maxObjectCount, limit: 10_000_000, found: 16_777_215))
        #expect(error != nil)
        // Small expansions within the limit are read, and shared.
        var few = (UInt64(1)...3).map { B.array([$0, $0]) }
        few.append(B.int(1))
        let pair: PropertyListValue = [1, 1]
        try expectEqual(PropertyListValue(binary: B(few).build()), [[pair, pair], [pair, pair]])
        expectFailure(B(few).build(), .limitExceeded(.maxObjectCount, limit: 14, found: 15), limits: PropertyListLimits(maxObjectCount: 14))
    }

    @Test func sharedLongStringsAreBoundedByTheTotalLength() throws {
        // One 1,000-character string referenced 300 times: 300,000 characters in the value.
        let text = String(repeating: "x", count: 1_000)
        var builder = B([B.array([UInt64](repeating: 1, count: 300)), B.ascii(text)])
        builder.offsetSize = 2
        let bytes = builder.build()
        let value = try PropertyListValue(binary: bytes)
        #expect(value.arrayValue?.count == 300)
        expectFailure(bytes, .limitExceeded(.maxTotalLength, limit: 100_000, found: 101_000), limits: PropertyListLimits(maxTotalLength: 100_000))
        expectFailure(B([B.ascii("abc")]).build(), .limitExceeded(.maxTotalLength, limit: 2, found: 3), limits: PropertyListLimits(maxTotalLength: 2))
    }

    @Test func sharedLongKeysAreDeduplicatedByContent() throws {
        // Thirteen long keys of equal length and a long common prefix, shared by many dictionaries;
        // objects 1 and 14 hold the same text, so every dictionary has a repeated key.
        let prefix = String(repeating: "k", count: 500)
        var objects: [[UInt8]] = [B.array((0..<200).map { _ in 15 }, referenceSize: 1)]
        objects += (0..<13).map { B.ascii(prefix + String(UnicodeScalar(UInt8(97 + $0)))) }
        objects.append(B.ascii(prefix + "a"))
        objects.append(B.dict(keys: Array(1...14), values: Array(repeating: 16, count: 14)))
        objects.append(B.int(9))
        var builder = B(objects)
        builder.offsetSize = 2
        let value = try PropertyListValue(binary: builder.build())
        let dictionaries = try #require(value.arrayValue)
        expectEqual(dictionaries.count, 200)
        let first = try #require(dictionaries[0].dictionaryValue)
        expectEqual(first.count, 13)
        expectEqual(first.keys.first, prefix + "a")
        expectEqual(first[prefix + "m"], 9)
    }

    @Test func objectCountLimitAppliesToTheTrailer() {
        let bytes = B([B.array([1, 2]), B.int(1), B.int(2)]).build()
        expectFailure(bytes, .limitExceeded(.maxObjectCount, limit: 2, found: 3), limits: PropertyListLimits(maxObjectCount: 2))
    }

    @Test func collectionStringAndDataLimits() throws {
        let limits = PropertyListLimits(maxCollectionCount: 2, maxStringLength: 3, maxDataLength: 4)
        try expectEqual(readSingle(B.ascii("abc"), limits: limits), "abc")
        expectFailure(B([B.ascii("abcd")]).build(), .limitExceeded(.maxStringLength, limit: 3, found: 4), limits: limits)
        expectFailure(B([[0x64, 0, 0x61, 0, 0x62, 0, 0x63, 0, 0x64]]).build(), .limitExceeded(.maxStringLength, limit: 3, found: 4), limits: limits)
        try expectEqual(readSingle([0x44, 1, 2, 3, 4], limits: limits), .data(Data([1, 2, 3, 4])))
        expectFailure(B([[0x45, 1, 2, 3, 4, 5]]).build(), .limitExceeded(.maxDataLength, limit: 4, found: 5), limits: limits)
        expectFailure(B([B.array([1, 1, 1]), B.int(1)]).build(), .limitExceeded(.maxCollectionCount, limit: 2, found: 3), limits: limits)
        expectFailure(
            B([B.dict(keys: [1, 1, 1], values: [1, 1, 1]), B.ascii("k")]).build(),
            .limitExceeded(.maxCollectionCount, limit: 2, found: 3), limits: limits)
    }
}
