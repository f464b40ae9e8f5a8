import Foundation
import ModelKit

// twitter.json (simdjson's benchmark corpus) as ModelKit models.

@Model(keys: .snakeCase)
final class Status {
    @Identifier @Key("id_str") var id: String
    @Key("id") var numericID: Int64
    var text: String
    @Transform(.dateFormat("EEE MMM dd HH:mm:ss Z yyyy")) var createdAt: Date
    var user: TwitterUser
    var retweetedStatus: Status?
    @Key("entities.hashtags") var hashtags: [Hashtag]
    @Key("entities.urls") var urls: [URLEntity]
    @Key("entities.user_mentions") var mentions: [Mention]
    @Key("entities.media.0.media_url_https") var firstMediaURL: URL?
    var inReplyToStatusIdStr: String?
    var inReplyToScreenName: String?
    var retweetCount: Int
    var favoriteCount: Int
    var favorited: Bool
    var truncated: Bool
    var source: String
    var lang: String
    @Key("metadata.iso_language_code") var languageCode: String
    var coordinates: JSONValue?
}

@Model(keys: .snakeCase)
final class TwitterUser {
    @Identifier @Key("id_str") var id: String
    var name: String
    var screenName: String
    var location: String
    @Key("description") var bio: String
    var url: String?
    @Key("entities.url.urls") var urls: [URLEntity] = []
    var followersCount: Int
    var friendsCount: Int
    var verified: Bool
    var protected: Bool
    @Transform(.dateFormat("EEE MMM dd HH:mm:ss Z yyyy")) var createdAt: Date
    @Transform(.url) var profileImageUrlHttps: URL
    var utcOffset: Int?
    var timeZone: String?
}

@Model struct Hashtag: Sendable {
    var text: String
    var indices: [Int]
}

@Model(keys: .snakeCase)
struct URLEntity: Sendable {
    var url: String
    @Key("expanded_url") var expanded: URL?
    var displayUrl: String?
    var indices: [Int]
}

@Model(keys: .snakeCase)
struct Mention: Sendable {
    @Key("id_str") var id: String
    var screenName: String
    var name: String
    var indices: [Int]
}
