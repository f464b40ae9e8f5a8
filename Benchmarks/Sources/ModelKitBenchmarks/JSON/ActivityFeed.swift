import Foundation
import ModelKit

// An activity feed: a corpus of tagged unions, as every API that sends events, notifications or
// blocks has them. Each event is `{"type": ..., fields beside it}`, with the tag at varying
// places in the object (first, in the middle, last), of six kinds. No event is of a kind the
// model does not know: its fallback case would keep that event's whole value, which the baseline
// drops, and the two sides would not do the same work. The baseline is what an app writes for Foundation:
// a `Codable` enum whose `init(from:)` reads the tag, then the case's fields from the same
// container.

@Model struct FeedActor {
    var id: Int
    var name: String
}

@Model(tag: "type") enum FeedEvent {
    case post(id: Int, actor: FeedActor, text: String, likes: Int)
    case comment(id: Int, actor: FeedActor, postID: Int, text: String)
    case follow(actor: FeedActor, target: Int)
    case like(actor: FeedActor, postID: Int)
    case share(id: Int, actor: FeedActor, postID: Int, note: String?)
    case mention(actor: FeedActor, users: [Int])
    @UnknownCase case other(JSONValue)
}

@Model struct Feed {
    var cursor: String
    var events: [FeedEvent]
}

struct CodableFeedActor: Codable {
    var id: Int
    var name: String
}

enum CodableFeedEvent: Codable {
    case post(id: Int, actor: CodableFeedActor, text: String, likes: Int)
    case comment(id: Int, actor: CodableFeedActor, postID: Int, text: String)
    case follow(actor: CodableFeedActor, target: Int)
    case like(actor: CodableFeedActor, postID: Int)
    case share(id: Int, actor: CodableFeedActor, postID: Int, note: String?)
    case mention(actor: CodableFeedActor, users: [Int])
    case other(type: String)

    enum Key: String, CodingKey {
        case type, id, actor, text, likes, postID, target, note, users
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        switch try c.decode(String.self, forKey: .type) {
        case "post":
            self = .post(
                id: try c.decode(Int.self, forKey: .id), actor: try c.decode(CodableFeedActor.self, forKey: .actor),
                text: try c.decode(String.self, forKey: .text), likes: try c.decode(Int.self, forKey: .likes))
        case "comment":
            self = .comment(
                id: try c.decode(Int.self, forKey: .id), actor: try c.decode(CodableFeedActor.self, forKey: .actor),
                postID: try c.decode(Int.self, forKey: .postID), text: try c.decode(String.self, forKey: .text))
        case "follow":
            self = .follow(actor: try c.decode(CodableFeedActor.self, forKey: .actor), target: try c.decode(Int.self, forKey: .target))
        case "like":
            self = .like(actor: try c.decode(CodableFeedActor.self, forKey: .actor), postID: try c.decode(Int.self, forKey: .postID))
        case "share":
            self = .share(
                id: try c.decode(Int.self, forKey: .id), actor: try c.decode(CodableFeedActor.self, forKey: .actor),
                postID: try c.decode(Int.self, forKey: .postID), note: try c.decodeIfPresent(String.self, forKey: .note))
        case "mention":
            self = .mention(actor: try c.decode(CodableFeedActor.self, forKey: .actor), users: try c.decode([Int].self, forKey: .users))
        case let other:
            self = .other(type: other)
        }
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        switch self {
        case .post(let id, let actor, let text, let likes):
            try c.encode("post", forKey: .type)
            try c.encode(id, forKey: .id)
            try c.encode(actor, forKey: .actor)
            try c.encode(text, forKey: .text)
            try c.encode(likes, forKey: .likes)
        case .comment(let id, let actor, let postID, let text):
            try c.encode("comment", forKey: .type)
            try c.encode(id, forKey: .id)
            try c.encode(actor, forKey: .actor)
            try c.encode(postID, forKey: .postID)
            try c.encode(text, forKey: .text)
        case .follow(let actor, let target):
            try c.encode("follow", forKey: .type)
            try c.encode(actor, forKey: .actor)
            try c.encode(target, forKey: .target)
        case .like(let actor, let postID):
            try c.encode("like", forKey: .type)
            try c.encode(actor, forKey: .actor)
            try c.encode(postID, forKey: .postID)
        case .share(let id, let actor, let postID, let note):
            try c.encode("share", forKey: .type)
            try c.encode(id, forKey: .id)
            try c.encode(actor, forKey: .actor)
            try c.encode(postID, forKey: .postID)
            try c.encodeIfPresent(note, forKey: .note)
        case .mention(let actor, let users):
            try c.encode("mention", forKey: .type)
            try c.encode(actor, forKey: .actor)
            try c.encode(users, forKey: .users)
        case .other(let type):
            try c.encode(type, forKey: .type)
        }
    }
}

struct CodableFeed: Codable {
    var cursor: String
    var events: [CodableFeedEvent]
}

/// The feed as JSON text: `count` events of the six kinds, the tag first, in the middle or
/// last (~2.5 MB for 20,000).
func feedJSON(count: Int = 20_000) -> Data {
    var random = SeededGenerator(state: 23)
    let words = ["the", "feed", "runs", "fast", "über", "naïve", "café", "tagged", "union", "swift", "model", "layer"]
    func text() -> String { (0..<(3 + Int(random.next() % 12))).map { _ in words[Int(random.next() % UInt64(words.count))] }.joined(separator: " ") }
    func actor() -> String { #"{"id":\#(random.next() % 1_000_000),"name":"\#(words[Int(random.next() % UInt64(words.count))]) \#(random.next() % 1000)"}"# }
    var events: [String] = []
    for index in 0..<count {
        let id = 1_000_000 + index
        var fields: [String]
        let kind: String
        switch random.next() % 6 {
        case 0: kind = "post"; fields = [#""id":\#(id)"#, #""actor":\#(actor())"#, #""text":"\#(text())""#, #""likes":\#(random.next() % 5000)"#]
        case 1: kind = "comment"; fields = [#""id":\#(id)"#, #""actor":\#(actor())"#, #""postID":\#(random.next() % 1_000_000)"#, #""text":"\#(text())""#]
        case 2: kind = "follow"; fields = [#""actor":\#(actor())"#, #""target":\#(random.next() % 1_000_000)"#]
        case 3: kind = "like"; fields = [#""actor":\#(actor())"#, #""postID":\#(random.next() % 1_000_000)"#]
        case 4:
            kind = "share"
            fields = [#""id":\#(id)"#, #""actor":\#(actor())"#, #""postID":\#(random.next() % 1_000_000)"#]
            if random.next() % 2 == 0 { fields.append(#""note":"\#(text())""#) }
        default: kind = "mention"; fields = [#""actor":\#(actor())"#, #""users":[\#((0..<(1 + random.next() % 5)).map { _ in String(random.next() % 1_000_000) }.joined(separator: ","))]"#]
        }
        let tag = #""type":"\#(kind)""#
        switch random.next() % 3 {
        case 0: fields.insert(tag, at: 0)
        case 1: fields.insert(tag, at: fields.count / 2)
        default: fields.append(tag)
        }
        events.append("{" + fields.joined(separator: ",") + "}")
    }
    return Data((#"{"cursor":"c-20000","events":["# + events.joined(separator: ",") + "]}").utf8)
}

/// `json.decode.feed` and `json.encode.feed`: the feed into models with a `@Model` enum, against
/// JSONDecoder and JSONEncoder on a hand-written `Codable` enum of the same cases.
func feedComparisons() throws -> [Comparison] {
    let json = feedJSON()
    let feed = try Feed(jsonData: json)
    let values = try JSONDecoder().decode(CodableFeed.self, from: json)
    guard feed.events.count == values.events.count, feed.events.count == 20_000 else {
        throw BenchmarkError("the two sides of the feed comparisons do not map the same data")
    }
    let encoder = JSONEncoder()
    return [
        Comparison(
            name: "json.decode.feed", baselineName: "JSONDecoder", unit: .bytes(json.count),
            modelKit: { _ = try Feed(jsonData: json) },
            baseline: { _ = try JSONDecoder().decode(CodableFeed.self, from: json) },
            notes: { "\(feed.events.count) events of 6 kinds (internally tagged, the tag anywhere), \(json.count) bytes" }),
        Comparison(
            name: "json.encode.feed", baselineName: "JSONEncoder", unit: .bytes(json.count),
            modelKit: { _ = try ModelJSON.encode(feed) },
            baseline: { _ = try encoder.encode(values) },
            notes: { "output: modelkit \(try ModelJSON.encode(feed).count) bytes, JSONEncoder \(try encoder.encode(values).count) bytes" }),
    ]
}
