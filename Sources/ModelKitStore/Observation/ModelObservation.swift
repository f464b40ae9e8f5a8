import Foundation
import ModelKitCore

/// The results of a query, now and whenever a committed change alters them: an asynchronous
/// sequence of arrays (GRDB's `ValueObservation`).
///
/// The first element is the query's results when iteration starts. After that the query runs
/// again after commits to the tables its results read (the model's own, and the tables of the
/// identified class models they refer to, however deep), and yields only results that differ
/// from the last ones yielded: a commit that leaves them as they were (a row the filter leaves
/// out, the same values saved again) yields nothing. A burst of commits while the loop is busy
/// runs the query once. Results are compared as the store holds them (each model's row, and the
/// rows of the models it refers to), so a model type need not be `Equatable`. Fetch errors end
/// the sequence by throwing.
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
    let store: any ModelStore
    let query: ModelQuery<M>
    let context: ModelContext?

    public func makeAsyncIterator() -> Iterator {
        Iterator(changes: StoreChanges.coalesced(store, tables: ObservedTables.of(M.self)), store: store, query: query, context: context)
    }

    /// Fetches the results first, then again after changes, yielding the ones that differ.
    public struct Iterator: AsyncIteratorProtocol {
        var changes: AsyncStream<Void>.Iterator
        let store: any ModelStore
        let query: ModelQuery<M>
        let context: ModelContext?
        /// What the last results yielded hold, as rows; nil before the first.
        var last: [ResultRow]?

        public mutating func next() async throws -> [M]? {
            try await next(isolation: nil)
        }

        /// The next results, fetched in the isolation domain of the loop that asks (`for try
        /// await` passes it), where the context lives.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws -> [M]? {
            if last == nil {
                let results = try await store.fetchAll(query, context: context)
                last = try Self.rows(of: results)
                return results
            }
            while await changes.next(isolation: actor) != nil {
                let results = try await store.fetchAll(query, context: context)
                let rows = try Self.rows(of: results)
                if rows != last {
                    last = rows
                    return results
                }
            }
            return nil
        }

        /// The results as the store holds them: each model's row and the rows of the models it
        /// refers to, in the order a save writes them.
        static func rows(of results: [M]) throws -> [ResultRow] {
            var rows: [ResultRow] = []
            var encoder = RowEncoder { table, values in rows.append(ResultRow(table: ObjectIdentifier(table), values: values)) }
            try encoder.encode(results)
            return rows
        }
    }
}

/// One row of an observed query's results, for comparing them.
struct ResultRow: Equatable, Sendable {
    let table: ObjectIdentifier
    let values: [StoreValue]
}

/// The model types whose tables a query's results read: the model's own, and those of the
/// identified class models its stored properties refer to, through values and collections,
/// however deep.
enum ObservedTables {
    static func of<M: Model>(_ type: M.Type) -> [any Model.Type] {
        var order: [any Model.Type] = []
        var visited: Set<ObjectIdentifier> = []
        func walk(_ type: any Model.Type, stored: Bool) {
            guard visited.insert(ObjectIdentifier(type)).inserted else { return }
            if stored { order.append(type) }
            for property in type.modelSchema.properties where !property.isTransient { walkKind(property.valueKind) }
        }
        func walkKind(_ kind: ModelValueKind) {
            switch kind {
            case .optional(let wrapped), .array(let wrapped), .set(let wrapped), .dictionary(let wrapped): walkKind(wrapped)
            case .model(let target):
                let identified = target.type is AnyObject.Type && target.type.modelSchema.identifierIndex != nil
                walk(target.type, stored: identified)
            default: break
            }
        }
        walk(M.self, stored: true)
        return order
    }
}

extension StoreChanges {
    /// One element per burst of commits to any of the tables of `types`: while the loop is busy,
    /// later commits wait as one.
    static func coalesced(_ store: any ModelStore, tables types: [any Model.Type]) -> AsyncStream<Void>.Iterator {
        let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        func changes<T: Model>(_ type: T.Type) -> StoreChanges { store.changes(to: T.self) }
        let forwarders = types.map { type in
            let changes = changes(type)
            return Task {
                for await _ in changes { continuation.yield() }
            }
        }
        continuation.onTermination = { _ in for forwarder in forwarders { forwarder.cancel() } }
        return stream.makeAsyncIterator()
    }
}
