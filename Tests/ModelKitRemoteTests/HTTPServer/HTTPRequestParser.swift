import Foundation

/// Why the bytes of a connection are not a request the server reads: it answers 400 with this text.
struct MalformedRequest: Error, CustomStringConvertible {
    let description: String
}

/// Reads one HTTP/1.1 request from the bytes of a connection as they arrive.
///
/// What it takes: a request line `METHOD /path?query HTTP/1.1` (or `HTTP/1.0`), header fields
/// ending with an empty line (`CRLF` line ends), and a body of `Content-Length` bytes, or none.
/// What it rejects as a ``MalformedRequest``: any other request line or target form, a field
/// line without a name and colon (or folded onto the line before), a `Transfer-Encoding` (so
/// chunked bodies: URLSession sends a `Content-Length` for a `Data` body), a `Content-Length`
/// that is not one decimal number, a bad percent-encoding in the path or query, a header past
/// ``maximumHeadSize`` or a body past ``maximumBodySize``. Bytes after the body are ignored:
/// the server answers one request per connection.
struct HTTPRequestParser {
    /// The most bytes the request line and header fields may take.
    static let maximumHeadSize = 64 * 1024
    /// The most bytes a body may take.
    static let maximumBodySize = 16 * 1024 * 1024

    /// The request line and header fields, read.
    private struct Head {
        var method: String
        var path: String
        var query: [HTTPRequest.QueryItem]
        var headers: [String: String]
        /// Where the body starts in ``bytes``.
        var bodyStart: Int
        var bodyLength: Int
        var expectsContinue: Bool
    }

    private var bytes: [UInt8] = []
    private var head: Head?
    private var continueAnswered = false

    /// Whether any byte arrived.
    var hasStarted: Bool { !bytes.isEmpty }

    /// Adds bytes from the connection; returns the request once they complete it.
    mutating func append(_ received: some Collection<UInt8>) throws -> HTTPRequest? {
        let searchStart = max(bytes.count - 3, 0)
        bytes.append(contentsOf: received)
        if head == nil {
            guard let headEnd = Self.endOfHead(in: bytes, from: searchStart) else {
                if bytes.count > Self.maximumHeadSize {
                    throw MalformedRequest(description: "the header is longer than \(Self.maximumHeadSize) bytes")
                }
                return nil
            }
            head = try Self.parseHead(bytes[..<headEnd], bodyStart: headEnd + 4)
        }
        guard let head, bytes.count - head.bodyStart >= head.bodyLength else { return nil }
        let body = Data(bytes[head.bodyStart..<(head.bodyStart + head.bodyLength)])
        return HTTPRequest(method: head.method, path: head.path, query: head.query, headers: head.headers, body: body)
    }

    /// Whether the client now waits for `100 Continue` before it sends the body: true once, when
    /// the header asked for it and the body has not come.
    mutating func takeContinueRequest() -> Bool {
        guard let head, head.expectsContinue, !continueAnswered, bytes.count == head.bodyStart else { return false }
        continueAnswered = true
        return true
    }

    // MARK: - The header

    /// The index of the `CRLF CRLF` that ends the header, searching from `start`.
    private static func endOfHead(in bytes: [UInt8], from start: Int) -> Int? {
        let end: [UInt8] = [13, 10, 13, 10]
        guard bytes.count - 4 >= start else { return nil }
        return (start...(bytes.count - 4)).first { bytes[$0..<($0 + 4)].elementsEqual(end) }
    }

    private static func parseHead(_ bytes: ArraySlice<UInt8>, bodyStart: Int) throws -> Head {
        guard let text = String(bytes: bytes, encoding: .utf8) else {
            throw MalformedRequest(description: "the header is not UTF-8")
        }
        var lines = text.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst()
        let parts = requestLine.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, isToken(parts[0]), parts[1].hasPrefix("/"),
            parts[1].unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }),
            ["HTTP/1.1", "HTTP/1.0"].contains(parts[2])
        else {
            throw MalformedRequest(description: "the request line '\(requestLine)' is not 'METHOD /path HTTP/1.1'")
        }
        let headers = try parseFields(lines)
        let (path, query) = try parseTarget(parts[1])
        if let encoding = headers["transfer-encoding"] {
            throw MalformedRequest(description: "transfer-encoding '\(encoding)' is not supported: send a content-length")
        }
        let length = try bodyLength(headers["content-length"])
        let expectsContinue = headers["expect"]?.lowercased() == "100-continue" && length > 0
        return Head(
            method: parts[0], path: path, query: query, headers: headers,
            bodyStart: bodyStart, bodyLength: length, expectsContinue: expectsContinue)
    }

    /// `Name: value` lines, by lowercased name; values trimmed, repeats joined with `, `.
    private static func parseFields(_ lines: [String]) throws -> [String: String] {
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":"), isToken(line[..<colon]) else {
                throw MalformedRequest(description: "the header line '\(line)' is not 'Name: value'")
            }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: CharacterSet(charactersIn: " \t"))
            headers[name] = headers[name].map { "\($0), \(value)" } ?? value
        }
        return headers
    }

    /// The body's length from the `Content-Length` field: 0 without one.
    private static func bodyLength(_ field: String?) throws -> Int {
        guard let field else { return 0 }
        guard !field.isEmpty, field.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }),
            let length = Int(field), length <= maximumBodySize
        else {
            throw MalformedRequest(
                description: "the content-length '\(field)' is not a number up to \(maximumBodySize)")
        }
        return length
    }

    /// Whether `text` is an HTTP token: a method or a field name.
    private static func isToken(_ text: some StringProtocol) -> Bool {
        !text.isEmpty && text.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "!#$%&'*+-.^_`|~".unicodeScalars.contains(scalar))
        }
    }

    // MARK: - The target

    /// The percent-encoded path, and the decoded query items, of a target `/path?query`.
    private static func parseTarget(_ target: String) throws -> (path: String, query: [HTTPRequest.QueryItem]) {
        let path: Substring
        let queryString: Substring
        if let question = target.firstIndex(of: "?") {
            path = target[..<question]
            queryString = target[target.index(after: question)...]
        } else {
            path = target[...]
            queryString = ""
        }
        guard path.removingPercentEncoding != nil else {
            throw MalformedRequest(description: "the path '\(path)' has a bad percent-encoding")
        }
        var query: [HTTPRequest.QueryItem] = []
        for item in queryString.split(separator: "&") {
            // As URLComponents reads them: percent-decoded, a `+` stays a `+`.
            let equals = item.firstIndex(of: "=")
            let name = (equals.map { item[..<$0] } ?? item).removingPercentEncoding
            let value = equals.map { item[item.index(after: $0)...].removingPercentEncoding }
            guard let name, value != .some(nil) else {
                throw MalformedRequest(description: "the query item '\(item)' has a bad percent-encoding")
            }
            query.append(HTTPRequest.QueryItem(name: name, value: value ?? nil))
        }
        return (String(path), query)
    }
}
