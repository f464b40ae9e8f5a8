import Foundation
import ModelKit
import ModelKitTestSupport
import Testing

@Suite struct ModelTransformerTests {
    @Test func dateFormatsUseThePOSIXLocaleAndUTC() throws {
        let transformer = DateFormatTransformer("EEE MMM dd HH:mm:ss Z yyyy")
        let date = try transformer.transformedValue("Sun Aug 31 00:29:15 +0000 2014")
        expectEqual(date, Date(timeIntervalSince1970: 1_409_444_955))
        try expectEqual(transformer.reverseTransformedValue(date), "Sun Aug 31 00:29:15 +0000 2014")
        try expectEqual(transformer.transformedValue("Sun Aug 31 02:29:15 +0200 2014"), date)
        #expect(throws: ModelError.self) { try transformer.transformedValue("yesterday") }
        let paris = DateFormatTransformer("yyyy-MM-dd HH:mm", timeZone: TimeZone(identifier: "Europe/Paris")!)
        try expectEqual(paris.transformedValue("2024-07-01 12:00"), Date(timeIntervalSince1970: 1_719_828_000))
    }

    @Test func iso8601WithAndWithoutFractions() throws {
        let plain = ISO8601Transformer()
        let fractional = ISO8601Transformer(fractionalSeconds: true)
        let date = try plain.transformedValue("2024-03-01T12:34:56.789Z")
        #expect(abs(date.timeIntervalSince1970 - 1_709_296_496.789) < 0.0005)
        try expectEqual(plain.transformedValue("2024-03-01T13:34:56+01:00"), Date(timeIntervalSince1970: 1_709_296_496))
        // What `.iso8601` reads it writes back: the fraction too, to the last digit.
        try expectEqual(plain.reverseTransformedValue(date), "2024-03-01T12:34:56.789Z")
        try expectEqual(fractional.reverseTransformedValue(date), "2024-03-01T12:34:56.789Z")
        let micro = try plain.transformedValue("2024-03-01T12:34:56.123456Z")
        try expectEqual(plain.reverseTransformedValue(micro), "2024-03-01T12:34:56.123456Z")
        let whole = try plain.transformedValue("2024-03-01T12:34:56Z")
        try expectEqual(plain.reverseTransformedValue(whole), "2024-03-01T12:34:56Z")
        try expectEqual(fractional.reverseTransformedValue(whole), "2024-03-01T12:34:56.000Z")
        #expect(throws: ModelError.self) { try plain.transformedValue("2024-13-01T00:00:00Z") }
    }

    @Test func epochsAndURLs() throws {
        try expectEqual(EpochTransformer(.milliseconds).transformedValue(1500), Date(timeIntervalSince1970: 1.5))
        try expectEqual(EpochTransformer(.seconds).reverseTransformedValue(Date(timeIntervalSince1970: 2)), 2)
        try expectEqual(URLTransformer().transformedValue("https://a.b/c").host, "a.b")
        #expect(throws: ModelError.self) { try URLTransformer().transformedValue("") }
        let relative = URLTransformer(relativeTo: URL(string: "https://example.com/api/")!)
        try expectEqual(relative.transformedValue("users/1").absoluteString, "https://example.com/api/users/1")
    }

    @Test func uuidsInEitherCase() throws {
        let uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
        try expectEqual(UUIDTransformer().transformedValue("e621e1f8-c36c-495a-93fc-0c247a3e6e5f"), uuid)
        try expectEqual(UUIDTransformer(lowercased: true).reverseTransformedValue(uuid), "e621e1f8-c36c-495a-93fc-0c247a3e6e5f")
        try expectEqual(UUIDTransformer().reverseTransformedValue(uuid), "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")
        #expect(throws: ModelError.self) { try UUIDTransformer().transformedValue("not-a-uuid") }
    }

    @Test func lenientNumbersAndStrings() throws {
        let event = try Event(json: ["at": 0, "count": "42", "code": 7])
        #expect(event.count == 42 && event.code == "7")
        try expectEqual(Event(json: ["at": 0, "count": 41]).count, 41)
        let error = modelError { _ = try Event(json: ["at": 0, "count": "many"]) }
        #expect(error?.description == "cannot map 'Event.count' at 'count': expected a number or a numeric string, found \"many\"")
        let back = try #require(try event.jsonObject() as? [String: Any])
        #expect(back["count"] as? Int == 42 && back["code"] as? String == "7")
    }

    @Test func lossyArraysDropAndReportBadElements() throws {
        let report = MappingReport()
        var options = MappingOptions()
        options.report = report
        let event = try Event(
            json: jsonObject(#"{"at": 0, "tags": [{"label": "a"}, {"label": 5}, "junk", {"label": "b"}]}"#),
            options: options)
        expectEqual(event.tags.map(\.label), ["a", "b"])
        expectEqual(report.droppedElements.count, 2)
        #expect(report.droppedElements.first?.description == "cannot map 'Tag.label' at 'tags[1].label': expected a string, found 5")
        #expect(report.droppedElements.last?.description == "cannot map 'Event.tags' at 'tags[2]': expected an object, found \"junk\"")
    }

    @Test func arraysOfTransformedValues() throws {
        let event = try Event(json: ["at": 0, "dates": ["2024-01-01T00:00:00Z", "2024-01-02T00:00:00Z"]])
        expectEqual(event.dates.map(\.timeIntervalSince1970), [1_704_067_200, 1_704_153_600])
        let error = modelError { _ = try Event(json: ["at": 0, "dates": ["2024-01-01T00:00:00Z", "soon"]]) }
        #expect(error?.description == "cannot map 'Event.dates' at 'dates[1]': expected an ISO 8601 date, found \"soon\"")
    }

    @Test func namedTransformersResolveWhenUsed() throws {
        let payload: [String: Any] = ["date": "12-25-2024"]
        let missing = modelError { _ = try Release(json: payload) }
        #expect(missing?.description.contains("expected a transformer registered as 'releaseDate' for 'Date'") == true)

        TransformerRegistry.shared.register(DateFormatTransformer("MM-dd-yyyy"), as: "releaseDate")
        defer { TransformerRegistry.shared.unregister("releaseDate") }
        let release = try Release(json: payload)
        expectEqual(release.date, Date(timeIntervalSince1970: 1_735_084_800))
        #expect((try release.jsonObject() as? [String: Any])?["date"] as? String == "12-25-2024")
        #expect(TransformerRegistry.shared.names.contains("releaseDate"))
    }

    @Test func transformersOnlyApplyToRemoteMapping() throws {
        let date = Date(timeIntervalSince1970: 5)
        let event = try Event(dictionary: ["at": date])
        expectEqual(event.at, date)
        #expect(event.dictionaryValue["at"] as? Date == date)
    }

    @Test func customTransformers() throws {
        struct Cents: ModelTransformer {
            var expectation: String { "an amount in cents" }
            func transformedValue(_ cents: Int) throws -> Double {
                guard cents >= 0 else { throw ModelError.invalid(expected: "a positive amount") }
                return Double(cents) / 100
            }
            func reverseTransformedValue(_ amount: Double) throws -> Int { Int((amount * 100).rounded()) }
        }
        var reader = JSONObjectReader(value: 1234)
        try expectEqual(reader.decodeValue(Double.self, transformer: Cents()), 12.34)
        var negative = JSONObjectReader(value: -5)
        #expect(throws: ModelError.self) { try negative.decodeValue(Double.self, transformer: Cents()) }
        var writer = JSONObjectWriter()
        try writer.encodeValue(0.5, transformer: Cents())
        #expect(writer.result as? Int == 50)
    }
}

/// Mantle's value-mapping transformer: a table both ways, with defaults for what it lacks.
@Suite struct ValueMappingTransformerTests {
    @Test func payloadValuesMapThroughTheTable() throws {
        let article = try Article(json: ["stage": "published", "word": 1])
        #expect(article.stage == .live && article.word == "one")
        let object = try #require(try article.jsonObject() as? [String: Any])
        #expect(object["stage"] as? String == "published" && object["word"] as? Int == 1)
        try expectEqual(Article(jsonData: article.jsonData()), article)
    }

    @Test func defaultsCoverWhatTheTableLacks() throws {
        // Unknown payload value: the default; a value no entry has: the reverse default.
        try expectEqual(Article(json: ["stage": "someday"]).stage, .draft)
        let transformer = ValueMappingTransformer(["a": 1, "b": 2], default: 0, reverseDefault: "?")
        try expectEqual(transformer.reverseTransformedValue(9), "?")
        try expectEqual(transformer.transformedValue("z"), 0)
    }

    @Test func withoutDefaultsTheTableIsStrict() throws {
        let error = modelError { _ = try Article(json: ["stage": "draft", "word": 2]) }
        #expect(error?.description == "cannot map 'Article.word' at 'word': expected one of 0, 1, found 2")
        let transformer = ValueMappingTransformer(["a": 1, "b": 2])
        #expect(throws: ModelError.self) { try transformer.reverseTransformedValue(3) }
        // Two payload values for one property value: the first in sorted order is written.
        try expectEqual(ValueMappingTransformer(["y": 1, "x": 1]).reverseTransformedValue(1), "x")
    }
}
