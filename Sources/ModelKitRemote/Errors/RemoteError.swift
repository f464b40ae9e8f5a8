import Foundation
import ModelKitCore
import ModelKitStore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What went wrong with a remote request: a kind, the method and URL, the status when a
/// response arrived, and one lowercase sentence.
///
/// ```swift
/// do {
///     let user = try await client.fetchOne(User.self, id: 7)
/// } catch let error as RemoteError where error.kind == .status {
///     print(error)   // GET 'http://127.0.0.1:8080/users/7' failed: status 404
/// }
/// ```
public struct RemoteError: Error, CustomStringConvertible, Sendable {
    /// The kind of problem.
    ///
    /// Kinds can be added in a minor release, so a `switch` over them needs a `default`;
    /// compare one with `==` (`error.kind == .timeout`).
    public struct Kind: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The kind's name, e.g. `status`.
        public let rawValue: String

        /// The kind named `rawValue`.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// The server answered with a status outside 2xx.
        public static let status = Kind(rawValue: "status")
        /// The body of a successful response is not JSON (or is empty where a model was expected).
        public static let notJSON = Kind(rawValue: "notJSON")
        /// The body is JSON but does not map to the model (``underlying`` is the `ModelError`).
        public static let mapping = Kind(rawValue: "mapping")
        /// No response within the client's timeout.
        public static let timeout = Kind(rawValue: "timeout")
        /// The calling task was cancelled.
        public static let cancelled = Kind(rawValue: "cancelled")
        /// The transport failed: no connection, a reset, a TLS problem.
        public static let transport = Kind(rawValue: "transport")
        /// The endpoint does not make a valid URL under the base URL.
        public static let invalidURL = Kind(rawValue: "invalidURL")
        /// The model does not allow the operation (its ``RemoteModel/remoteOperations``).
        public static let notAllowed = Kind(rawValue: "notAllowed")
        /// The model has no identifier, so it has no instance endpoint.
        public static let notIdentified = Kind(rawValue: "notIdentified")
        /// The response's body is larger than the client's ``RemoteClient/maxResponseSize``.
        public static let tooLarge = Kind(rawValue: "tooLarge")
        /// A page names no usable next page: a URL that is not HTTP, a cursor of the wrong type,
        /// or a next page already read (a loop).
        public static let pagination = Kind(rawValue: "pagination")
        /// The client's ``RemoteAuthorizer`` threw (``underlying`` is its error).
        public static let authorization = Kind(rawValue: "authorization")
        /// Saving to or deleting from the store failed (``underlying`` is the `StoreError`).
        public static let store = Kind(rawValue: "store")

        public var description: String { rawValue }
    }

    /// The kind of problem.
    public let kind: Kind
    /// The request's method.
    public let method: RemoteRequest.Method
    /// The request's URL, or the endpoint as declared when it made no URL.
    public let url: String
    /// The response's status, when a response arrived.
    public let status: Int?
    /// The response's body, when a response arrived.
    public let body: Data?
    /// The detail after the colon.
    public let reason: String
    /// The error that caused this one: a `ModelError`, a `StoreError`, a `URLError`, ...
    public let underlying: (any Error)?
    /// How many times the request was sent (more than 1 when the client's retry policy sent it again).
    public internal(set) var attempts: Int = 1

    /// Creates an error; the client makes these, tests and transports may too.
    public init(
        _ kind: Kind, method: RemoteRequest.Method, url: String, status: Int? = nil, body: Data? = nil,
        reason: String, underlying: (any Error)? = nil
    ) {
        self.kind = kind
        self.method = method
        self.url = url
        self.status = status
        self.body = body
        self.reason = reason
        self.underlying = underlying
    }

    /// `GET 'http://127.0.0.1:8080/users' (status 200) failed: the body is not JSON: ...`; the
    /// status comes after the URL when a response arrived, except for ``Kind/status`` whose
    /// reason is the status itself.
    public var description: String {
        var text = "\(method) '\(url)'"
        if let status, kind != .status { text += " (status \(status))" }
        text += " failed: " + reason
        return attempts > 1 ? text + " (\(attempts) attempts)" : text
    }

    /// The error, saying how many times the request was sent.
    func after(_ attempts: Int) -> RemoteError {
        var error = self
        error.attempts = attempts
        return error
    }
}

extension RemoteError {
    /// The error for a response body larger than the request's ``RemoteRequest/maxResponseSize``:
    /// what a transport throws when it stops reading one.
    ///
    /// ```swift
    /// throw RemoteError.tooLarge(request, status: 200, announced: 20_000_000)
    /// // GET 'http://127.0.0.1:8080/users' (status 200) failed: the response announces 20000000 bytes, over the limit of 33554432 ('maxResponseSize')
    /// ```
    ///
    /// - Parameters:
    ///   - request: The request, with the limit it was sent with.
    ///   - status: The response's status, when its head arrived.
    ///   - announced: The length its `Content-Length` announced, when that is what passed the limit.
    public static func tooLarge(_ request: RemoteRequest, status: Int?, announced: Int?) -> RemoteError {
        let limit = request.maxResponseSize.map(String.init) ?? "none"
        let reason = announced.map { "the response announces \($0) bytes, over the limit of \(limit) ('maxResponseSize')" }
            ?? "the response is larger than the limit of \(limit) bytes ('maxResponseSize'); reading stopped there"
        return RemoteError(.tooLarge, method: request.method, url: request.url.absoluteString, status: status, reason: reason)
    }

    /// The error for a response whose status is not 2xx.
    static func status(_ request: RemoteRequest, _ response: RemoteResponse) -> RemoteError {
        RemoteError(
            .status, method: request.method, url: request.url.absoluteString, status: response.status,
            body: response.body, reason: "status \(response.status)")
    }

    /// The error for a response body that does not map: not JSON, or not the model.
    static func mapping(_ error: any Error, _ request: RemoteRequest, _ response: RemoteResponse) -> RemoteError {
        let url = request.url.absoluteString
        guard let modelError = error as? ModelError else {
            return RemoteError(
                .mapping, method: request.method, url: url, status: response.status, body: response.body,
                reason: String(describing: error).lowercasedFirst, underlying: error)
        }
        if modelError.kind == .malformedInput {
            let detail = modelError.underlying.map { String(describing: $0) } ?? modelError.reason
            return RemoteError(
                .notJSON, method: request.method, url: url, status: response.status, body: response.body,
                reason: "the body is not JSON: " + detail, underlying: modelError)
        }
        return RemoteError(
            .mapping, method: request.method, url: url, status: response.status, body: response.body,
            reason: modelError.description, underlying: modelError)
    }

    /// The error for an empty body where a model was expected.
    static func emptyBody(_ request: RemoteRequest, _ response: RemoteResponse) -> RemoteError {
        RemoteError(
            .notJSON, method: request.method, url: request.url.absoluteString, status: response.status,
            body: response.body, reason: "the body is not JSON: it is empty")
    }

    /// The error for a send that threw: cancelled, timed out, or a transport failure.
    static func sending(_ error: any Error, _ request: RemoteRequest, cancelled: Bool) -> RemoteError {
        if let error = error as? RemoteError { return error }
        let url = request.url.absoluteString
        if cancelled || error is CancellationError || (error as? URLError)?.code == .cancelled {
            return RemoteError(.cancelled, method: request.method, url: url, reason: "cancelled", underlying: error)
        }
        if error is RemoteTimeout || (error as? URLError)?.code == .timedOut {
            let timeout = request.timeout
            let seconds = timeout == timeout.rounded() && abs(timeout) < 1e15 ? String(Int64(timeout)) : String(timeout)
            return RemoteError(
                .timeout, method: request.method, url: url, reason: "no response within \(seconds) s", underlying: error)
        }
        return RemoteError(
            .transport, method: request.method, url: url, reason: String(describing: error).lowercasedFirst,
            underlying: error)
    }

    /// The error for an authorizer that threw at `step` ("authorize", "refresh the credentials of").
    static func authorization(_ error: any Error, _ request: RemoteRequest, step: String) -> RemoteError {
        if let error = error as? RemoteError { return error }
        return RemoteError(
            .authorization, method: request.method, url: request.url.absoluteString,
            reason: "cannot \(step) the request: " + String(describing: error).lowercasedFirst, underlying: error)
    }

    /// The error for a failed store save or delete after a successful response.
    static func store(_ error: any Error, _ request: RemoteRequest, _ response: RemoteResponse) -> RemoteError {
        RemoteError(
            .store, method: request.method, url: request.url.absoluteString, status: response.status,
            reason: String(describing: error).lowercasedFirst, underlying: error)
    }
}

/// Thrown by the client's timer when a request's timeout runs out first.
struct RemoteTimeout: Error {}
