#if Hummingbird
    import Foundation
    import Hummingbird
    import ModelKitCore
    import ModelKitJSON

    /// Encodes handlers' results as JSON through ModelKit's bytes path: the models' remote key
    /// paths and transformers, as `model.jsonData()` writes them.
    ///
    /// A context's `responseEncoder` (see ``ModelRequestContext``). Values that are not
    /// `ModelValue`s (Hummingbird's own error bodies among them) go through ``fallback``, a
    /// `JSONEncoder` with ISO 8601 dates, Hummingbird's default.
    ///
    /// Through Hummingbird's generic `ResponseEncoder` requirement, a model or an array of them
    /// is encoded unspecialised; ``ModelResponse`` and a model's own `ResponseEncodable`
    /// conformance encode where the type is known.
    public struct ModelResponseEncoder: ResponseEncoder, Sendable {
        /// How the JSON is laid out.
        public var formatting: JSONWriter.Options
        /// The mapping options every value is encoded with.
        public var options: MappingOptions
        /// The encoder of values that are not `ModelValue`s.
        public var fallback: JSONEncoder

        /// An encoder writing JSON as `formatting` says, with `options`.
        public init(formatting: JSONWriter.Options = [], options: MappingOptions = .default) {
            self.formatting = formatting
            self.options = options
            let fallback = JSONEncoder()
            fallback.dateEncodingStrategy = .iso8601
            self.fallback = fallback
        }

        /// A 200 response of `value` as JSON.
        public func encode(_ value: some Encodable, from request: Request, context: some RequestContext) throws -> Response {
            guard let value = value as? any ModelValue else {
                return try fallback.encode(value, from: request, context: context)
            }
            return try response(for: value)
        }

        /// A response of `value` as JSON, with `status` and `headers` besides its type and length.
        // @inlinable: generic over the value type; compiled where it is known, so that the write
        // is specialised for it (see ModelJSON.encode).
        @inlinable
        public func response<T: ModelValue>(for value: T, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) throws
            -> Response
        {
            Response.json(try ModelJSON.encode(value, formatting: formatting, options: options), status: status, headers: headers)
        }
    }

    extension ResponseEncodable where Self: ModelValue {
        /// The model as JSON: with a ``ModelResponseEncoder``, written by ModelKit specialised for
        /// the model's type; with another encoder, by that encoder.
        ///
        /// ```swift
        /// extension Todo: ResponseEncodable {}
        /// router.get("todos/:id") { request, context -> Todo in ... }
        /// ```
        // @inlinable: compiled into the model's own conformance, where its type is known.
        @inlinable
        public func response(from request: Request, context: some RequestContext) throws -> Response {
            guard let encoder = context.responseEncoder as? ModelResponseEncoder else {
                return try context.responseEncoder.encode(self, from: request, context: context)
            }
            return try encoder.response(for: self)
        }
    }
#endif
