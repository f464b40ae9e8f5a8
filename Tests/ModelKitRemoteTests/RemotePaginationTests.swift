import Foundation
import ModelKit
import ModelKitRemote
import ModelKitTestSupport
import Testing

/// Issues paged by `Link` headers, GitHub's way.
@Model final class LinkedIssue: RemoteModel {
    static let collectionPath = "/linked"
    static var pagination: RemotePagination { .linkHeader }
    @Identifier var id: Int
}

/// Events paged by a next URL in the envelope.
@Model final class EnvelopedEvent: RemoteModel {
    static let collectionPath = "/enveloped"
    static let responseKeyPath = "data"
    static var pagination: RemotePagination { .nextURL(at: "links.next") }
    @Identifier var id: Int
}

/// Charges paged by a cursor, Stripe's way.
@Model final class CursorCharge: RemoteModel {
    static let collectionPath = "/cursor"
    static let responseKeyPath = "data"
    static var pagination: RemotePagination { .cursor(at: "meta.next_cursor", parameter: "after") }
    @Identifier var id: Int
}

/// Products paged by number.
@Model final class NumberedProduct: RemoteModel {
    static let collectionPath = "/numbered"
    static var pagination: RemotePagination { .pageNumber(parameter: "page") }
    @Identifier var id: Int
}

/// A collection read page after page, each pagination against the local server: 7 items, 3 a page.
@Suite struct RemotePaginationTests {
    static let items = Array(1...7)
    static let perPage = 3

    /// The items of page `page` (from 1), as JSON objects.
    static func page(_ page: Int) -> [String] {
        items.dropFirst((page - 1) * perPage).prefix(perPage).map { #"{"id": \#($0)}"# }
    }

    static var lastPage: Int { (items.count + perPage - 1) / perPage }

    static func json(_ text: String, headers: [HTTPHeader: String] = [:]) -> HTTPResponse {
        HTTPResponse(statusCode: .ok, headers: headers.merging([.contentType: "application/json"]) { a, _ in a }, body: Data(text.utf8))
    }

    /// Serves all four paginations, counting requests.
    static func addRoutes(to server: TestServer, loopingLinks: Bool = false) -> RequestCounter {
        let counter = RequestCounter()
        server.server.appendRoute("GET /linked") { request in
            _ = await counter.record(request)
            let number = request.query["page"].flatMap(Int.init) ?? 1
            var headers: [HTTPHeader: String] = [:]
            if loopingLinks {
                headers[HTTPHeader(name: "Link")] = #"</linked?page=1>; rel="next""#
            } else if number < lastPage {
                // Absolute and relative targets, beside other relations, as servers write them.
                let next = number == 1 ? "\(server.baseURL.absoluteString)/linked?page=2" : "/linked?page=\(number + 1)"
                headers[HTTPHeader(name: "Link")] = #"</linked?page=\#(lastPage)>; rel="last", <\#(next)>; rel="next""#
            }
            return json("[" + page(number).joined(separator: ",") + "]", headers: headers)
        }
        server.server.appendRoute("GET /enveloped") { request in
            _ = await counter.record(request)
            let number = request.query["p"].flatMap(Int.init) ?? 1
            let next = number < lastPage ? #""/enveloped?p=\#(number + 1)""# : "null"
            return json(#"{"data": [\#(page(number).joined(separator: ","))], "links": {"next": \#(next)}}"#)
        }
        server.server.appendRoute("GET /cursor") { request in
            _ = await counter.record(request)
            let after = request.query["after"].flatMap(Int.init) ?? 0
            let number = after / perPage + 1
            let meta = number < lastPage ? #"{"next_cursor": \#(number * perPage)}"# : "{}"
            return json(#"{"data": [\#(page(number).joined(separator: ","))], "meta": \#(meta)}"#)
        }
        server.server.appendRoute("GET /numbered") { request in
            _ = await counter.record(request)
            let number = request.query["page"].flatMap(Int.init) ?? 0
            return json("[" + page(number).joined(separator: ",") + "]")
        }
        return counter
    }

    /// Every page's identifiers, and how many requests they took.
    static func readAll<M: RemoteModel & AnyObject>(_ type: M.Type, from server: TestServer) async throws -> (pages: [[Int]], requests: Int) {
        let counter = addRoutes(to: server)
        let client = RemoteClient(baseURL: server.baseURL, timeout: TestServer.patience)
        var pages: [[Int]] = []
        for try await page in try client.pages(M.self, context: ModelContext()) {
            pages.append(page.compactMap { $0.modelIdentifier?.base as? Int })
        }
        return (pages, await counter.count)
    }

    /// The four paginations: the model that declares each, and the requests 7 items take.
    enum Style: String, CaseIterable, Sendable {
        case linkHeader, nextURL, cursor, pageNumber

        func readAll(from server: TestServer) async throws -> (pages: [[Int]], requests: Int) {
            switch self {
            case .linkHeader: try await RemotePaginationTests.readAll(LinkedIssue.self, from: server)
            case .nextURL: try await RemotePaginationTests.readAll(EnvelopedEvent.self, from: server)
            case .cursor: try await RemotePaginationTests.readAll(CursorCharge.self, from: server)
            case .pageNumber: try await RemotePaginationTests.readAll(NumberedProduct.self, from: server)
            }
        }
    }

    /// Each page is one element; numbered pages end at the first empty one, a request more.
    @Test(arguments: Style.allCases)
    func eachPaginationLeadsPageToPage(_ style: Style) async throws {
        try await TestServer.with { server in
            let (pages, requests) = try await style.readAll(from: server)
            let expected = [[1, 2, 3], [4, 5, 6], [7]] + (style == .pageNumber ? [[]] : [])
            expectEqual(pages, expected)
            expectEqual(requests, expected.count)
        }
    }

    @Test func stoppingEarlySendsNoMoreRequests() async throws {
        try await TestServer.with { server in
            let counter = Self.addRoutes(to: server)
            let client = RemoteClient(baseURL: server.baseURL, timeout: TestServer.patience)
            for try await page in try client.pages(LinkedIssue.self) {
                #expect(page.count == 3)
                break
            }
            expectEqual(await counter.count, 1)
        }
    }

    @Test func loopingLinksAreAnError() async throws {
        try await TestServer.with { server in
            let counter = Self.addRoutes(to: server, loopingLinks: true)
            let client = RemoteClient(baseURL: server.baseURL, timeout: TestServer.patience)
            var pages = 0
            let error = await remoteError {
                for try await _ in try client.pages(LinkedIssue.self) { pages += 1 }
            }
            #expect(error?.kind == .pagination)
            #expect(error?.description == "GET '\(server.baseURL.absoluteString)/linked?page=1' failed: this page was read already: the pages' links loop")
            expectEqual(pages, 2)
            expectEqual(await counter.count, 2)
        }
    }

    @Test(arguments: [
        (#"<https://api.example.com/items?page=2>; rel="next""#, "https://api.example.com/items?page=2" as String?),
        (#"<https://a.example/?p=9>; rel="last", <https://a.example/?p=3>; rel="next""#, "https://a.example/?p=3"),
        (#"</items?page=2>; rel="prev next"; title="more""#, "/items?page=2"),
        (#"<https://a.example/?p=1>; rel=prev"#, nil),
        ("", nil),
        ("garbage", nil),
    ])
    func theNextLinkOfALinkHeader(header: String, expected: String?) {
        #expect(RemotePagination.nextLink(in: header) == expected)
    }
}
