import Foundation
import ModelKitCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What takes one data task's events: its response's head, each chunk of its body, its end.
protocol SessionTaskHandler: Sendable {
    /// Takes the head; false to cancel the transfer.
    func receive(_ response: URLResponse) -> Bool
    /// Takes a chunk of the body; false to cancel the transfer.
    func receive(_ data: Data) -> Bool
    /// The transfer ended, with `error` unless it completed.
    func complete(_ error: (any Error)?)
}

/// The transport's session delegate: hands each data task's response, bytes and completion to
/// the handler of that task.
final class SessionTaskRouter: NSObject, URLSessionDataDelegate, Sendable {
    private let collectors = Locked<[Int: any SessionTaskHandler]>([:])

    /// Routes `task`'s events to `collector` until the task completes.
    func collect(_ task: URLSessionTask, into collector: any SessionTaskHandler) {
        collectors.withLock { $0[task.taskIdentifier] = collector }
    }

    private func collector(of task: URLSessionTask) -> (any SessionTaskHandler)? {
        collectors.withLock { $0[task.taskIdentifier] }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let proceed = collector(of: dataTask)?.receive(response) ?? true
        completionHandler(.allow)
        if !proceed { Self.stop(dataTask) }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard let collector = collector(of: dataTask), !collector.receive(data) else { return }
        Self.stop(dataTask)
    }

    /// Cancels a transfer from outside the delegate's callbacks: FoundationNetworking (Linux)
    /// ignores a cancel, or a `.cancel` disposition, from inside them and reads the body to its
    /// end. Even from outside, its cancel waits behind the bytes arriving when they come faster
    /// than it reads (on loopback: from megabytes to a whole 4 GiB body): the handlers drop them,
    /// so memory stays bounded, but the transfer is only as prompt as FoundationNetworking.
    static func stop(_ task: URLSessionDataTask) {
        DispatchQueue.global().async { task.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let collector = collectors.withLock { $0.removeValue(forKey: task.taskIdentifier) }
        collector?.complete(error)
    }
}

/// One response as it arrives: its head, its body up to the request's limit, and the
/// continuation the send waits on, resumed once (at the completion, or as soon as the body is
/// known to be too large).
final class ResponseCollector: SessionTaskHandler {
    private struct State {
        var head: HTTPURLResponse?
        var body = Data()
        var continuation: CheckedContinuation<RemoteResponse, any Error>?
    }

    private let request: RemoteRequest
    private let state: Locked<State>

    init(request: RemoteRequest, continuation: CheckedContinuation<RemoteResponse, any Error>) {
        self.request = request
        state = Locked(State(continuation: continuation))
    }

    /// Takes the response's head; false (cancel the transfer) when its announced length is over the limit.
    func receive(_ response: URLResponse) -> Bool {
        guard let http = response as? HTTPURLResponse else { return true }
        let announced = http.expectedContentLength
        if let limit = request.maxResponseSize, announced > Int64(limit) {
            fail(with: .tooLarge(request, status: http.statusCode, announced: Int(clamping: announced)))
            return false
        }
        state.withLock { state in
            state.head = http
            if announced > 0 { state.body.reserveCapacity(Int(announced)) }
        }
        return true
    }

    /// Appends a chunk of the body; false (cancel the transfer) once the body passes the limit.
    func receive(_ data: Data) -> Bool {
        let (overflow, status) = state.withLock { state -> (Bool, Int?) in
            guard state.continuation != nil else { return (false, nil) }
            if let limit = request.maxResponseSize, state.body.count + data.count > limit {
                state.body = Data()
                return (true, state.head?.statusCode)
            }
            state.body.append(data)
            return (false, nil)
        }
        if overflow { fail(with: .tooLarge(request, status: status, announced: nil)) }
        return !overflow
    }

    /// The transfer ended: the response, or the error, unless the send was answered already.
    func complete(_ error: (any Error)?) {
        let (continuation, result) = state.withLock { state -> (CheckedContinuation<RemoteResponse, any Error>?, Result<RemoteResponse, any Error>) in
            defer { state.continuation = nil }
            if let error { return (state.continuation, .failure(error)) }
            guard let head = state.head else { return (state.continuation, .failure(URLError(.badServerResponse))) }
            return (state.continuation, .success(RemoteResponse(status: head.statusCode, headers: head.headerFields, body: state.body)))
        }
        continuation?.resume(with: result)
    }

    private func fail(with error: RemoteError) {
        let continuation = state.withLock { state in
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume(throwing: error)
    }
}

extension HTTPURLResponse {
    /// The header fields, by name as the server sent them.
    var headerFields: [String: String] {
        var fields: [String: String] = [:]
        for (name, value) in allHeaderFields {
            fields[String(describing: name)] = String(describing: value)
        }
        return fields
    }
}
