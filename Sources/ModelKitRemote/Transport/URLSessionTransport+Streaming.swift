import Foundation
import ModelKitCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLSessionTransport: StreamingHTTPTransport {
    /// Sends `request` and returns once the head has arrived; the body's chunks queue until read.
    ///
    /// On Apple platforms the data task is suspended past 1 MiB unread and resumed below 256 KiB,
    /// which holds the server back through TCP. FoundationNetworking (Linux) is not asked to: it
    /// keeps delivering while suspended, and its `suspend()` can trap inside `stopLoading()` when
    /// the transfer is ending (seen in CI). Everywhere the queue is bounded by the request's
    /// `maxResponseSize`: past it the stream fails with a `tooLarge` error rather than grow.
    public func stream(_ request: RemoteRequest) async throws -> RemoteStreamedResponse {
        let task = session.dataTask(with: urlRequest(for: request))
        let queue = ChunkQueue(task: task, request: request)
        let head = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<HTTPURLResponse, any Error>) in
                queue.awaitHead(continuation)
                router.collect(task, into: queue)
                task.resume()
            }
        } onCancel: {
            task.cancel()
        }
        let reader = BodyReader(queue: queue)
        return RemoteStreamedResponse(status: head.statusCode, headers: head.headerFields, body: RemoteBody { try await reader.next() })
    }
}

/// Cancels the transfer when the body is dropped before its end.
private final class BodyReader {
    let queue: ChunkQueue

    init(queue: ChunkQueue) {
        self.queue = queue
    }

    func next() async throws -> Data? {
        try await withTaskCancellationHandler {
            try await queue.next()
        } onCancel: { [queue] in
            queue.cancel()
        }
    }

    deinit {
        queue.cancel()
    }
}

/// One streamed response's head and chunks, between the session's delegate queue and the reader.
final class ChunkQueue: SessionTaskHandler {
    /// Unread bytes past which the task is suspended, and below which it is resumed; never on
    /// Linux (see ``URLSessionTransport/stream(_:)``).
    #if canImport(FoundationNetworking)
    static let suspendAbove = Int.max
    #else
    static let suspendAbove = 1 << 20
    #endif
    static let resumeBelow = 256 << 10

    private struct State {
        var head: CheckedContinuation<HTTPURLResponse, any Error>?
        var chunks: [Data] = []
        var first = 0
        var unread = 0
        var reader: CheckedContinuation<Data?, any Error>?
        var ended = false
        var failure: (any Error)?
        var suspended = false
    }

    private let task: URLSessionDataTask
    private let request: RemoteRequest
    private let state = Locked(State())

    init(task: URLSessionDataTask, request: RemoteRequest) {
        self.task = task
        self.request = request
    }

    func awaitHead(_ continuation: CheckedContinuation<HTTPURLResponse, any Error>) {
        state.withLock { $0.head = continuation }
    }

    func receive(_ response: URLResponse) -> Bool {
        let head = state.withLock { state in
            defer { state.head = nil }
            return state.head
        }
        guard let http = response as? HTTPURLResponse else {
            head?.resume(throwing: URLError(.badServerResponse))
            return false
        }
        head?.resume(returning: http)
        return true
    }

    func receive(_ data: Data) -> Bool {
        let (reader, suspend, overflow) = state.withLock { state -> (CheckedContinuation<Data?, any Error>?, Bool, Bool) in
            guard !state.ended else { return (nil, false, false) }
            if let reader = state.reader {
                state.reader = nil
                return (reader, false, false)
            }
            if let limit = request.maxResponseSize, state.unread + data.count > limit {
                state.ended = true
                state.failure = RemoteError.tooLarge(request, status: nil, announced: nil)
                state.chunks = []
                return (nil, false, true)
            }
            state.chunks.append(data)
            state.unread += data.count
            let suspend = !state.suspended && state.unread > Self.suspendAbove
            if suspend { state.suspended = true }
            return (nil, suspend, false)
        }
        reader?.resume(returning: data)
        if suspend { DispatchQueue.global().async { [task] in task.suspend() } }
        return !overflow
    }

    func complete(_ error: (any Error)?) {
        let (head, reader, failure) = state.withLock { state -> (CheckedContinuation<HTTPURLResponse, any Error>?, CheckedContinuation<Data?, any Error>?, (any Error)?) in
            defer {
                state.head = nil
                state.reader = nil
            }
            if !state.ended {
                state.ended = true
                state.failure = error
            }
            return (state.head, state.reader, state.failure)
        }
        head?.resume(throwing: failure ?? URLError(.badServerResponse))
        if let failure { reader?.resume(throwing: failure) } else { reader?.resume(returning: nil) }
    }

    /// The next chunk, nil at the end; waits for one when none is queued.
    func next() async throws -> Data? {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Data?, any Error>) in
            let (result, resume) = state.withLock { state -> (Result<Data?, any Error>?, Bool) in
                if state.first < state.chunks.count {
                    let chunk = state.chunks[state.first]
                    state.first += 1
                    if state.first == state.chunks.count {
                        state.chunks.removeAll(keepingCapacity: true)
                        state.first = 0
                    }
                    state.unread -= chunk.count
                    let resume = state.suspended && state.unread < Self.resumeBelow
                    if resume { state.suspended = false }
                    return (.success(chunk), resume)
                }
                if state.ended { return (state.failure.map { .failure($0) } ?? .success(nil), false) }
                state.reader = continuation
                return (nil, false)
            }
            if resume { task.resume() }
            if let result { continuation.resume(with: result) }
        }
    }

    /// Stops the transfer (the reader left, or its task was cancelled).
    func cancel() {
        let running = state.withLock { state in
            defer { state.ended = true }
            return !state.ended
        }
        if running { SessionTaskRouter.stop(task) }
    }
}
