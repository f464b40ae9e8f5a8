#if Hummingbird
    import Hummingbird
    import ModelKitCore
    import ModelKitJSON

    /// A model, an array of models or any `ModelValue` as a JSON response, with a status and
    /// headers: written by ModelKit specialised for its type, whatever the context's encoder.
    ///
    /// ```swift
    /// router.post("todos") { request, context in
    ///     let todo = try await request.decode(as: Todo.self, context: context)
    ///     ...
    ///     return ModelResponse(todo, status: .created, headers: [.location: "/todos/\(todo.id)"])
    /// }
    /// router.get("todos") { _, _ in ModelResponse(try await store.fetchAll(Todo.self)) }
    /// ```
    ///
    /// The formatting and options are the context's ``ModelResponseEncoder``'s, or its defaults.
    public struct ModelResponse<Value: ModelValue>: ResponseGenerator {
        /// What the body holds.
        public var value: Value
        /// The response's status.
        public var status: HTTPResponse.Status
        /// Fields added to the content type and length.
        public var headers: HTTPFields

        /// A response of `value`, with `status` and `headers`.
        public init(_ value: Value, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) {
            self.value = value
            self.status = status
            self.headers = headers
        }

        // @inlinable: generic over the value type; compiled where it is known, so that the write is
        // specialised for it.
        @inlinable
        public func response(from request: Request, context: some RequestContext) throws -> Response {
            let encoder = context.responseEncoder as? ModelResponseEncoder ?? ModelResponseEncoder()
            return try encoder.response(for: value, status: status, headers: headers)
        }
    }
#endif
