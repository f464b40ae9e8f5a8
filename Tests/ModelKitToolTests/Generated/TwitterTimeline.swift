// `modelkit generate --root TwitterTimeline` output for Tests/ModelKitTestSupport/Fixtures/twitter.json,
// checked in so that it compiles with the tests (GenerateCommandTests compares it with the output,
// GeneratedTwitterModelTests maps the payload with it). Regenerate with:
// swift run modelkit generate --root TwitterTimeline Tests/ModelKitTestSupport/Fixtures/twitter.json
// and put this header back on top.

import Foundation
import ModelKit

/// The payload's top-level object.
@Model(keys: .snakeCase)
struct TwitterTimeline {
    var statuses: [Status]
    var searchMetadata: SearchMetadata
}

/// The objects at 'statuses[]'.
@Model(keys: .snakeCase)
struct Status {
    var metadata: Metadata
    @Transform(.dateFormat("EEE MMM dd HH:mm:ss Z yyyy")) var createdAt: Date
    var id: Int64
    var idStr: String
    var text: String
    var source: String
    var truncated: Bool
    var inReplyToStatusId: Int64?
    var inReplyToStatusIdStr: String?
    var inReplyToUserId: Int64?
    var inReplyToUserIdStr: String?
    var inReplyToScreenName: String?
    var user: User
    var geo: JSONValue?
    var coordinates: JSONValue?
    var place: JSONValue?
    var contributors: JSONValue?
    var retweetCount: Int
    var favoriteCount: Int
    var entities: Entities2
    var favorited: Bool
    var retweeted: Bool
    var lang: String
    var retweetedStatus: RetweetedStatus?
    var possiblySensitive: Bool?
}

/// The objects at 'statuses[].metadata' and 'statuses[].retweeted_status.metadata'.
@Model(keys: .snakeCase)
struct Metadata {
    var resultType: String
    var isoLanguageCode: String
}

/// The objects at 'statuses[].user' and 'statuses[].retweeted_status.user'.
@Model(keys: .snakeCase)
struct User {
    var id: Int64
    var idStr: String
    var name: String
    var screenName: String
    var location: String
    @Key("description") var descriptionText: String
    var url: String?
    var entities: Entities
    var protected: Bool
    var followersCount: Int
    var friendsCount: Int
    var listedCount: Int
    @Transform(.dateFormat("EEE MMM dd HH:mm:ss Z yyyy")) var createdAt: Date
    var favouritesCount: Int
    var utcOffset: Int?
    var timeZone: String?
    var geoEnabled: Bool
    var verified: Bool
    var statusesCount: Int
    var lang: String
    var contributorsEnabled: Bool
    var isTranslator: Bool
    var isTranslationEnabled: Bool
    var profileBackgroundColor: String
    var profileBackgroundImageUrl: String
    var profileBackgroundImageUrlHttps: String
    var profileBackgroundTile: Bool
    var profileImageUrl: String
    var profileImageUrlHttps: String
    var profileBannerUrl: String?
    var profileLinkColor: String
    var profileSidebarBorderColor: String
    var profileSidebarFillColor: String
    var profileTextColor: String
    var profileUseBackgroundImage: Bool
    var defaultProfile: Bool
    var defaultProfileImage: Bool
    var following: Bool
    var followRequestSent: Bool
    var notifications: Bool
}

/// The objects at 'statuses[].user.entities' and 'statuses[].retweeted_status.user.entities'.
@Model
struct Entities {
    @Key("description") var descriptionValue: Description
    var url: Url2?
}

/// The objects at 'statuses[].user.entities.description' and 'statuses[].retweeted_status.user.entities.description'.
@Model
struct Description {
    var urls: [Url]
}

/// The objects at 'statuses[].user.entities.description.urls[]', 'statuses[].user.entities.url.urls[]', 'statuses[].entities.urls[]' and 1 more.
@Model(keys: .snakeCase)
struct Url {
    var url: String
    var expandedUrl: String
    var displayUrl: String
    var indices: [Int]
}

/// The objects at 'statuses[].user.entities.url' and 'statuses[].retweeted_status.user.entities.url'.
@Model
struct Url2 {
    var urls: [Url]
}

/// The objects at 'statuses[].entities' and 'statuses[].retweeted_status.entities'.
@Model(keys: .snakeCase)
struct Entities2 {
    var hashtags: [Hashtag]
    var symbols: [JSONValue]
    var urls: [Url]
    var userMentions: [UserMention]
    var media: [MediaItem]?
}

/// The objects at 'statuses[].entities.hashtags[]' and 'statuses[].retweeted_status.entities.hashtags[]'.
@Model
struct Hashtag {
    var text: String
    var indices: [Int]
}

/// The objects at 'statuses[].entities.user_mentions[]' and 'statuses[].retweeted_status.entities.user_mentions[]'.
@Model(keys: .snakeCase)
struct UserMention {
    var screenName: String
    var name: String
    var id: Int64
    var idStr: String
    var indices: [Int]
}

/// The objects at 'statuses[].entities.media[]' and 'statuses[].retweeted_status.entities.media[]'.
@Model(keys: .snakeCase)
struct MediaItem {
    var id: Int64
    var idStr: String
    var indices: [Int]
    var mediaUrl: String
    var mediaUrlHttps: String
    var url: String
    var displayUrl: String
    var expandedUrl: String
    var type: String
    var sizes: Sizes
    var sourceStatusId: Int64?
    var sourceStatusIdStr: String?
}

/// The objects at 'statuses[].entities.media[].sizes' and 'statuses[].retweeted_status.entities.media[].sizes'.
@Model
struct Sizes {
    var medium: Medium
    var small: Small
    var thumb: Thumb
    var large: Large
}

/// The objects at 'statuses[].entities.media[].sizes.medium' and 'statuses[].retweeted_status.entities.media[].sizes.medium'.
@Model
struct Medium {
    var w: Int
    var h: Int
    var resize: String
}

/// The objects at 'statuses[].entities.media[].sizes.small' and 'statuses[].retweeted_status.entities.media[].sizes.small'.
@Model
struct Small {
    var w: Int
    var h: Int
    var resize: String
}

/// The objects at 'statuses[].entities.media[].sizes.thumb' and 'statuses[].retweeted_status.entities.media[].sizes.thumb'.
@Model
struct Thumb {
    var w: Int
    var h: Int
    var resize: String
}

/// The objects at 'statuses[].entities.media[].sizes.large' and 'statuses[].retweeted_status.entities.media[].sizes.large'.
@Model
struct Large {
    var w: Int
    var h: Int
    var resize: String
}

/// The objects at 'statuses[].retweeted_status'.
@Model(keys: .snakeCase)
struct RetweetedStatus {
    var metadata: Metadata
    @Transform(.dateFormat("EEE MMM dd HH:mm:ss Z yyyy")) var createdAt: Date
    var id: Int64
    var idStr: String
    var text: String
    var source: String
    var truncated: Bool
    var inReplyToStatusId: Int64?
    var inReplyToStatusIdStr: String?
    var inReplyToUserId: Int64?
    var inReplyToUserIdStr: String?
    var inReplyToScreenName: String?
    var user: User
    var geo: JSONValue?
    var coordinates: JSONValue?
    var place: JSONValue?
    var contributors: JSONValue?
    var retweetCount: Int
    var favoriteCount: Int
    var entities: Entities2
    var favorited: Bool
    var retweeted: Bool
    var possiblySensitive: Bool?
    var lang: String
}

/// The objects at 'search_metadata'.
@Model(keys: .snakeCase)
struct SearchMetadata {
    var completedIn: Double
    var maxId: Int64
    var maxIdStr: String
    var nextResults: String
    var query: String
    var refreshUrl: String
    var count: Int
    var sinceId: Int
    var sinceIdStr: String
}
