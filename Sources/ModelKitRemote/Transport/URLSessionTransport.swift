import Foundation
import ModelKitCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The transport over `URLSession` (FoundationNetworking on Linux): no other HTTP dependency.
///
/// Cancelling the calling task cancels the data task. The client enforces the request's timeout
/// over the whole exchange; the `URLRequest`'s `timeoutInterval` is set to it rounded up to whole
/// seconds, as a backstop (FoundationNetworking on Linux times out at once below one second).
///
/// ```swift
/// let configuration = URLSessionConfiguration.ephemeral
/// configuration.httpAdditionalHeaders = ["User-Agent": "MyApp/1.0"]
/// let transport = URLSessionTransport(session: URLSession(configuration: configuration))
/// let client = RemoteClient(baseURL: URL(string: "https://api.example.com")!, transport: transport)
/// ```
public struct URLSessionTransport: HTTPTransport {
    /// The session requests go through.
    public let session: URLSession

    /// A transport over `session`, `URLSession.shared` by default.
    public init(session: URLSession = .shared) {
        self.session = session
    }

    public func send(_ request: RemoteRequest) async throws -> RemoteResponse {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method.rawValue
        urlRequest.httpBody = request.body
        if request.timeout > 0 { urlRequest.timeoutInterval = max(1, request.timeout.rounded(.up)) }
        for (name, value) in request.headers {
            urlRequest.setValue(value, forHTTPHeaderField: name)
        }
        let running = RunningTask()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<RemoteResponse, any Error>) in
                let task = session.dataTask(with: urlRequest) { data, response, error in
                    continuation.resume(with: Self.result(data: data, response: response, error: error))
                }
                running.start(task)
            }
        } onCancel: {
            running.cancel()
        }
    }

    /// What a data task's completion handler received, as a response or an error.
    private static func result(data: Data?, response: URLResponse?, error: (any Error)?) -> Result<RemoteResponse, any Error> {
        if let error { return .failure(error) }
        guard let http = response as? HTTPURLResponse else { return .failure(URLError(.badServerResponse)) }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            headers[String(describing: name)] = String(describing: value)
        }
        return .success(RemoteResponse(status: http.statusCode, headers: headers, body: data ?? Data()))
    }
}

/// The data task of one send, cancelled when the calling task is, even before it started.
private final class RunningTask: Sendable {
    private let state = Locked<(task: URLSessionDataTask?, cancelled: Bool)>((nil, false))

    /// Starts `task`, and cancels it at once when the send was cancelled already (it still
    /// calls its completion handler, with `URLError.cancelled`).
    func start(_ task: URLSessionDataTask) {
        let cancelled = state.withLock { state in
            state.task = task
            return state.cancelled
        }
        task.resume()
        if cancelled { task.cancel() }
    }

    /// Cancels the task, now or as soon as it is there.
    func cancel() {
        let task = state.withLock { state in
            state.cancelled = true
            return state.task
        }
        task?.cancel()
    }
}
