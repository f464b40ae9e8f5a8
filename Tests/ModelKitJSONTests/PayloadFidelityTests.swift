import Foundation
import ModelKit
import ModelKitTestSupport
import Testing

/// What a payload says comes back as it said it, on every JSON path.
@Suite struct PayloadFidelityTests {
    static let mappers: [any PayloadMapper] = [JSONBytesMapper(), JSONObjectMapper(), JSONValueMapper(), CodableMapper()]

    /// An epoch date read from an integer is written back as that integer, not `….0`.
    @Test func integerEpochsAreWrittenAsIntegers() throws {
        let payload = #"{"at": 1372701600000, "until": 1372701600}"#
        let event = try Event(jsonData: Data(payload.utf8))
        let text = try event.jsonString(formatting: .sortedKeys)
        #expect(text.contains(#""at":1372701600000,"#) && text.contains(#""until":1372701600,"#), "\(text)")
        let object = try #require(try event.jsonObject() as? [String: Any])
        #expect(object["at"] as? Int == 1_372_701_600_000 && object["until"] as? Int == 1_372_701_600)
        var writer = JSONValueWriter()
        try writer.encodeModel(event)
        expectEqual(writer.value["at"], .int(1_372_701_600_000))
        let encoded = String(decoding: try JSONEncoder().encode(event), as: UTF8.self)
        #expect(encoded.contains("1372701600000") && !encoded.contains("1372701600000.0"))
        // A fraction stays a fraction.
        let fractional = try Event(jsonData: Data(#"{"at": 1, "until": 1372701600.5}"#.utf8))
        #expect(try fractional.jsonString().contains("1372701600.5"))
    }

    /// A number out of the property's range is an error on every path (the JSON-object path
    /// clamped it to `Int64.min`), showing the number as written, not rounded to a double.
    @Test(arguments: 0..<mappers.count, ["-9223372036854775809", "9223372036854775808", "123456789012345678901234567890"])
    func outOfRangeNumbersAreErrorsShownAsWritten(mapper: Int, number: String) {
        let payload = #"{"name": "a", "quantity": \#(number)}"#
        let error = modelError { _ = try Self.mappers[mapper].map(Item.self, from: payload, options: .default) }
        #expect(error?.kind == .numberOutOfRange)
        #expect(error?.description == "cannot map 'Item.quantity' at 'quantity': expected a number that fits 'Int64', found \(number)")
    }
}

@Suite struct JSONCycleTests {
    @Test func jsonBytesRefuseACycle() throws {
        let error = modelError { _ = try Tree.cyclic().jsonData() }
        #expect(error?.description.hasPrefix("cannot map 'Node' at 'root.children[0].parent': expected a graph without cycles") == true)
    }
}
