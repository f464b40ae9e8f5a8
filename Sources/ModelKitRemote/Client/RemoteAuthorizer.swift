import Foundation

/// Adds credentials to a ``RemoteClient``'s requests, and refreshes them when the server answers
/// `401 Unauthorized`.
///
/// The client calls ``authorize(_:)`` before each attempt of each request (so a retried request
/// carries current credentials). After a 401 it calls ``refresh(after:to:)``; when that returns
/// true the request is authorized and sent once more, and a second 401 fails with the status.
///
/// ```swift
/// actor TokenAuthorizer: RemoteAuthorizer {
///     private var token = "expired"
///
///     func authorize(_ request: inout RemoteRequest) async throws {
///         request.headers["Authorization"] = "Bearer \(token)"
///     }
///
///     func refresh(after response: RemoteResponse, to request: RemoteRequest) async throws -> Bool {
///         token = try await fetchNewToken()
///         return true
///     }
/// }
/// let client = RemoteClient(baseURL: URL(string: "https://api.example.com")!, authorizer: TokenAuthorizer())
/// ```
public protocol RemoteAuthorizer: Sendable {
    /// Adds credentials to `request` (a header, a query item, a signature).
    func authorize(_ request: inout RemoteRequest) async throws

    /// Called after a `401 Unauthorized` answered `request`: renew the credentials and return
    /// true to send it once more, or false to fail with the status. By default, false.
    func refresh(after response: RemoteResponse, to request: RemoteRequest) async throws -> Bool
}

extension RemoteAuthorizer {
    public func refresh(after response: RemoteResponse, to request: RemoteRequest) async throws -> Bool {
        false
    }
}
