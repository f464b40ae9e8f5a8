import Foundation
import ModelKit
import ModelKitTestSupport
import Testing

/// `Date()` and decimals come back exactly from every format of this module: no fraction past
/// the millisecond dropped, no digit past a `Double`'s lost.
@Suite struct ExactValueTests {
    @Test func aMomentRoundTripsThroughJSONObjects() throws {
        let moment = Moment.exacting()
        try expectEqual(Moment(json: moment.jsonObject()), moment)
        // Through JSONSerialization's bytes, as an app would send it.
        let data = try JSONSerialization.data(withJSONObject: moment.jsonObject())
        try expectEqual(Moment(json: JSONSerialization.jsonObject(with: data)), moment)
    }

    @Test func aMomentRoundTripsThroughCodable() throws {
        let moment = Moment.exacting()
        let data = try JSONEncoder().encode(moment)
        try expectEqual(JSONDecoder().decode(Moment.self, from: data), moment)
        let plist = try PropertyListEncoder().encode(moment)
        try expectEqual(PropertyListDecoder().decode(Moment.self, from: plist), moment)
    }

    @Test func aMomentRoundTripsThroughJSONValues() throws {
        let moment = Moment.exacting()
        var writer = JSONValueWriter()
        try writer.encodeModel(moment)
        var reader = JSONValueReader(value: writer.value)
        try expectEqual(reader.decodeTopLevel(Moment.self), moment)
    }

    @Test func iso8601WritesBackTheFractionItRead() throws {
        let cases = [
            ("2024-03-01T12:34:56.5Z", "2024-03-01T12:34:56.500Z"),
            ("2024-03-01T12:34:56.123456Z", "2024-03-01T12:34:56.123456Z"),
            // Past a `Date`'s resolution (about 0.1 µs in 2024), the shortest digits that say it.
            ("2024-03-01T12:34:56.123456789Z", "2024-03-01T12:34:56.1234568Z"),
        ]
        for (text, expected) in cases {
            let date = try ISO8601Transformer().transformedValue(text)
            let written = try ISO8601Transformer().reverseTransformedValue(date)
            expectEqual(written, expected)
            try expectEqual(ISO8601Transformer().transformedValue(written), date)
        }
    }
}
