import Foundation
import ModelKit
import ModelKitStore

/// What the demo prints about its models' relationships: the inverses mapping kept in memory,
/// and a query through a reference run by the store.
enum DemoRelationships {
    static func text(statuses: [Tweet], store: any ModelStore) async throws -> String {
        let all = statuses + statuses.compactMap(\.retweetedStatus)
        let users = Dictionary(all.map { ($0.user.id, $0.user) }) { first, _ in first }.values
        let held = Set(users.flatMap { $0.tweets.map(ObjectIdentifier.init) })
        // Ties by identifier, so the line is the same on every run.
        let original = all.max { ($0.retweets.count, $1.id) < ($1.retweets.count, $0.id) }
        var lines = [
            "relationships: the \(users.count) users' 'tweets' (the inverse of 'Tweet.user', kept as the payload was "
                + "mapped) hold \(held.count) statuses"
        ]
        if let original {
            lines.append(
                "the status retweeted most in the payload has \(original.retweets.count) retweets in 'retweets', "
                    + "the inverse of 'Tweet.retweetedStatus'")
        }
        let popular = ModelQuery(Tweet.self).filter((\Tweet.user).matching(\Tweeter.followersCount > 1000))
        let count = try await store.fetchCount(popular)
        let stored = try await store.fetchCount(Tweet.self)
        lines.append("statuses by users with over 1000 followers: \(count) of \(stored) (a query through 'Tweet.user')")
        return lines.joined(separator: "\n")
    }
}
