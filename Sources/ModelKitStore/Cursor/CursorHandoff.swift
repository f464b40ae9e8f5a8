import Foundation
import ModelKitCore

/// What a cursor's reading task hands to the task iterating the cursor, with the connection
/// references are read through: a batch of rows, or (SQLite) a statement the loop's task steps
/// in place itself, a batch at a time, while the reading task waits for it to be done.
enum CursorBatch: Sendable {
    case rows([StoredRow], connection: any StoreConnection)
    case inPlace(any InPlaceRowCursor, connection: any StoreConnection)

    var connection: any StoreConnection {
        switch self {
        case .rows(_, let connection), .inPlace(_, let connection): return connection
        }
    }
}

/// Hands batches from a cursor's reading task, which holds the read transaction open, to the
/// task iterating the cursor, one at a time: the reader waits after each batch until the
/// iterator asks for the next one, so at most one batch is in memory, and the iterator reads
/// references through the connection while the reader is parked.
final class CursorHandoff: Sendable {
    private struct State {
        /// The reader, parked after handing a batch over.
        var reader: CheckedContinuation<Void, any Error>?
        /// The iterator, waiting for a batch (nil at the end).
        var iterator: CheckedContinuation<CursorBatch?, any Error>?
        /// A batch handed over before the iterator asked.
        var pending: CursorBatch?
        /// How the reading ended: nil while it goes on.
        var end: Result<Void, any Error>?
        var isCancelled = false
    }

    private let state = Locked(State())

    // MARK: The reader's side

    /// Hands `batch` over, and waits until the iterator asks for the next one; throws
    /// `CancellationError` once the iteration is over early.
    func deliver(_ batch: CursorBatch) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let waiting: CheckedContinuation<CursorBatch?, any Error>? = state.withLock { state in
                if state.isCancelled {
                    continuation.resume(throwing: CancellationError())
                    return nil
                }
                state.reader = continuation
                guard let iterator = state.iterator else {
                    state.pending = batch
                    return nil
                }
                state.iterator = nil
                return iterator
            }
            waiting?.resume(returning: batch)
        }
    }

    /// Ends the reading: nil after the last batch, or the error that ended it.
    func finish(_ error: (any Error)?) {
        let waiting = state.withLock { state -> CheckedContinuation<CursorBatch?, any Error>? in
            state.end = error.map { .failure($0) } ?? .success(())
            defer { state.iterator = nil }
            return state.iterator
        }
        if let error { waiting?.resume(throwing: error) } else { waiting?.resume(returning: nil) }
    }

    // MARK: The iterator's side

    /// Lets the reader go on past the batch the iterator has finished with, and waits for the
    /// next batch; nil after the last one.
    func next() async throws -> CursorBatch? {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<CursorBatch?, any Error>) in
                let (reader, immediate): (CheckedContinuation<Void, any Error>?, Result<CursorBatch?, any Error>?) =
                    state.withLock { state in
                        let reader = state.reader
                        state.reader = nil
                        if let pending = state.pending {
                            state.pending = nil
                            return (reader, .success(pending))
                        }
                        if let end = state.end { return (reader, end.map { nil }) }
                        if state.isCancelled { return (reader, .failure(CancellationError())) }
                        state.iterator = continuation
                        return (reader, nil)
                    }
                reader?.resume()
                if let immediate { continuation.resume(with: immediate) }
            }
        } onCancel: {
            cancel()
        }
    }

    /// Ends the iteration early: the reader's next hand-over throws, and its transaction ends.
    func cancel() {
        let (reader, iterator) = state.withLock { state in
            state.isCancelled = true
            defer { (state.reader, state.iterator) = (nil, nil) }
            return (state.reader, state.iterator)
        }
        reader?.resume(throwing: CancellationError())
        iterator?.resume(throwing: CancellationError())
    }
}
