import Foundation
import ModelKit
import ModelKitGenerator
import ModelKitTestSupport
import Testing

/// The models `modelkit generate` wrote for twitter.json (`Generated/TwitterTimeline.swift`),
/// compiled with the tests: they map the payload they came from, and back.
@Suite struct GeneratedTwitterModelTests {
    @Test func theGeneratorStillWritesTheCheckedInFile() throws {
        let source = try ModelGenerator(rootName: "TwitterTimeline").generate(fromJSON: fixtureData("twitter.json"))
        try expectEqual(source, GenerateCommandTests.checkedInModels("TwitterTimeline"))
    }

    @Test func theGeneratedModelsMapTwitterJSON() throws {
        let timeline = try TwitterTimeline(jsonData: fixtureData("twitter.json"))
        expectEqual(timeline.statuses.count, 100)
        expectEqual(timeline.searchMetadata.count, 100)
        expectEqual(timeline.searchMetadata.completedIn, 0.087)
        expectEqual(timeline.searchMetadata.maxIdStr, "505874924095815681")

        let first = try #require(timeline.statuses.first)
        expectEqual(first.id, 505_874_924_095_815_681)
        expectEqual(first.idStr, "505874924095815681")
        expectEqual(first.createdAt, Date(timeIntervalSince1970: 1_409_444_955))  // Sun Aug 31 00:29:15 +0000 2014
        expectEqual(first.user.screenName, "ayuu0123")
        expectEqual(first.user.followersCount, 262)
        expectEqual(first.retweetCount, 0)
        expectEqual(first.metadata.isoLanguageCode, "ja")
        #expect(first.geo == nil && first.retweetedStatus == nil)

        expectEqual(timeline.statuses.filter { $0.retweetedStatus != nil }.count, 73)
        let large = try #require(timeline.statuses[1].entities.media?.first?.sizes.large)
        #expect((large.w, large.h, large.resize) == (765, 432, "fit"))
        #expect(Set(timeline.statuses.map(\.user.idStr)).count > 1)
    }

    @Test func theGeneratedModelsMapBackToTheSameValues() throws {
        let timeline = try TwitterTimeline(jsonData: fixtureData("twitter.json"))
        let written = try timeline.jsonData()
        let again = try TwitterTimeline(jsonData: written)
        expectEqual(again, timeline)

        // The written JSON has the payload's keys and formats.
        let value = try JSONValue(parsing: written)
        let status = try #require(value["statuses"]?[0])
        expectEqual(status["created_at"], .string("Sun Aug 31 00:29:15 +0000 2014"))
        #expect(status["user"]?["screen_name"] == .string("ayuu0123"))
        expectEqual(status["id"], .int(505_874_924_095_815_681))
        #expect(value["search_metadata"]?["completed_in"] == .double(0.087))

        // The Foundation path reads what the bytes path wrote, to the same models.
        let object = try JSONSerialization.jsonObject(with: written)
        try expectEqual(TwitterTimeline(json: object), timeline)
    }
}

/// The models generated for a payload of awkward keys and values (`Generated/OddKeys.swift`):
/// renamed keywords and `@Model` members, escaped keys, dates, a mixed array, a self-holding class,
/// a dictionary keyed by dates in a snake_case model, and an enum whose tags are a keyword and a
/// dotted name.
@Suite struct GeneratedOddKeysModelTests {
    static let payload = #"""
        {"Self": {"a": 1}, "type": {"b": 2}, "class": "c", "description": "d", "hash": 7, "copy": "x",
         "index": 3, "mapping": "m", "value": 1, "dash-key": true, "a.b": "dot", "3d": [1.5, 2],
         "say \"hi\"": "q", "URL": "u", "userName": "camel", "created_at": "2024-03-01T12:34:56.5Z",
         "updated_at": 1409444955, "seen_time": 1409444955123, "mixed": [1, "one", null], "": "empty",
         "rows": [{"id": 1, "tag": null}, {"id": 2, "tag": "t", "extra": {"x": 1}}],
         "node": {"v": 1, "node": {"v": 2, "node": null}},
         "by_day": {"2024-03-01T12:00:00Z": 1, "2024-03-02": null},
         "blocks": [{"type": "class", "body": "x"}, {"type": "issue.opened", "url": "u", "size": 3},
                    {"type": "class", "body": "y", "style": {"bold": true}}]}
        """#

    @Test func theGeneratorStillWritesTheCheckedInFile() throws {
        let source = try ModelGenerator(rootName: "OddKeys").generate(fromJSON: Array(Self.payload.utf8))
        try expectEqual(source, GenerateCommandTests.checkedInModels("OddKeys"))
    }

    @Test func theGeneratedModelsMapThePayloadAndBack() throws {
        let odd = try OddKeys(jsonString: Self.payload)
        #expect((odd.selfValue.a, odd.type.b, odd.classText, odd.descriptionText) == (1, 2, "c", "d"))
        #expect((odd.hashField, odd.copyText, odd.indexValue, odd.mappingText, odd.value) == (7, "x", 3, "m", 1))
        #expect(odd.dashKey && odd.aB == "dot" && odd._3d == [1.5, 2] && odd.sayHi == "q")
        #expect((odd.url, odd.userName) == ("u", "camel"))
        expectEqual(odd.createdAt, Date(timeIntervalSince1970: 1_709_296_496.5))
        expectEqual(odd.updatedAt, Date(timeIntervalSince1970: 1_409_444_955))
        expectEqual(odd.seenTime, Date(timeIntervalSince1970: 1_409_444_955.123))
        expectEqual(odd.mixed, [.int(1), .string("one"), nil])
        #expect(odd.rows.map(\.tag) == [nil, "t"] && odd.rows[1].extra?.x == 1)
        #expect(odd.node.v == 1 && odd.node.node?.v == 2 && odd.node.node?.node == nil)
        // Dictionary keys are data: the model's snake_case strategy leaves them as they are.
        expectEqual(odd.byDay, ["2024-03-01T12:00:00Z": 1, "2024-03-02": nil])
        expectEqual(odd.blocks.count, 3)
        if case .classValue(let first) = odd.blocks[0], case .issueOpened(let opened) = odd.blocks[1],
            case .classValue(let third) = odd.blocks[2]
        {
            #expect(first.body == "x" && first.style == nil && third.style?.bold == true)
            #expect((opened.url, opened.size) == ("u", 3))
        } else {
            Issue.record("blocks of the wrong cases: \(odd.blocks)")
        }

        let written = try JSONValue(parsing: odd.jsonData())
        #expect(written["a.b"] == .string("dot") && written["say \"hi\""] == .string("q"))
        #expect(written["description"] == .string("d") && written["seen_time"] == .int(1_409_444_955_123))
        #expect(written["by_day"]?["2024-03-01T12:00:00Z"] == .int(1) && written["by_day"]?["2024-03-02"] == .null)
        expectEqual(
            written["blocks"]?[1],
            .object([JSONMember("type", .string("issue.opened")), JSONMember("url", .string("u")), JSONMember("size", .int(3))]))
        try expectEqual(OddKeys(jsonData: odd.jsonData()), odd)
    }
}
