import Foundation
import ModelKit

// twitter.json as ModelKit models, and the same fields as Codable structs for JSONDecoder.

@Model(keys: .snakeCase)
final class BenchStatus {
    @Key("id_str") var id: String
    var text: String
    @Transform(.dateFormat("EEE MMM dd HH:mm:ss Z yyyy")) var createdAt: Date
    var user: BenchUser
    var retweetedStatus: BenchStatus?
    @Key("entities.hashtags") var hashtags: [BenchHashtag]
    @Key("entities.urls") var urls: [BenchURL]
    @Key("entities.user_mentions") var mentions: [BenchMention]
    var inReplyToStatusIdStr: String?
    var retweetCount: Int
    var favoriteCount: Int
    var favorited: Bool
    var retweeted: Bool
    var source: String
    var lang: String
}

@Model(keys: .snakeCase)
final class BenchUser {
    @Key("id_str") var id: String
    var name: String
    var screenName: String
    var location: String
    @Key("description") var bio: String
    var url: String?
    var followersCount: Int
    var friendsCount: Int
    var statusesCount: Int
    var verified: Bool
    @Transform(.dateFormat("EEE MMM dd HH:mm:ss Z yyyy")) var createdAt: Date
    var profileImageUrlHttps: String
    var lang: String
}

@Model struct BenchHashtag {
    var text: String
    var indices: [Int]
}

@Model(keys: .snakeCase)
struct BenchURL {
    var url: String
    var expandedUrl: String?
    var indices: [Int]
}

@Model(keys: .snakeCase)
struct BenchMention {
    @Key("id_str") var id: String
    var screenName: String
    var name: String
    var indices: [Int]
}

@Model
struct BenchTimeline {
    var statuses: [BenchStatus]
}

// The baseline: the same fields with Codable, explicit coding keys (JSONDecoder's fastest way).

struct CodableTimeline: Codable {
    var statuses: [CodableStatus]
}

final class CodableStatus: Codable {
    var id: String
    var text: String
    var createdAt: Date
    var user: CodableUser
    var retweetedStatus: CodableStatus?
    var entities: CodableEntities
    var inReplyToStatusIdStr: String?
    var retweetCount: Int
    var favoriteCount: Int
    var favorited: Bool
    var retweeted: Bool
    var source: String
    var lang: String

    enum CodingKeys: String, CodingKey {
        case id = "id_str", text, createdAt = "created_at", user, retweetedStatus = "retweeted_status", entities
        case inReplyToStatusIdStr = "in_reply_to_status_id_str", retweetCount = "retweet_count"
        case favoriteCount = "favorite_count", favorited, retweeted, source, lang
    }
}

struct CodableEntities: Codable {
    var hashtags: [CodableHashtag]
    var urls: [CodableURL]
    var userMentions: [CodableMention]

    enum CodingKeys: String, CodingKey {
        case hashtags, urls, userMentions = "user_mentions"
    }
}

final class CodableUser: Codable {
    var id: String
    var name: String
    var screenName: String
    var location: String
    var bio: String
    var url: String?
    var followersCount: Int
    var friendsCount: Int
    var statusesCount: Int
    var verified: Bool
    var createdAt: Date
    var profileImageUrlHttps: String
    var lang: String

    enum CodingKeys: String, CodingKey {
        case id = "id_str", name, screenName = "screen_name", location, bio = "description", url
        case followersCount = "followers_count", friendsCount = "friends_count", statusesCount = "statuses_count"
        case verified, createdAt = "created_at", profileImageUrlHttps = "profile_image_url_https", lang
    }
}

struct CodableHashtag: Codable {
    var text: String
    var indices: [Int]
}

struct CodableURL: Codable {
    var url: String
    var expandedUrl: String?
    var indices: [Int]

    enum CodingKeys: String, CodingKey {
        case url, expandedUrl = "expanded_url", indices
    }
}

struct CodableMention: Codable {
    var id: String
    var screenName: String
    var name: String
    var indices: [Int]

    enum CodingKeys: String, CodingKey {
        case id = "id_str", screenName = "screen_name", name, indices
    }
}
