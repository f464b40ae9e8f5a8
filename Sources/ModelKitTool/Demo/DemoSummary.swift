import Foundation
import ModelKit

/// What the demo prints about a mapped response.
struct DemoSummary {
    let response: SearchResponse
    let bytes: Int
    let elapsed: Duration

    var text: String {
        let statuses = response.statuses
        let retweets = statuses.compactMap(\.retweetedStatus)
        let users = Set((statuses + retweets).map(\.user.id))
        let texts: [String] = (statuses + retweets).flatMap(\.hashtags).map(\.text)
        let counts: [String: Int] = Dictionary(grouping: texts, by: { $0 }).mapValues(\.count)
        let hashtags = counts.sorted { (lhs: (key: String, value: Int), rhs: (key: String, value: Int)) in
            lhs.value != rhs.value ? lhs.value > rhs.value : lhs.key < rhs.key
        }
        let newest = statuses.map(\.createdAt).max().map { DateCoding.formatISO8601($0) } ?? "-"
        var lines = [
            "mapped \(statuses.count) statuses and \(retweets.count) retweeted statuses by \(users.count) users"
                + " from \(bytes) bytes in \(milliseconds(elapsed)) ms",
            "newest status: \(newest)",
            "most retweeted: \(statuses.map(\.retweetCount).max() ?? 0) retweets",
        ]
        if !hashtags.isEmpty {
            lines.append("top hashtags: " + hashtags.prefix(3).map { "#\($0.key) (\($0.value))" }.joined(separator: ", "))
        }
        return lines.joined(separator: "\n")
    }
}

/// What the demo prints about models loaded back from the store.
struct StoreSummary {
    let loaded: [Tweet]
    let mapped: [Tweet]
    let elapsed: Duration

    var text: String {
        let users = loaded.map(\.user)
        let distinct = Set(users.map(\.id))
        let instances = Set(users.map(ObjectIdentifier.init))
        let retweets = loaded.filter { $0.retweetedStatus != nil }
        // Typed steps: as one expression this took the type checker two seconds.
        let groups: [String: [Tweet]] = Dictionary(grouping: retweets) { (status: Tweet) -> String in
            status.retweetedStatus?.id ?? ""
        }
        let largest: [Tweet]? = groups.values.max { (left: [Tweet], right: [Tweet]) -> Bool in left.count < right.count }
        let byRetweet: [Tweet] = largest ?? []
        let mappedOntoLoaded = mapped.allSatisfy { status in loaded.contains { $0 === status } }
        var lines = [
            "loaded \(loaded.count) statuses by \(distinct.count) users from the store in \(milliseconds(elapsed)) ms"
                + " (\(instances.count) user instances)"
        ]
        if let original = byRetweet.first?.retweetedStatus, byRetweet.count > 1 {
            let shared = byRetweet.allSatisfy { $0.retweetedStatus === original && $0.retweetedStatus?.user === original.user }
            lines.append(
                "the \(byRetweet.count) statuses retweeting @\(original.user.screenName) share one status and one user instance: \(shared)")
        }
        lines.append("mapping the payload updated the loaded instances in place: \(mappedOntoLoaded)")
        return lines.joined(separator: "\n")
    }
}

/// A duration in milliseconds, with one decimal.
func milliseconds(_ duration: Duration) -> String {
    let value = Double(duration.components.attoseconds) / 1e15 + Double(duration.components.seconds) * 1e3
    return String(format: "%.1f", value)
}
