import Foundation
import ModelKit

// Small models, each showing one part of the mapping.

public enum Visibility: String, Codable, Sendable {
    case open, hidden, unknown
}

/// Codable but not a ModelValue: maps through its Codable implementation.
public struct Point: Codable, Hashable, Sendable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

@Model(keys: .snakeCase)
public struct Post: Sendable {
    @Identifier public var id: Int
    public var title: String
    public var body: String?
    @Key("author.name") public var authorName: String
    @Key("author.address.city", "city") public var city: String = "unknown"
    @Key("media.0.url") public var firstMediaURL: URL?
    @Key(#"meta\.data.count"#) public var metaCount: Int = 0
    @Transform(.iso8601) public var publishedAt: Date
    public var tags: [String] = []
    @Transform(.rawValue(Visibility.self, default: .unknown)) public var visibility: Visibility = .open
    public var location: Point?
    @Transient public var cache: String? = nil
    public let kind = "post"

    public static func validateTitle(_ title: String) throws {
        if title.isEmpty { throw ModelError.invalid(expected: "a non-empty title") }
    }
}

@Model
public struct Account: Sendable {
    public var owner: String
    public var balance: Decimal

    public func validate() throws {
        if balance < 0 { throw ModelError.invalid(expected: "a balance of at least 0") }
    }
}

@Model
public struct Item: Sendable {
    public var name: String
    public var quantity: Int = 1

    public init(name: String, quantity: Int = 1) {
        self.name = name
        self.quantity = quantity
    }
}

/// Accepts `{"item": {...}}` as well as `{"items": [...]}` by rewriting the payload first.
@Model
public struct Order: Sendable {
    public var items: [Item]

    public static func rewriteJSON(_ json: inout JSONValue) throws {
        guard case .object(var members) = json, let single = json["item"] else { return }
        members.removeAll { $0.key == "item" }
        members.append(JSONMember("items", .array([single])))
        json = .object(members)
    }
}

@Model(keys: .custom { $0.uppercased() })
public struct Shout: Sendable {
    public var text: String

    public init(text: String) {
        self.text = text
    }
}

@Model(nulls: .useDefault)
public struct Settings: Sendable {
    public var volume: Double = 0.5
    public var name: String
    public var nickname: String?
}

@Model
public struct Tag: Sendable {
    public var label: String
}

@Model
public struct Event: Sendable {
    @Transform(.millisecondsSince1970) public var at: Date
    @Transform(.secondsSince1970) public var until: Date?
    @Transform(.lenient(Int.self)) public var count: Int = 0
    @Transform(.lenientString) public var code: String = ""
    @Transform(.lossyArray(of: Tag.self)) public var tags: [Tag] = []
    @Transform(.array(of: .iso8601)) public var dates: [Date] = []
    public var uuid: UUID?
    public var payload: Data?
    public var small: Int8 = 0
    public var unsigned: UInt32 = 0
    public var ratio: Float = 0
}

@Model
public struct Release: Sendable {
    @Transform(.named("releaseDate", as: Date.self)) public var date: Date
}

@Model
public final class Node {
    public var name: String
    public var children: [Node] = []
    public weak var parent: Node?
    @Transient public var visits = 0
}

@Model
public final class Counter {
    @Identifier public let id: String
    public var count: Int = 0
}

@Model
public struct Gallery: Sendable {
    @Key("media.1.url") public var secondURL: URL
}

@Model
public struct Feed: Sendable {
    public var posts: [Post]
}

@Model
public struct Timeline {
    public var statuses: [Status]
}

@Model
public final class Ticket {
    @Identifier public var id: UUID
    public var title: String
}

@Model
public final class Seat {
    @Identifier public var number: Int
    public var taken: Bool = false
}

/// An identified class that validates itself: updates of a live wallet are all or nothing.
@Model
public final class Wallet {
    @Identifier public var id: Int
    public var owner: String
    public var balance: Int
    public var tags: [String] = []
    public var parent: Wallet? = nil

    public func validate() throws {
        if balance < 0 { throw ModelError.invalid(expected: "a balance of at least 0") }
    }
}

/// Dates and decimals where every format keeps them: a column each, and nested in JSON text.
@Model
public struct Moment: Sendable {
    @Identifier public var id: Int
    public var at: Date
    public var history: [Date] = []
    public var amount: Decimal = 0
    public var amounts: [String: Decimal] = [:]

    public init(id: Int, at: Date, history: [Date] = [], amount: Decimal = 0, amounts: [String: Decimal] = [:]) {
        self.id = id
        self.at = at
        self.history = history
        self.amount = amount
        self.amounts = amounts
    }

    /// A moment with `Date()` and values no format may round: sub-millisecond dates, and
    /// decimals with more digits than a `Double` keeps.
    public static func exacting() -> Moment {
        let now = Date()
        let digits = Decimal(string: "12345678901234567.891")!
        return Moment(
            id: 1, at: now, history: [now.addingTimeInterval(0.000_001_5), Date(timeIntervalSince1970: 1_700_000_000.123456)],
            amount: digits, amounts: ["tiny": Decimal(string: "0.30000000000000004441")!, "big": digits])
    }
}

/// A strict model: a key it does not read is an error, so a mistyped key is found.
@Model(keys: .snakeCase, unknownKeys: .reject)
public struct StrictConfig: Sendable {
    public var retries: Int = 3
    @Key("server.host") public var host: String = "localhost"
    public var tags: [Tag] = []
}

/// Per-property null policies: `null` takes the default for some properties, not others.
@Model
public struct Mixer: Sendable {
    @Key(null: .useDefault) public var volume: Double = 0.5
    @Key("is_muted", null: .useDefault) public var muted: Bool = false
    public var balance: Double = 0
}

/// A per-property policy wins over the model's: `null` is an error for `balance` alone.
@Model(nulls: .useDefault)
public struct LenientMixer: Sendable {
    public var volume: Double = 0.5
    @Key(null: .error) public var balance: Double = 0
}

/// A stored tree of non-identified class instances (its nodes go to one JSON column).
@Model
public struct Tree {
    @Identifier public var id: Int
    public var root: Node

    public init(id: Int, root: Node) {
        self.id = id
        self.root = root
    }

    /// A root whose child refers back to it: a cycle every writer but the archiver refuses.
    public static func cyclic() throws -> Tree {
        let root = try Node(json: ["name": "root"])
        let child = try Node(json: ["name": "child"])
        root.children = [child]
        child.parent = root
        return Tree(id: 1, root: root)
    }
}

/// A stage of an article, mapped from payload strings by a table.
public enum Stage: Hashable, Sendable { case draft, live, archived }

/// Values looked up in tables both ways, with and without defaults.
@Model
public struct Article: Sendable {
    @Transform(.valueMapping(["draft": Stage.draft, "published": .live, "gone": .archived], default: .draft, reverseDefault: "draft"))
    public var stage: Stage
    @Transform(.valueMapping([0: "zero", 1: "one"])) public var word: String = "zero"
}

/// A struct nested in a struct, for key-path access.
@Model
public struct Address: Sendable {
    public var city: String
    public var zip: String? = nil
}

@Model
public struct Resident: Sendable {
    public var name: String
    public var home: Address
    public var work: Address? = nil
}
