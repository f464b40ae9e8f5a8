import Foundation
import Testing
@testable import ModelKitPropertyList
import ModelKitTestSupport

private let header = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">

    """

/// Parses `body` wrapped in `<plist>`.
private func plist(_ body: String, limits: PropertyListLimits = .default) throws(PropertyListError) -> PropertyListValue {
    try PropertyListValue(xml: Array((header + "<plist version=\"1.0\">\n" + body + "\n</plist>\n").utf8), limits: limits)
}

/// Expects `xml` to fail with `kind` at `line` and `column`.
private func expectFailure(
    _ xml: String, _ kind: PropertyListError.Kind, line: Int, column: Int, limits: PropertyListLimits = .default,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    do {
        let value = try PropertyListValue(xml: Array(xml.utf8), limits: limits)
        Issue.record("expected \(kind), read \(value)", sourceLocation: sourceLocation)
    } catch {
        #expect(error.kind == kind, sourceLocation: sourceLocation)
        #expect(error.line == line, "line", sourceLocation: sourceLocation)
        #expect(error.column == column, "column", sourceLocation: sourceLocation)
        #expect(error.operation == .readingXML, sourceLocation: sourceLocation)
    }
}

/// `depth` nested arrays around `inner`.
private func nested(_ depth: Int, _ inner: String = "") -> String {
    String(repeating: "<array>", count: depth) + inner + String(repeating: "</array>", count: depth)
}

struct XMLPropertyListReaderTests {
    @Test func readsEveryElement() throws {
        let value = try plist("""
            <dict>
            \t<key>string</key><string>hello</string>
            \t<key>empty</key><string/>
            \t<key>also empty</key><string></string>
            \t<key>integer</key><integer>-42</integer>
            \t<key>real</key><real>2.5</real>
            \t<key>yes</key><true/>
            \t<key>no</key><false/>
            \t<key>date</key><date>2001-01-02T00:00:01Z</date>
            \t<key>data</key><data>AAEC/w==</data>
            \t<key>array</key><array><integer>1</integer><array/><dict/></array>
            \t<key>uid</key><dict><key>CF$UID</key><integer>7</integer></dict>
            </dict>
            """)
        expectEqual(value, [
            "string": "hello", "empty": "", "also empty": "", "integer": -42, "real": 2.5, "yes": true, "no": false,
            "date": .date(Date(timeIntervalSinceReferenceDate: 86_401)), "data": .data(Data([0, 1, 2, 255])),
            "array": [1, [], [:]], "uid": .uid(7),
        ])
        #expect(value.dictionaryValue?.keys.first == "string")
    }

    @Test func decodesEntitiesCharacterReferencesAndCDATA() throws {
        try expectEqual(plist("<string>&lt;a&gt; &amp; &quot;b&quot; &apos;c&apos;</string>"), #"<a> & "b" 'c'"#)
        try expectEqual(plist("<string>&#65;&#x42;&#x043;&#233;&#x1F600;</string>"), "ABCé😀")
        // Only a lowercase `x` introduces a hexadecimal reference, as in XML and Apple's reader.
        #expect(throws: PropertyListError.self) { try plist("<string>&#X43;</string>") }
        try expectEqual(plist("<string><![CDATA[<raw> & ]]> text</string>"), "<raw> &  text")
        try expectEqual(plist("<string>a<!-- comment -->b</string>"), "ab")
        try expectEqual(plist("<string>tab\there\nnewline</string>"), "tab\there\nnewline")
        try expectEqual(plist("<string>Zürich 東京</string>"), "Zürich 東京")
    }

    @Test func readsIntegersAsAppleDoes() throws {
        try expectEqual(plist("<integer>0</integer>"), 0)
        try expectEqual(plist("<integer> 17 </integer>"), 17)
        try expectEqual(plist("<integer>+5</integer>"), 5)
        try expectEqual(plist("<integer>- 5</integer>"), -5)
        try expectEqual(plist("<integer>0x1F</integer>"), 31)
        try expectEqual(plist("<integer>-0XfF</integer>"), -255)
        try expectEqual(plist("<integer>007</integer>"), 7)
        try expectEqual(plist("<integer>-9223372036854775808</integer>"), .integer(PropertyListInteger(Int64.min)))
        try expectEqual(plist("<integer>18446744073709551615</integer>"), .integer(PropertyListInteger(UInt64.max)))
        try expectEqual(plist("<integer>9223372036854775808</integer>"), .integer(PropertyListInteger(UInt64(1) << 63)))
    }

    @Test(arguments: ["", "abc", "12a", "1.5", "18446744073709551616", "-9223372036854775809", "0x", "--1", "0x1G"])
    func rejectsMalformedIntegers(_ text: String) {
        let xml = "<plist><integer>\(text)</integer></plist>"
        expectFailure(xml, .invalidInteger(text), line: 1, column: 8)
    }

    @Test func readsRealsAsAppleDoes() throws {
        try expectEqual(plist("<real>1</real>"), 1.0)
        try expectEqual(plist("<real>-0.5</real>"), -0.5)
        try expectEqual(plist("<real>.5</real>"), 0.5)
        try expectEqual(plist("<real>5.</real>"), 5.0)
        try expectEqual(plist("<real>1e3</real>"), 1000.0)
        try expectEqual(plist("<real>1.0000000000000001e-05</real>"), .real(PropertyListReal(1e-5)))
        try expectEqual(plist("<real>0.10000000000000001</real>"), 0.1)
        try expectEqual(plist("<real> 2.5 </real>"), 2.5)
        try expectEqual(plist("<real>+infinity</real>"), .real(PropertyListReal(Double.infinity)))
        try expectEqual(plist("<real>-INF</real>"), .real(PropertyListReal(-Double.infinity)))
        try expectEqual(plist("<real>Infinity</real>"), .real(PropertyListReal(Double.infinity)))
        #expect(try plist("<real>NaN</real>").doubleValue?.isNaN == true)
    }

    @Test(arguments: ["", "abc", "1.2.3", "1e", "e5", "0x1p3", "1,5", "+", "."])
    func rejectsMalformedReals(_ text: String) {
        expectFailure("<plist><real>\(text)</real></plist>", .invalidReal(text), line: 1, column: 8)
    }

    @Test func readsDates() throws {
        try expectEqual(plist("<date>2001-01-01T00:00:00Z</date>"), .date(Date(timeIntervalSinceReferenceDate: 0)))
        try expectEqual(plist("<date>1970-01-01T00:00:00Z</date>"), .date(Date(timeIntervalSinceReferenceDate: -978_307_200)))
        try expectEqual(plist("<date>2024-02-29T23:59:59Z</date>"), .date(Date(timeIntervalSinceReferenceDate: 730_943_999)))
        #expect(try plist("<date>-001-01-01T00:00:00Z</date>").dateValue != nil)
        expectFailure("<plist><date>2001-13-01T00:00:00Z</date></plist>", .invalidDate("2001-13-01T00:00:00Z"), line: 1, column: 8)
        expectFailure("<plist><date>2001-01-01</date></plist>", .invalidDate("2001-01-01"), line: 1, column: 8)
        expectFailure("<plist><date>2001-01-01T00:00:00</date></plist>", .invalidDate("2001-01-01T00:00:00"), line: 1, column: 8)
    }

    @Test func readsBase64WithWhitespace() throws {
        try expectEqual(plist("<data>\n\t\tYXNk\n\t\tZmFz\n\t\tZGZh\n\t</data>"), .data(Data("asdfasdfa".utf8)))
        try expectEqual(plist("<data>YQ==</data>"), .data(Data("a".utf8)))
        try expectEqual(plist("<data>YWI=</data>"), .data(Data("ab".utf8)))
        try expectEqual(plist("<data>YWI</data>"), .data(Data("ab".utf8)))
        try expectEqual(plist("<data></data>"), .data(Data()))
        try expectEqual(plist("<data/>"), .data(Data()))
        for bad in ["Y", "YQ=", "Y===", "YQ==YQ=x", "Y$Q=", "=YQ"] {
            expectFailure("<plist><data>\(bad)</data></plist>", .invalidBase64, line: 1, column: 8)
        }
    }

    @Test func recognizesUIDsOnlyInTheirExactForm() throws {
        try expectEqual(plist("<dict><key>CF$UID</key><integer>0</integer></dict>"), .uid(0))
        try expectEqual(plist("<dict><key>CF$UID</key><integer>4294967296</integer></dict>"), .uid(4_294_967_296))
        try expectEqual(plist("<dict><key>CF$UID</key><integer>-1</integer></dict>"), ["CF$UID": -1])
        try expectEqual(plist("<dict><key>CF$UID</key><string>1</string></dict>"), ["CF$UID": "1"])
        try expectEqual(plist("<dict><key>CF$UID</key><integer>1</integer><key>x</key><true/></dict>"), ["CF$UID": 1, "x": true])
    }

    @Test func acceptsDocumentVariants() throws {
        // No prolog, no <plist> wrapper, comments and processing instructions, attributes.
        try expectEqual(PropertyListValue(xml: Array("<string>bare</string>".utf8)), "bare")
        try expectEqual(PropertyListValue(xml: Array("\u{FEFF}<plist><true/></plist>".utf8)), true)
        let decorated = """
            <?xml version='1.0' encoding='utf-8' standalone="yes"?>
            <!-- leading comment -->
            <!DOCTYPE plist [ <!ENTITY x "y"> ]>
            <?app instruction?>
            <plist version = "1.0" xmlns:x="urn:x">
              <!-- inner -->
              <array  >
                <string id="s">a</string  >
              </array>
            </plist>
            <!-- trailing comment -->

            """
        try expectEqual(PropertyListValue(xml: Array(decorated.utf8)), ["a"])
        let crlf = "<plist>\r\n<dict>\r\n<key>k</key>\r\n<string>line\r\nbreak</string>\r\n</dict>\r\n</plist>\r\n"
        try expectEqual(PropertyListValue(xml: Array(crlf.utf8)), ["k": "line\r\nbreak"])
    }

    @Test func readsUTF16WithByteOrderMark() throws {
        let text = #"<?xml version="1.0" encoding="UTF-16"?><plist><string>Zürich 😀</string></plist>"#
        let bigEndian: [UInt8] = [0xFE, 0xFF] + text.utf16.flatMap { unit -> [UInt8] in [UInt8(unit >> 8), UInt8(unit & 0xFF)] }
        let littleEndian: [UInt8] = [0xFF, 0xFE] + text.utf16.flatMap { unit -> [UInt8] in [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        try expectEqual(PropertyListValue(xml: bigEndian), "Zürich 😀")
        try expectEqual(PropertyListValue(xml: littleEndian), "Zürich 😀")
        try expectEqual(PropertyListValue(parsing: Data(littleEndian)), "Zürich 😀")
        #expect(throws: PropertyListError.self) { try PropertyListValue(xml: Array(bigEndian.dropLast())) }
    }

    @Test func duplicateKeysKeepFirstPositionAndLastValue() throws {
        let value = try plist("<dict><key>a</key><integer>1</integer><key>b</key><integer>2</integer><key>a</key><integer>3</integer></dict>")
        #expect(value.dictionaryValue?.keys == ["a", "b"])
        expectEqual(value["a"], 3)
    }

    // MARK: Errors

    @Test func reportsErrorsWithLineAndColumn() {
        expectFailure("", .emptyDocument, line: 1, column: 1)
        expectFailure("  \n  ", .emptyDocument, line: 2, column: 3)
        expectFailure("<plist></plist>", .emptyDocument, line: 1, column: 8)
        expectFailure("<plist/>", .emptyDocument, line: 1, column: 1)
        expectFailure("<plist>\n<dict>\n\t<key>a</key>\n</dict>\n</plist>", .missingValue(key: "a"), line: 4, column: 1)
        expectFailure("<plist>\n<dict>\n\t<key>a</key>\n\t<key>b</key>", .missingValue(key: "a"), line: 4, column: 2)
        expectFailure("<plist><dict><string>x</string></dict></plist>", .unexpectedElement("string", context: "in a dictionary without a preceding '<key>'"), line: 1, column: 14)
        expectFailure("<plist><array><key>k</key></array></plist>", .unexpectedElement("key", context: "outside a dictionary"), line: 1, column: 15)
        expectFailure("<plist><array></dict></plist>", .mismatchedTag(expected: "array", found: "dict"), line: 1, column: 15)
        expectFailure("<plist><string>a</key></plist>", .mismatchedTag(expected: "string", found: "key"), line: 1, column: 17)
        expectFailure("<plist><foo/></plist>", .unknownElement("foo"), line: 1, column: 8)
        expectFailure("<plist><string>&foo;</string></plist>", .invalidEntity("&foo;"), line: 1, column: 16)
        expectFailure("<plist><string>&#xD800;</string></plist>", .invalidEntity("&#xD800;"), line: 1, column: 16)
        expectFailure("<plist><string>&#1114112;</string></plist>", .invalidEntity("&#1114112;"), line: 1, column: 16)
        expectFailure("<plist><string>a & b</string></plist>", .invalidEntity("&"), line: 1, column: 18)
        expectFailure("<plist><array>text</array></plist>", .unexpectedText("text"), line: 1, column: 15)
        expectFailure("<plist><array>\n  <true/> oops\n</array></plist>", .unexpectedText("oops"), line: 2, column: 11)
        expectFailure("<plist><array><string>a</string>", .unexpectedEnd(expected: "</array>"), line: 1, column: 33)
        expectFailure("<plist><string>abc", .unexpectedEnd(expected: "</string>"), line: 1, column: 8)
        expectFailure("<plist><true/><false/></plist>", .extraContent, line: 1, column: 15)
        expectFailure("<plist><true/></plist><true/>", .extraContent, line: 1, column: 23)
        expectFailure("<plist><true>x</true></plist>", .malformedMarkup("'<true>' must be empty"), line: 1, column: 8)
        expectFailure("<plist><string>a<b/></string></plist>", .unexpectedElement("b", context: "inside '<string>'"), line: 1, column: 17)
        expectFailure("<plist><!-- never closed", .unexpectedEnd(expected: "-->"), line: 1, column: 12)
        expectFailure("<plist><string attr=oops>", .malformedMarkup("malformed attribute in tag '<string>'"), line: 1, column: 21)
        expectFailure("<plist>< string/></plist>", .malformedMarkup("'<' is not followed by a tag name"), line: 1, column: 8)
        expectFailure("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><plist/>", .unsupportedEncoding("iso-8859-1"), line: 1, column: 1)
    }

    @Test func rejectsInvalidUTF8WithItsPosition() {
        var bytes = Array("<plist>\n<string>ab".utf8)
        bytes += [0xC3, 0x28]
        bytes += Array("</string></plist>".utf8)
        do {
            _ = try PropertyListValue(xml: bytes)
            Issue.record("invalid utf-8 was accepted")
        } catch {
            expectEqual(error.kind, .invalidUTF8)
            expectEqual(error.line, 2)
            expectEqual(error.column, 11)
        }
        for invalid: [UInt8] in [[0xFF], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82]] {
            #expect(throws: PropertyListError.self) { try PropertyListValue(xml: Array("<string>".utf8) + invalid + Array("</string>".utf8)) }
        }
    }

    // MARK: Limits

    @Test func depthLimitAllowsTheLimitAndRejectsOneMore() throws {
        let atLimit = try plist(nested(512))
        #expect(atLimit != .null)
        expectFailure("<plist>" + nested(513) + "</plist>", .limitExceeded(.maxDepth, limit: 512, found: 513), line: 1, column: 8 + 512 * 7)
        let small = PropertyListLimits(maxDepth: 2)
        try expectEqual(plist(nested(2), limits: small), [[]])
        expectFailure(nested(3), .limitExceeded(.maxDepth, limit: 2, found: 3), line: 1, column: 15, limits: small)
    }

    @Test func aUIDMaySitOneLevelPastTheDepthLimit() throws {
        let small = PropertyListLimits(maxDepth: 2)
        let uid = "<dict><key>CF$UID</key><integer>3</integer></dict>"
        try expectEqual(plist(nested(2, uid), limits: small), [[.uid(3)]])
        expectFailure(nested(2, "<dict><key>k</key><integer>3</integer></dict>"), .limitExceeded(.maxDepth, limit: 2, found: 3), line: 1, column: 15, limits: small)
        expectFailure(nested(2, "<dict><key>CF$UID</key><array/></dict>"), .limitExceeded(.maxDepth, limit: 2, found: 4), line: 1, column: 38, limits: small)
        expectFailure(nested(2, "<dict/>"), .limitExceeded(.maxDepth, limit: 2, found: 3), line: 1, column: 15, limits: small)
    }

    @Test func collectionStringDataAndObjectLimits() throws {
        let limits = PropertyListLimits(maxObjectCount: 4, maxCollectionCount: 2, maxStringLength: 3, maxDataLength: 2)
        try expectEqual(plist("<array><string>abc</string><data>YWI=</data></array>", limits: limits), ["abc", .data(Data("ab".utf8))])
        expectFailure("<array><true/><true/><true/></array>", .limitExceeded(.maxCollectionCount, limit: 2, found: 3), line: 1, column: 1, limits: limits)
        expectFailure("<string>abcd</string>", .limitExceeded(.maxStringLength, limit: 3, found: 4), line: 1, column: 1, limits: limits)
        expectFailure("<dict><key>abcd</key><true/></dict>", .limitExceeded(.maxStringLength, limit: 3, found: 4), line: 1, column: 7, limits: limits)
        expectFailure("<data>YWJj</data>", .limitExceeded(.maxDataLength, limit: 2, found: nil), line: 1, column: 1, limits: limits)
        expectFailure("<array><array><true/><true/></array><true/></array>", .limitExceeded(.maxObjectCount, limit: 4, found: 5), line: 1, column: 1, limits: limits)
        let total = PropertyListLimits(maxTotalLength: 5)
        try expectEqual(plist("<dict><key>ab</key><string>cde</string></dict>", limits: total), ["ab": "cde"])
        expectFailure("<dict><key>ab</key><data>YWJj</data><key>x</key><true/></dict>", .limitExceeded(.maxTotalLength, limit: 5, found: 6), line: 1, column: 37, limits: total)
        // A UID counts as one object, as in binary property lists.
        let uid = "<dict><key>CF$UID</key><integer>1</integer></dict>"
        let uidLimits = PropertyListLimits(maxObjectCount: 4, maxCollectionCount: 2)
        try expectEqual(plist("<array><array>\(uid)\(uid)</array></array>", limits: uidLimits), [[.uid(1), .uid(1)]])
    }
}
