import Foundation
import ModelKitCore
import ModelKitJSON

extension RemoteClient {
    /// The collection page after page, as the model's ``RemoteModel/pagination`` leads: each
    /// element is one page's models, mapped through `context` (one instance per identifier
    /// across pages) and saved to the store, a page at a time. The next page is requested when
    /// the loop asks for it, so stopping early sends no more requests.
    ///
    /// ```swift
    /// for try await page in client.pages(Issue.self, context: context) {
    ///     for issue in page { print(issue.title) }
    /// }
    /// ```
    ///
    /// A next page that was already read (an API whose links loop) ends the sequence with a
    /// ``RemoteError/Kind/pagination`` error rather than reading forever.
    public func pages<M: RemoteModel>(
        _ type: M.Type, query: [URLQueryItem] = [], context: ModelContext? = nil
    ) throws -> RemotePages<M> {
        let request = try makeRequest(M.self, .get, .read, path: M.collectionPath, query: query)
        return RemotePages(client: self, first: M.pagination.firstRequest(request), context: mappingContext(context))
    }

    /// Maps a collection response through `context` and saves what it gave.
    func mapCollection<M: RemoteModel>(_ response: RemoteResponse, of request: RemoteRequest, context: ModelContext) async throws -> [M] {
        let models = try map(response, of: request) { data, options in
            try [M](jsonData: data, at: M.responseKeyPath.nonEmpty, context: context, options: options)
        }
        try await save(models, response, of: request)
        return models
    }
}

/// A collection's pages, requested one at a time as the loop asks: made by
/// ``RemoteClient/pages(_:query:context:)``.
///
/// It maps through its context in the isolation domain of the loop that iterates it, and is not
/// `Sendable` (it holds the context).
public struct RemotePages<M: RemoteModel>: AsyncSequence {
    public typealias Element = [M]

    let client: RemoteClient
    let first: RemoteRequest
    let context: ModelContext

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(client: client, next: first, context: context)
    }

    /// Requests the next page when asked.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let client: RemoteClient
        var next: RemoteRequest?
        let context: ModelContext
        /// The URLs read so far, to stop a loop of links.
        var read: Set<String> = []

        /// The next page's models, or nil after the last page.
        public mutating func next() async throws -> [M]? {
            guard let request = next else { return nil }
            next = nil
            guard read.insert(request.url.absoluteString).inserted else {
                throw RemoteError(
                    .pagination, method: request.method, url: request.url.absoluteString,
                    reason: "this page was read already: the pages' links loop")
            }
            let response = try await client.send(request)
            let models: [M] = try await client.mapCollection(response, of: request, context: context)
            next = try M.pagination.nextRequest(after: response, to: request, count: models.count, options: client.options)
            return models
        }
    }
}
