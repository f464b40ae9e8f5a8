import Foundation
import ModelKit
import ModelKitGenerator
import ModelKitTestSupport
import Testing

/// The models `modelkit generate` wrote for GitHub's public events (`Generated/GitHubEvents.swift`):
/// a `@Model(tag: "type")` enum with a case and a model per event type, each with its own payload
/// model, compiled with the tests: they map the payload they came from, and back.
@Suite struct GeneratedGitHubEventModelTests {
    /// `Generated/GitHubEvents.swift` without its header comment.
    static func checkedInModels() throws -> String {
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        return try checkedInGeneratedModels(directory.appendingPathComponent("Generated/GitHubEvents.swift"))
    }

    static func events() throws -> [GitHubEvent] {
        try ModelJSON.decode([GitHubEvent].self, from: fixtureData("github_events.json"))
    }

    @Test func theGeneratorStillWritesTheCheckedInFile() throws {
        let source = try ModelGenerator(rootName: "GitHubEvent").generate(fromJSON: fixtureData("github_events.json"))
        try expectEqual(source, Self.checkedInModels())
    }

    /// The same events as NDJSON, one a line, give the same declarations: samples merge as the
    /// elements of a top-level array do.
    @Test func theEventsAsNDJSONLinesGiveTheSameModels() throws {
        let lines = try Self.ndjsonLines()
        let samples = try NDJSONSamples.values(in: Array(lines.utf8), source: "'github_events.ndjson'")
        expectEqual(samples.count, 30)
        let source = try ModelGenerator(rootName: "GitHubEvent").generate(fromSamples: samples)
        // Only the comments differ: the objects are at the top level, not in an array.
        let declarations = { (text: String) in text.split(separator: "\n").filter { !$0.hasPrefix("///") } }
        try expectEqual(declarations(source), declarations(Self.checkedInModels()))
        #expect(source.contains("/// The top-level objects, told apart by their 'type'.\n@Model(tag: \"type\")\n"))
        #expect(source.contains("/// The objects at '[type=PushEvent].payload'.\n"))
    }

    /// `github_events.json`'s array, one event a line.
    static func ndjsonLines() throws -> String {
        var lines: [String] = []
        if case .array(let events) = try JSONValue(parsing: fixtureData("github_events.json")) {
            lines = try events.map { try $0.jsonString() }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test func theGeneratedModelsMapTheEvents() throws {
        let events = try Self.events()
        expectEqual(events.count, 30)
        guard case .pushEvent(let push) = events[0] else {
            Testing.Issue.record("the first event is not a push: \(events[0])")
            return
        }
        expectEqual(push.id, "1652857722")
        expectEqual(push.createdAt, Date(timeIntervalSince1970: 1_357_804_710))  // 2013-01-10T07:58:30Z
        #expect((push.actor.login, push.repo.name, push.org) == ("jathanism", "jathanism/trigger", nil))
        expectEqual(push.payload.size, 1)
        expectEqual(push.payload.commits.map(\.sha), ["05570a3080693f6e55244e012b3b1ec59516c01b"])
        expectEqual(push.payload.commits.first?.author.name, "jathanism")

        guard case .watchEvent(let watch) = events[3] else {
            Testing.Issue.record("the fourth event is not a watch: \(events[3])")
            return
        }
        #expect((watch.id, watch.payload.action) == ("1652857714", "started"))
        guard case .issueCommentEvent(let comment) = events[10] else {
            Testing.Issue.record("the eleventh event is not an issue comment: \(events[10])")
            return
        }
        #expect((comment.payload.issue.number, comment.payload.issue.title) == (415, "Migrating to TS3 got some error"))
        expectEqual(comment.payload.comment.user.login, "pat")

        var counts: [String: Int] = [:]
        var commits = 0
        for event in events {
            switch event {
            case .pushEvent(let push): counts["push", default: 0] += 1; commits += push.payload.commits.count
            case .watchEvent: counts["watch", default: 0] += 1
            case .createEvent: counts["create", default: 0] += 1
            case .forkEvent: counts["fork", default: 0] += 1
            case .issueCommentEvent: counts["issueComment", default: 0] += 1
            case .gollumEvent(let gollum): counts["gollum", default: 0] += gollum.payload.pages.count > 0 ? 1 : 0
            case .issuesEvent: counts["issues", default: 0] += 1
            case .other: counts["other", default: 0] += 1
            }
        }
        expectEqual(
            counts, ["push": 13, "watch": 6, "create": 3, "fork": 3, "issueComment": 2, "gollum": 2, "issues": 1])
        expectEqual(commits, 16)
    }

    @Test func anEventTypeTheSampleLackedIsKeptAsItCame() throws {
        let json = #"[{"type": "DeleteEvent", "id": "1", "payload": {"ref": "x"}}]"#
        let events = try ModelJSON.decode([GitHubEvent].self, from: Data(json.utf8))
        guard case .other(let kept) = try #require(events.first) else {
            Testing.Issue.record("an unknown event type did not fall back: \(events)")
            return
        }
        expectEqual(kept["payload"]?["ref"], .string("x"))
        try expectEqual(JSONValue(parsing: ModelJSON.encode(events)), JSONValue(parsing: Data(json.utf8)))
    }

    @Test func theGeneratedModelsMapBackToTheSameValues() throws {
        let events = try Self.events()
        let written = try Data(ModelJSON.encode(events))
        let again = try ModelJSON.decode([GitHubEvent].self, from: written)
        expectEqual(again, events)

        // The written JSON has the tag beside each payload's keys, and the payload's formats.
        let value = try JSONValue(parsing: written)
        let first = try #require(value[0])
        expectEqual(first["type"], .string("PushEvent"))
        expectEqual(first["created_at"], .string("2013-01-10T07:58:30Z"))
        expectEqual(first["payload"]?["push_id"], .int(134_107_894))
        #expect(first["payload"]?["commits"]?[0]?["author"]?["name"] == .string("jathanism"))

        // A case's model alone writes its keys without the tag, which the enum adds.
        guard case .createEvent(let create) = events[1] else {
            Testing.Issue.record("the second event is not a create: \(events[1])")
            return
        }
        let alone = try JSONValue(parsing: create.jsonData())
        #expect(alone["type"] == nil && alone["payload"]?["ref_type"] == .string("branch"))
        try expectEqual(CreateEvent(jsonData: create.jsonData()), create)
    }
}
