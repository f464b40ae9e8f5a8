import Foundation
import Testing
@testable import ModelKitPropertyList
import ModelKitTestSupport

private let prologue = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">

    """

private func xml(_ value: PropertyListValue) throws(PropertyListError) -> String {
    String(decoding: try value.xmlBytes(), as: UTF8.self)
}

struct XMLPropertyListWriterTests {
    @Test func writesEveryKindInApplesLayout() throws {
        let value: PropertyListValue = [
            "b": [1, 2.5, true, false, -3],
            "a": "x<y & z>\"'",
            "c": .data(Data("asdfasdfadsfadsf".utf8)),
            "d": .date(Date(timeIntervalSinceReferenceDate: 86_401.75)),
            "e": [],
            "f": [:],
            "g": .uid(3),
            "h": "",
            "i": [[:], ["k": []]],
        ]
        let expected = prologue + """
            <dict>
            \t<key>a</key>
            \t<string>x&lt;y &amp; z&gt;"'</string>
            \t<key>b</key>
            \t<array>
            \t\t<integer>1</integer>
            \t\t<real>2.5</real>
            \t\t<true/>
            \t\t<false/>
            \t\t<integer>-3</integer>
            \t</array>
            \t<key>c</key>
            \t<data>
            \tYXNkZmFzZGZhZHNmYWRzZg==
            \t</data>
            \t<key>d</key>
            \t<date>2001-01-02T00:00:01Z</date>
            \t<key>e</key>
            \t<array/>
            \t<key>f</key>
            \t<dict/>
            \t<key>g</key>
            \t<dict>
            \t\t<key>CF$UID</key>
            \t\t<integer>3</integer>
            \t</dict>
            \t<key>h</key>
            \t<string></string>
            \t<key>i</key>
            \t<array>
            \t\t<dict/>
            \t\t<dict>
            \t\t\t<key>k</key>
            \t\t\t<array/>
            \t\t</dict>
            \t</array>
            </dict>
            </plist>

            """
        try expectEqual(xml(value), expected)
        try expectEqual(PropertyListValue(xml: value.xmlData()), value.replacingDate(with: 86_401))
    }

    @Test func writesScalarRootsAndEmptyData() throws {
        try expectEqual(xml("root"), prologue + "<string>root</string>\n</plist>\n")
        try expectEqual(xml(.data(Data())), prologue + "<data>\n</data>\n</plist>\n")
        try expectEqual(xml([.data(Data())]), prologue + "<array>\n\t<data>\n\t</data>\n</array>\n</plist>\n")
        try expectEqual(xml(.integer(PropertyListInteger(UInt64.max))), prologue + "<integer>18446744073709551615</integer>\n</plist>\n")
        #expect(try xml(.uid(UInt64.max)).contains("<integer>18446744073709551615</integer>"))
    }

    @Test func sortsKeysByUTF16CodeUnits() throws {
        let keys = ["b", "a", "B", "$10", "$2", "é", "z", "\u{FF21}", "😀", "e\u{301}", ""]
        let value = PropertyListValue.dictionary(PropertyListDictionary(keys.map { ($0, PropertyListValue.bool(true)) }))
        let written = try xml(value)
        let order = written.split(separator: "\n").filter { $0.hasPrefix("\t<key>") }.map {
            String($0.dropFirst("\t<key>".count).dropLast("</key>".count))
        }
        // U+1F600 is a surrogate pair (0xD83D…), so it sorts before U+FF21 in UTF-16 but not in UTF-8.
        expectEqual(order, ["", "$10", "$2", "B", "a", "b", "e\u{301}", "z", "é", "😀", "\u{FF21}"])
        try expectEqual(PropertyListValue(xml: value.xmlData()), value)
    }

    @Test func wrapsBase64LikeApple() throws {
        for indent in [0, 1, 2, 3, 8, 9, 12] {
            for length in [0, 1, 2, 3, 50, 51, 52, 56, 57, 58, 100, 200, 1_000] {
                let payload = Data((0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ indent) })
                var value = PropertyListValue.data(payload)
                for _ in 0..<indent { value = [value] }
                let lines = try xml(value).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                let open = try #require(lines.firstIndex { $0.hasSuffix("<data>") })
                let close = try #require(lines.firstIndex { $0.hasSuffix("</data>") })
                expectEqual(lines[open], String(repeating: "\t", count: indent) + "<data>")
                expectEqual(lines[close], String(repeating: "\t", count: indent) + "</data>")
                let tabs = min(indent, 8)
                let width = 76 - 8 * tabs
                let body = lines[(open + 1)..<close]
                for (index, line) in zip(body.indices, body) {
                    #expect(line.prefix(tabs) == String(repeating: "\t", count: tabs))
                    let text = line.dropFirst(tabs)
                    #expect(!text.hasPrefix("\t"))
                    #expect(index == close - 1 ? text.count <= width : text.count == width, "indent \(indent), length \(length)")
                }
                let decoded = Data(base64Encoded: body.map { $0.trimmingCharacters(in: .whitespaces) }.joined())
                expectEqual(decoded, payload)
            }
        }
    }

    @Test func formatsDatesInUTCDroppingFractions() throws {
        func dateText(_ seconds: Double) throws -> String {
            let text = try xml(.date(Date(timeIntervalSinceReferenceDate: seconds)))
            return String(text.split(separator: "\n")[3])
        }
        try expectEqual(dateText(0), "<date>2001-01-01T00:00:00Z</date>")
        try expectEqual(dateText(0.999), "<date>2001-01-01T00:00:00Z</date>")
        try expectEqual(dateText(-0.5), "<date>2000-12-31T23:59:59Z</date>")
        try expectEqual(dateText(-978_307_200), "<date>1970-01-01T00:00:00Z</date>")
        try expectEqual(dateText(730_943_999), "<date>2024-02-29T23:59:59Z</date>")
        try expectEqual(dateText(-63_082_368_000), "<date>0002-01-01T00:00:00Z</date>")
        try expectEqual(dateText(-63_145_526_400), "<date>0000-01-01T00:00:00Z</date>")
        try expectEqual(dateText(-63_177_062_400), "<date>-001-01-01T00:00:00Z</date>")
        try expectEqual(dateText(252_423_993_600), "<date>10000-01-01T00:00:00Z</date>")
        for seconds in [0, 1, -1, 59, 3_600, 86_399, 730_943_999, -63_177_062_400, 252_423_993_600, 1e15, -1e15] as [Double] {
            let value = PropertyListValue.date(Date(timeIntervalSinceReferenceDate: seconds))
            #expect(try PropertyListValue(xml: value.xmlData()) == value, "\(seconds)")
        }
    }

    @Test func rejectsValuesXMLCannotExpress() {
        #expect(throws: PropertyListError(.unrepresentable("a null value cannot be written as xml"), at: .none, while: .writingXML)) {
            try PropertyListValue.array([.null]).xmlData()
        }
        for seconds in [Double.nan, .infinity, -.infinity, 1e300] {
            #expect(throws: PropertyListError.self) { try PropertyListValue.date(Date(timeIntervalSinceReferenceDate: seconds)).xmlData() }
        }
        let error = PropertyListError(.unrepresentable("a null value cannot be written as xml"), at: .none, while: .writingXML)
        expectEqual(error.description, "cannot write xml property list: a null value cannot be written as xml")
    }

    @Test func writesSinglePrecisionRealsWidened() throws {
        #expect(try xml(.real(PropertyListReal(Float(0.1)))).contains("<real>0.10000000149011612</real>"))
        let back = try PropertyListValue(xml: PropertyListValue.real(PropertyListReal(Float(0.1))).xmlData())
        #expect(back.realValue?.floatValue == Float(0.1))
    }
}

extension PropertyListValue {
    /// The value with its top-level `d` date truncated to whole seconds, as XML stores it.
    fileprivate func replacingDate(with seconds: Double) -> PropertyListValue {
        guard case .dictionary(var dictionary) = self else { return self }
        dictionary["d"] = .date(Date(timeIntervalSinceReferenceDate: seconds))
        return .dictionary(dictionary)
    }
}
