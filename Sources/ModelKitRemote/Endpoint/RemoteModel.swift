import Foundation
import ModelKitCore

/// A model that is also a remote resource: a collection endpoint, an instance endpoint per
/// identifier, and where its objects sit in a response (Instant Cocoa's `ICRemoteObject`).
///
/// Opt in with an extension; everything but ``collectionPath`` has a default:
///
/// ```swift
/// extension User: RemoteModel {
///     static let collectionPath = "/users"          // GET /users, POST /users
///     static let responseKeyPath = "data"           // { "data": [ ... ] }
/// }
/// // The instance endpoint is "/users/" + the identifier: GET, PUT, PATCH, DELETE /users/42
/// ```
public protocol RemoteModel: Model {
    /// The collection endpoint, relative to the client's base URL: `"/users"`.
    ///
    /// It is a URL path as sent: percent-encode anything that needs it.
    static var collectionPath: String { get }

    /// Where the objects sit in a collection response (`"data.items"`, digits index arrays),
    /// or `""` (the default) when the response is the array itself.
    ///
    /// A plain `String`, not an optional, so that `static let responseKeyPath = "data"` is
    /// the requirement's witness rather than a new property that the default hides.
    static var responseKeyPath: String { get }

    /// Where the object sits in an instance response (`"data"`), or `""` (the default) when
    /// the response is the object itself.
    static var instanceKeyPath: String { get }

    /// The instance endpoint for an identifier (as text); by default ``collectionPath``, a
    /// slash and the percent-encoded identifier: `"/users/42"`.
    ///
    /// ```swift
    /// static func instancePath(for identifier: String) -> String { "/people/\(identifier).json" }
    /// ```
    static func instancePath(for identifier: String) -> String

    /// This instance's endpoint; by default ``instancePath(for:)`` with the `@Identifier`
    /// value, or nil when the model has none.
    var instancePath: String? { get }

    /// What a client may do with the resource; all of it by default.
    ///
    /// ```swift
    /// static var remoteOperations: RemoteOperations { .read }   // GET only
    /// ```
    static var remoteOperations: RemoteOperations { get }

    /// How the collection's responses lead to the next page, for ``RemoteClient/pages(_:query:context:)``;
    /// none by default (one response is the whole collection).
    ///
    /// ```swift
    /// static var pagination: RemotePagination { .cursor(at: "meta.next_cursor", parameter: "cursor") }
    /// ```
    static var pagination: RemotePagination { get }
}

extension RemoteModel {
    public static var responseKeyPath: String { "" }

    public static var instanceKeyPath: String { "" }

    public static func instancePath(for identifier: String) -> String {
        let trimmed = collectionPath.hasSuffix("/") ? String(collectionPath.dropLast()) : collectionPath
        return trimmed + "/" + RemotePath.encodeSegment(identifier)
    }

    public var instancePath: String? {
        modelIdentifier.map { Self.instancePath(for: RemotePath.text(of: $0)) }
    }

    public static var remoteOperations: RemoteOperations { .all }

    public static var pagination: RemotePagination { .none }
}

/// The requests a ``RemoteModel`` allows a client to send.
///
/// ```swift
/// extension Status: RemoteModel {
///     static let collectionPath = "/statuses"
///     static var remoteOperations: RemoteOperations { [.read, .create] }
/// }
/// ```
public struct RemoteOperations: OptionSet, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int

    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// Fetching the collection and single instances (GET).
    public static let read = RemoteOperations(rawValue: 1 << 0)
    /// Creating an instance in the collection (POST).
    public static let create = RemoteOperations(rawValue: 1 << 1)
    /// Replacing or patching an instance (PUT, PATCH).
    public static let update = RemoteOperations(rawValue: 1 << 2)
    /// Deleting an instance (DELETE).
    public static let delete = RemoteOperations(rawValue: 1 << 3)
    /// Everything.
    public static let all: RemoteOperations = [.read, .create, .update, .delete]

    public var description: String {
        let names: [(RemoteOperations, String)] = [(.read, "read"), (.create, "create"), (.update, "update"), (.delete, "delete")]
        let present = names.filter { contains($0.0) }.map(\.1)
        return present.isEmpty ? "nothing" : present.joined(separator: ", ")
    }
}

/// Turning identifiers into path segments and paths into URLs.
enum RemotePath {
    /// The characters a path segment keeps as they are (RFC 3986 `pchar` without `/`).
    private static let segmentCharacters: CharacterSet = {
        var characters = CharacterSet.urlPathAllowed
        characters.remove("/")
        return characters
    }()

    /// An identifier as text: `42` for numbers, the string itself for strings, a UUID's string.
    static func text(of identifier: AnyHashable) -> String {
        switch identifier.base {
        case let string as String: return string
        case let uuid as UUID: return uuid.uuidString
        default: return String(describing: identifier.base)
        }
    }

    /// `segment` percent-encoded for one path segment: `"a b/c"` becomes `"a%20b%2Fc"`.
    static func encodeSegment(_ segment: String) -> String {
        segment.addingPercentEncoding(withAllowedCharacters: segmentCharacters) ?? segment
    }

    /// `base` and `path` with one slash between them, for messages about paths that make no URL.
    static func join(_ base: String, _ path: String) -> String {
        let base = base.hasSuffix("/") ? String(base.dropLast()) : base
        return path.hasPrefix("/") ? base + path : base + "/" + path
    }

    /// `path` (already percent-encoded, perhaps with a query) under `base`, with `query`
    /// appended; nil when it is not a path (it has a fragment, or Foundation cannot parse it).
    static func url(_ path: String, under base: URL, query: [URLQueryItem]) -> URL? {
        guard var components = URLComponents(url: base, resolvingAgainstBaseURL: true) else { return nil }
        // Parsed rather than assigned: the `percentEncodedPath` setter traps on invalid
        // characters on Apple platforms, where parsing returns nil.
        let joined = join(components.percentEncodedPath, path)
        guard let parsed = URLComponents(string: joined), parsed.scheme == nil, parsed.host == nil,
            parsed.fragment == nil
        else {
            return nil
        }
        components.percentEncodedPath = parsed.percentEncodedPath
        let items = (components.queryItems ?? []) + (parsed.queryItems ?? []) + query
        components.queryItems = items.isEmpty ? nil : items
        return components.url
    }
}
