import Foundation
import ModelKitCore

// What every store does, in the store's own words: save, fetch (one, all, a count), delete (one
// by identifier, a model, all a query selects), observe. Fetching goes through the protocol's
// requirements, so a store with a faster way to read (SQLite reads rows in place without
// suspending) answers for itself, whoever calls it.

extension ModelStore {
    /// Runs the store's own fetch `body`, which may run twice, as cheaply as the store can: in
    /// one statement without a transaction where the store can (`OnceReading`).
    // @usableFromInline: called by the inlinable default fetchOne(_:id:context:) and fetchAll(_:context:), with the
    // fetch their specialised decoder runs in.
    @usableFromInline
    func fetching<T>(_ body: (StoreTransaction) async throws -> T) async throws -> T {
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

    /// The model stored for `id`, or nil.
    ///
    /// ```swift
    /// let user = try await store.fetchOne(User.self, id: "42")
    /// ```
    // @inlinable: forwards to fetchOne(_:id:context:); inlined where the store's type is known, that call goes
    // straight to the store's inlinable fetch (or the default below), specialised for the model.
    @inlinable
    public func fetchOne<M: Model, ID: Hashable & Sendable>(_ type: M.Type, id: ID) async throws -> M? {
        try await fetchOne(M.self, id: id, context: nil)
    }

    /// The default of ``ModelStore/fetchOne(_:id:context:)``: a read of one statement where the
    /// store can (`OnceReading`), else a read transaction.
    // @inlinable: builds StoreModelDecoder<M> in the caller's module, where the model's type is concrete (see
    // StoreModelDecoder): the default for stores without a fetch of their own (memory, PostgreSQL).
    @inlinable
    public func fetchOne<M: Model, ID: Hashable & Sendable>(
        _ type: M.Type, id: ID, context: ModelContext?
    ) async throws -> M? {
        let decoder = StoreModelDecoder<M>()
        return try await fetching { try await $0.fetchOne(M.self, id: id, context: context, decoder: decoder) }
    }

    /// The first model a query selects, through `context` when given.
    ///
    /// ```swift
    /// let newest = try await store.fetchOne(ModelQuery(Status.self).order(by: \Status.createdAt, .descending))
    /// ```
    // @inlinable: forwards to fetchAll(_:context:), so that the caller's module specialises that fetch for `M`.
    @inlinable
    public func fetchOne<M: Model>(_ query: ModelQuery<M>, context: ModelContext? = nil) async throws -> M? {
        try await fetchAll(query.limit(1, offset: query.offset), context: context).first
    }

    /// The models a query selects, in its order.
    ///
    /// ```swift
    /// let japanese = try await store.fetchAll(ModelQuery(Status.self).filter(\Status.lang == "ja"))
    /// ```
    // @inlinable: forwards to fetchAll(_:context:), as fetchOne(_:context:) does.
    @inlinable
    public func fetchAll<M: Model>(_ query: ModelQuery<M>) async throws -> [M] {
        try await fetchAll(query, context: nil)
    }

    /// The default of ``ModelStore/fetchAll(_:context:)``: a read of one statement where the
    /// store can (`OnceReading`), else a read transaction.
    // @inlinable: builds StoreModelDecoder<M> in the caller's module, as the default fetchOne(_:id:context:) does.
    @inlinable
    public func fetchAll<M: Model>(_ query: ModelQuery<M>, context: ModelContext?) async throws -> [M] {
        let decoder = StoreModelDecoder<M>()
        return try await fetching { try await $0.fetchAll(query, context: context, decoder: decoder) }
    }

    /// Every stored model of a type.
    ///
    /// ```swift
    /// let users = try await store.fetchAll(User.self, context: context)
    /// ```
    // @inlinable: forwards to fetchAll(_:context:), as fetchOne(_:context:) does.
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

    /// The results of `query` now and whenever a commit changes them (to its model's table or
    /// to the tables of the models they refer to), fetched through `context` when given (so
    /// identity holds across results); see ``ModelObservation``.
    ///
    /// ```swift
    /// for try await japanese in store.observe(ModelQuery(Status.self).filter(\Status.lang == "ja")) {
    ///     print(japanese.map(\.text))
    /// }
    /// ```
    public func observe<M: Model>(_ query: ModelQuery<M>, context: ModelContext? = nil) -> ModelObservation<M> {
        ModelObservation(store: self, query: query, context: context)
    }
}

