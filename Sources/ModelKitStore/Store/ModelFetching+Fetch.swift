import Foundation
import ModelKitCore

extension ModelFetching {
    /// The model stored for `id`, read without a context (references still share instances
    /// within the model).
    ///
    /// ```swift
    /// let user = try store.fetchOne(TwitterUser.self, id: "42")
    /// ```
    public func fetchOne<M: Model, ID: Hashable & Sendable>(_ type: M.Type, id: ID) throws -> M? {
        try fetchOne(M.self, id: id, context: nil)
    }

    /// The first model a query selects.
    ///
    /// ```swift
    /// let newest = try store.fetchOne(ModelQuery(Status.self).order(by: \Status.createdAt, .descending))
    /// ```
    public func fetchOne<M: Model>(_ query: ModelQuery<M>, context: ModelContext? = nil) throws -> M? {
        try fetchAll(query.limit(1, offset: query.offset), context: context).first
    }

    /// The models a query selects, read with one context for the whole fetch.
    public func fetchAll<M: Model>(_ query: ModelQuery<M>) throws -> [M] {
        try fetchAll(query, context: nil)
    }

    /// Every stored model of a type.
    ///
    /// ```swift
    /// let users = try store.fetchAll(TwitterUser.self, context: context)
    /// ```
    public func fetchAll<M: Model>(_ type: M.Type, context: ModelContext? = nil) throws -> [M] {
        try fetchAll(ModelQuery(M.self), context: context)
    }

    /// How many models of a type are stored.
    ///
    /// ```swift
    /// try store.fetchCount(TwitterUser.self)   // 115
    /// ```
    public func fetchCount<M: Model>(_ type: M.Type) throws -> Int {
        try fetchCount(ModelQuery(M.self))
    }
}
