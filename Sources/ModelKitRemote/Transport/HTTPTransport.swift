import Foundation

/// Sends one HTTP request and returns the response, whatever its status: the one thing a
/// ``RemoteClient`` needs from the network.
///
/// ``URLSessionTransport`` is the implementation the library ships; tests and apps may bring
/// their own. A transport should stop when the calling task is cancelled (throwing any error:
/// the client reports cancellation itself), and stop reading a body larger than the request's
/// ``RemoteRequest/maxResponseSize`` (the client checks the size of what a transport returns too,
/// but only a transport can keep such a body out of memory).
///
/// ```swift
/// struct Canned: HTTPTransport {
///     func send(_ request: RemoteRequest) async throws -> RemoteResponse {
///         RemoteResponse(status: 200, body: Data(#"[{"id": 1}]"#.utf8))
///     }
/// }
/// let client = RemoteClient(baseURL: URL(string: "https://api.example.com")!, transport: Canned())
/// ```
public protocol HTTPTransport: Sendable {
    /// Sends `request`; throws only when no response arrived (no connection, cancelled, timed out).
    func send(_ request: RemoteRequest) async throws -> RemoteResponse
}

/// One HTTP request as a ``RemoteClient`` sends it.
///
/// ```swift
/// let request = RemoteRequest(method: .get, url: URL(string: "https://api.example.com/users")!)
/// ```
public struct RemoteRequest: Sendable, CustomStringConvertible {
    /// An HTTP method.
    public enum Method: String, Hashable, Sendable, CustomStringConvertible {
        case get = "GET"
        case post = "POST"
        case put = "PUT"
        case patch = "PATCH"
        case delete = "DELETE"

        public var description: String { rawValue }
    }

    /// The method.
    public var method: Method
    /// The full URL, query included.
    public var url: URL
    /// The header fields, by name.
    public var headers: [String: String]
    /// The body, if any.
    public var body: Data?
    /// How long the whole exchange may take, in seconds.
    public var timeout: TimeInterval
    /// The largest response body the transport may read, in bytes; nil for no limit. A transport
    /// stops reading a body that passes it and throws ``RemoteError/tooLarge(_:status:announced:)``
    /// (``URLSessionTransport`` does, as soon as the `Content-Length` or the bytes received pass it).
    public var maxResponseSize: Int?

    /// Creates a request.
    public init(
        method: Method, url: URL, headers: [String: String] = [:], body: Data? = nil, timeout: TimeInterval = 60,
        maxResponseSize: Int? = nil
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
        self.maxResponseSize = maxResponseSize
    }

    /// `GET 'https://api.example.com/users'`.
    public var description: String {
        "\(method) '\(url.absoluteString)'"
    }
}

/// One HTTP response: status, header fields and body.
///
/// ```swift
/// let response = RemoteResponse(status: 404)
/// response.isSuccess   // false
/// ```
public struct RemoteResponse: Sendable {
    /// The status code.
    public var status: Int
    /// The header fields, by name as the server sent them.
    public var headers: [String: String]
    /// The body; empty when there was none.
    public var body: Data

    /// Creates a response.
    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// Whether the status is 2xx.
    public var isSuccess: Bool {
        (200..<300).contains(status)
    }

    /// The value of a header field, its name compared without case.
    ///
    /// ```swift
    /// response.header("content-type")   // "application/json"
    /// ```
    public func header(_ name: String) -> String? {
        headers.field(name)
    }
}

extension [String: String] {
    /// The value of the header field `name`, compared without case (HTTP field names have none).
    func field(_ name: String) -> String? {
        first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// Sets the header field `name` to `value`, replacing it in whatever case it was spelled.
    mutating func setField(_ name: String, to value: String) {
        self = filter { $0.key.caseInsensitiveCompare(name) != .orderedSame }
        self[name] = value
    }
}
