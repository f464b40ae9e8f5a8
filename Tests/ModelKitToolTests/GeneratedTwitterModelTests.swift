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
        #expect(source == (try GenerateCommandTests.checkedInTwitterModels()))
    }

    @Test func theGeneratedModelsMapTwitterJSON() throws {
        let timeline = try TwitterTimeline(jsonData: fixtureData("twitter.json"))
        #expect(timeline.statuses.count == 100)
        #expect(timeline.searchMetadata.count == 100)
        #expect(timeline.searchMetadata.completedIn == 0.087)
        #expect(timeline.searchMetadata.maxIdStr == "505874924095815681")

        let first = try #require(timeline.statuses.first)
        #expect(first.id == 505_874_924_095_815_681)
        #expect(first.idStr == "505874924095815681")
        #expect(first.createdAt == Date(timeIntervalSince1970: 1_409_444_955))  // Sun Aug 31 00:29:15 +0000 2014
        #expect(first.user.screenName == "ayuu0123")
        #expect(first.user.followersCount == 262)
        #expect(first.retweetCount == 0)
        #expect(first.metadata.isoLanguageCode == "ja")
        #expect(first.geo == nil && first.retweetedStatus == nil)

        #expect(timeline.statuses.filter { $0.retweetedStatus != nil }.count == 73)
        let large = try #require(timeline.statuses[1].entities.media?.first?.sizes.large)
        #expect((large.w, large.h, large.resize) == (765, 432, "fit"))
        #expect(Set(timeline.statuses.map(\.user.idStr)).count > 1)
    }

    @Test func theGeneratedModelsMapBackToTheSameValues() throws {
        let timeline = try TwitterTimeline(jsonData: fixtureData("twitter.json"))
        let written = try timeline.jsonData()
        let again = try TwitterTimeline(jsonData: written)
        #expect(again == timeline)

        // The written JSON has the payload's keys and formats.
        let value = try JSONValue(parsing: written)
        let status = try #require(value["statuses"]?[0])
        #expect(status["created_at"] == .string("Sun Aug 31 00:29:15 +0000 2014"))
        #expect(status["user"]?["screen_name"] == .string("ayuu0123"))
        #expect(status["id"] == .int(505_874_924_095_815_681))
        #expect(value["search_metadata"]?["completed_in"] == .double(0.087))

        // The Foundation path reads what the bytes path wrote, to the same models.
        let object = try JSONSerialization.jsonObject(with: written)
        #expect(try TwitterTimeline(json: object) == timeline)
    }
}
