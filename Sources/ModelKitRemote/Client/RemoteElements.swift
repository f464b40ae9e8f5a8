import Foundation
import ModelKitCore
import ModelKitJSON

extension RemoteClient {
    /// The collection's models one at a time, mapped as the response's body arrives: for a
    /// top-level array, newline-delimited JSON (NDJSON), or an array at the model's
    /// ``RemoteModel/responseKeyPath`` inside an envelope, in memory bounded by the largest element
    /// rather than the whole body.
    ///
    /// ```swift
    /// for try await event in try client.elements(Event.self, context: context) {
    ///     handle(event)
    /// }
    /// ```
    ///
    /// The request is sent when the loop first asks, with the client's retries and authorizer
    /// (a retry can happen only before the body starts); the client's `timeout` bounds the wait for
    /// the response's head and each wait for more of the body (the transport enforces both), not
    /// the whole stream, and
    /// `maxResponseSize` bounds each element rather than the body. A body whose `Content-Type` is
    /// `application/x-ndjson` (or `jsonl`) is NDJSON; otherwise its first byte tells an array
    /// from NDJSON. Streamed models are mapped through `context`, not saved: save what you keep,
    /// or use ``fetchAll(_:query:context:)`` or ``pages(_:query:context:)``, which save. Errors are
    /// ``RemoteError``s; a bad element's names its index and byte offset.
    public func elements<M: RemoteModel>(
        _ type: M.Type, query: [URLQueryItem] = [], context: ModelContext? = nil
    ) throws -> RemoteElements<M> {
        let request = try makeRequest(M.self, .get, .read, path: M.collectionPath, query: query)
        return RemoteElements(client: self, request: request, context: mappingContext(context))
    }

    /// Sends `request` for a streamed answer: through the transport's stream when it has one,
    /// otherwise the whole body as one chunk.
    func openStream(_ request: RemoteRequest) async throws -> RemoteStreamedResponse {
        guard let streaming = transport as? any StreamingHTTPTransport else {
            let response = try await send(request)
            var delivered = false
            return RemoteStreamedResponse(status: response.status, headers: response.headers, body: RemoteBody {
                defer { delivered = true }
                return delivered ? nil : response.body
            })
        }
        return try await exchange(request) { request in
            do {
                try Task.checkCancellation()
                return try await streaming.stream(request)
            } catch {
                throw RemoteError.sending(error, request, cancelled: Task.isCancelled)
            }
        }
    }

    /// How a streamed response is laid out, from its `Content-Type` and the model's envelope.
    static func streamFormat<M: RemoteModel>(of response: RemoteStreamedResponse, for type: M.Type) -> JSONStreamFormat {
        let contentType = response.header("Content-Type")?.lowercased() ?? ""
        if contentType.contains("ndjson") || contentType.contains("jsonl") || contentType.contains("json-lines") {
            return .ndjson
        }
        return M.responseKeyPath.isEmpty ? .automatic : .nestedArray(at: M.responseKeyPath)
    }
}

/// A collection's models as its response's body arrives: made by
/// ``RemoteClient/elements(_:query:context:)``.
///
/// It maps through its context in the isolation domain of the loop that iterates it, and is not
/// `Sendable` (it holds the context).
public struct RemoteElements<M: RemoteModel>: AsyncSequence {
    public typealias Element = M

    let client: RemoteClient
    let request: RemoteRequest
    let context: ModelContext

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(client: client, request: request, context: context)
    }

    /// Sends the request on the first call, then maps one element per call.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let client: RemoteClient
        let request: RemoteRequest
        let context: ModelContext
        var elements: JSONElementStream<M, RemoteBody>.AsyncIterator?
        var status: Int?

        init(client: RemoteClient, request: RemoteRequest, context: ModelContext) {
            self.client = client
            self.request = request
            self.context = context
        }

        /// The next model, or nil after the last.
        public mutating func next() async throws -> M? {
            if elements == nil {
                let response = try await client.openStream(request)
                var options = client.options
                options.maxDocumentSize = Swift.min(options.maxDocumentSize, client.maxResponseSize ?? .max)
                let format = RemoteClient.streamFormat(of: response, for: M.self)
                let stream = ModelJSON.elements(of: M.self, fromChunks: response.body, format: format, options: options, context: context)
                elements = stream.makeAsyncIterator()
                status = response.status
            }
            do {
                return try await elements?.next(isolation: #isolation)
            } catch let error as JSONStreamError {
                throw RemoteError.streaming(error, request, status: status)
            }
        }
    }
}

extension RemoteError {
    /// The error for a streamed body that stopped: a read that failed (the transfer's error, or
    /// one of the client's own), or an element that does not split or map.
    static func streaming(_ error: JSONStreamError, _ request: RemoteRequest, status: Int?) -> RemoteError {
        if error.kind == .readFailed, let underlying = error.underlying {
            var failure = sending(underlying, request, cancelled: Task.isCancelled)
            if failure.status == nil { failure = failure.withStatus(status) }
            return failure
        }
        let kind: Kind = switch error.kind {
        case .invalidElement: .mapping
        case .elementTooLarge: .tooLarge
        default: .notJSON
        }
        return RemoteError(
            kind, method: request.method, url: request.url.absoluteString, status: status, reason: error.description,
            underlying: error)
    }

    /// The error with `status`, when it had none.
    func withStatus(_ status: Int?) -> RemoteError {
        var error = RemoteError(kind, method: method, url: url, status: status, body: body, reason: reason, underlying: underlying)
        error.attempts = attempts
        return error
    }
}
