#if Hummingbird
    import Hummingbird
    import ModelKitCore
    import ModelKitJSON

    /// A request body that does not map onto its model: answered with status 400 and ModelKit's
    /// error text in the body, in Hummingbird's error layout.
    ///
    /// ```
    /// HTTP/1.1 400 Bad Request
    /// Content-Type: application/json; charset=utf-8
    ///
    /// {"error":{"message":"cannot map 'Todo.title' at 'title': expected a string, found 42"}}
    /// ```
    ///
    /// A middleware or handler that catches it finds the `ModelError` in ``error``.
    public struct ModelBodyError: HTTPResponseError, CustomStringConvertible, Sendable {
        /// What did not map, and where.
        public let error: ModelError

        /// An error answering `error`.
        public init(_ error: ModelError) {
            self.error = error
        }

        /// 400 Bad Request.
        public var status: HTTPResponse.Status { .badRequest }

        /// ModelKit's error text.
        public var description: String { error.description }

        /// The response: the status, and `{"error":{"message":...}}` with ModelKit's error text.
        public func response(from request: Request, context: some RequestContext) throws -> Response {
            var writer = JSONWriter()
            writer.beginObject()
            writer.writeKey(preEscaped: #""error""#)
            writer.beginObject()
            writer.writeKey(preEscaped: #""message""#)
            writer.writeString(error.description)
            writer.endObject()
            writer.endObject()
            return Response.json(writer.bytes, status: status)
        }
    }

    extension Response {
        /// A response of JSON `bytes`, with their type and length.
        // @usableFromInline: every inlinable response of ModelKitHummingbird ends here.
        @usableFromInline
        static func json(_ bytes: [UInt8], status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
            var fields = HTTPFields()
            fields.reserveCapacity(4 + headers.count)
            fields[.contentType] = "application/json; charset=utf-8"
            fields[.contentLength] = String(bytes.count)
            fields.append(contentsOf: headers)
            return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
        }
    }
#endif
