import ModelKitCore
import ModelKitJSON
import Testing
import ModelKitTestSupport

@Suite("JSONScanner: strings")
struct JSONScannerStringsTests {
    @Test("every escape", arguments: [
        (#""\"""#, "\""), (#""\\""#, "\\"), (#""\/""#, "/"), (#""\b""#, "\u{08}"), (#""\f""#, "\u{0C}"),
        (#""\n""#, "\n"), (#""\r""#, "\r"), (#""\t""#, "\t"), (#""\u0041""#, "A"), (#""\u00e9""#, "é"),
        (#""\u00E9""#, "é"), (#""\u20AC""#, "€"), (#""\u0000""#, "\u{0}"), (#""\u001f""#, "\u{1F}"),
        (#""\uFFFF""#, "\u{FFFF}"), (#""\ud83d\ude00""#, "😀"), (#""\uD834\uDD1E""#, "𝄞"),
        (#""\uDBFF\uDFFF""#, "\u{10FFFF}"), (#""a\nb\tc\"d""#, "a\nb\tc\"d"),
        (#""\u0061\u0062c""#, "abc"), (#""😀\u00e9😀""#, "😀é😀"),
        (#""a first line\nthen a longer second one\tand caf\u00e9, \"quoted\" at the end\\""#,
         "a first line\nthen a longer second one\tand café, \"quoted\" at the end\\"),
    ])
    func escapes(json: String, expected: String) throws {
        try expectEqual(readString(json), expected)
        try expectEqual(JSONValue(parsing: json), .string(expected))
    }

    @Test("plain strings of every length around the 8-byte word boundary", arguments: Array(0...40))
    func lengths(length: Int) throws {
        let text = String((0..<length).map { Character(Unicode.Scalar(UInt8(97 + $0 % 26))) })
        try expectEqual(readString("\"\(text)\""), text)
        // A special byte at each position is found, wherever it falls in a word.
        for position in 0...length {
            var withEscape = text
            withEscape.insert(contentsOf: "\\n", at: withEscape.index(withEscape.startIndex, offsetBy: position))
            var expected = text
            expected.insert("\n", at: expected.index(expected.startIndex, offsetBy: position))
            try expectEqual(readString("\"\(withEscape)\""), expected)
            var withControl = Array(text.utf8)
            withControl.insert(0x01, at: position)
            let error = try #require(throws: JSONSyntaxError.self) { try readString(bytes: [0x22] + withControl + [0x22]) }
            expectEqual(error.kind, .unescapedControlCharacter(0x01))
            expectEqual(error.offset, position + 1)
        }
    }

    @Test("invalid escapes are rejected", arguments: [
        (#""\x""#, JSONSyntaxError.Kind.invalidEscape(UInt8(ascii: "x"))), (#""\a""#, .invalidEscape(UInt8(ascii: "a"))),
        (#""\U0041""#, .invalidEscape(UInt8(ascii: "U"))), (#""\'""#, .invalidEscape(UInt8(ascii: "'"))),
        (#""\u12""#, .invalidUnicodeEscape), (#""\u12G4""#, .invalidUnicodeEscape), (#""\u""#, .invalidUnicodeEscape),
        (#""\"#, .unterminatedString), (#""abc"#, .unterminatedString), (#"""#, .unterminatedString),
    ])
    func invalidEscapes(json: String, kind: JSONSyntaxError.Kind) throws {
        let error = try #require(throws: JSONSyntaxError.self) { try readString(json) }
        expectEqual(error.kind, kind)
        #expect(throws: JSONSyntaxError.self) { try JSONValidator.validate(json) }
    }

    @Test("unpaired surrogate escapes are rejected with a clear error", arguments: [
        (#""\ud800""#, UInt16(0xD800)), (#""\udbff x""#, 0xDBFF), (#""\udc00""#, 0xDC00), (#""\udfff\ud800""#, 0xDFFF),
        (#""\ud800\u0041""#, 0xD800), (#""\ud800\n""#, 0xD800), (#""\ud800\ud800""#, 0xD800), (#""a\uDE00""#, 0xDE00),
    ])
    func unpairedSurrogates(json: String, unit: UInt16) throws {
        let error = try #require(throws: JSONSyntaxError.self) { try readString(json) }
        expectEqual(error.kind, .unpairedSurrogate(unit))
        expectEqual(error.message, "unpaired surrogate escape '\\u\(String(unit, radix: 16))' in a string")
    }

    @Test("valid UTF-8 of every length is accepted", arguments: [
        [0x24], [0xC2, 0xA2], [0xDF, 0xBF], [0xE0, 0xA0, 0x80], [0xE2, 0x82, 0xAC], [0xED, 0x9F, 0xBF],
        [0xEE, 0x80, 0x80], [0xEF, 0xBF, 0xBF], [0xF0, 0x90, 0x80, 0x80], [0xF0, 0x9F, 0x98, 0x80],
        [0xF3, 0xBF, 0xBF, 0xBF], [0xF4, 0x8F, 0xBF, 0xBF], [0x7F],
    ] as [[UInt8]])
    func validUTF8(sequence: [UInt8]) throws {
        let bytes = [0x22] + sequence + [0x22]
        expectEqual(Array(try readString(bytes: bytes).utf8), sequence)
        let padded = [0x22] + Array("0123456".utf8) + sequence + sequence + Array("89".utf8) + [0x22]
        expectEqual(Array(try readString(bytes: padded).utf8), Array(padded.dropFirst().dropLast()))
    }

    @Test("invalid UTF-8 is rejected wherever it is in a string", arguments: [
        [0x80], [0xBF], [0xC0, 0xAF], [0xC1, 0xBF], [0xC2], [0xC2, 0x41], [0xE0, 0x80, 0xAF], [0xE0, 0x9F, 0xBF],
        [0xE2, 0x82], [0xE2, 0x28, 0xA1], [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF], [0xF0, 0x80, 0x80, 0xAF],
        [0xF0, 0x8F, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xF8, 0x88, 0x80, 0x80, 0x80],
        [0xFC, 0x84, 0x80, 0x80, 0x80, 0x80], [0xFE], [0xFF], [0xF0, 0x9F, 0x98],
    ] as [[UInt8]])
    func invalidUTF8(sequence: [UInt8]) throws {
        for prefix in [[], Array("abcdefghij".utf8)] as [[UInt8]] {
            let bytes = [0x22] + prefix + sequence + [0x22]
            let error = try #require(throws: JSONSyntaxError.self) { try readString(bytes: bytes) }
            expectEqual(error.kind, .invalidUTF8(sequence[0]))
            expectEqual(error.offset, 1 + prefix.count)
            #expect(error.message.hasPrefix("invalid UTF-8 byte 0x"))
            #expect(throws: JSONSyntaxError.self) { try JSONValidator.validate([0x5B] + bytes + [0x5D]) }
            // In a key too.
            #expect(throws: JSONSyntaxError.self) { try JSONValue(parsing: [0x7B] + bytes + Array(":1}".utf8)) }
        }
    }

    @Test("a truncated sequence at the very end of the input is rejected")
    func truncatedAtEnd() throws {
        for bytes in [[0x22, 0xE2], [0x22, 0xE2, 0x82], [0x22, 0xF0, 0x9F, 0x98]] as [[UInt8]] {
            #expect(throws: JSONSyntaxError.self) { try readString(bytes: bytes) }
        }
    }

    @Test("control characters must be escaped; DEL need not be")
    func controlCharacters() throws {
        for byte in UInt8(0)..<0x20 {
            let error = try #require(throws: JSONSyntaxError.self) { try readString(bytes: [0x22, byte, 0x22]) }
            expectEqual(error.kind, .unescapedControlCharacter(byte))
        }
        try expectEqual(readString(bytes: [0x22, 0x7F, 0x22]), "\u{7F}")
    }

    @Test("readStringBytes is zero-copy without escapes and uses a temporary buffer with them")
    func zeroCopy() throws {
        let json = Array(#"["plain text here", "esc\naped", "\u00e9"]"#.utf8)
        try json.withUnsafeBytes { buffer in
            var scanner = JSONScanner(bytes: buffer)
            let documentRange = UInt(bitPattern: buffer.baseAddress)..<(UInt(bitPattern: buffer.baseAddress) + UInt(buffer.count))
            func isInside(_ bytes: UnsafeRawBufferPointer) -> Bool {
                documentRange.contains(UInt(bitPattern: bytes.baseAddress))
            }
            try scanner.beginArray()
            _ = try scanner.nextElement()
            let plain = try scanner.readStringBytes { (isInside($0), Array($0)) }
            #expect(plain.0)
            expectEqual(plain.1, Array("plain text here".utf8))
            _ = try scanner.nextElement()
            let escaped = try scanner.readStringBytes { (isInside($0), Array($0)) }
            #expect(!escaped.0)
            expectEqual(escaped.1, Array("esc\naped".utf8))
            _ = try scanner.nextElement()
            try expectEqual(scanner.readStringBytes { Array($0) }, [0xC3, 0xA9])
            #expect(try !scanner.nextElement())
        }
    }

    @Test("readStringBytes consumes the string before calling the body")
    func consumedBeforeBody() throws {
        struct Rejected: Error {}
        try scanning(#"["a", 1]"#) { scanner in
            try scanner.beginArray()
            _ = try scanner.nextElement()
            #expect(throws: Rejected.self) { try scanner.readStringBytes { _ in throw Rejected() } }
            #expect(try scanner.nextElement())
            try expectEqual(scanner.readInt64(), 1)
        }
    }

    @Test("long strings with mixed content round-trip through the writer")
    func randomStrings() throws {
        var generator = SeededGenerator(seed: 7)
        let pool: [Unicode.Scalar] = ["a", "Z", " ", "\"", "\\", "/", "\n", "\t", "\u{0}", "\u{1F}", "\u{7F}", "é", "€", "😀", "\u{2028}", "\u{FFFF}", "\u{10FFFF}"]
        for _ in 0..<500 {
            var text = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 0...64, using: &generator) {
                text.append(pool[Int.random(in: 0..<pool.count, using: &generator)])
            }
            let string = String(text)
            var writer = JSONWriter()
            writer.writeString(string)
            try JSONValidator.validate(writer.bytes)
            try expectEqual(readString(bytes: writer.bytes), string)
        }
    }
}
