import Foundation
import ModelKitCore
import ModelKitJSON
import ModelKitStore

extension RemoteClient {
    /// How ``RemoteClient/update(_:method:context:)`` sends a model.
    ///
    /// ```swift
    /// try await client.update(user, method: .patch)   // PATCH /users/42
    /// ```
    public enum UpdateMethod: Hashable, Sendable {
        /// `PUT`: the model replaces the resource.
        case put
        /// `PATCH`: the model's JSON is merged into the resource.
        case patch

        var method: RemoteRequest.Method { self == .put ? .put : .patch }
    }

    /// POSTs `model`'s JSON to the collection and maps the response onto it (server-assigned
    /// values land on the instance); an empty response returns `model` as sent.
    ///
    /// ```swift
    /// let created = try await client.create(User(id: 0, name: "Ada"), context: context)
    /// ```
    ///
    /// A class model with an identifier becomes the context's live instance for it first
    /// (unless another one already is), so the response updates it in place; a response that
    /// names another identifier maps to the instance for that one.
    @discardableResult
    public func create<M: RemoteModel>(_ model: M, context: ModelContext? = nil) async throws -> M {
        let request = try makeRequest(M.self, .post, .create, path: M.collectionPath)
        return try await write(model, with: request, context: mappingContext(context))
    }

    /// PUTs (or PATCHes) `model`'s JSON to its endpoint and maps the response onto the live
    /// instance; an empty response (`204 No Content`) returns the live instance as sent.
    ///
    /// ```swift
    /// user.name = "Ada Lovelace"
    /// try await client.update(user, method: .patch, context: context)
    /// ```
    @discardableResult
    public func update<M: RemoteModel>(_ model: M, method: UpdateMethod = .put, context: ModelContext? = nil) async throws -> M {
        let request = try makeRequest(M.self, method.method, .update, path: instancePath(of: model, method.method))
        return try await write(model, with: request, context: mappingContext(context))
    }

    /// DELETEs `model`'s endpoint, then its row from the store when the client has one.
    ///
    /// ```swift
    /// try await client.delete(user)
    /// ```
    ///
    /// The instance stays live in the context for as long as something references it.
    public func delete<M: RemoteModel>(_ model: M) async throws {
        try await delete(M.self, path: instancePath(of: model, .delete)) { try await $0.delete(model) }
    }

    /// DELETEs the endpoint for `id`, then its row from the store when the client has one.
    ///
    /// ```swift
    /// try await client.deleteOne(User.self, id: 42)
    /// ```
    public func deleteOne<M: RemoteModel, ID: Hashable & Sendable>(_ type: M.Type, id: ID) async throws {
        let path = M.instancePath(for: RemotePath.text(of: AnyHashable(id)))
        try await delete(M.self, path: path) { try await $0.deleteOne(M.self, id: id) }
    }

    // MARK: Internals

    /// Sends a DELETE to `path`, then runs `deleteRow` on the store when the client has one.
    private func delete<M: RemoteModel>(
        _ type: M.Type, path: String, deleteRow: (any ModelStore) async throws -> Bool
    ) async throws {
        let request = try makeRequest(M.self, .delete, .delete, path: path)
        let response = try await send(request)
        guard let store else { return }
        do {
            _ = try await deleteRow(store)
        } catch {
            throw RemoteError.store(error, request, response)
        }
    }

    /// Sends `model`'s JSON with `request` and maps the response onto the live instance.
    private func write<M: RemoteModel>(_ model: M, with request: RemoteRequest, context: ModelContext) async throws -> M {
        var request = request
        do {
            request.body = try model.jsonData(options: options)
        } catch {
            throw RemoteError(
                .mapping, method: request.method, url: request.url.absoluteString,
                reason: "cannot write the body: \(error)", underlying: error)
        }
        request.headers.setField("Content-Type", to: "application/json")
        let live = adopt(model, into: context)
        let response = try await send(request)
        guard response.body.isEmpty else { return try await mapOne(response, of: request, context: context) }
        try await save(CollectionOfOne(live), response, of: request)
        return live
    }

    /// Makes a class model with an identifier `context`'s live instance for it, unless another
    /// one already is; returns the live instance (`model` itself for other models).
    @discardableResult
    func adopt<M: Model>(_ model: M, into context: ModelContext) -> M {
        guard type(of: model) is AnyObject.Type, let identifier = model.modelIdentifier else { return model }
        return context.register(model, identifier: identifier)
    }
}

// MARK: Spellings of earlier releases

extension RemoteClient {
    @available(*, deprecated, renamed: "fetchOne(_:id:query:context:)")
    public func fetch<M: RemoteModel, ID: Hashable & Sendable>(
        _ type: M.Type, id: ID, query: [URLQueryItem] = [], context: ModelContext? = nil
    ) async throws -> M {
        try await fetchOne(type, id: id, query: query, context: context)
    }

    @available(*, deprecated, renamed: "deleteOne(_:id:)")
    public func delete<M: RemoteModel, ID: Hashable & Sendable>(_ type: M.Type, id: ID) async throws {
        try await deleteOne(type, id: id)
    }
}
