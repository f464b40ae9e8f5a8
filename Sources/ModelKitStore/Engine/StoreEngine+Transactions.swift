import Foundation
import ModelKitCore

/// The transactions tasks (and threads outside tasks) have open, by store: a store's
/// operations from the task that opened one, inside its own transaction's closure, would wait
/// for that transaction to end, so they are refused, and a context's loads from that store on
/// that task go through the open transaction. Another task waits for the transaction to end, as
/// it would anywhere else.
///
/// A table the stores share, not a task-local value: `TaskLocal.withValue` runs its operation
/// as a closure that Swift 6.3 executes away from the caller's actor when it is formed in a
/// function that runs on its caller's actor, and the transaction's body maps into the caller's
/// context (a context and its models must stay on their actor).
package enum OpenTransaction {
    private struct Key: Hashable {
        let store: ObjectIdentifier
        let owner: Int
    }

    /// One entry per open transaction; a handful at a time.
    private static let open = Locked<[Key: any StoreConnection]>([:])

    /// Records that the current task opened a transaction on `store` through `connection`, runs
    /// `body`, and forgets it.
    package static func during<T>(
        _ store: AnyObject, _ connection: any StoreConnection, _ body: () async throws -> T
    ) async rethrows -> T {
        let key = Key(store: ObjectIdentifier(store), owner: currentOwner)
        open.withLock { $0[key] = connection }
        defer { _ = open.withLock { $0.removeValue(forKey: key) } }
        return try await body()
    }

    /// ``during(_:_:_:)`` for a transaction that does not suspend.
    package static func duringNow<T>(_ store: AnyObject, _ connection: any StoreConnection, _ body: () throws -> T) rethrows -> T {
        let key = Key(store: ObjectIdentifier(store), owner: currentOwner)
        open.withLock { $0[key] = connection }
        defer { _ = open.withLock { $0.removeValue(forKey: key) } }
        return try body()
    }

    /// The connection of the transaction the current task itself opened on `store`, if any.
    package static func opened(by store: AnyObject) -> (any StoreConnection)? {
        let key = Key(store: ObjectIdentifier(store), owner: currentOwner)
        return open.withLock { $0[key] }
    }

    /// The current task's identity, or the current thread's outside a task.
    private static var currentOwner: Int {
        withUnsafeCurrentTask { $0?.hashValue } ?? ObjectIdentifier(Thread.current).hashValue
    }
}

extension StoreEngine {
    public func write<T>(_ body: (StoreTransaction) async throws -> T) async throws -> T {
        try await run(.write, body)
    }

    public func read<T>(_ body: (StoreTransaction) async throws -> T) async throws -> T {
        try await run(.read, body)
    }

    package func readOnce<T>(_ body: (StoreTransaction) async throws -> T) async throws -> T {
        try await run(.readOnce, body)
    }

    /// Opens a transaction through the engine, hands it to `body`, and commits only when `body`
    /// returned and the task was not cancelled meanwhile.
    private func run<T>(_ kind: StoreTransactionKind, _ body: (StoreTransaction) async throws -> T) async throws -> T {
        try refuseNesting()
        return try await transaction(kind) { connection in
            let transaction = StoreTransaction(connection: connection, kind: kind)
            defer { transaction.finish() }
            let result = try await OpenTransaction.during(self, connection) { try await body(transaction) }
            try Task.checkCancellation()
            return result
        }
    }

    /// Throws when the current task is inside a transaction of this store.
    package func refuseNesting() throws {
        guard OpenTransaction.opened(by: self) != nil else { return }
        throw StoreError(
            .misusedTransaction,
            reason: "the store was called inside its own transaction, which would wait for itself: "
                + "use the transaction the closure received")
    }
}

/// A store that can run a read the cheapest consistent way it has (see
/// ``StoreTransactionKind/readOnce``).
package protocol OnceReading {
    func readOnce<T>(_ body: (StoreTransaction) async throws -> T) async throws -> T
}

extension ModelStore {
    /// Runs the store's own fetch `body`, which may run twice, as cheaply as the store can.
    ///
    /// Inlinable, so that a caller that knows its store is an ``SQLiteStore`` settles the cast
    /// when it compiles; other stores are told apart at run time (a protocol cast looks the
    /// conformance up on every fetch).
    @inlinable
    func fetching<T>(_ body: (StoreTransaction) async throws -> T) async throws -> T {
        if let store = self as? SQLiteStore { return try await store.readOnceFetching(body) }
        return try await readCheaply(body)
    }

    /// ``fetching(_:)`` for a store whose type the caller did not know.
    @usableFromInline
    func readCheaply<T>(_ body: (StoreTransaction) async throws -> T) async throws -> T {
        if let store = self as? any OnceReading { return try await store.readOnce(body) }
        return try await read(body)
    }

    /// Saves `models`, and the identified class models they refer to, in one transaction.
    ///
    /// ```swift
    /// try await store.save(statuses)   // and their users
    /// ```
    public func save<S: Sequence>(_ models: S) async throws where S.Element: Model {
        try await write { try await $0.save(models) }
    }

    /// Saves one model, and the identified class models it refers to, in one transaction.
    ///
    /// ```swift
    /// try await store.save(status)
    /// ```
    public func save<M: Model>(_ model: M) async throws {
        try await write { try await $0.save(model) }
    }

    /// The model stored for `id`, or nil; through `context` when given.
    ///
    /// ```swift
    /// let user = try await store.fetchOne(User.self, id: "42", context: context)
    /// ```
    @inlinable
    public func fetchOne<M: Model, ID: Hashable & Sendable>(
        _ type: M.Type, id: ID, context: ModelContext? = nil
    ) async throws -> M? {
        let decoder = StoreModelDecoder<M>()
        if let store = self as? SQLiteStore {
            // The model kept here, where its optional's type is concrete (see `fetchOneNow`).
            var model: M?
            try await store.readNow { transaction in
                model = nil  // a read run again in a transaction starts afresh
                try transaction.fetchOneNow(M.self, id: id, context: context, decoder: decoder) { model = $0 }
            }
            return model
        }
        return try await fetching { try await $0.fetchOne(M.self, id: id, context: context, decoder: decoder) }
    }

    /// The first model a query selects.
    ///
    /// ```swift
    /// let newest = try await store.fetchOne(ModelQuery(Status.self).order(by: \Status.createdAt, .descending))
    /// ```
    @inlinable
    public func fetchOne<M: Model>(_ query: ModelQuery<M>, context: ModelContext? = nil) async throws -> M? {
        try await fetchAll(query.limit(1, offset: query.offset), context: context).first
    }

    /// The models a query selects, in its order, read with one context for the whole fetch.
    ///
    /// ```swift
    /// let japanese = try await store.fetchAll(ModelQuery(Status.self).filter(\Status.lang == "ja"))
    /// ```
    @inlinable
    public func fetchAll<M: Model>(_ query: ModelQuery<M>, context: ModelContext? = nil) async throws -> [M] {
        let decoder = StoreModelDecoder<M>()
        if let store = self as? SQLiteStore {
            return try await store.readNow { try $0.fetchAllNow(query, context: context, decoder: decoder) }
        }
        return try await fetching { try await $0.fetchAll(query, context: context, decoder: decoder) }
    }

    /// Every stored model of a type.
    ///
    /// ```swift
    /// let users = try await store.fetchAll(User.self, context: context)
    /// ```
    @inlinable
    public func fetchAll<M: Model>(_ type: M.Type, context: ModelContext? = nil) async throws -> [M] {
        try await fetchAll(ModelQuery(M.self), context: context)
    }

    /// How many stored models a query selects.
    ///
    /// ```swift
    /// try await store.fetchCount(ModelQuery(Status.self).filter(\Status.lang == "ja"))
    /// ```
    public func fetchCount<M: Model>(_ query: ModelQuery<M>) async throws -> Int {
        try await fetching { try await $0.fetchCount(query) }
    }

    /// How many models of a type are stored.
    ///
    /// ```swift
    /// try await store.fetchCount(User.self)   // 115
    /// ```
    public func fetchCount<M: Model>(_ type: M.Type) async throws -> Int {
        try await fetching { try await $0.fetchCount(M.self) }
    }

    /// Deletes the model stored for `id`; returns whether there was one.
    ///
    /// ```swift
    /// try await store.deleteOne(User.self, id: "42")
    /// ```
    @discardableResult
    public func deleteOne<M: Model, ID: Hashable & Sendable>(_ type: M.Type, id: ID) async throws -> Bool {
        try await write { try await $0.deleteOne(M.self, id: id) }
    }

    /// Deletes a model by its identifier; returns whether it was stored.
    ///
    /// ```swift
    /// try await store.delete(user)
    /// ```
    @discardableResult
    public func delete<M: Model>(_ model: M) async throws -> Bool {
        try await write { try await $0.delete(model) }
    }

    /// Deletes the models a query selects, in one transaction; returns how many.
    ///
    /// ```swift
    /// try await store.deleteAll(ModelQuery(Status.self).filter(\Status.lang == "ja"))
    /// ```
    @discardableResult
    public func deleteAll<M: Model>(_ query: ModelQuery<M>) async throws -> Int {
        try await write { try await $0.deleteAll(query) }
    }

    /// Deletes every stored model of a type; returns how many there were.
    ///
    /// ```swift
    /// try await store.deleteAll(Status.self)
    /// ```
    @discardableResult
    public func deleteAll<M: Model>(_ type: M.Type) async throws -> Int {
        try await write { try await $0.deleteAll(M.self) }
    }

    /// The results of `query` now and after every committed change to its model type, fetched
    /// through `context` when given (so identity holds across results).
    ///
    /// ```swift
    /// for try await japanese in store.observe(ModelQuery(Status.self).filter(\Status.lang == "ja")) {
    ///     print(japanese.map(\.text))
    /// }
    /// ```
    public func observe<M: Model>(_ query: ModelQuery<M>, context: ModelContext? = nil) -> ModelObservation<M> {
        ModelObservation(changes: changes(to: M.self), store: self, query: query, context: context)
    }
}

/// An engine that can also hand out a connection without suspending (SQLite, memory), so a
/// context mapping a payload loads the identifiers it does not hold from the store as it goes.
package protocol SynchronousStoreEngine: StoreEngine, ModelLoading where Connection: SynchronousRowReading {
    /// Runs `body` with a connection, waiting for the store's other transactions to end.
    func withConnectionNow<T>(_ body: (Connection) throws -> T) throws -> T
}

extension SynchronousStoreEngine {
    public func loadModel<M: Model>(_ type: M.Type, id identifier: AnyHashable, into context: ModelContext) throws -> M? {
        // Inside one of this store's transactions, on the same task: through it.
        if let connection = OpenTransaction.opened(by: self) as? Connection {
            return try RowLoader(synchronous: connection).loadModel(M.self, id: identifier, into: context)
        }
        return try withConnectionNow { connection in
            try RowLoader(synchronous: connection).loadModel(M.self, id: identifier, into: context)
        }
    }
}
