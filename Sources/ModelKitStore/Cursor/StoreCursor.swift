import Foundation
import ModelKitCore

/// The models a query selects, read in batches in one read transaction as the loop asks for
/// them: a query of any size in the memory of one batch.
///
/// A task of the cursor's own holds the read transaction open and reads a batch of rows (one
/// SQLite statement stepped, a PostgreSQL server-side cursor, the memory store's snapshot),
/// then waits; the loop's task turns the batch into models, and asks for the next batch once it
/// has iterated them. Every model comes from the same snapshot, whatever other tasks commit
/// meanwhile. The models are read without a context: a context keeps every instance it holds,
/// which would hold the whole query in memory. Identified class references are one instance per
/// identifier within a batch.
///
/// While the loop runs, the cursor's transaction is open: the loop's own calls to the store
/// throw (a transaction's rule: the store would wait for itself); other tasks' reads and writes go
/// on (on an SQLite store without readers, or in memory, they wait for the loop to end, as for
/// any read transaction on it). Leaving the loop early
/// (`break`, an error, cancellation) ends the transaction.
///
/// ```swift
/// var total = 0
/// for try await status in store.cursor(ModelQuery(Status.self).order(by: \Status.createdAt)) {
///     total += status.retweetCount
/// }
/// ```
public struct StoreCursor<M: Model>: AsyncSequence {
    public typealias Element = M

    let store: any ModelStore
    let query: ModelQuery<M>
    let batchSize: Int
    let decoder: StoreModelDecoder<M>

    // @usableFromInline: made by the inlinable ModelStore.cursor(_:batchSize:), with the decoder it builds.
    @usableFromInline
    init(store: any ModelStore, query: ModelQuery<M>, batchSize: Int, decoder: StoreModelDecoder<M>) {
        self.store = store
        self.query = query
        self.batchSize = batchSize
        self.decoder = decoder
    }

    public func makeAsyncIterator() -> Iterator {
        Iterator(store: store, query: query, batchSize: batchSize, decoder: decoder)
    }

    /// Iterates a cursor: a class, so that leaving the loop early ends the transaction.
    public final class Iterator: AsyncIteratorProtocol {
        private let store: any ModelStore
        private let query: ModelQuery<M>
        private let batchSize: Int
        private let decoder: StoreModelDecoder<M>
        private let handoff = CursorHandoff()
        private var reader: Task<Void, Never>?
        /// The statement the loop steps itself (SQLite), once handed over.
        private var inPlace: (cursor: any InPlaceRowCursor, connection: any StoreConnection)?
        /// The batch being iterated, and the position in it.
        private var models: [M] = []
        private var position = 0
        private var isDone = false
        /// The transaction entry that refuses the loop's own calls to the store meanwhile.
        private var openEntry: OpenTransaction.Entry?

        init(store: any ModelStore, query: ModelQuery<M>, batchSize: Int, decoder: StoreModelDecoder<M>) {
            self.store = store
            self.query = query
            self.batchSize = Swift.max(1, batchSize)
            self.decoder = decoder
        }

        deinit {
            handoff.cancel()
            if let openEntry { OpenTransaction.leave(openEntry) }
        }

        public func next() async throws -> M? {
            if position < models.count {
                defer { position += 1 }
                return models[position]
            }
            guard !isDone else { return nil }
            models = []
            position = 0
            if reader == nil { start() }
            do {
                let table = try StoreTable.of(M.self)
                let lazy = (store as? any ModelRelationshipLoading).map {
                    LazyRelationships(loader: $0, prefetched: query.prefetched, decoders: query.relatedDecoders)
                }
                while models.isEmpty {
                    if let (cursor, connection) = inPlace {
                        let batch = try RowLoader(synchronous: connection.synchronousRows, lazy: lazy).models(
                            M.self, from: cursor, limit: batchSize, table: table, context: StoreTransaction.fetchContext(for: table),
                            decoder: decoder)
                        models = batch.models
                        if batch.isDone { inPlace = nil }
                        continue
                    }
                    // The reading task goes on (and ends its transaction after the last batch).
                    guard let batch = try await handoff.next() else { return end() }
                    if openEntry == nil { openEntry = OpenTransaction.enter(store as AnyObject, batch.connection) }
                    switch batch {
                    case .inPlace(let cursor, let connection):
                        inPlace = (cursor, connection)
                    case .rows(let rows, let connection):
                        models = try await RowLoader(synchronous: connection.synchronousRows, lazy: lazy).models(
                            M.self, rows: rows, table: table, context: StoreTransaction.fetchContext(for: table),
                            connection: connection, decoder: decoder)
                    }
                }
            } catch {
                _ = end()
                handoff.cancel()
                throw error
            }
            position = 1
            return models.first
        }

        /// Starts the task that holds the read transaction and reads the batches.
        private func start() {
            let (store, query, batchSize, handoff) = (store, query, batchSize, handoff)
            reader = Task {
                do {
                    try await store.read { transaction in
                        try await transaction.selectRows(query, inBatchesOf: batchSize) { batch in try await handoff.deliver(batch) }
                    }
                    handoff.finish(nil)
                } catch {
                    handoff.finish(error)
                }
            }
        }

        /// The end of the iteration: the loop's calls to the store are its own again.
        private func end() -> M? {
            isDone = true
            models = []
            if let openEntry { OpenTransaction.leave(openEntry) }
            openEntry = nil
            return nil
        }
    }
}

extension StoreTransaction {
    /// Hands `body` the rows a query selects: the statement itself where the connection reads
    /// in place (the loop steps it; `body` returns once it is done), else a batch at a time.
    func selectRows<M: Model>(
        _ query: ModelQuery<M>, inBatchesOf size: Int, _ body: (CursorBatch) async throws -> Void
    ) async throws {
        let resolved = try query.resolved()
        try checkUsable(writing: false, table: resolved.table.name)
        let connection = self.connection
        if let inPlace = connection.synchronousRows != nil ? connection.inPlaceRows : nil {
            let cursor = try inPlace.openRows(resolved)
            defer { cursor.close() }
            try await body(.inPlace(cursor, connection: connection))
            return
        }
        try await connection.selectRows(resolved, inBatchesOf: size) { rows in try await body(.rows(rows, connection: connection)) }
    }
}

extension ModelStore {
    /// The models a query selects, in its order, read `batchSize` rows at a time in one read
    /// transaction as a `for try await` loop asks for them (see ``StoreCursor``).
    ///
    /// ```swift
    /// for try await user in store.cursor(ModelQuery(User.self)) { export(user) }
    /// ```
    // @inlinable: builds StoreModelDecoder<M> in the caller's module, where the model's type is concrete, as
    // fetchAll(_:context:) does: every row is read by the model's decoder specialised for StoreRowReader.
    @inlinable
    public func cursor<M: Model>(_ query: ModelQuery<M>, batchSize: Int = 500) -> StoreCursor<M> {
        StoreCursor(store: self, query: query, batchSize: batchSize, decoder: StoreModelDecoder())
    }
}
