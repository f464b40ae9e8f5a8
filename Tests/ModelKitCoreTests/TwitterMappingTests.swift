import Foundation
import ModelKit
import ModelKitTestSupport
import Testing

@Suite struct TwitterMappingTests {
    let payload: [String: Any]

    init() throws {
        payload = try #require(try JSONSerialization.jsonObject(with: fixtureData("twitter.json")) as? [String: Any])
    }

    @Test func mapsEveryStatus() throws {
        let timeline = try Timeline(json: payload)
        expectEqual(timeline.statuses.count, 100)
        expectEqual(timeline.statuses.filter { $0.retweetedStatus != nil }.count, 73)
        let first = try #require(timeline.statuses.first)
        #expect(first.id == "505874924095815681" && first.numericID == 505_874_924_095_815_681)
        expectEqual(first.createdAt, Date(timeIntervalSince1970: 1_409_444_955))
        #expect(first.user.screenName == "ayuu0123" && first.user.url == nil && first.user.urls.isEmpty)
        expectEqual(first.user.createdAt, Date(timeIntervalSince1970: 1_361_022_025))
        #expect(first.mentions.first?.screenName == "aym0566x" && first.mentions.first?.indices == [0, 9])
        #expect(first.languageCode == "ja" && first.coordinates == nil)

        let raw = try #require(payload["statuses"] as? [[String: Any]])
        let hashtags = raw.map { (($0["entities"] as? [String: Any])?["hashtags"] as? [Any])?.count ?? 0 }
        expectEqual(timeline.statuses.map(\.hashtags.count), hashtags)
        expectEqual(timeline.statuses.compactMap(\.firstMediaURL).count, 6)
        let withURL = timeline.statuses.filter { !$0.user.urls.isEmpty }
        #expect(withURL.count == 11 && withURL.allSatisfy { $0.user.urls.first?.expanded != nil })
    }

    @Test func mapsBackToTheInputOnEveryMappedKeyPath() throws {
        let timeline = try Timeline(json: payload)
        let output = try #require(try timeline.jsonObject() as? [String: Any])
        let input = try JSONValue(foundationObject: payload)
        let mapped = try JSONValue(foundationObject: output)
        var compared = 0
        try assertContained(mapped, in: input, path: "", compared: &compared)
        #expect(compared > 5_000)
        // Every mapped key path of every status is present in the output.
        let statuses = try #require(mapped["statuses"].flatMap { value -> [JSONValue]? in
            if case .array(let elements) = value { return elements } else { return nil }
        })
        for status in statuses {
            for property in Status.modelSchema.properties where !property.isTransient {
                var value: JSONValue? = status
                for segment in property.remoteKeyPaths[0].segments {
                    value = Int(segment).flatMap { value?[$0] } ?? value?[segment]
                }
                if property.name != "firstMediaURL" { #expect(value != nil, "\(property.name)") }
            }
        }
    }

    @Test func aBadDateDeepInsideNamesItsPath() throws {
        var statuses = try #require(payload["statuses"] as? [[String: Any]])
        var user = try #require(statuses[3]["user"] as? [String: Any])
        user["created_at"] = "yesterday"
        statuses[3]["user"] = user
        let error = modelError { _ = try Timeline(json: ["statuses": statuses]) }
        #expect(
            error?.description
                == "cannot map 'TwitterUser.createdAt' at 'statuses[3].user.created_at': expected a date like \"EEE MMM dd HH:mm:ss Z yyyy\", found \"yesterday\""
        )
    }

    @Test func mapsFromManyTasksAtOnce() async throws {
        let data = try fixtureData("twitter.json")
        let counts = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    let object = try JSONSerialization.jsonObject(with: data)
                    return try Timeline(json: object).statuses.count
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        expectEqual(counts, [100, 100, 100, 100])
    }

    /// Checks that every leaf of `output` equals the value at the same path in `input`
    /// (a null in the output may stand for a key the input leaves out).
    func assertContained(_ output: JSONValue, in input: JSONValue?, path: String, compared: inout Int) throws {
        switch output {
        case .object(let members):
            for member in members {
                try assertContained(member.value, in: input?[member.key], path: path + "." + member.key, compared: &compared)
            }
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                try assertContained(element, in: input?[index], path: "\(path)[\(index)]", compared: &compared)
            }
        default:
            compared += 1
            if output == .null && (input == nil || input == .null) { return }
            #expect(output == input, "at \(path)")
        }
    }
}
