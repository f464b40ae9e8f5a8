import Foundation
import ModelKit

// The demo's models of a Twitter search response.

@Model(keys: .snakeCase)
struct SearchResponse {
    var statuses: [Tweet]
    @Key("search_metadata.count") var count: Int
}

@Model(keys: .snakeCase)
final class Tweet {
    @Identifier @Key("id_str") var id: String
    var text: String
    @Transform(.dateFormat("EEE MMM dd HH:mm:ss Z yyyy")) var createdAt: Date
    var user: Tweeter
    var retweetedStatus: Tweet?
    /// The statuses that retweet this one: the inverse of their `retweetedStatus`, kept in memory.
    @Relationship(inverse: \Tweet.retweetedStatus) var retweets: [Tweet] = []
    @Key("entities.hashtags") var hashtags: [HashtagEntity] = []
    var retweetCount: Int
    var favoriteCount: Int
}

@Model(keys: .snakeCase)
final class Tweeter {
    @Identifier @Key("id_str") var id: String
    var screenName: String
    var followersCount: Int
    /// The user's statuses: deleting a user deletes them.
    @Relationship(deleteRule: .cascade, inverse: \Tweet.user) var tweets: [Tweet] = []
}

@Model
struct HashtagEntity {
    var text: String
}
