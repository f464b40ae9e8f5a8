#if Hummingbird
    import Hummingbird

    /// A request context whose bodies go through ModelKit: a ``ModelRequestDecoder`` and a
    /// ``ModelResponseEncoder`` with default options, otherwise Hummingbird's
    /// `BasicRequestContext`.
    ///
    /// ```swift
    /// let router = Router(context: ModelRequestContext.self)
    /// ```
    ///
    /// A context of your own gets the same by naming them:
    ///
    /// ```swift
    /// struct AppContext: RequestContext {
    ///     var coreContext: CoreRequestContextStorage
    ///     init(source: ApplicationRequestContextSource) { coreContext = .init(source: source) }
    ///     var requestDecoder: ModelRequestDecoder { ModelRequestDecoder(options: .strict) }
    ///     var responseEncoder: ModelResponseEncoder { ModelResponseEncoder() }
    /// }
    /// ```
    public struct ModelRequestContext: RequestContext {
        public var coreContext: CoreRequestContextStorage

        public init(source: ApplicationRequestContextSource) {
            coreContext = CoreRequestContextStorage(source: source)
        }

        /// ModelKit's reader, default options.
        public var requestDecoder: ModelRequestDecoder { ModelRequestDecoder() }
        /// ModelKit's writer, default options.
        public var responseEncoder: ModelResponseEncoder { ModelResponseEncoder() }
    }
#endif
