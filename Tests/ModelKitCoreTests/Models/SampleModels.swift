import Foundation
import ModelKit

// Small models, each showing one part of the mapping.

enum Visibility: String, Codable, Sendable {
    case open, hidden, unknown
}

/// Codable but not a ModelValue: maps through its Codable implementation.
struct Point: Codable, Hashable, Sendable {
    var x: Double
    var y: Double
}

@Model(keys: .snakeCase)
struct Post: Sendable {
    @Identifier var id: Int
    var title: String
    var body: String?
    @Key("author.name") var authorName: String
    @Key("author.address.city", "city") var city: String = "unknown"
    @Key("media.0.url") var firstMediaURL: URL?
    @Key(#"meta\.data.count"#) var metaCount: Int = 0
    @Transform(.iso8601) var publishedAt: Date
    var tags: [String] = []
    @Transform(.rawValue(Visibility.self, default: .unknown)) var visibility: Visibility = .open
    var location: Point?
    @Transient var cache: String? = nil
    let kind = "post"

    static func validateTitle(_ title: String) throws {
        if title.isEmpty { throw ModelError.invalid(expected: "a non-empty title") }
    }
}

@Model
struct Account: Sendable {
    var owner: String
    var balance: Decimal

    func validate() throws {
        if balance < 0 { throw ModelError.invalid(expected: "a balance of at least 0") }
    }
}

@Model
struct Item: Sendable {
    var name: String
    var quantity: Int = 1
}

/// Accepts `{"item": {...}}` as well as `{"items": [...]}` by rewriting the payload first.
@Model
struct Order: Sendable {
    var items: [Item]

    static func rewriteJSON(_ json: inout JSONValue) throws {
        guard case .object(var members) = json, let single = json["item"] else { return }
        members.removeAll { $0.key == "item" }
        members.append(JSONMember("items", .array([single])))
        json = .object(members)
    }
}

@Model(keys: .custom { $0.uppercased() })
struct Shout: Sendable {
    var text: String
}

@Model(nulls: .useDefault)
struct Settings: Sendable {
    var volume: Double = 0.5
    var name: String
    var nickname: String?
}

@Model
struct Tag: Sendable {
    var label: String
}

@Model
struct Event: Sendable {
    @Transform(.millisecondsSince1970) var at: Date
    @Transform(.secondsSince1970) var until: Date?
    @Transform(.lenient(Int.self)) var count: Int = 0
    @Transform(.lenientString) var code: String = ""
    @Transform(.lossyArray(of: Tag.self)) var tags: [Tag] = []
    @Transform(.array(of: .iso8601)) var dates: [Date] = []
    var uuid: UUID?
    var payload: Data?
    var small: Int8 = 0
    var unsigned: UInt32 = 0
    var ratio: Float = 0
}

@Model
struct Release: Sendable {
    @Transform(.named("releaseDate", as: Date.self)) var date: Date
}

@Model
final class Node {
    var name: String
    var children: [Node] = []
    weak var parent: Node?
    @Transient var visits = 0
}

@Model
final class Counter {
    @Identifier let id: String
    var count: Int = 0
}
