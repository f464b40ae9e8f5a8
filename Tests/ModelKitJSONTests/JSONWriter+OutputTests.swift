import ModelKitJSON
import Testing
import ModelKitTestSupport

/// The writer's own output buffer (chunks joined at the end, copy on write) and the
/// reservation fast paths: what they write is what the plain description of each value is,
/// across chunk boundaries, in copies of a writer, and after `bytes` is set.
@Suite("JSONWriter output")
struct JSONWriterOutputTests {
    /// The values the tests write: integers, strings of every short length (the word-copy
    /// edges at 8 and 32 bytes) with and without bytes to escape, booleans and null.
    private enum Item {
        case int(Int64)
        case uint(UInt64)
        case string(String)
        case bool(Bool)
        case null

        /// The item's JSON, spelled the plain way.
        var expected: String {
            switch self {
            case .int(let value): String(value)
            case .uint(let value): String(value)
            case .string(let value):
                "\"" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
                    .replacingOccurrences(of: "\n", with: "\\n") + "\""
            case .bool(let value): value ? "true" : "false"
            case .null: "null"
            }
        }

        func write(to writer: inout JSONWriter) {
            switch self {
            case .int(let value): writer.writeInt64(value)
            case .uint(let value): writer.writeUInt64(value)
            case .string(let value): writer.writeString(value)
            case .bool(let value): writer.writeBool(value)
            case .null: writer.writeNull()
            }
        }
    }

    /// `count` items drawn from `seed`.
    private func items(_ count: Int, seed: UInt64) -> [Item] {
        var generator = SeededGenerator(seed: seed)
        return (0..<count).map { _ in
            switch Int.random(in: 0..<6, using: &generator) {
            case 0:
                // Every digit count, not only the long numbers a uniform draw gives.
                let digits = Int.random(in: 0...18, using: &generator)
                var bound: Int64 = 1
                for _ in 0..<digits { bound *= 10 }
                return .int(Int64.random(in: -bound...bound, using: &generator))
            case 1: return .uint(UInt64.random(in: .min ... .max, using: &generator) >> UInt64.random(in: 0...63, using: &generator))
            case 2, 3:
                let length = Int.random(in: 0...40, using: &generator)
                var text = String(repeating: "x", count: length)
                if length > 0 && Bool.random(using: &generator) {
                    let special = ["\"", "\\", "\n"].randomElement(using: &generator) ?? "\""
                    let index = text.index(text.startIndex, offsetBy: Int.random(in: 0..<length, using: &generator))
                    text.replaceSubrange(index...index, with: special)
                }
                return .string(text)
            case 4: return .bool(Bool.random(using: &generator))
            default: return .null
            }
        }
    }

    @Test("an array of many values across chunk boundaries", arguments: [0, 64, 100_000])
    func manyValues(capacity: Int) throws {
        let values = items(20_000, seed: UInt64(capacity) &+ 5)
        var writer = JSONWriter(capacity: capacity)
        writer.beginArray()
        for value in values { value.write(to: &writer) }
        writer.endArray()
        expectEqual(writer.string, "[" + values.map(\.expected).joined(separator: ",") + "]")
        try JSONValidator.validate(writer.bytes)
    }

    /// Text with many bytes to escape, next to each other and between runs of every length, in
    /// strings long enough to cross the escaper's 4 KiB blocks, against an escaper written here
    /// character by character.
    @Test("strings with escapes everywhere, across blocks, as a plain escaper writes them")
    func manyEscapes() throws {
        func escaped(_ text: String) -> String {
            var result = "\""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": result += "\\\""
                case "\\": result += "\\\\"
                case "\n": result += "\\n"
                case "\r": result += "\\r"
                case "\t": result += "\\t"
                case "\u{8}": result += "\\b"
                case "\u{C}": result += "\\f"
                case _ where scalar.value < 0x20:
                    let hex = String(scalar.value, radix: 16)
                    result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                default: result.unicodeScalars.append(scalar)
                }
            }
            return result + "\""
        }
        let pieces = (0..<32).map { String(UnicodeScalar(UInt8($0))) } + ["\"", "\\", "é", "€", "😀", "plain ", "a"]
        var state: UInt64 = 17
        for length in [3, 9, 40, 700, 4_100, 9_000] {
            var text = ""
            while text.utf8.count < length {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let piece = pieces[Int(state >> 33) % pieces.count]
                text += String(repeating: piece, count: Int(state >> 60) % 3 + 1)
            }
            var writer = JSONWriter(capacity: 64)
            writer.beginArray()
            writer.writeString(text)
            writer.writeString("after")
            writer.endArray()
            expectEqual(writer.string, "[" + escaped(text) + ",\"after\"]")
            try JSONValidator.validate(writer.bytes)
        }
    }

    /// Strings are checked and copied a word at a time, the last word overlapping: every length
    /// up to five words, with one byte to escape at every position or none, between ASCII and
    /// multi-byte characters (whose bytes must not be taken for ones to escape).
    @Test("strings: a byte to escape at every position of every short length", arguments: [
        ("\"", #"\""#), ("\\", #"\\"#), ("\n", #"\n"#), ("\u{1}", #"\u0001"#), ("\u{1F}", #"\u001f"#),
    ])
    func escapeAtEveryPosition(special: String, escape: String) throws {
        let characters: [String] = ["a", "é", "b", "€", "c", "😀", " ", "~"]
        for length in 0...40 {
            let base = (0..<length).map { characters[($0 * 3 + length) % characters.count] }
            for position in [nil] + Array(0..<length) {
                var parts = base
                var escapedParts = base
                if let position {
                    parts[position] = special
                    escapedParts[position] = escape
                }
                let text = parts.joined()
                let expected = "\"" + escapedParts.joined() + "\""
                var writer = JSONWriter(capacity: 64)
                writer.beginArray()
                writer.writeString(text)
                text.utf8CString.withUnsafeBytes { bytes in
                    writer.writeString(utf8: UnsafeRawBufferPointer(rebasing: bytes[0..<(bytes.count - 1)]))
                }
                writer.endArray()
                #expect(writer.string == "[" + expected + "," + expected + "]", "length \(length), position \(String(describing: position))")
            }
        }
    }

    @Test("integers of every length write their description")
    func integerLengths() {
        var values: [Int64] = [0, .min, .max, .min + 1]
        var power: Int64 = 1
        for _ in 0..<18 {
            power *= 10
            values += [power - 1, power, power + 1, -power, -(power - 1)]
        }
        for value in values {
            var writer = JSONWriter()
            writer.writeInt64(value)
            expectEqual(writer.string, String(value))
        }
        for value in [UInt64.max, UInt64.max - 1, 10_000_000_000_000_000_000, 9_999_999_999_999_999_999] {
            var writer = JSONWriter()
            writer.writeUInt64(value)
            expectEqual(writer.string, String(value))
        }
    }

    @Test("integers of every length and digit written in a row read back as their descriptions")
    func integersInARow() {
        // Every digit in every place of every length, signed and unsigned: the digits are made
        // eight at a time and the words stored past a number's end are written over by the next.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var signed: [Int64] = []
        var unsigned: [UInt64] = []
        for length in 1...20 {
            for _ in 0..<40 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                var digits = String(state % 9 + 1)
                var next = state
                while digits.count < length {
                    next = next &* 6_364_136_223_846_793_005 &+ 1
                    digits += String((next >> 59) % 10)
                }
                if let value = UInt64(digits) { unsigned.append(value) }
                if let value = Int64(digits) { signed += [value, -value] }
            }
        }
        var writer = JSONWriter(capacity: 64)
        writer.beginArray()
        for value in signed { writer.writeInt64(value) }
        for value in unsigned { writer.writeUInt64(value) }
        writer.endArray()
        let expected = "[" + (signed.map(String.init) + unsigned.map(String.init)).joined(separator: ",") + "]"
        expectEqual(writer.string, expected)
        #expect(unsigned.count > 700 && signed.count > 1_400)
    }

    @Test("a copy of a writer goes on by itself: writing to one leaves the other as it was")
    func copiesAreValues() {
        var first = JSONWriter(capacity: 64)
        first.beginArray()
        for index in 0..<40 { first.writeInt64(Int64(index)) }
        var second = first
        second.writeString(String(repeating: "y", count: 100))
        second.endArray()
        first.writeBool(true)
        first.endArray()
        let prefix = "[" + (0..<40).map(String.init).joined(separator: ",")
        expectEqual(first.string, prefix + ",true]")
        expectEqual(second.string, prefix + ",\"" + String(repeating: "y", count: 100) + "\"]")
    }

    @Test("setting bytes replaces the output and writing goes on after it")
    func settingBytes() {
        var writer = JSONWriter(capacity: 64)
        writer.beginArray()
        for _ in 0..<50 { writer.writeString("padding past the first chunk") }
        writer.bytes = Array("[1".utf8)
        writer.writeNull()
        writer.endArray()
        expectEqual(writer.string, "[1,null]")
        writer.bytes.append(0x0A)
        expectEqual(writer.bytes, Array("[1,null]\n".utf8))
    }

    @Test("pretty output goes through the same buffer")
    func prettyMany() throws {
        let values = items(3000, seed: 11)
        var writer = JSONWriter(options: .prettyPrinted, capacity: 64)
        writer.beginArray()
        for value in values { value.write(to: &writer) }
        writer.endArray()
        expectEqual(writer.string, "[\n  " + values.map(\.expected).joined(separator: ",\n  ") + "\n]")
    }
}
