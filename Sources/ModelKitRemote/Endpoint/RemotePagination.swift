import Foundation
import ModelKitCore
import ModelKitJSON

/// How a collection's responses lead to its next page: the four ways real APIs page.
///
/// ```swift
/// extension Issue: RemoteModel {
///     static let collectionPath = "/repos/apple/swift/issues"
///     static var pagination: RemotePagination { .linkHeader }            // GitHub
/// }
/// extension Charge: RemoteModel {
///     static let collectionPath = "/charges"
///     static let responseKeyPath = "data"
///     static var pagination: RemotePagination { .cursor(at: "next_cursor", parameter: "starting_after") }
/// }
/// ```
public enum RemotePagination: Hashable, Sendable {
    /// One response is the whole collection.
    case none
    /// The `Link` header's `rel="next"` URL (RFC 8288), as GitHub sends; no such link ends.
    case linkHeader
    /// The next page's URL (absolute, or relative to the page's) at a key path of the response
    /// (`"links.next"`); absent, null or empty ends.
    case nextURL(at: String)
    /// A cursor (a string or an integer) at a key path of the response (`"meta.next_cursor"`),
    /// sent as the query parameter `parameter` of the next request; absent, null or empty ends.
    case cursor(at: String, parameter: String)
    /// Page numbers in the query parameter `parameter`, from `first`; an empty page ends.
    case pageNumber(parameter: String, first: Int = 1)
}

extension RemotePagination {
    /// The first request: `request` with the first page number when pages are numbered.
    func firstRequest(_ request: RemoteRequest) -> RemoteRequest {
        guard case .pageNumber(let parameter, let first) = self else { return request }
        return request.settingQuery(parameter, to: String(first))
    }

    /// The request for the page after the one `request` got `response` for, holding `count`
    /// models; nil when that was the last page.
    func nextRequest(after response: RemoteResponse, to request: RemoteRequest, count: Int, options: MappingOptions) throws -> RemoteRequest? {
        switch self {
        case .none:
            return nil
        case .linkHeader:
            guard let link = response.header("Link"), let target = Self.nextLink(in: link) else { return nil }
            return try request.moving(to: target, from: "the 'Link' header")
        case .nextURL(let keyPath):
            guard let target = try Self.text(at: keyPath, in: response, of: request, options: options) else { return nil }
            return try request.moving(to: target, from: "'\(keyPath)'")
        case .cursor(let keyPath, let parameter):
            guard let cursor = try Self.text(at: keyPath, in: response, of: request, options: options) else { return nil }
            return request.settingQuery(parameter, to: cursor)
        case .pageNumber(let parameter, let first):
            guard count > 0 else { return nil }
            let current = request.queryValue(parameter).flatMap(Int.init) ?? first
            return request.settingQuery(parameter, to: String(current + 1))
        }
    }

    /// The target of the first `rel="next"` link in a `Link` header's value.
    package static func nextLink(in header: String) -> String? {
        var rest = Substring(header)
        while let open = rest.firstIndex(of: "<"), let close = rest[open...].firstIndex(of: ">") {
            let target = rest[rest.index(after: open)..<close]
            let parameters = rest[rest.index(after: close)...].prefix { $0 != "<" }
            rest = rest[parameters.endIndex...]
            for parameter in parameters.split(separator: ";") {
                let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                guard pair.count == 2, pair[0].lowercased() == "rel" else { continue }
                let relations = pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")).lowercased().split(separator: " ")
                if relations.contains("next") { return String(target) }
            }
        }
        return nil
    }

    /// The string or integer at `keyPath` in the response; nil when it is absent, null or empty.
    static func text(at keyPath: String, in response: RemoteResponse, of request: RemoteRequest, options: MappingOptions) throws -> String? {
        let value: JSONValue?
        do {
            value = try ModelJSON.decode(JSONValue?.self, from: response.body, at: keyPath, options: options)
        } catch let error as ModelError where error.kind == .missingValue {
            return nil
        } catch {
            throw RemoteError.mapping(error, request, response)
        }
        switch value {
        case .none, .null?: return nil
        case .string(let text)?: return text.isEmpty ? nil : text
        case .int(let number)?: return String(number)
        case .uint(let number)?: return String(number)
        case .decimal(let number)?: return number.description
        case .double?, .bool?, .array?, .object?:
            throw RemoteError(
                .pagination, method: request.method, url: request.url.absoluteString, status: response.status,
                reason: "the next page at '\(keyPath)' is not a string or an integer")
        }
    }
}

extension RemoteRequest {
    /// The value of the first query item named `name`.
    func queryValue(_ name: String) -> String? {
        URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == name }?.value
    }

    /// The request with the query item `name` set to `value` (added, or replacing the one there).
    func settingQuery(_ name: String, to value: String) -> RemoteRequest {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return self }
        var items = components.queryItems ?? []
        if let index = items.firstIndex(where: { $0.name == name }) {
            items[index].value = value
        } else {
            items.append(URLQueryItem(name: name, value: value))
        }
        components.queryItems = items
        var request = self
        request.url = components.url ?? url
        return request
    }

    /// The request sent to `target` instead, resolved against the current URL.
    func moving(to target: String, from source: String) throws -> RemoteRequest {
        guard let next = URL(string: target, relativeTo: url)?.absoluteURL, next.scheme == "http" || next.scheme == "https" else {
            throw RemoteError(
                .pagination, method: method, url: url.absoluteString,
                reason: "the next page's URL in \(source) is not an HTTP URL: '\(target)'")
        }
        var request = self
        request.url = next
        return request
    }
}
