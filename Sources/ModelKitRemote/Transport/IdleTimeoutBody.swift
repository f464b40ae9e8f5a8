import Foundation
import ModelKitCore

/// A streamed body read in a task of its own, at most one chunk ahead of its reader, so that each
/// read can give up after `idleTimeout` without a byte.
///
/// AsyncHTTPClient bounds a request by its deadline only until the head arrives: a server that
/// stops sending mid-body would hold a reader for ever. URLSession fails such a transfer by itself
/// (its request's `timeoutInterval` is an idle timeout). Dropping the body, or cancelling the
/// reading task, cancels the read ahead, and so the transfer.
final class IdleTimeoutBody: Sendable {
    private let channel: ChunkHandoff
    private let pump: Task<Void, Never>
    private let idleTimeout: Duration

    init<Chunks: AsyncSequence & Sendable>(_ chunks: Chunks, idleTimeout: Duration) where Chunks.Element == Data {
        let channel = ChunkHandoff()
        self.channel = channel
        self.idleTimeout = idleTimeout
        pump = Task {
            do {
                for try await chunk in chunks {
                    guard await channel.put(.success(chunk)) else { return }
                }
                _ = await channel.put(.success(nil))
            } catch {
                _ = await channel.put(.failure(error))
            }
        }
    }

    deinit {
        channel.close(nil)
        pump.cancel()
    }

    /// The next chunk, nil at the end; `RemoteTimeout` when none comes within the idle timeout.
    func next() async throws -> Data? {
        let (channel, pump, idleTimeout) = (channel, pump, idleTimeout)
        let timer = Task {
            guard (try? await Task.sleep(for: idleTimeout)) != nil else { return }
            if channel.close(RemoteTimeout()) { pump.cancel() }
        }
        defer { timer.cancel() }
        return try await withTaskCancellationHandler {
            try await channel.take()
        } onCancel: {
            if channel.close(CancellationError()) { pump.cancel() }
        }
    }
}

/// Hands chunks from the task reading ahead to the reader, one at a time.
private final class ChunkHandoff: Sendable {
    private struct State {
        /// A chunk (or the end, or an error) read ahead and not taken yet.
        var ready: Result<Data?, any Error>?
        /// The reader, waiting for a chunk.
        var reader: CheckedContinuation<Data?, any Error>?
        /// The task reading ahead, waiting for its chunk to be taken.
        var writer: CheckedContinuation<Bool, Never>?
        /// The end or the error, once taken: what every later read gets.
        var finished: Result<Data?, any Error>?
        /// Why reading stopped for good: a timeout, a cancellation, or the body dropped (nil).
        var closed: (any Error)??

        /// Whether `result` ends the body.
        static func ends(_ result: Result<Data?, any Error>) -> Bool {
            if case .success(.some) = result { return false }
            return true
        }
    }

    private let state = Locked(State())

    /// Waits for the reader to take `result`; false once the handoff is closed.
    func put(_ result: Result<Data?, any Error>) async -> Bool {
        await withCheckedContinuation { (writer: CheckedContinuation<Bool, Never>) in
            let (reader, open) = state.withLock { state -> (CheckedContinuation<Data?, any Error>?, Bool) in
                guard state.closed == nil else { return (nil, false) }
                if let reader = state.reader {
                    state.reader = nil
                    if State.ends(result) { state.finished = result }
                    return (reader, true)
                }
                state.ready = result
                state.writer = writer
                return (nil, true)
            }
            if let reader {
                reader.resume(with: result)
                writer.resume(returning: true)
            } else if !open {
                writer.resume(returning: false)
            }
        }
    }

    /// The next chunk, once the task reading ahead has it.
    func take() async throws -> Data? {
        try await withCheckedThrowingContinuation { (reader: CheckedContinuation<Data?, any Error>) in
            let (result, writer) = state.withLock { state -> (Result<Data?, any Error>?, CheckedContinuation<Bool, Never>?) in
                if let finished = state.finished { return (finished, nil) }
                if case .some(let reason) = state.closed { return (.failure(reason ?? CancellationError()), nil) }
                if let ready = state.ready {
                    defer { (state.ready, state.writer) = (nil, nil) }
                    if State.ends(ready) { state.finished = ready }
                    return (ready, state.writer)
                }
                state.reader = reader
                return (nil, nil)
            }
            writer?.resume(returning: true)
            if let result { reader.resume(with: result) }
        }
    }

    /// Stops the handoff for good, failing a waiting reader with `reason`; false when it was
    /// already closed.
    @discardableResult
    func close(_ reason: (any Error)?) -> Bool {
        let (closed, reader, writer) = state.withLock { state in
            guard state.closed == nil else { return (false, nil as CheckedContinuation<Data?, any Error>?, nil as CheckedContinuation<Bool, Never>?) }
            state.closed = .some(reason)
            defer { (state.reader, state.writer, state.ready) = (nil, nil, nil) }
            return (true, state.reader, state.writer)
        }
        reader?.resume(throwing: reason ?? CancellationError())
        writer?.resume(returning: false)
        return closed
    }
}
