import Foundation
import ModelKitCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The transport over `URLSession` (FoundationNetworking on Linux): no other HTTP dependency.
///
/// The transport makes its session, with a delegate of its own, so that it sees a response's body
/// as it arrives: a body larger than the request's ``RemoteRequest/maxResponseSize`` fails as soon
/// as its `Content-Length` announces it, or as soon as the bytes received pass the limit, and the
/// transfer is cancelled, so memory stays bounded by the limit.
///
/// Cancelling the calling task cancels the data task. The client enforces the request's timeout
/// over the whole exchange; the `URLRequest`'s `timeoutInterval` is set to it rounded up to whole
/// seconds, as a backstop (FoundationNetworking on Linux times out at once below one second).
///
/// ```swift
/// let configuration = URLSessionConfiguration.ephemeral
/// configuration.httpAdditionalHeaders = ["User-Agent": "MyApp/1.0"]
/// let transport = URLSessionTransport(configuration: configuration)
/// let client = RemoteClient(baseURL: URL(string: "https://api.example.com")!, transport: transport)
/// ```
public struct URLSessionTransport: HTTPTransport {
    private let owner: SessionOwner

    /// The session requests go through (the transport's delegate is its delegate).
    public var session: URLSession { owner.session }

    /// A transport over a session of `configuration`, `.default` unless given.
    public init(configuration: URLSessionConfiguration = .default) {
        owner = SessionOwner(configuration: configuration)
    }

    /// A transport over a session with `session`'s configuration (not `session` itself: the
    /// transport reads bodies through a delegate of its own).
    @available(*, deprecated, renamed: "init(configuration:)", message: "the transport makes its own session, to read bodies as they arrive")
    public init(session: URLSession) {
        self.init(configuration: session.configuration)
    }

    public func send(_ request: RemoteRequest) async throws -> RemoteResponse {
        let task = owner.session.dataTask(with: urlRequest(for: request))
        let running = RunningTask(task)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<RemoteResponse, any Error>) in
                owner.router.collect(task, into: ResponseCollector(request: request, continuation: continuation))
                running.start()
            }
        } onCancel: {
            running.cancel()
        }
    }
}

extension URLSessionTransport {
    /// The session's request for `request`.
    func urlRequest(for request: RemoteRequest) -> URLRequest {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method.rawValue
        urlRequest.httpBody = request.body
        if request.timeout > 0 { urlRequest.timeoutInterval = max(1, request.timeout.rounded(.up)) }
        for (name, value) in request.headers {
            urlRequest.setValue(value, forHTTPHeaderField: name)
        }
        return urlRequest
    }

    /// The delegate that routes the session's events to each task's handler.
    var router: SessionTaskRouter { owner.router }
}

/// Owns the transport's session: invalidates it when the last copy of the transport goes (the
/// session keeps its delegate, the router, until then).
private final class SessionOwner: Sendable {
    let session: URLSession
    let router = SessionTaskRouter()

    init(configuration: URLSessionConfiguration) {
        session = URLSession(configuration: configuration, delegate: router, delegateQueue: nil)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }
}

/// The data task of one send, cancelled when the calling task is, even before it started.
private final class RunningTask: Sendable {
    private let task: URLSessionDataTask
    private let state = Locked<(started: Bool, cancelled: Bool)>((false, false))

    init(_ task: URLSessionDataTask) {
        self.task = task
    }

    /// Starts the task, and cancels it at once when the send was cancelled already (it still
    /// completes, with `URLError.cancelled`).
    func start() {
        let cancelled = state.withLock { state in
            state.started = true
            return state.cancelled
        }
        task.resume()
        if cancelled { task.cancel() }
    }

    /// Cancels the task, now or as soon as it has started.
    func cancel() {
        let started = state.withLock { state in
            state.cancelled = true
            return state.started
        }
        if started { task.cancel() }
    }
}
