import Foundation
import ModelKitCore

/// The results of a query, now and after every committed change to its model type: an
/// asynchronous sequence of arrays (GRDB's `ValueObservation`, in its simplest form).
///
/// The first element is the query's results when iteration starts; each later one follows a
/// committed transaction that changed the model's table. Fetch errors end the sequence by throwing.
///
/// ```swift
/// let popular = store.observe(ModelQuery(Status.self).filter(\Status.retweetCount > 10))
/// for try await statuses in popular {
///     print(statuses.count)
/// }
/// ```
///
/// Through a context, the results are the context's live instances, so the sequence stays in
/// the context's isolation domain: iterate it where the context lives.
public struct ModelObservation<M: Model>: AsyncSequence {
    public typealias Element = [M]
    let changes: StoreChanges
    let store: any ModelStore
    let query: ModelQuery<M>
    let context: ModelContext?

    public func makeAsyncIterator() -> Iterator {
        Iterator(changes: changes.makeAsyncIterator(), store: store, query: query, context: context)
    }

    /// Fetches the results first, then again after each change.
    public struct Iterator: AsyncIteratorProtocol {
        var changes: AsyncStream<StoreChange>.Iterator
        let store: any ModelStore
        let query: ModelQuery<M>
        let context: ModelContext?
        var started = false

        public mutating func next() async throws -> [M]? {
            try await next(isolation: nil)
        }

        /// The next results, fetched in the isolation domain of the loop that asks (`for try
        /// await` passes it), where the context lives.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws -> [M]? {
            if !started {
                started = true
                return try await store.fetchAll(query, context: context)
            }
            guard await changes.next(isolation: actor) != nil else { return nil }
            return try await store.fetchAll(query, context: context)
        }
    }
}
