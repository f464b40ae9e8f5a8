#if Hummingbird
    import Foundation
    import Hummingbird
    import ModelKitCore
    import ModelKitJSON

    /// Decodes request bodies into models through ModelKit's JSON bytes path: the models' remote
    /// key paths, transformers and defaults, every mismatch a ``ModelBodyError`` (a 400 response
    /// whose body is ModelKit's error text).
    ///
    /// A context's `requestDecoder` (see ``ModelRequestContext``). Types that are not
    /// `ModelValue`s go through ``fallback``, a `JSONDecoder` with ISO 8601 dates, Hummingbird's
    /// default.
    ///
    /// ```swift
    /// router.post("todos") { request, context in
    ///     let todo = try await request.decode(as: Todo.self, context: context)
    ///     ...
    /// }
    /// ```
    ///
    /// `request.decode(as:context:)` of a `ModelValue` type is decoded where the type is known
    /// (specialised for it); through the `RequestDecoder` requirement, Hummingbird's generic
    /// entry point, the same reader runs for any type, unspecialised.
    public struct ModelRequestDecoder: RequestDecoder, Sendable {
        /// The mapping options every body is decoded with.
        public var options: MappingOptions
        /// The decoder of types that are not `ModelValue`s.
        public var fallback: JSONDecoder

        /// A decoder with `options`.
        public init(options: MappingOptions = .default) {
            self.options = options
            let fallback = JSONDecoder()
            fallback.dateDecodingStrategy = .iso8601
            self.fallback = fallback
        }

        /// Decodes the body of `request`, at most the context's `maxUploadSize` bytes.
        public func decode<T: Decodable>(_ type: T.Type, from request: Request, context: some RequestContext) async throws -> T {
            let body = try await request.body.collect(upTo: context.maxUploadSize)
            guard let modelType = T.self as? any ModelValue.Type else {
                do {
                    return try fallback.decode(T.self, from: body)
                } catch let error as ModelError {
                    // A model inside a Codable value, mapped through its Codable conformance.
                    throw ModelBodyError(error)
                }
            }
            guard let value = try decode(modelType, from: body) as? T else {
                throw HTTPError(.internalServerError, message: "'\(T.self)' decoded as another type")
            }
            return value
        }

        /// Decodes a value of `type` from a body's bytes, in place.
        // @inlinable: generic over the value type; compiled where it is known, so that the read is
        // specialised for it (see ModelJSON.decode).
        @inlinable
        public func decode<T: ModelValue>(_ type: T.Type, from body: ByteBuffer) throws -> T {
            do {
                // Unsafe: the buffer's bytes are read where they lie during the decode; no copy.
                return try body.withUnsafeReadableBytes { try ModelJSON.decode(T.self, from: $0, at: nil, options: options) }
            } catch let error as ModelError {
                throw ModelBodyError(error)
            }
        }
    }

    extension Request {
        /// Decodes the body as `type` with the context's `requestDecoder`: with a
        /// ``ModelRequestDecoder``, through ModelKit's bytes path specialised for `type`.
        ///
        /// ```swift
        /// let todo = try await request.decode(as: Todo.self, context: context)
        /// ```
        ///
        /// A body that does not map is a ``ModelBodyError``, a 400 response whose body is
        /// ModelKit's error text; a larger body than the context's `maxUploadSize` is a 413.
        /// With another decoder, this is Hummingbird's `decode(as:context:)`, the model mapped
        /// through its `Codable` conformance; what does not map is a ``ModelBodyError`` there too.
        // @inlinable: generic over the value type, so that the decode is specialised for it where
        // it is known.
        @inlinable
        public func decode<T: ModelValue & SendableMetatype>(as type: T.Type, context: some RequestContext) async throws -> T {
            guard let decoder = context.requestDecoder as? ModelRequestDecoder else {
                return try await decodeDecodable(T.self, context: context)
            }
            return try decoder.decode(T.self, from: try await body.collect(upTo: context.maxUploadSize))
        }

        /// Hummingbird's `decode(as:context:)`: where `T` is only `Decodable`, that overload is the one.
        // @usableFromInline: the inlinable decode(as:context:) calls it when the context's decoder
        // is not ModelKit's.
        @usableFromInline
        func decodeDecodable<T: Decodable & SendableMetatype>(_ type: T.Type, context: some RequestContext) async throws -> T {
            do {
                return try await decode(as: T.self, context: context)
            } catch let error as ModelError {
                // The model's Codable conformance throws ModelKit's errors, which Hummingbird
                // would answer with a 500.
                throw ModelBodyError(error)
            }
        }
    }
#endif
