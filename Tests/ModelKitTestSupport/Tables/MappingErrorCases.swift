import Foundation
import ModelKit

/// A way to map a JSON payload into a model: the JSON-object path, the JSON-bytes path, ...
///
/// The same tables run against every path, so every path reports the same errors.
public protocol PayloadMapper: Sendable {
    func map<M: Model>(_ type: M.Type, from json: String, options: MappingOptions) throws -> M
}

/// A payload that must fail to map, and the exact message it must fail with.
public struct MappingErrorCase: Sendable, CustomStringConvertible {
    public enum Target: Sendable {
        case item, post, event, gallery, feed, order, drawing, account
    }

    /// The paths a case runs on. Property-key formats (a store's nested columns, archives) read
    /// property keys without transformers or hooks, so cases about key paths, key strategies,
    /// transformers and type choice are for remote mapping only; an archive's root is an object
    /// of a class, so it describes a wrong root by its class.
    public enum Reach: Sendable {
        case everyPath, notArchives, remoteOnly
    }

    public let name: String
    public let target: Target
    public let payload: String
    public let message: String
    public let reach: Reach

    init(name: String, target: Target, payload: String, message: String, reach: Reach = .remoteOnly) {
        self.name = name
        self.target = target
        self.payload = payload
        self.message = message
        self.reach = reach
    }

    public var description: String { name }

    /// Maps the payload with `mapper` and returns the error it throws (nil if it maps).
    public func run(_ mapper: some PayloadMapper, options: MappingOptions = .default) -> Error? {
        do {
            switch target {
            case .item: _ = try mapper.map(Item.self, from: payload, options: options)
            case .post: _ = try mapper.map(Post.self, from: payload, options: options)
            case .event: _ = try mapper.map(Event.self, from: payload, options: options)
            case .gallery: _ = try mapper.map(Gallery.self, from: payload, options: options)
            case .feed: _ = try mapper.map(Feed.self, from: payload, options: options)
            case .order: _ = try mapper.map(Order.self, from: payload, options: options)
            case .drawing: _ = try mapper.map(Drawing.self, from: payload, options: options)
            case .account: _ = try mapper.map(Account.self, from: payload, options: options)
            }
            return nil
        } catch {
            return error
        }
    }

    static let postPrefix = #""id": 1, "title": "t", "author": {"name": "a"}, "published_at": "2024-03-01T12:34:56Z""#

    /// The table every mapping path runs.
    public static let all: [MappingErrorCase] = [
        .init(
            name: "missing key", target: .item, payload: "{}",
            message: "cannot map 'Item.name' at 'name': missing key", reach: .everyPath),
        .init(
            name: "null on a non-optional", target: .item, payload: #"{"name": null}"#,
            message: "cannot map 'Item.name' at 'name': expected a string, found null", reach: .everyPath),
        .init(
            name: "wrong type", target: .item, payload: #"{"name": 42}"#,
            message: "cannot map 'Item.name' at 'name': expected a string, found 42", reach: .everyPath),
        .init(
            name: "wrong type at a nested key path", target: .post,
            payload: #"{"id": 1, "title": "t", "author": {"name": true}, "published_at": "2024-03-01T12:34:56Z"}"#,
            message: "cannot map 'Post.authorName' at 'author.name': expected a string, found true"),
        .init(
            name: "bad transformer input", target: .post,
            payload: #"{"id": 1, "title": "t", "author": {"name": "a"}, "published_at": "yesterday"}"#,
            message: "cannot map 'Post.publishedAt' at 'published_at': expected an ISO 8601 date, found \"yesterday\""),
        .init(
            name: "bad index in a nested array path", target: .gallery,
            payload: #"{"media": [{"url": "https://example.com/a.png"}]}"#,
            message: "cannot map 'Gallery.secondURL' at 'media': expected an element at index 1, found an array of 1 element"),
        .init(
            name: "wrong type inside an array of models", target: .feed,
            payload: "{\"posts\": [{\(postPrefix)}, {\(postPrefix), \"tags\": [\"a\", 7]}]}",
            message: "cannot map 'Post.tags' at 'posts[1].tags[1]': expected a string, found 7"),
        .init(
            name: "missing key inside an array of models", target: .order, payload: #"{"items": [{"quantity": 2}]}"#,
            message: "cannot map 'Item.name' at 'items[0].name': missing key", reach: .everyPath),
        .init(
            name: "number out of range", target: .event, payload: #"{"at": 0, "small": 300}"#,
            message: "cannot map 'Event.small' at 'small': expected a number that fits 'Int8', found 300"),
        .init(
            name: "fraction for an integer", target: .item, payload: #"{"name": "a", "quantity": 1.5}"#,
            message: "cannot map 'Item.quantity' at 'quantity': expected an integer, found 1.5", reach: .everyPath),
        .init(
            name: "boolean for an integer", target: .item, payload: #"{"name": "a", "quantity": true}"#,
            message: "cannot map 'Item.quantity' at 'quantity': expected an integer, found true", reach: .everyPath),
        .init(
            name: "not an object where a key path goes on", target: .post,
            payload: #"{"id": 1, "title": "t", "author": "a", "published_at": "2024-03-01T12:34:56Z"}"#,
            message: "cannot map 'Post' at 'author': expected an object, found \"a\""),
        .init(
            name: "null where a key path goes on", target: .post,
            payload: #"{"id": 1, "title": "t", "author": null, "published_at": "2024-03-01T12:34:56Z"}"#,
            message: "cannot map 'Post.authorName' at 'author.name': missing key"),
        .init(
            name: "not an object at the top", target: .item, payload: "[1]",
            message: "cannot map 'Item': expected an object, found an array of 1 element", reach: .notArchives),
        .init(
            name: "property validation", target: .post,
            payload: #"{"id": 1, "title": "", "author": {"name": "a"}, "published_at": "2024-03-01T12:34:56Z"}"#,
            message: "cannot map 'Post.title' at 'title': expected a non-empty title, found \"\""),
        .init(
            name: "model validation", target: .account, payload: #"{"owner": "o", "balance": -1}"#,
            message: "invalid 'Account': expected a balance of at least 0", reach: .everyPath),
        .init(
            name: "missing key in the chosen subclass", target: .drawing,
            payload: #"{"title": "d", "shapes": [{"kind": "circle", "name": "c"}]}"#,
            message: "cannot map 'Circle.radius' at 'shapes[0].radius': missing key"),
        .init(
            name: "unknown raw value without a default", target: .event, payload: #"{"at": "soon"}"#,
            message: "cannot map 'Event.at' at 'at': expected a number, found \"soon\""),
    ]

    /// A payload with several problems, and every message collect-all mode must report.
    public static let collectAll = (
        payload: """
            {"posts": [
              {"id": "one", "title": "t", "author": {"name": "a"}, "published_at": "2024-03-01T12:34:56Z"},
              {"id": 2, "author": {"name": "a"}, "published_at": "later", "tags": ["x", 1, "y", false]},
              {\(postPrefix)}
            ]}
            """,
        messages: [
            "cannot map 'Post.id' at 'posts[0].id': expected an integer, found \"one\"",
            "cannot map 'Post.publishedAt' at 'posts[1].published_at': expected an ISO 8601 date, found \"later\"",
            "cannot map 'Post.tags' at 'posts[1].tags[1]': expected a string, found 1",
            "cannot map 'Post.tags' at 'posts[1].tags[3]': expected a string, found false",
            "cannot map 'Post.title' at 'posts[1].title': missing key",
        ]
    )
}
