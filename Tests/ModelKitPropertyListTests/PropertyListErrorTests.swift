import Testing
@testable import ModelKitPropertyList
import ModelKitTestSupport

struct PropertyListErrorTests {
    @Test(arguments: [
        (PropertyListError(.objectReferenceOutOfRange(99, objects: 42), at: .byte(1234), while: .readingBinary),
         "invalid binary property list at byte 1234: object reference 99 is out of range (42 objects)"),
        (PropertyListError(.limitExceeded(.maxDepth, limit: 512, found: 513), at: .byte(8), while: .readingBinary),
         "invalid binary property list at byte 8: nesting depth 513 exceeds the limit 'maxDepth' (512)"),
        (PropertyListError(.limitExceeded(.maxDataLength, limit: 2, found: nil), at: .lineColumn(line: 3, column: 9), while: .readingXML),
         "invalid xml property list at line 3, column 9: data length exceeds the limit 'maxDataLength' (2)"),
        (PropertyListError(.invalidMarker(0x0F), at: .byte(9), while: .readingBinary),
         "invalid binary property list at byte 9: fill byte 0x0f is not an object"),
        (PropertyListError(.invalidMarker(0x7A), at: .byte(9), while: .readingBinary),
         "invalid binary property list at byte 9: unknown object marker 0x7a"),
        (PropertyListError(.invalidUTF16(codeUnit: 0xD800), at: .byte(20), while: .readingBinary),
         "invalid binary property list at byte 20: utf-16 string contains an unpaired surrogate 0xd800"),
        (PropertyListError(.referenceCycle(object: 4), at: .byte(30), while: .readingBinary),
         "invalid binary property list at byte 30: object 4 contains itself (reference cycle)"),
        (PropertyListError(.mismatchedTag(expected: "array", found: "dict"), at: .lineColumn(line: 1, column: 15), while: .readingXML),
         "invalid xml property list at line 1, column 15: closing tag '</dict>' does not match '<array>'"),
        (PropertyListError(.missingValue(key: "NS.keys"), at: .lineColumn(line: 4, column: 1), while: .readingXML),
         "invalid xml property list at line 4, column 1: key 'NS.keys' has no value"),
        (PropertyListError(.unrepresentable("a null value cannot be written as xml"), at: .none, while: .writingXML),
         "cannot write xml property list: a null value cannot be written as xml"),
    ])
    func describesErrorsInOneLowercaseSentence(_ error: PropertyListError, _ expected: String) {
        expectEqual(error.description, expected)
        #expect(error.description.first?.isLowercase == true)
        #expect(!error.description.hasSuffix("."))
    }

    @Test func exposesTheLocation() {
        let binary = PropertyListError(.noObjects, at: .byte(17), while: .readingBinary)
        expectEqual(binary.byteOffset, 17)
        #expect(binary.line == nil)
        let xml = PropertyListError(.emptyDocument, at: .lineColumn(line: 2, column: 5), while: .readingXML)
        expectEqual(xml.line, 2)
        expectEqual(xml.column, 5)
        #expect(xml.byteOffset == nil)
    }

    @Test func everyKindHasALowercaseMessage() {
        let kinds: [PropertyListError.Kind] = [
            .limitExceeded(.maxObjectCount, limit: 1, found: 2), .limitExceeded(.maxCollectionCount, limit: 1, found: 2),
            .limitExceeded(.maxStringLength, limit: 1, found: 2), .limitExceeded(.maxTotalLength, limit: 1, found: nil),
            .tooShort(length: 3), .notBinaryPropertyList,
            .unsupportedVersion("15"), .invalidOffsetSize(0), .invalidReferenceSize(9), .noObjects,
            .objectCountExceedsData(count: 5, room: 1), .referenceSizeTooSmall(size: 1, objects: 300),
            .topObjectOutOfRange(3, objects: 1), .offsetTableOutOfRange(4), .objectOffsetOutOfRange(object: 0, offset: 2),
            .truncatedObject(marker: 0x13, needed: 8, available: 2), .invalidLength(marker: 0x5F, lengthMarker: 0x23),
            .integerOutOfRange, .invalidASCII(byte: 0x80), .uidOutOfRange, .nonStringKey("integer"), .invalidUTF8,
            .unsupportedEncoding("latin1"), .unexpectedEnd(expected: "</dict>"), .unexpectedText("x"),
            .malformedMarkup("malformed tag '<a'"), .unknownElement("foo"), .unexpectedElement("key", context: "outside a dictionary"),
            .invalidEntity("&x;"), .invalidInteger("a"), .invalidReal("b"), .invalidDate("c"), .invalidBase64,
            .emptyDocument, .extraContent,
        ]
        for kind in kinds {
            let message = kind.message
            #expect(!message.isEmpty)
            #expect(message.first?.isLowercase == true || message.first == "'", "\(message)")
            #expect(!message.hasSuffix("."), "\(message)")
        }
    }
}
