import Foundation

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
    static let badRequest = HTTPStatusCode(code: 400, reasonPhrase: "Bad Request")
    static let notFound = HTTPStatusCode(code: 404, reasonPhrase: "Not Found")
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
}

/// A handler's answer; the server adds `Content-Length` and `Connection: close` when it sends it.
struct HTTPResponse: Sendable {
    var statusCode: HTTPStatusCode
    var headers: [HTTPHeader: String]
    var body: Data

    init(statusCode: HTTPStatusCode, headers: [HTTPHeader: String] = [:], body: Data = Data()) {
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
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
        if allowsBody { head += "Content-Length: \(body.count)\r\n" }
        let managed: Set<String> = ["content-length", "connection", "transfer-encoding"]
        for (header, value) in headers.sorted(by: { $0.key.name < $1.key.name })
        where !managed.contains(header.name.lowercased()) {
            head += "\(header.name): \(value)\r\n"
        }
        head += "Connection: close\r\n\r\n"
        var bytes = Array(head.utf8)
        if allowsBody { bytes.append(contentsOf: body) }
        return bytes
    }
}
