import Foundation
import ModelKitCore
import ModelKitJSON
import ModelKitStore

/// Fetches, creates, updates and deletes ``RemoteModel``s at a base URL, mapping every response
/// through the fast JSON path into a `ModelContext` and, when it has a store, saving what it
/// mapped in one transaction per response.
///
/// Identity: pass the context of the isolation domain you work in (`context:`), and it holds
/// one live instance per identifier, so fetching a page twice, or a user that also appears in a
/// page, returns the same instance, updated in place. Without one, each call maps through a
/// context of its own. With a store, an identifier that is not live is loaded from the store
/// before the payload applies (see `ModelContext`).
///
/// The client is `Sendable`: share one across tasks and actors; each passes its own context, and
/// a call maps in its caller's isolation domain.
///
/// Errors are ``RemoteError``s naming the method, URL and status. The calling task's
/// cancellation cancels the request; ``timeout`` bounds each attempt of an exchange, and
/// ``retryPolicy`` says when an idempotent request is sent again.
///
/// ```swift
/// let store = try SQLiteStore(path: "/tmp/api.sqlite")
/// let client = RemoteClient(baseURL: URL(string: "https://api.example.com/v1")!, store: store)
/// let context = ModelContext(store: store)
/// let users = try await client.fetchAll(User.self, query: [URLQueryItem(name: "page", value: "2")], context: context)
/// let ada = try await client.fetchOne(User.self, id: 42, context: context)   // the live instance, updated in place
/// ```
public struct RemoteClient: Sendable {
    /// Where endpoints are resolved: `https://api.example.com/v1` + `/users`.
    public var baseURL: URL
    /// Where mapped responses are saved (and deletes applied), when set.
    public let store: (any ModelStore)?
    /// How long one exchange may take, from sending the request to the last byte of the response.
    public var timeout: Duration
    /// Header fields sent with every request (`Accept: application/json` is added unless set).
    public var headers: [String: String]
    /// The options responses are mapped and bodies written with.
    public var options: MappingOptions
    /// The largest response body the client reads, in bytes (``defaultMaxResponseSize`` unless
    /// given): a larger one fails with ``RemoteError/Kind/tooLarge`` once the transport has read
    /// at most this much. Nil for no limit.
    public var maxResponseSize: Int?
    /// When a failed request is sent again (``RemoteRetryPolicy/default`` unless given).
    public var retryPolicy: RemoteRetryPolicy
    /// What adds credentials to each request and refreshes them after a 401, when set.
    public var authorizer: (any RemoteAuthorizer)?
    /// Whether fetches revalidate: a GET whose earlier response had an `ETag` is sent with
    /// `If-None-Match`, and a `304 Not Modified` returns the models of that response as they are
    /// in the context (true unless set).
    public var revalidates = true
    /// What sends the requests.
    public let transport: any HTTPTransport
    /// The `ETag`s of the latest responses, shared by the copies of the client.
    let validators = RemoteValidators()

    /// A client for the resources under `baseURL`.
    ///
    /// ```swift
    /// let client = RemoteClient(baseURL: URL(string: "http://127.0.0.1:8080")!, timeout: .seconds(5))
    /// ```
    ///
    /// - Parameters:
    ///   - baseURL: Where endpoints are resolved: `https://api.example.com/v1` + `/users`.
    ///   - store: Where mapped responses are saved; nil to keep them in memory only.
    ///   - timeout: How long one exchange may take.
    ///   - headers: Header fields sent with every request (`Accept: application/json` is added
    ///     unless set).
    ///   - options: The options responses are mapped and bodies written with.
    ///   - maxResponseSize: The largest response body the client reads, in bytes; nil for no limit.
    ///   - retryPolicy: When a failed request is sent again.
    ///   - authorizer: What adds credentials to each request and refreshes them after a 401.
    ///   - transport: What sends the requests; ``defaultTransport`` unless given.
    public init(
        baseURL: URL, store: (any ModelStore)? = nil, timeout: Duration = .seconds(60),
        headers: [String: String] = [:], options: MappingOptions = .default,
        maxResponseSize: Int? = RemoteClient.defaultMaxResponseSize, retryPolicy: RemoteRetryPolicy = .default,
        authorizer: (any RemoteAuthorizer)? = nil, transport: any HTTPTransport = RemoteClient.defaultTransport
    ) {
        self.baseURL = baseURL
        self.store = store
        self.timeout = timeout
        self.headers = headers
        self.options = options
        self.maxResponseSize = maxResponseSize
        self.retryPolicy = retryPolicy
        self.authorizer = authorizer
        self.transport = transport
    }

    /// 32 MiB: several times the largest page real APIs send in one response (a few megabytes),
    /// and small enough that a runaway body (a proxy's looping error page, a server bug, an
    /// attacker) fails before it costs the process real memory: mapping holds the body and the
    /// models it makes at once. Raise it for APIs that send larger documents by design.
    public static let defaultMaxResponseSize = 32 << 20

    /// The transport a client uses unless given one: an `AsyncHTTPClientTransport` on Linux when
    /// the package's `AsyncHTTPClient` trait is on (FoundationNetworking cannot stop a fast body
    /// promptly), a ``URLSessionTransport`` otherwise.
    public static var defaultTransport: any HTTPTransport {
        #if AsyncHTTPClient && os(Linux)
        AsyncHTTPClientTransport()
        #else
        URLSessionTransport()
        #endif
    }

    // MARK: Reading

    /// GETs the collection (``RemoteModel/collectionPath``) and maps the objects at
    /// ``RemoteModel/responseKeyPath`` through `context`: one instance per identifier.
    ///
    /// ```swift
    /// let page = try await client.fetchAll(User.self, query: [URLQueryItem(name: "page", value: "2")], context: context)
    /// ```
    public func fetchAll<M: RemoteModel>(
        _ type: M.Type, query: [URLQueryItem] = [], context: ModelContext? = nil
    ) async throws -> [M] {
        let request = try makeRequest(M.self, .get, .read, path: M.collectionPath, query: query)
        let context = mappingContext(context)
        return try await fetch(request, context: context) { response in
            try await mapCollection(response, of: request, context: context)
        }
    }

    /// GETs the instance endpoint for `id` (``RemoteModel/instancePath(for:)``) and maps it
    /// through `context`: the live instance for that identifier, updated in place, when there
    /// is one.
    ///
    /// ```swift
    /// let user = try await client.fetchOne(User.self, id: 42, context: context)
    /// ```
    public func fetchOne<M: RemoteModel, ID: Hashable & Sendable>(
        _ type: M.Type, id: ID, query: [URLQueryItem] = [], context: ModelContext? = nil
    ) async throws -> M {
        let path = M.instancePath(for: RemotePath.text(of: AnyHashable(id)))
        let request = try makeRequest(M.self, .get, .read, path: path, query: query)
        return try await exchangeOne(request, context: mappingContext(context))
    }

    /// GETs `model`'s own endpoint (``RemoteModel/instancePath``) and maps the response onto
    /// the live instance of `context` (the context that holds `model`).
    ///
    /// ```swift
    /// try await client.refresh(user, context: context)   // `user` now holds the server's values
    /// ```
    @discardableResult
    public func refresh<M: RemoteModel>(_ model: M, context: ModelContext? = nil) async throws -> M {
        let request = try makeRequest(M.self, .get, .read, path: instancePath(of: model, .get))
        let context = mappingContext(context)
        adopt(model, into: context)
        return try await exchangeOne(request, context: context)
    }

    /// The context a call maps through: the caller's, or one of its own over the client's store.
    func mappingContext(_ context: ModelContext?) -> ModelContext {
        context ?? ModelContext(store: store as? any ModelLoading)
    }

    // MARK: Requests

    /// A request for an endpoint of `M`, checking that `M` allows `operation`.
    func makeRequest<M: RemoteModel>(
        _ type: M.Type, _ method: RemoteRequest.Method, _ operation: RemoteOperations, path: String,
        query: [URLQueryItem] = []
    ) throws -> RemoteRequest {
        guard let url = RemotePath.url(path, under: baseURL, query: query) else {
            throw RemoteError(
                .invalidURL, method: method, url: RemotePath.join(baseURL.absoluteString, path),
                reason: "'\(path)' is not a valid endpoint under '\(baseURL.absoluteString)'")
        }
        guard M.remoteOperations.contains(operation) else {
            throw RemoteError(
                .notAllowed, method: method, url: url.absoluteString,
                reason: "'\(M.modelSchema.modelName)' does not allow \(operation) (it allows \(M.remoteOperations))")
        }
        var fields = headers
        if fields.field("Accept") == nil {
            fields["Accept"] = "application/json"
        }
        return RemoteRequest(method: method, url: url, headers: fields, timeout: timeout.seconds, maxResponseSize: maxResponseSize)
    }

    /// `model`'s endpoint, or a ``RemoteError/Kind/notIdentified`` error when it has none.
    func instancePath<M: RemoteModel>(of model: M, _ method: RemoteRequest.Method) throws -> String {
        guard let path = model.instancePath else {
            let collection = RemotePath.url(M.collectionPath, under: baseURL, query: [])
            throw RemoteError(
                .notIdentified, method: method, url: collection?.absoluteString ?? baseURL.absoluteString,
                reason: "'\(M.modelSchema.modelName)' has no identifier, so no instance endpoint")
        }
        return path
    }

    /// Sends a request for one object and maps the response through `context`.
    func exchangeOne<M: RemoteModel>(_ request: RemoteRequest, context: ModelContext) async throws -> M {
        let models: [M] = try await fetch(request, context: context) { response in
            [try await mapOne(response, of: request, context: context)]
        }
        guard let model = models.first else { throw RemoteError.emptyBody(request, RemoteResponse(status: 304)) }
        return model
    }

    // MARK: Mapping and saving

    /// Maps one object (at ``RemoteModel/instanceKeyPath``) through the context, saving it when
    /// the client has a store.
    func mapOne<M: RemoteModel>(_ response: RemoteResponse, of request: RemoteRequest, context: ModelContext) async throws -> M {
        let model = try map(response, of: request) { data, options in
            try M.instanceKeyPath.nonEmpty.map { try M(jsonData: data, at: $0, context: context, options: options) }
                ?? M(jsonData: data, context: context, options: options)
        }
        try await save(CollectionOfOne(model), response, of: request)
        return model
    }

    /// Maps a response's body with `body`, turning what it throws into ``RemoteError``s.
    func map<T>(
        _ response: RemoteResponse, of request: RemoteRequest, _ body: (Data, MappingOptions) throws -> T
    ) throws -> T {
        guard !response.body.isEmpty else { throw RemoteError.emptyBody(request, response) }
        do {
            return try body(response.body, options)
        } catch {
            throw RemoteError.mapping(error, request, response)
        }
    }

    /// Saves `models` to the store, when there is one, in one transaction.
    func save<S: Sequence>(_ models: S, _ response: RemoteResponse, of request: RemoteRequest) async throws
    where S.Element: Model {
        guard let store else { return }
        do {
            try await store.save(models)
        } catch {
            throw RemoteError.store(error, request, response)
        }
    }
}

extension String {
    /// The string, or nil when it is empty (a key path of `""` is the whole document).
    var nonEmpty: String? { isEmpty ? nil : self }
}

extension Duration {
    /// The duration in seconds, as `URLRequest` and messages take it.
    var seconds: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
