import Foundation
import ModelKit
import ModelKitStore

/// The edits the demo makes through its context, and how it prints what the context tracked.
enum DemoEdits {
    /// The suffix an edited status's text gets.
    static let mark = " [edited]"

    /// The three most retweeted statuses (ties by identifier), the ones the demo edits.
    static func targets(_ statuses: [Tweet]) -> [Tweet] {
        Array(statuses.sorted { ($0.retweetCount, $1.id) > ($1.retweetCount, $0.id) }.prefix(3))
    }

    /// One more favorite, the mark on the text, one more follower for the author.
    static func edit(_ tweet: Tweet) {
        tweet.favoriteCount += 1
        if !tweet.text.hasSuffix(mark) { tweet.text += mark }
        tweet.user.followersCount += 1
    }

    static func describe(_ tweet: Tweet) -> String {
        "status \(tweet.id): favorite_count \(tweet.favoriteCount), @\(tweet.user.screenName) has "
            + "\(tweet.user.followersCount) followers, text ends with \"\(mark.trimmingCharacters(in: .whitespaces))\""
    }

    /// `hasChanges`, the inserted, changed and deleted models, and each changed model's keys.
    static func changes(in context: ModelContext, after step: String) -> String {
        let changed = context.changedModels
        var lines = [
            "after \(step): hasChanges \(context.hasChanges), \(context.insertedModels.count) inserted, "
                + "\(changed.count) changed, \(context.deletedModels.count) deleted"
        ]
        for model in changed.sorted(by: { $0.shortModelDescription < $1.shortModelDescription }) {
            lines.append("  \(model.shortModelDescription): " + keys(of: model, in: context).joined(separator: ", "))
        }
        return lines.joined(separator: "\n")
    }

    private static func keys(of model: any Model, in context: ModelContext) -> [String] {
        switch model {
        case let tweet as Tweet: context.changedProperties(of: tweet)
        case let user as Tweeter: context.changedProperties(of: user)
        default: []
        }
    }
}
