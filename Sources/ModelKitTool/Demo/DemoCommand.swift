import ArgumentParser
import Foundation
import ModelKit

/// `modelkit demo`: maps a real payload and prints a summary.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo", abstract: "Map twitter.json into models and print a summary.")

    @Option(help: "A Twitter search response to map instead of the bundled twitter.json.")
    var file: String?

    func run() async throws {
        let data = try file.map { try Data(contentsOf: URL(fileURLWithPath: $0)) } ?? bundledPayload()
        let clock = ContinuousClock()
        var response: SearchResponse?
        let elapsed = try clock.measure {
            let object = try JSONSerialization.jsonObject(with: data)
            response = try SearchResponse(json: object)
        }
        guard let response else { return }
        print(DemoSummary(response: response, bytes: data.count, elapsed: elapsed).text)
    }

    private func bundledPayload() throws -> Data {
        guard let url = Bundle.module.url(forResource: "Resources/twitter.json", withExtension: nil) else {
            throw ValidationError("the bundled twitter.json is missing")
        }
        return try Data(contentsOf: url)
    }
}

/// What the demo prints about a mapped response.
struct DemoSummary {
    let response: SearchResponse
    let bytes: Int
    let elapsed: Duration

    var text: String {
        let statuses = response.statuses
        let retweets = statuses.compactMap(\.retweetedStatus)
        let users = Set((statuses + retweets).map(\.user.id))
        let hashtags = Dictionary(grouping: (statuses + retweets).flatMap(\.hashtags).map(\.text), by: { $0 })
            .mapValues(\.count).sorted { $0.value > $1.value || ($0.value == $1.value && $0.key < $1.key) }
        let milliseconds = Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1e3
        let newest = statuses.map(\.createdAt).max().map { DateCoding.formatISO8601($0) } ?? "-"
        var lines = [
            "mapped \(statuses.count) statuses and \(retweets.count) retweeted statuses by \(users.count) users"
                + " from \(bytes) bytes in \(String(format: "%.1f", milliseconds)) ms",
            "newest status: \(newest)",
            "most retweeted: \(statuses.map(\.retweetCount).max() ?? 0) retweets",
        ]
        if !hashtags.isEmpty {
            lines.append("top hashtags: " + hashtags.prefix(3).map { "#\($0.key) (\($0.value))" }.joined(separator: ", "))
        }
        return lines.joined(separator: "\n")
    }
}
