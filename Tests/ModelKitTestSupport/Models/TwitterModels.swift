import Foundation
import ModelKit

// twitter.json (simdjson's benchmark corpus) as ModelKit models.

@Model(keys: .snakeCase)
public final class Status {
    @Identifier @Key("id_str") public var id: String
    @Key("id") public var numericID: Int64
    public var text: String
    @Transform(.dateFormat("EEE MMM dd HH:mm:ss Z yyyy")) public var createdAt: Date
    public var user: TwitterUser
    public var retweetedStatus: Status?
    @Key("entities.hashtags") public var hashtags: [Hashtag]
    @Key("entities.urls") public var urls: [URLEntity]
    @Key("entities.user_mentions") public var mentions: [Mention]
    @Key("entities.media.0.media_url_https") public var firstMediaURL: URL?
    public var inReplyToStatusIdStr: String?
    public var inReplyToScreenName: String?
    public var retweetCount: Int
    public var favoriteCount: Int
    public var favorited: Bool
    public var truncated: Bool
    public var source: String
    public var lang: String
    @Key("metadata.iso_language_code") public var languageCode: String
    public var coordinates: JSONValue?
}

@Model(keys: .snakeCase)
public final class TwitterUser {
    @Identifier @Key("id_str") public var id: String
    public var name: String
    public var screenName: String
    public var location: String
    @Key("description") public var bio: String
    public var url: String?
    @Key("entities.url.urls") public var urls: [URLEntity] = []
    public var followersCount: Int
    public var friendsCount: Int
    public var verified: Bool
    public var protected: Bool
    @Transform(.dateFormat("EEE MMM dd HH:mm:ss Z yyyy")) public var createdAt: Date
    @Transform(.url) public var profileImageUrlHttps: URL
    public var utcOffset: Int?
    public var timeZone: String?
}

@Model public struct Hashtag: Sendable {
    public var text: String
    public var indices: [Int]
}

@Model(keys: .snakeCase)
public struct URLEntity: Sendable {
    public var url: String
    @Key("expanded_url") public var expanded: URL?
    public var displayUrl: String?
    public var indices: [Int]
}

@Model(keys: .snakeCase)
public struct Mention: Sendable {
    @Key("id_str") public var id: String
    public var screenName: String
    public var name: String
    public var indices: [Int]
}
