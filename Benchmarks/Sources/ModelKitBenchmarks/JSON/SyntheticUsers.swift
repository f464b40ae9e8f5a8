import Foundation
import ModelKit

// 20,000 deterministic synthetic users (~9 MB): nested address and geo, tags, friends, nulls and
// ISO 8601 dates, as ModelKit models, as Codable structs, and written as JSON by a seeded generator.

@Model(keys: .snakeCase)
struct SyntheticUser {
    var id: Int
    var guid: String
    var isActive: Bool
    var balance: Double
    var age: Int
    var name: String
    var nickname: String?
    var email: String
    var about: String
    @Transform(.iso8601) var registered: Date
    @Transform(.iso8601) var lastSeen: Date?
    var address: SyntheticAddress
    var tags: [String]
    var friends: [SyntheticFriend]
    var score: Double?
}

@Model(keys: .snakeCase)
struct SyntheticAddress {
    var street: String
    var city: String
    var zipCode: String
    var country: String
    @Key("geo.lat") var latitude: Double
    @Key("geo.lng") var longitude: Double
}

@Model struct SyntheticFriend {
    var id: Int
    var name: String
}

struct CodableSyntheticUser: Codable {
    var id: Int
    var guid: String
    var isActive: Bool
    var balance: Double
    var age: Int
    var name: String
    var nickname: String?
    var email: String
    var about: String
    var registered: Date
    var lastSeen: Date?
    var address: CodableSyntheticAddress
    var tags: [String]
    var friends: [CodableSyntheticFriend]
    var score: Double?

    enum CodingKeys: String, CodingKey {
        case id, guid, isActive = "is_active", balance, age, name, nickname, email, about, registered
        case lastSeen = "last_seen", address, tags, friends, score
    }
}

struct CodableSyntheticAddress: Codable {
    var street: String
    var city: String
    var zipCode: String
    var country: String
    var geo: CodableGeo

    enum CodingKeys: String, CodingKey {
        case street, city, zipCode = "zip_code", country, geo
    }
}

struct CodableGeo: Codable {
    var lat: Double
    var lng: Double
}

struct CodableSyntheticFriend: Codable {
    var id: Int
    var name: String
}

/// A small deterministic generator (SplitMix64), so every run maps the same bytes.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The users payload as JSON text: a top-level array of `count` user objects.
func syntheticUsersJSON(count: Int = 20_000) -> Data {
    var generator = SyntheticUserWriter()
    var text = "["
    for id in 0..<count {
        if id > 0 { text += "," }
        text += generator.user(id: id)
    }
    return Data((text + "]").utf8)
}

/// Writes synthetic users as JSON objects one at a time, from one seeded sequence: user `n` is
/// the same bytes whether it is written alone, in an array or in NDJSON.
struct SyntheticUserWriter {
    var random = SeededGenerator(state: 42)
    let words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet",
                 "kilo", "lima", "mike", "november", "oscar", "papa", "quebec", "romeo", "sierra", "tango"]
    let cities = ["Paris", "Tokyo", "Lagos", "Lima", "Oslo", "Cairo", "Dhaka", "Quito", "Perth", "Seoul"]

    mutating func word() -> String { words[Int(random.next() % UInt64(words.count))] }

    mutating func date(_ base: Int) -> String {
        let seconds = base + Int(random.next() % 300_000_000)
        return ISO8601DateFormat.internetDateTime.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
    }

    /// The next user, as one JSON object on one line.
    mutating func user(id: Int) -> String {
        let friends = (0..<Int(random.next() % 4)).map { _ in
            #"{"id":\#(random.next() % 100_000),"name":"\#(word().capitalized) \#(word().capitalized)""#
                + "}"
        }
        let tags = (0..<Int(random.next() % 6)).map { _ in "\"\(word())\"" }
        let nickname = random.next() % 3 == 0 ? "null" : "\"\(word())\""
        let lastSeen = random.next() % 4 == 0 ? "null" : "\"\(date(1_500_000_000))\""
        let score = random.next() % 5 == 0 ? "null" : String(Double(random.next() % 100_000) / 1000)
        let about = (0..<12).map { _ in word() }.joined(separator: " ")
        return """
            {"id":\(id),"guid":"\(UUID(uuid: uuidBytes(&random)).uuidString)","is_active":\(random.next() % 2 == 0),\
            "balance":\(Double(random.next() % 10_000_000) / 100),"age":\(18 + random.next() % 60),\
            "name":"\(word().capitalized) \(word().capitalized)","nickname":\(nickname),\
            "email":"\(word()).\(word())@example.com","about":"\(about)","registered":"\(date(1_300_000_000))",\
            "last_seen":\(lastSeen),"address":{"street":"\(random.next() % 999) \(word().capitalized) Street",\
            "city":"\(cities[Int(random.next() % UInt64(cities.count))])","zip_code":"\(10000 + random.next() % 89999)",\
            "country":"\(word().uppercased())","geo":{"lat":\(Double(Int(random.next() % 180_000_000) - 90_000_000) / 1e6),\
            "lng":\(Double(Int(random.next() % 360_000_000) - 180_000_000) / 1e6)}},\
            "tags":[\(tags.joined(separator: ","))],"friends":[\(friends.joined(separator: ","))],"score":\(score)}
            """
    }
}

private func uuidBytes(_ random: inout SeededGenerator) -> uuid_t {
    let a = random.next()
    let b = random.next()
    return (
        UInt8(truncatingIfNeeded: a), UInt8(truncatingIfNeeded: a >> 8), UInt8(truncatingIfNeeded: a >> 16),
        UInt8(truncatingIfNeeded: a >> 24), UInt8(truncatingIfNeeded: a >> 32), UInt8(truncatingIfNeeded: a >> 40),
        UInt8(truncatingIfNeeded: a >> 48), UInt8(truncatingIfNeeded: a >> 56), UInt8(truncatingIfNeeded: b),
        UInt8(truncatingIfNeeded: b >> 8), UInt8(truncatingIfNeeded: b >> 16), UInt8(truncatingIfNeeded: b >> 24),
        UInt8(truncatingIfNeeded: b >> 32), UInt8(truncatingIfNeeded: b >> 40), UInt8(truncatingIfNeeded: b >> 48),
        UInt8(truncatingIfNeeded: b >> 56)
    )
}
