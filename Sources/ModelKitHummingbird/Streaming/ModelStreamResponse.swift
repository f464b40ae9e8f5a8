#if Hummingbird
    import Hummingbird
    import ModelKitCore
    import ModelKitJSON

    /// A response streamed from an `AsyncSequence` of models: newline-delimited JSON, a top-level
    /// array, or an array inside an envelope (`JSONStreamFormat`), each element written by
    /// ModelKit as it comes, so memory stays near one batch of elements whatever the count.
    ///
    /// ```swift
    /// router.get("todos") { _, _ in
    ///     ModelStreamResponse(format: .ndjson) { store.cursor(ModelQuery(Todo.self)) }
    /// }
    /// ```
    ///
    /// The sequence is made by `elements`, in the task that writes the body, so it and its models
    /// need not be `Sendable`: a store cursor, or a context made for the request. Elements are
    /// sent in batches of about ``flushSize`` bytes; 0 sends each element as it comes (a live
    /// feed).
    ///
    /// The body is chunked (its length is not known ahead). When the sequence throws or an
    /// element cannot be encoded, the status is already sent: the connection is closed before the
    /// body's end, which an HTTP client reports as an error, never as a shorter complete body.
    public struct ModelStreamResponse<Elements: AsyncSequence & SendableMetatype>: ResponseGenerator
    where Elements.Element: ModelValue & SendableMetatype, Elements.AsyncIterator: SendableMetatype {
        /// How the elements are laid out.
        public var format: JSONStreamFormat
        /// The response's status.
        public var status: HTTPResponse.Status
        /// Fields added to the content type.
        public var headers: HTTPFields
        /// The bytes gathered before they are sent.
        public var flushSize: Int
        // @usableFromInline: called by the inlinable body(_:), in the task that writes the body.
        @usableFromInline let elements: @Sendable () async throws -> Elements

        /// A response of the elements `elements` makes, laid out as `format`.
        public init(
            format: JSONStreamFormat = .ndjson, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:],
            flushSize: Int = 16 << 10, elements: @escaping @Sendable () async throws -> Elements
        ) {
            self.format = format
            self.status = status
            self.headers = headers
            self.flushSize = flushSize
            self.elements = elements
        }

        /// A response of `elements`, laid out as `format`.
        public init(
            _ elements: Elements, format: JSONStreamFormat = .ndjson, status: HTTPResponse.Status = .ok,
            headers: HTTPFields = [:], flushSize: Int = 16 << 10
        ) where Elements: Sendable {
            self.init(format: format, status: status, headers: headers, flushSize: flushSize) { elements }
        }

        /// `application/x-ndjson` for newline-delimited JSON, `application/json` otherwise.
        public var contentType: String {
            format == .ndjson ? "application/x-ndjson" : "application/json; charset=utf-8"
        }

        public func response(from request: Request, context: some RequestContext) throws -> Response {
            let encoder = context.responseEncoder as? ModelResponseEncoder ?? ModelResponseEncoder()
            var fields = HTTPFields()
            fields[.contentType] = contentType
            fields.append(contentsOf: headers)
            return Response(status: status, headers: fields, body: body(encoder))
        }

        // @inlinable: generic over the elements' type; compiled where it is known, so that each
        // element's write is specialised for it.
        @inlinable
        func body(_ encoder: ModelResponseEncoder) -> ResponseBody {
            let (format, flushSize, elements) = (format, flushSize, elements)
            return ResponseBody { writer in
                var stream = JSONStreamWriter(format: format, formatting: encoder.formatting, options: encoder.options)
                var output = stream.prefix
                output.reserveCapacity(flushSize + 256)
                for try await element in try await elements() {
                    try stream.write(element, into: &output)
                    if output.count >= flushSize {
                        try await writer.write(ByteBuffer(bytes: output))
                        output.removeAll(keepingCapacity: true)
                    }
                }
                output += stream.suffix
                if !output.isEmpty { try await writer.write(ByteBuffer(bytes: output)) }
                try await writer.finish(nil)
            }
        }
    }
#endif
