import Foundation
import ModelKit
import ModelKitTestSupport
import Testing

@Suite struct JSONExactValueTests {
    /// JSON bytes keep a date to the last bit and a decimal to the last digit.
    @Test func aMomentRoundTripsThroughJSONBytes() throws {
        let moment = Moment.exacting()
        let bytes = try moment.jsonData()
        try expectEqual(Moment(jsonData: bytes), moment)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains("12345678901234567.891") && text.contains("0.30000000000000004441"))
    }

    /// The JSON-object path keeps a decimal's digits as the bytes path does: JSONSerialization
    /// hands over an `NSDecimalNumber` for a number a `Double` cannot hold.
    @Test(arguments: ["12345678901234567.891", "0.30000000000000004441", "4.35", "-9223372036854775809.5"])
    func decimalsKeepTheirDigitsOnEveryPath(_ digits: String) throws {
        let payload = #"{"id": 1, "at": "2024-03-01T12:34:56Z", "amount": \#(digits)}"#
        let expected = try #require(Decimal(string: digits))
        try expectEqual(Moment(jsonData: Data(payload.utf8)).amount, expected)
        try expectEqual(Moment(json: jsonObject(payload)).amount, expected)
        try expectEqual(JSONValueMapper().map(Moment.self, from: payload, options: .default).amount, expected)
    }
}
