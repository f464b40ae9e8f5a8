import Foundation
import ModelKitCore

/// What to fetch, count, delete or observe: a model type, a predicate, an order, a limit and an
/// offset. Built with chained calls, run by a store, and turned into SQL with bound arguments.
///
/// ```swift
/// let query = ModelQuery(Status.self)
///     .filter(\Status.retweetCount > 10 && \Status.lang == "ja")
///     .order(by: \Status.createdAt, .descending)
///     .limit(20, offset: 40)
/// let statuses = try await store.fetchAll(query)
/// try query.selectSQL().sql
/// // SELECT ... FROM "Status" WHERE ("retweetCount" > ? AND "lang" = ?) ORDER BY "createdAt" DESC LIMIT ? OFFSET ?
/// ```
public struct ModelQuery<M: Model>: Sendable {
    /// The predicate rows must match; nil for every row.
    public private(set) var predicate: ModelPredicate<M>?
    /// Columns to order by, first to last, or why one cannot be (an unknown key path).
    var orderings: [Result<StoreOrdering, StoreError>] = []
    /// The most rows to return.
    public private(set) var limit: Int?
    /// How many matching rows to skip.
    public private(set) var offset: Int = 0
    /// The text of a full-text search (``search(_:)``), if any.
    public internal(set) var searchText: String?
    /// The to-many relationships the fetch loads with the models it reads (`prefetching(_:)`),
    /// by table and property; the others load on first access.
    package private(set) var prefetched: Set<StorePrefetch> = []
    /// How to make the decoders of the prefetched relationships' related models (each a
    /// `StoreModelDecoder` of its model), built where their types are concrete.
    package private(set) var relatedDecoders: [StorePrefetch: @Sendable () -> Any] = [:]

    /// A query for every stored model of `type`.
    public init(_ type: M.Type = M.self) {}

    /// The query keeping only the rows `predicate` matches (and the ones earlier filters kept).
    public func filter(_ predicate: ModelPredicate<M>) -> ModelQuery {
        var query = self
        query.predicate = self.predicate.map { $0 && predicate } ?? predicate
        return query
    }

    /// The query loading the to-many relationships at `keyPaths` with the models it reads, one
    /// query per relationship and level (two for a many-to-many) for all of them, instead of on
    /// each model's first access: no query per model.
    ///
    /// ```swift
    /// let posts = try await store.fetchAll(ModelQuery(Post.self).prefetching(\.comments, \.tags))
    /// ```
    ///
    /// To-one references always load with the rows that hold them (one query per referenced
    /// table). Given one or two key paths where the related models' types are known, the query
    /// carries their decoders specialized there (see the overloads below).
    public func prefetching<each Value: RelationshipValue>(_ keyPaths: repeat KeyPath<M, each Value>) -> ModelQuery {
        var query = self
        repeat query.prefetch(each keyPaths, of: M.modelSchema, decoder: nil)
        return query
    }

    /// `prefetching(_:)` of one relationship, whose related models are read by their decoder
    /// specialized here, where their type is known.
    // @inlinable: builds the relationship's StoreModelDecoder in the caller's module, where the related model's type is
    // concrete (see StoreModelDecoder); the loader's generic code would run it unspecialized for every related row. A
    // key path pack is not specialized: one and two key paths, the common cases, have overloads of their own.
    @inlinable
    public func prefetching<Value: RelationshipValue>(_ keyPath: KeyPath<M, Value>) -> ModelQuery
    where Value.Related: SendableMetatype {
        var query = self
        query.prefetch(keyPath)
        return query
    }

    /// `prefetching(_:)` of two relationships, each read by its decoder specialized here.
    // @inlinable: as the one-relationship overload.
    @inlinable
    public func prefetching<First: RelationshipValue, Second: RelationshipValue>(
        _ first: KeyPath<M, First>, _ second: KeyPath<M, Second>
    ) -> ModelQuery where First.Related: SendableMetatype, Second.Related: SendableMetatype {
        var query = self
        query.prefetch(first)
        query.prefetch(second)
        return query
    }

    /// The query loading the to-many relationships at `keyPaths` of the related models it reads
    /// too: the next level of `prefetching(_:)`.
    ///
    /// ```swift
    /// ModelQuery(Post.self).prefetching(\.comments).prefetching(\Comment.reactions)
    /// ```
    public func prefetching<Related: Model, each Value: RelationshipValue>(
        _ keyPaths: repeat KeyPath<Related, each Value>
    ) -> ModelQuery {
        var query = self
        repeat query.prefetch(each keyPaths, of: Related.modelSchema, decoder: nil)
        return query
    }

    /// The next level of `prefetching(_:)` for one relationship, read by its decoder
    /// specialized here.
    // @inlinable: as the first level's.
    @inlinable
    public func prefetching<Related: Model, Value: RelationshipValue>(_ keyPath: KeyPath<Related, Value>) -> ModelQuery
    where Value.Related: SendableMetatype {
        var query = self
        query.prefetch(keyPath)
        return query
    }

    /// Notes the relationship at `keyPath` as prefetched, with how to make its related model's
    /// decoder (a query crosses isolation domains: the decoder is made where the fetch runs).
    // @inlinable: builds the decoder's maker where `Value.Related` is concrete (see `prefetching(_:)`).
    @inlinable
    mutating func prefetch<Owner: Model, Value: RelationshipValue>(_ keyPath: KeyPath<Owner, Value>)
    where Value.Related: SendableMetatype {
        prefetch(keyPath, of: Owner.modelSchema, decoder: { StoreModelDecoder<Value.Related>() })
    }

    // @usableFromInline: called by the inlinable prefetch(_:) with the decoder's maker it built.
    @usableFromInline
    mutating func prefetch(_ keyPath: AnyKeyPath, of schema: ModelSchema, decoder: (@Sendable () -> Any)?) {
        guard let index = schema.index(of: keyPath) else { return }
        let prefetch = StorePrefetch(table: schema.storeTableName, property: schema.properties[index].name)
        prefetched.insert(prefetch)
        if let decoder { relatedDecoders[prefetch] = decoder }
    }

    /// The query ordered by a property, after the orderings already given. Only properties whose
    /// stored form orders as they do (``StoreOrderable``: numbers, strings, dates) can order.
    ///
    /// ```swift
    /// ModelQuery(Status.self).order(by: \Status.createdAt, .descending)
    /// ```
    public func order<V: StoreOrderable>(by keyPath: KeyPath<M, V>, _ order: StoreOrder = .ascending) -> ModelQuery {
        ordered { StoreOrdering(column: try ModelPredicate<M>.column(of: keyPath), order: order) }
    }

    /// The query ordered by a property of the model a to-one reference leads to, after the
    /// orderings already given: the comments by their post's title. A model whose reference is
    /// nil orders as a nil value does (first, ascending).
    ///
    /// ```swift
    /// ModelQuery(Comment.self).order(through: \Comment.post, by: \Post.title)
    /// ```
    public func order<Other: Model & AnyObject, V: StoreOrderable>(
        through reference: KeyPath<M, Other?>, by keyPath: KeyPath<Other, V>, _ order: StoreOrder = .ascending
    ) -> ModelQuery {
        ordered(through: reference, by: keyPath, order)
    }

    /// ``order(through:by:_:)`` through a reference that cannot be nil.
    public func order<Other: Model & AnyObject, V: StoreOrderable>(
        through reference: KeyPath<M, Other>, by keyPath: KeyPath<Other, V>, _ order: StoreOrder = .ascending
    ) -> ModelQuery {
        ordered(through: reference, by: keyPath, order)
    }

    private func ordered<Reference, Other: Model & AnyObject, V: StoreOrderable>(
        through reference: KeyPath<M, Reference>, by keyPath: KeyPath<Other, V>, _ order: StoreOrder
    ) -> ModelQuery {
        ordered {
            StoreOrdering(
                column: try ModelPredicate<M>.column(of: reference), order: order,
                through: (try StoreTable.of(Other.self), try ModelPredicate<Other>.column(of: keyPath)))
        }
    }

    /// The query with one more ordering, or the reason it cannot be one (thrown when it runs).
    private func ordered(_ ordering: () throws -> StoreOrdering) -> ModelQuery {
        var query = self
        query.orderings.append(
            Result(catching: ordering).mapError { $0 as? StoreError ?? StoreError(.unknownKeyPath, reason: "\($0)", underlying: $0) })
        return query
    }

    /// The query returning at most `limit` rows, after skipping `offset`.
    public func limit(_ limit: Int, offset: Int = 0) -> ModelQuery {
        var query = self
        query.limit = max(0, limit)
        query.offset = max(0, offset)
        return query
    }

    /// The query resolved against the model's table: the condition and orderings as columns.
    func resolved() throws -> ResolvedQuery {
        let table = try StoreTable.of(M.self)
        var condition = try predicate.map { try $0.expression.get() }
        let orderings = try orderings.map { try $0.get() }
        var search: StoreSearch?
        if let searchText {
            guard !table.schema.searchable.isEmpty else {
                throw StoreError(
                    .unknownKeyPath, table: table.name,
                    reason: "it has no searchable properties: name them with '@Model(search: [...])'")
            }
            let words = StoreSearch.words(of: searchText)
            if !words.isEmpty {
                let found = StoreSearch(words: words, columns: table.schema.searchable)
                search = found
                condition = condition.map { .and($0, .search(found)) } ?? .search(found)
            }
        }
        return ResolvedQuery(
            table: table, condition: condition, orderings: orderings, limit: limit, offset: offset, rank: search)
    }
}

/// A relationship a query loads with the models it reads: a property of a table's models.
package struct StorePrefetch: Hashable, Sendable {
    package let table: String
    package let property: String
}

/// Ascending or descending, for ``ModelQuery/order(by:_:)``.
public enum StoreOrder: Hashable, Sendable {
    /// Smallest first (`NULL` first, as in SQLite).
    case ascending
    /// Largest first.
    case descending
}

/// A query as stores run it: a table, a condition over columns, orderings, a limit and an offset.
package struct ResolvedQuery {
    package let table: StoreTable
    package let condition: StoreExpression?
    package let orderings: [StoreOrdering]
    package let limit: Int?
    package let offset: Int
    /// The full-text search whose relevance orders the rows first, if any.
    package var rank: StoreSearch? = nil
    /// How deep in subqueries of referring rows the query's condition is (``StoreReferrers``):
    /// 0 for a query's own table, which SQL names by its name; aliased below.
    package var depth = 0
}

/// One term of a query's order: a column of the query's table, or a column of the row a to-one
/// reference column leads to (``ModelQuery/order(through:by:_:)``).
package struct StoreOrdering {
    /// The query table's column: the value, or the reference.
    package let column: String
    package let order: StoreOrder
    /// The table the reference leads to and its column whose value orders, if any.
    package let through: (table: StoreTable, column: String)?

    package init(column: String, order: StoreOrder, through: (table: StoreTable, column: String)? = nil) {
        self.column = column
        self.order = order
        self.through = through
    }
}
