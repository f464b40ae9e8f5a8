import ModelKitCore
import ModelKitJSON
import ModelKitTestSupport
import Testing

@Suite("JSONSyntaxError: messages and locations")
struct JSONSyntaxErrorTests {
    @Test("the description has the location and a lowercase one-sentence message")
    func format() throws {
        let json = "{\n  \"a\": 1,\n  \"b\": [1, 2] \"c\"\n}"
        let error = try #require(throws: JSONSyntaxError.self) { try JSONValidator.validate(json) }
        expectEqual(error.line, 3)
        expectEqual(error.column, 15)
        expectEqual(error.offset, 26)
        expectEqual(error.description, "invalid JSON at line 3, column 15 (byte 26): expected ',' or '}' after an object member, found '\"'")
    }

    @Test("columns count Unicode scalars, not bytes")
    func columnsCountScalars() throws {
        let json = "[\"é😀\", x]"
        let error = try #require(throws: JSONSyntaxError.self) { try JSONValue(parsing: json) }
        expectEqual(error.offset, 11)
        expectEqual(error.column, 8) // [ " é 😀 " , space: 7 scalars before
        expectEqual(error.line, 1)
    }

    @Test("line and column after carriage returns and line feeds")
    func lines() throws {
        let json = "[\r\n1,\r\n2,\r\n]"
        let error = try #require(throws: JSONSyntaxError.self) { try JSONValidator.validate(json) }
        expectEqual(error.kind, .trailingComma(before: UInt8(ascii: "]")))
        #expect(error.line == 4 && error.column == 1)
    }

    @Test("messages", arguments: [
        ("", "unexpected end of input, expected a value"),
        ("[1,]", "a trailing comma is not allowed before ']'"),
        ("{\"a\":1,}", "a trailing comma is not allowed before '}'"),
        ("[1 2]", "expected ',' or ']' after an array element, found '2'"),
        ("{\"a\" 1}", "expected ':' after an object key, found '1'"),
        ("{'a':1}", "expected a string key or '}', found \"'\""),
        ("[tru]", "invalid literal, expected 'true'"),
        ("01", "a number cannot have a leading zero"),
        ("-", "expected a digit after '-' in a number"),
        ("1.", "expected a digit after '.' in a number"),
        ("1e", "expected a digit in the exponent of a number"),
        ("\"abc", "unterminated string, expected a closing '\"'"),
        ("\"\t\"", "control character 0x09 must be escaped in a string"),
        ("\"\\x\"", "invalid escape '\\x' in a string"),
        ("\"\\\u{1}\"", "invalid escape in a string: '\\' followed by byte 0x01"),
        ("\"\\u12\"", "invalid unicode escape, expected four hexadecimal digits after '\\u'"),
        ("\"\\ud800\"", "unpaired surrogate escape '\\ud800' in a string"),
        ("[1] x", "expected the end of the document, found 'x'"),
        ("\u{1}", "expected a value, found byte 0x01"),
        ("/* no */ 1", "expected a value, found '/'"),
    ])
    func messages(json: String, message: String) throws {
        let error = try #require(throws: JSONSyntaxError.self) { try JSONValidator.validate(json) }
        expectEqual(error.message, message)
        #expect(error.message.first.map { !$0.isUppercase } ?? false)
        #expect(!error.message.hasSuffix("."))
    }

    @Test("invalid UTF-8 is named by its byte")
    func utf8Message() throws {
        let error = try #require(throws: JSONSyntaxError.self) { try JSONValidator.validate([0x22, 0xC0, 0x80, 0x22]) }
        expectEqual(error.message, "invalid UTF-8 byte 0xC0 in a string")
        let outside = try #require(throws: JSONSyntaxError.self) { try JSONValidator.validate([0xFF]) }
        expectEqual(outside.message, "expected a value, found byte 0xFF")
    }

    @Test("errors can be made for a location in a document")
    func makingErrors() throws {
        let bytes = Array("a\nbc".utf8)
        let error = bytes.withUnsafeBytes { JSONSyntaxError(.unterminatedString, offset: 3, in: $0) }
        #expect(error.line == 2 && error.column == 2)
        let clamped = bytes.withUnsafeBytes { JSONSyntaxError(.unterminatedString, offset: 99, in: $0) }
        #expect(clamped.line == 2 && clamped.column == 3)
    }

    @Test("value errors describe what was found")
    func valueErrors() throws {
        let json = "{\n  \"when\": \"yesterday\"\n}"
        let error = try #require(throws: JSONValueError.self) {
            try scanning(json) { scanner in
                try scanner.beginObject()
                _ = try scanner.nextKey { _ in () }
                _ = try scanner.readDouble()
            }
        }
        expectEqual(error.description, "unexpected value at line 2, column 11 (byte 12): expected a number, found string \"yesterday\"")
        expectEqual(error.foundDescription, "string \"yesterday\"")
    }
}
