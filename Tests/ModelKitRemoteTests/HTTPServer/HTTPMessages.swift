import Foundation
import ModelKitCore

/// One request as ``LocalHTTPServer``'s routes and handlers see it.
struct HTTPRequest: Sendable {
    /// One `name=value` pair of the query string, both percent-decoded; `value` is nil for a bare `name`.
    struct QueryItem: Sendable, Hashable {
        let name: String
        let value: String?
    }

    /// The method as sent, e.g. `GET`.
    let method: String
    /// The path as sent, still percent-encoded, without the query: `/users/a%20b%2Fc`.
    let path: String
    /// The items of the query string, in order.
    let query: [QueryItem]
    /// The header fields by lowercased name; repeated fields are joined with `, `.
    let headers: [String: String]
    /// The body: the `Content-Length` bytes after the header (empty without one).
    let body: Data

    /// The value of the header field `name`, in any case.
    func header(_ name: String) -> String? {
        headers[name.lowercased()]
    }
}

extension [HTTPRequest.QueryItem] {
    /// The value of the first item named `name`.
    subscript(name: String) -> String? {
        first { $0.name == name }?.value
    }
}

/// A response status: its code and reason phrase.
struct HTTPStatusCode: Hashable, Sendable, CustomStringConvertible {
    let code: Int
    let reasonPhrase: String

    static let ok = HTTPStatusCode(code: 200, reasonPhrase: "OK")
    static let created = HTTPStatusCode(code: 201, reasonPhrase: "Created")
    static let noContent = HTTPStatusCode(code: 204, reasonPhrase: "No Content")
    static let notModified = HTTPStatusCode(code: 304, reasonPhrase: "Not Modified")
    static let badRequest = HTTPStatusCode(code: 400, reasonPhrase: "Bad Request")
    static let unauthorized = HTTPStatusCode(code: 401, reasonPhrase: "Unauthorized")
    static let notFound = HTTPStatusCode(code: 404, reasonPhrase: "Not Found")
    static let tooManyRequests = HTTPStatusCode(code: 429, reasonPhrase: "Too Many Requests")
    static let serviceUnavailable = HTTPStatusCode(code: 503, reasonPhrase: "Service Unavailable")
    static let internalServerError = HTTPStatusCode(code: 500, reasonPhrase: "Internal Server Error")

    /// `404 Not Found`.
    var description: String { "\(code) \(reasonPhrase)" }

    /// Whether a response with this status has a body (and so a `Content-Length`).
    var allowsBody: Bool { code >= 200 && code != 204 && code != 304 }
}

/// The name of a response header field.
struct HTTPHeader: Hashable, Sendable {
    let name: String

    static let contentType = HTTPHeader(name: "Content-Type")
    static let retryAfter = HTTPHeader(name: "Retry-After")
    static let eTag = HTTPHeader(name: "ETag")
}

/// A handler's answer; the server adds `Content-Length` and `Connection: close` when it sends it.
struct HTTPResponse: Sendable {
    var statusCode: HTTPStatusCode
    var headers: [HTTPHeader: String]
    var body: Data
    /// A body written in chunks as the server goes instead of ``body``, for more bytes than a
    /// client should read.
    var streamedBody: StreamedBody?
    /// Whether the server closes the connection without answering (as a server that crashed).
    var dropsConnection = false

    init(statusCode: HTTPStatusCode, headers: [HTTPHeader: String] = [:], body: Data = Data()) {
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
    }

    /// A 200 whose body is `body`, written in chunks.
    init(streaming body: StreamedBody) {
        self.init(statusCode: .ok, headers: [.contentType: "application/json"])
        streamedBody = body
    }

    /// No answer: the connection closes.
    static var dropped: HTTPResponse {
        var response = HTTPResponse(statusCode: .internalServerError)
        response.dropsConnection = true
        return response
    }

    /// A 400 whose plain-text body says what was wrong with the request.
    static func badRequest(_ reason: String) -> HTTPResponse {
        HTTPResponse(statusCode: .badRequest, headers: [.contentType: "text/plain; charset=utf-8"], body: Data(reason.utf8))
    }

    /// The interim answer to a request sent with `Expect: 100-continue`: send the body.
    static let continueBytes = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    /// The status line, the header fields and the body, as sent.
    var encoded: [UInt8] {
        let allowsBody = statusCode.allowsBody
        var head = "HTTP/1.1 \(statusCode)\r\n"
        if let streamedBody {
            if streamedBody.announced, let byteCount = streamedBody.byteCount { head += "Content-Length: \(byteCount)\r\n" }
        } else if allowsBody {
            head += "Content-Length: \(body.count)\r\n"
        }
        let managed: Set<String> = ["content-length", "connection", "transfer-encoding"]
        for (header, value) in headers.sorted(by: { $0.key.name < $1.key.name })
        where !managed.contains(header.name.lowercased()) {
            head += "\(header.name): \(value)\r\n"
        }
        head += "Connection: close\r\n\r\n"
        var bytes = Array(head.utf8)
        if allowsBody, streamedBody == nil { bytes.append(contentsOf: body) }
        return bytes
    }
}

/// A body the server writes a chunk at a time as it makes them, counting what the client took
/// before it closed the connection.
struct StreamedBody: Sendable {
    /// How many bytes the body has, when the server knows.
    let byteCount: Int?
    /// Whether the head announces them (`Content-Length`); otherwise closing the connection ends the body.
    let announced: Bool
    /// Chunk number `n` (from 0), or nil after the last.
    let chunk: @Sendable (Int) -> [UInt8]?
    /// What the server managed to send.
    let progress = SendProgress()

    /// The size of the chunks the server writes.
    static let chunkSize = 64 * 1024

    /// `byteCount` bytes (at least 2): an empty JSON array padded with spaces (`[    ]`).
    init(byteCount: Int, announced: Bool) {
        self.byteCount = byteCount
        self.announced = announced
        chunk = { index in
            let offset = index * Self.chunkSize
            guard offset < byteCount else { return nil }
            var bytes = [UInt8](repeating: UInt8(ascii: " "), count: min(Self.chunkSize, byteCount - offset))
            if offset == 0 { bytes[0] = UInt8(ascii: "[") }
            if offset + bytes.count == byteCount { bytes[bytes.count - 1] = UInt8(ascii: "]") }
            return bytes
        }
    }

    /// The chunks `chunk` makes, the length unannounced.
    init(chunks chunk: @escaping @Sendable (Int) -> [UInt8]?) {
        byteCount = nil
        announced = false
        self.chunk = chunk
    }
}

/// How many bytes of a streamed body the server sent, and whether it has stopped sending.
final class SendProgress: Sendable {
    private let state = Locked<(sent: Int, finished: Bool)>((0, false))

    func add(_ count: Int) { state.withLock { $0.sent += count } }
    func finish() { state.withLock { $0.finished = true } }

    /// The bytes sent, once the server has stopped sending (nil if it has not within `limit`).
    func sentWhenFinished(within limit: Duration = .seconds(60)) async throws -> Int? {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            let (sent, finished) = state.withLock { $0 }
            if finished { return sent }
            try await Task.sleep(for: .milliseconds(20))
        }
        return nil
    }
}
