import Foundation
import ModelKitCore

/// One transaction of a store, handed to the closure of ``ModelStore/write(_:)`` or
/// ``ModelStore/read(_:)``: saves, fetches and deletes that commit together, or not at all.
///
/// Use it only inside its closure; afterwards every call throws. Fetching through a context
/// returns the live instance for an identifier the context holds, and registers the others.
///
/// ```swift
/// try await store.write { tx in
///     let user = try await tx.fetchOne(User.self, id: "42", context: context)
///     user?.followersCount += 1
///     if let user { try await tx.save(user) }
///     try await tx.deleteAll(ModelQuery(Status.self).filter(\Status.lang == "xx"))
/// }
/// ```
public final class StoreTransaction {
    let connection: any StoreConnection
    let kind: StoreTransactionKind
    private let synchronous: (any SynchronousRowReading)?
    /// The connection, when it reads rows in place (SQLite).
    private let inPlace: (any InPlaceRowReading)?
    /// Set when the closure has returned; the transaction is then unusable.
    private var isFinished = false

    /// The store, when its reads leave relationships for first access (SQLite, memory).
    private let engine: (any ModelRelationshipLoading)?

    init(connection: any StoreConnection, kind: StoreTransactionKind, engine: (any ModelRelationshipLoading)? = nil) {
        self.connection = connection
        self.kind = kind
        self.engine = engine
        self.synchronous = connection.synchronousRows
        self.inPlace = synchronous == nil ? nil : connection.inPlaceRows
    }

    func finish() {
        isFinished = true
    }

    /// Throws when the transaction has ended, the task is cancelled, or a read-only transaction
    /// is asked to write.
    func checkUsable(writing: Bool, table: String) throws {
        if isFinished {
            throw StoreError(.misusedTransaction, table: table, reason: "its transaction has ended: use it inside its closure only")
        }
        if writing, kind != .write {
            throw StoreError(.misusedTransaction, table: table, reason: "a read transaction cannot save or delete: use 'write'")
        }
        try Task.checkCancellation()
    }

    // MARK: Saving

    /// Saves `models`, and the identified class models they refer to. A model already stored is
    /// replaced; a row keeps the columns of properties its model no longer has.
    ///
    /// ```swift
    /// try await tx.save(timeline.statuses)   // and their users
    /// ```
    public func save<S: Sequence>(_ models: S) async throws where S.Element: Model {
        try checkUsable(writing: true, table: S.Element.modelSchema.modelName)
        // Everything is encoded before anything is written: a model that cannot be encoded
        // leaves the transaction as it was. One batch per table, in the order tables were met,
        // the last values of an identifier winning (as one upsert after another would have it).
        var batches: [RowBatch] = []
        var batchByTable: [ObjectIdentifier: RowBatch] = [:]
        var encoder = RowEncoder { table, values in
            let key = ObjectIdentifier(table)
            let batch: RowBatch
            if let existing = batchByTable[key] {
                batch = existing
            } else {
                batch = RowBatch(table: table)
                batches.append(batch)
                batchByTable[key] = batch
            }
            batch.add(values)
        }
        try encoder.encode(models)
        for batch in batches {
            try await connection.store(batch.table, rows: batch.rows)
        }
    }

    /// Saves one model, and the identified class models it refers to.
    ///
    /// ```swift
    /// try await tx.save(status)   // its user too
    /// ```
    public func save<M: Model>(_ model: M) async throws {
        try await save(CollectionOfOne(model))
    }

    // MARK: Fetching

    /// The model stored for `id`, or nil; through `context` when given (the live instance if it
    /// holds one).
    ///
    /// ```swift
    /// let user = try await tx.fetchOne(User.self, id: "42", context: context)
    /// ```
    // @inlinable: builds StoreModelDecoder<M> in the caller's module, where the model's type is concrete, so that
    // each row is read by the model's decoder specialised for StoreRowReader (see StoreModelDecoder).
    @inlinable
    public func fetchOne<M: Model, ID: Hashable & Sendable>(
        _ type: M.Type, id: ID, context: ModelContext? = nil
    ) async throws -> M? {
        try await fetchOne(M.self, id: id, context: context, decoder: StoreModelDecoder())
    }

    // @usableFromInline: called with the decoder by the inlinable fetchOne(_:id:context:) here and the default
    // ModelStore.fetchOne(_:id:context:).
    @usableFromInline
    func fetchOne<M: Model, ID: Hashable & Sendable>(
        _ type: M.Type, id: ID, context: ModelContext?, decoder: StoreModelDecoder<M>
    ) async throws -> M? {
        if readsWithoutSuspending { return try fetchOneNow(M.self, id: id, context: context, decoder: decoder) }
        let table = try StoreTable.of(M.self)
        try checkUsable(writing: false, table: table.name)
        var live: M?
        if handLiveModel(M.self, id: id, context: context, table: table, { live = $0 }) { return live }
        let key = try table.identifierValue(id)
        let context = context ?? Self.fetchContext(for: table)
        guard let row = try await connection.selectRows(table, identifiers: [key]).first else { return nil }
        return try await RowLoader(synchronous: nil).models(
            M.self, rows: [row], table: table, context: context, connection: connection, decoder: decoder
        ).first
    }

    /// Whether fetches read their rows without suspending (SQLite, memory): ``fetchOneNow(_:id:context:decoder:)``
    /// and ``fetchAllNow(_:context:decoder:)`` serve them.
    // @usableFromInline: no inlinable body uses this (only fetchOne(_:id:context:decoder:), out of line, does): a
    // candidate for removal.
    @usableFromInline
    var readsWithoutSuspending: Bool { synchronous != nil }

    /// ``fetchOne(_:id:context:)`` on a connection that reads without suspending: the row read in
    /// place when the connection can (SQLite), else copied out first.
    func fetchOneNow<M: Model, ID: Hashable & Sendable>(
        _ type: M.Type, id: ID, context: ModelContext?, decoder: StoreModelDecoder<M>
    ) throws -> M? {
        var model: M?
        try fetchOneNow(M.self, id: id, context: context, decoder: decoder) { model = $0 }
        return model
    }

    /// ``fetchOne(_:id:context:)`` on a connection that reads without suspending, handing the
    /// model to `found` when there is one: no optional of the model's type is made on this
    /// generic path (each would look its metadata up at run time), so the caller, specialized
    /// for the model, keeps the result.
    // @usableFromInline: called by the inlinable SQLiteStore.fetchOne(_:id:context:), which keeps the model where
    // its type is concrete.
    @usableFromInline
    func fetchOneNow<M: Model, ID: Hashable & Sendable>(
        _ type: M.Type, id: ID, context: ModelContext?, decoder: StoreModelDecoder<M>, found: (M) -> Void
    ) throws {
        let table = try StoreTable.of(M.self)
        try checkUsable(writing: false, table: table.name)
        if handLiveModel(M.self, id: id, context: context, table: table, found) { return }
        let key = try table.identifierValue(id)
        let context = context ?? Self.fetchContext(for: table)
        let loader = RowLoader(synchronous: synchronous, lazy: lazyRelationships(prefetching: ModelQuery<M>?.none))
        if let inPlace {
            try loader.model(M.self, identifier: key, table: table, from: inPlace, context: context, decoder: decoder, found: found)
            return
        }
        guard let synchronous else { throw Self.suspends(table) }
        guard let row = try synchronous.selectRowNow(table, identifier: key) else { return }
        func read() throws -> M {
            let model = try loader.model(
                M.self, from: .values(row.values), version: row.version, table: table, context: context, decoder: decoder)
            try loader.fillToManyNow(in: context)
            return model
        }
        guard let context else { return found(try read()) }
        found(try context.performMapping(read))
    }

    /// Hands `found` a context's live instance for `id`, unless the context tracks changes
    /// (then the row is read, so the instance takes newer values); whether it did.
    private func handLiveModel<M: Model, ID: Hashable & Sendable>(
        _ type: M.Type, id: ID, context: ModelContext?, table: StoreTable, _ found: (M) -> Void
    ) -> Bool {
        guard let context, context.tracker == nil, table.isClass else { return false }
        return handRegisteredModel(M.self, id: id, context: context, found)
    }

    /// Hands `found` the live instance `context` holds for `id`, if any; whether there was one.
    /// Apart, so that the optional it looks at is made only for a class read through a context.
    @inline(never)
    private func handRegisteredModel<M: Model, ID: Hashable & Sendable>(
        _ type: M.Type, id: ID, context: ModelContext, _ found: (M) -> Void
    ) -> Bool {
        guard let live = context.registeredModel(M.self, identifier: AnyHashable(id)) else { return false }
        found(live)
        return true
    }

    /// The context a fetch of identified classes without one reads through: a context of its
    /// own, so the models it returns and the references they hold are one instance per
    /// identifier, and a cycle through them closes on the instances it returns. Nil for values.
    static func fetchContext(for table: StoreTable) -> ModelContext? {
        table.isClass ? ModelContext() : nil
    }

    /// The error for a fetch asked to read without suspending on a connection that cannot.
    private static func suspends(_ table: StoreTable) -> StoreError {
        StoreError(.misusedTransaction, table: table.name, reason: "its store reads rows only by suspending")
    }

    /// The models a query selects, in its order, read with one context for the whole fetch
    /// (`context`, or a new one) so identity holds across them.
    ///
    /// ```swift
    /// let recent = try await tx.fetchAll(ModelQuery(Status.self).order(by: \Status.createdAt, .descending).limit(20))
    /// ```
    // @inlinable: builds StoreModelDecoder<M> in the caller's module, as fetchOne(_:id:context:) does.
    @inlinable
    public func fetchAll<M: Model>(_ query: ModelQuery<M>, context: ModelContext? = nil) async throws -> [M] {
        try await fetchAll(query, context: context, decoder: StoreModelDecoder())
    }

    // @usableFromInline: called with the decoder by the inlinable fetchAll overloads and fetchOne(_:context:) here,
    // and the default ModelStore.fetchAll(_:context:).
    @usableFromInline
    func fetchAll<M: Model>(_ query: ModelQuery<M>, context: ModelContext?, decoder: StoreModelDecoder<M>) async throws -> [M] {
        if inPlace != nil { return try fetchAllNow(query, context: context, decoder: decoder) }
        let resolved = try query.resolved()
        try checkUsable(writing: false, table: resolved.table.name)
        let context = context ?? Self.fetchContext(for: resolved.table)
        let rows = try await connection.selectRows(resolved)
        return try await RowLoader(synchronous: synchronous, lazy: lazyRelationships(prefetching: query)).models(
            M.self, rows: rows, table: resolved.table, context: context, connection: connection, decoder: decoder)
    }

    /// ``fetchAll(_:context:)`` on a connection that reads rows in place (SQLite): without
    /// suspending.
    // @usableFromInline: called by the inlinable SQLiteStore.fetchAll(_:context:).
    @usableFromInline
    func fetchAllNow<M: Model>(_ query: ModelQuery<M>, context: ModelContext?, decoder: StoreModelDecoder<M>) throws -> [M] {
        let resolved = try query.resolved()
        try checkUsable(writing: false, table: resolved.table.name)
        guard let inPlace else { throw Self.suspends(resolved.table) }
        let ownsContext = context == nil
        let context = context ?? Self.fetchContext(for: resolved.table)
        return try RowLoader(synchronous: synchronous, lazy: lazyRelationships(prefetching: query)).models(
            M.self, selecting: resolved, from: inPlace, context: context, ownsContext: ownsContext, decoder: decoder)
    }

    /// What a read leaves for first access, through this store.
    func lazyRelationships<M: Model>(prefetching query: ModelQuery<M>?) -> LazyRelationships? {
        engine.map { LazyRelationships(loader: $0, prefetched: query?.prefetched ?? [], decoders: query?.relatedDecoders ?? [:]) }
    }

    /// Every stored model of a type.
    ///
    /// ```swift
    /// let users = try await tx.fetchAll(User.self, context: context)
    /// ```
    // @inlinable: builds StoreModelDecoder<M> in the caller's module, as fetchOne(_:id:context:) does.
    @inlinable
    public func fetchAll<M: Model>(_ type: M.Type, context: ModelContext? = nil) async throws -> [M] {
        try await fetchAll(ModelQuery(M.self), context: context, decoder: StoreModelDecoder())
    }

    /// The first model a query selects.
    ///
    /// ```swift
    /// let newest = try await tx.fetchOne(ModelQuery(Status.self).order(by: \Status.createdAt, .descending))
    /// ```
    // @inlinable: builds StoreModelDecoder<M> in the caller's module, as fetchOne(_:id:context:) does.
    @inlinable
    public func fetchOne<M: Model>(_ query: ModelQuery<M>, context: ModelContext? = nil) async throws -> M? {
        try await fetchAll(query.limit(1, offset: query.offset), context: context, decoder: StoreModelDecoder()).first
    }

    /// How many stored models a query selects.
    ///
    /// ```swift
    /// try await tx.fetchCount(ModelQuery(Status.self).filter(\Status.lang == "ja"))
    /// ```
    public func fetchCount<M: Model>(_ query: ModelQuery<M>) async throws -> Int {
        let resolved = try query.resolved()
        try checkUsable(writing: false, table: resolved.table.name)
        return try await connection.count(resolved)
    }

    /// How many models of a type are stored.
    ///
    /// ```swift
    /// try await tx.fetchCount(User.self)   // 115
    /// ```
    public func fetchCount<M: Model>(_ type: M.Type) async throws -> Int {
        try await fetchCount(ModelQuery(M.self))
    }

    // MARK: Deleting

    /// Deletes the models a query selects; returns how many.
    ///
    /// ```swift
    /// try await tx.deleteAll(ModelQuery(Status.self).filter(\Status.lang == "ja"))
    /// ```
    @discardableResult
    public func deleteAll<M: Model>(_ query: ModelQuery<M>) async throws -> Int {
        let resolved = try query.resolved()
        try checkUsable(writing: true, table: resolved.table.name)
        return try await deleteFollowingRules(resolved).count
    }

    /// Deletes every stored model of a type; returns how many there were.
    ///
    /// ```swift
    /// try await tx.deleteAll(Status.self)
    /// ```
    @discardableResult
    public func deleteAll<M: Model>(_ type: M.Type) async throws -> Int {
        try await deleteAll(ModelQuery(M.self))
    }

    /// Deletes the model stored for `id`; returns whether there was one.
    ///
    /// ```swift
    /// try await tx.deleteOne(User.self, id: "42")
    /// ```
    @discardableResult
    public func deleteOne<M: Model, ID: Hashable & Sendable>(_ type: M.Type, id: ID) async throws -> Bool {
        let table = try StoreTable.of(M.self)
        return try await deleteAll(ModelQuery(M.self).filter(table.identifierPredicate(try table.identifierValue(id)))) > 0
    }

    /// Deletes a model by its identifier; returns whether it was stored.
    ///
    /// ```swift
    /// try await tx.delete(user)
    /// ```
    @discardableResult
    public func delete<M: Model>(_ model: M) async throws -> Bool {
        let table = try StoreTable.of(M.self)
        guard let identifier = model.modelIdentifier else { throw StoreError.notIdentified(M.modelSchema) }
        return try await deleteAll(ModelQuery(M.self).filter(table.identifierPredicate(try table.identifierValue(identifier)))) > 0
    }
}

extension StoreTable {
    /// The predicate selecting the row of one identifier.
    func identifierPredicate<M: Model>(_ key: StoreValue) -> ModelPredicate<M> {
        ModelPredicate(.success(.compare(column: columns[identifierColumn].name, .equal, key)))
    }
}

/// The rows one save writes to one table, the last values of an identifier winning. A class, so
/// rows are appended in place (a batch copied out of a dictionary and back copied its rows at
/// every append: saving 100,000 models took minutes).
private final class RowBatch {
    let table: StoreTable
    private(set) var rows: [[StoreValue]] = []
    private var indexByIdentifier: [StoreValue: Int] = [:]

    init(table: StoreTable) {
        self.table = table
    }

    func add(_ values: [StoreValue]) {
        let identifier = values[table.identifierColumn]
        if let existing = indexByIdentifier[identifier] {
            rows[existing] = values
        } else {
            indexByIdentifier[identifier] = rows.count
            rows.append(values)
        }
    }
}
