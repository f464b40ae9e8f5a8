import ModelKitCore
import ModelKitJSON
import Testing
import ModelKitTestSupport

/// The string scan's paths: plain ASCII a word at a time, other text through the UTF-8
/// automaton four bytes at a time, escapes checked in line, and the precise scan that names
/// the first error; whatever path a byte takes, the string and the error are the same.
@Suite("JSONScanner: string scan paths")
struct JSONStringScanTests {
    /// Text of `length` characters, plain ASCII or cycling through one-, two-, three- and
    /// four-byte characters (so that sequences start at every offset of a word).
    static func text(length: Int, mixed: Bool) -> [String] {
        let pool = mixed ? ["a", "é", "€", "😀", "b", "Ж"] : ["a", "b", "c", "d", "e"]
        return (0..<length).map { pool[$0 % pool.count] }
    }

    /// What each insertion is in the document, and what it reads as.
    static let insertions: [(json: String, value: String)] = [
        ("é", "é"), ("€", "€"), ("😀", "😀"), (#"\n"#, "\n"), (#"\""#, "\""), (#"\/"#, "/"),
        (#"\u00e9"#, "é"), (#"\u20AC"#, "€"), (#"\ud83d\ude80"#, "🚀"), (#"\u0041"#, "A"),
    ]

    /// Lengths that put a character at every offset of two 8-byte words and of the 4-byte
    /// checks of the text automaton, then a few longer strings (a test per length; each length
    /// costs its square in reads, so not every one up to 33).
    static let lengths = Array(0...17) + [24, 33]

    @Test("a character or an escape at every position of strings of every length", arguments: Self.lengths)
    func insertionAtEveryPosition(length: Int) throws {
        for mixed in [false, true] {
            let characters = Self.text(length: length, mixed: mixed)
            try expectEqual(readString("\"\(characters.joined())\""), characters.joined())
            for position in 0...length {
                for insertion in Self.insertions {
                    let json = characters[..<position].joined() + insertion.json + characters[position...].joined()
                    let expected = characters[..<position].joined() + insertion.value + characters[position...].joined()
                    try expectEqual(readString("\"\(json)\""), expected)
                    let bytes = try scanning("\"\(json)\"") { scanner in try scanner.readStringBytes { Array($0) } }
                    expectEqual(bytes, Array(expected.utf8))
                }
            }
        }
    }

    @Test("invalid UTF-8 at every position of strings of every length names its lead byte", arguments: Self.lengths)
    func invalidUTF8AtEveryPosition(length: Int) throws {
        let sequences: [[UInt8]] = [
            [0x80], [0xBF], [0xC0, 0xAF], [0xC2], [0xE0, 0x9F, 0xBF], [0xE2, 0x82], [0xED, 0xA0, 0x80],
            [0xF0, 0x8F, 0xBF, 0xBF], [0xF0, 0x9F, 0x98], [0xF4, 0x90, 0x80, 0x80], [0xF5], [0xFF],
        ]
        // Thousands of documents a length, each checked without expectations of its own (see
        // misreading(_:lead:offset:)); the first five read wrongly are reported.
        var misread: [String] = []
        for mixed in [false, true] {
            let characters = Self.text(length: length, mixed: mixed)
            for position in 0...length {
                let before = Array(characters[..<position].joined().utf8)
                let after = Array(characters[position...].joined().utf8)
                for sequence in sequences {
                    // Alone, then with a bad escape after it (still the first error), then before it.
                    for (prefix, suffix) in [([], []), ([], Array(#"\x"#.utf8)), (Array(#"\x"#.utf8), [])] as [([UInt8], [UInt8])] {
                        let content = prefix + before + sequence + after + suffix
                        let (kind, offset): (JSONSyntaxError.Kind, Int) = prefix.isEmpty
                            ? (.invalidUTF8(sequence[0]), 1 + before.count) : (.invalidEscape(UInt8(ascii: "x")), 1)
                        do {
                            let string = try readString(bytes: [0x22] + content + [0x22])
                            misread.append("\(content): read as \(string)")
                        } catch let error as JSONSyntaxError where error.kind == kind && error.offset == offset {
                            continue  // the error expected
                        } catch {
                            misread.append("\(content): \(error)")
                        }
                    }
                }
            }
        }
        expectEqual(Array(misread.prefix(5)), [], "\(misread.count) documents read wrongly, the first five shown")
    }

    /// What is wrong with how the string document of `content` reads; nil when nothing is. Valid
    /// UTF-8 reads as its text; anything else is invalid UTF-8 named by `lead` at `offset` in the
    /// document (the lead needs a continuation byte that is not there, or is not one).
    ///
    /// The loops below read tens of thousands of documents and expect once that none was misread:
    /// three expectations a document cost more than the reading. (Each error thrown costs a
    /// backtrace, as deep as the stack: the loops call this directly.)
    static func misreading(_ content: [UInt8], lead: UInt8, offset: Int) -> String? {
        let text = String(decoding: content, as: UTF8.self)
        let valid = Array(text.utf8) == content
        do {
            let string = try readString(bytes: [0x22] + content + [0x22])
            return valid && string == text ? nil : "\(content): read as \(string)"
        } catch let error as JSONSyntaxError where !valid && error.kind == .invalidUTF8(lead) && error.offset == offset {
            return nil
        } catch {
            return "\(content): \(error)"
        }
    }

    @Test("every two bytes from a byte of 0x80 or above, after text of each width", arguments: ["", "é", "😀"])
    func everyPairOfBytes(prefix: String) throws {
        let head = Array(prefix.utf8)
        var misread: [String] = []
        for lead in UInt8(0x80)...0xFF {
            for next in UInt8(0)...0xFF {
                if let wrong = Self.misreading(head + [lead, next], lead: lead, offset: 1 + head.count) { misread.append(wrong) }
            }
        }
        expectEqual(Array(misread.prefix(5)), [], "\(misread.count) documents read wrongly, the first five shown")
    }

    @Test("three- and four-byte sequences with every second byte", arguments: Array(UInt8(0xE0)...0xF4))
    func everySecondByte(lead: UInt8) throws {
        // Never longer than the sequence the lead starts, so that an error is always the lead's.
        let rests: [[UInt8]] = lead < 0xF0
            ? [[0x80], [0xBF], [0x41], [0xC0]]
            : [[0x80], [0x80, 0x80], [0xBF, 0xBF], [0x80, 0xC0], [0x41, 0x80]]
        var misread: [String] = []
        for second in UInt8(0)...0xFF {
            for rest in rests {
                if let wrong = Self.misreading([0xC3, 0xA9, lead, second] + rest, lead: lead, offset: 3) { misread.append(wrong) }
            }
        }
        expectEqual(Array(misread.prefix(5)), [], "\(misread.count) documents read wrongly, the first five shown")
    }

    @Test("every \\u escape outside the surrogates, in both cases")
    func everyUnicodeEscape() throws {
        // Every digit in each of the four places: the two low places in every combination, the two
        // high ones in every combination over a zero low byte.
        let units = (UInt16(0)...0xFF).flatMap { [$0, $0 << 8] }
        for unit in units where !(0xD800...0xDFFF).contains(unit) {
            let digits = String(unit, radix: 16)
            let padded = String(repeating: "0", count: 4 - digits.count) + digits
            let expected = String(Unicode.Scalar(unit)!)
            try expectEqual(readString("\"\\u\(padded)\""), expected)
            try expectEqual(readString("\"é\\u\(padded.uppercased())\""), "é" + expected)
        }
    }

    @Test("a byte that is not a hexadecimal digit in each place of a \\u escape", arguments: Array(0..<4))
    func notHexDigits(place: Int) throws {
        for byte in UInt8(0)...0xFF {
            var digits = Array("00e9".utf8)
            digits[place] = byte
            let bytes = Array(#""a\u"#.utf8) + digits + Array(#"z""#.utf8)
            let isDigit = (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
            if isDigit {
                #expect(throws: Never.self) { try readString(bytes: bytes) }
            } else {
                let error = try #require(throws: JSONSyntaxError.self) { try readString(bytes: bytes) }
                expectEqual(error.kind, .invalidUnicodeEscape)
                expectEqual(error.offset, 2)
            }
        }
    }

    @Test("a string cut off in a run of text is unterminated", arguments: ["é", "éa", "éab", "éabc", "é€😀", "日本語"])
    func unterminatedInText(text: String) throws {
        let error = try #require(throws: JSONSyntaxError.self) { try readString(bytes: [0x22] + Array(text.utf8)) }
        expectEqual(error.kind, .unterminatedString)
        expectEqual(error.offset, 0)
    }

    @Test("a control byte after a run of text is named")
    func controlAfterText() throws {
        for text in ["é", "é€😀 abc", "日本語"] {
            let content = Array(text.utf8)
            let error = try #require(throws: JSONSyntaxError.self) { try readString(bytes: [0x22] + content + [0x0A, 0x22]) }
            expectEqual(error.kind, .unescapedControlCharacter(0x0A))
            expectEqual(error.offset, 1 + content.count)
        }
    }
}
