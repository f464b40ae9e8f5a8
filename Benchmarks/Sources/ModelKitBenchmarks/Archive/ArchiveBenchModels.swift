import Foundation
import ModelKit

// The objects both archive benchmarks use: users of about a dozen fields, in three forms: `@Model`
// classes (the graph), `@Model` structs (the plain list), and the baselines' NSObject classes
// with NSSecureCoding and synthesized-Codable structs.

/// A user in the graph: teams are shared by many users, and each user refers back to an earlier
/// one (weak, so archived conditionally).
@Model
final class GraphUser {
    var id: Int
    var name: String
    var screenName: String
    var email: String
    var bio: String
    var followers: Int
    var following: Int
    var verified: Bool
    var score: Double
    var createdAt: Date
    var tags: [String]
    var team: GraphTeam?
    weak var referrer: GraphUser?

    init(_ seed: UserSeed, team: GraphTeam) {
        id = seed.id
        name = seed.name
        screenName = seed.screenName
        email = seed.email
        bio = seed.bio
        followers = seed.followers
        following = seed.following
        verified = seed.verified
        score = seed.score
        createdAt = seed.createdAt
        tags = seed.tags
        self.team = team
    }
}

/// A team many users share.
@Model
final class GraphTeam {
    var name: String
    var size: Int

    init(name: String, size: Int) {
        self.name = name
        self.size = size
    }
}

/// A user of the plain list, as a `@Model` struct.
@Model
struct PlainUser: Sendable {
    var id: Int
    var name: String
    var screenName: String
    var email: String
    var bio: String
    var location: String
    var followers: Int
    var following: Int
    var verified: Bool
    var score: Double
    var createdAt: Date
    var tags: [String]
}

/// The same user with synthesized `Codable`, for PropertyListEncoder and PropertyListDecoder.
struct PlainCodableUser: Codable, Sendable {
    var id: Int
    var name: String
    var screenName: String
    var email: String
    var bio: String
    var location: String
    var followers: Int
    var following: Int
    var verified: Bool
    var score: Double
    var createdAt: Date
    var tags: [String]
}

/// The fields of one generated user.
struct UserSeed {
    let id: Int
    let name: String
    let screenName: String
    let email: String
    let bio: String
    let location: String
    let followers: Int
    let following: Int
    let verified: Bool
    let score: Double
    let createdAt: Date
    let tags: [String]

    /// Deterministic users with varied text and numbers.
    static func make(count: Int) -> [UserSeed] {
        let words = ["swift", "model", "archive", "graph", "linux", "apple", "keyed", "object", "binary", "plist"]
        let cities = ["Zurich", "Berlin", "Lisbon", "Osaka", "Austin", "Nairobi", "Lima", "Oslo"]
        return (0..<count).map { index in
            let word = words[index % words.count]
            return UserSeed(
                id: 1_000_000 + index,
                name: "User \(index) \(word.capitalized)",
                screenName: "\(word)_\(index)",
                email: "user\(index)@example.com",
                bio: "Writes about \(word) and \(words[(index / 7) % words.count]) since \(2000 + index % 24).",
                location: cities[index % cities.count],
                followers: (index * 7919) % 100_000,
                following: (index * 104_729) % 5_000,
                verified: index % 5 == 0,
                score: Double(index % 1000) / 7.0,
                createdAt: Date(timeIntervalSinceReferenceDate: 400_000_000 + Double(index) * 3_600),
                tags: [word, words[(index + 3) % words.count]])
        }
    }
}

// MARK: - Baseline: NSObject classes with NSSecureCoding

/// `GraphUser` as swift-corelibs-foundation's NSKeyedArchiver needs it.
final class UserObject: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }

    let id: Int
    let name: String
    let screenName: String
    let email: String
    let bio: String
    let followers: Int
    let following: Int
    let verified: Bool
    let score: Double
    let createdAt: Date
    let tags: [String]
    let team: TeamObject?
    weak var referrer: UserObject?

    init(_ seed: UserSeed, team: TeamObject) {
        id = seed.id
        name = seed.name
        screenName = seed.screenName
        email = seed.email
        bio = seed.bio
        followers = seed.followers
        following = seed.following
        verified = seed.verified
        score = seed.score
        createdAt = seed.createdAt
        tags = seed.tags
        self.team = team
    }

    func encode(with coder: NSCoder) {
        coder.encode(id, forKey: "id")
        coder.encode(name, forKey: "name")
        coder.encode(screenName, forKey: "screenName")
        coder.encode(email, forKey: "email")
        coder.encode(bio, forKey: "bio")
        coder.encode(followers, forKey: "followers")
        coder.encode(following, forKey: "following")
        coder.encode(verified, forKey: "verified")
        coder.encode(score, forKey: "score")
        coder.encode(createdAt, forKey: "createdAt")
        coder.encode(tags, forKey: "tags")
        coder.encode(team, forKey: "team")
        coder.encodeConditionalObject(referrer, forKey: "referrer")
    }

    init?(coder: NSCoder) {
        id = coder.decodeInteger(forKey: "id")
        name = coder.decodeObject(of: NSString.self, forKey: "name") as String? ?? ""
        screenName = coder.decodeObject(of: NSString.self, forKey: "screenName") as String? ?? ""
        email = coder.decodeObject(of: NSString.self, forKey: "email") as String? ?? ""
        bio = coder.decodeObject(of: NSString.self, forKey: "bio") as String? ?? ""
        followers = coder.decodeInteger(forKey: "followers")
        following = coder.decodeInteger(forKey: "following")
        verified = coder.decodeBool(forKey: "verified")
        score = coder.decodeDouble(forKey: "score")
        createdAt = coder.decodeObject(of: NSDate.self, forKey: "createdAt") as Date? ?? Date()
        tags = coder.decodeObject(of: [NSArray.self, NSString.self], forKey: "tags") as? [String] ?? []
        team = coder.decodeObject(of: TeamObject.self, forKey: "team")
        super.init()
        referrer = coder.decodeObject(of: UserObject.self, forKey: "referrer")
    }
}

/// `GraphTeam` for the baseline.
final class TeamObject: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }

    let name: String
    let size: Int

    init(name: String, size: Int) {
        self.name = name
        self.size = size
    }

    func encode(with coder: NSCoder) {
        coder.encode(name, forKey: "name")
        coder.encode(size, forKey: "size")
    }

    init?(coder: NSCoder) {
        name = coder.decodeObject(of: NSString.self, forKey: "name") as String? ?? ""
        size = coder.decodeInteger(forKey: "size")
    }
}
