import Foundation
import Testing
@testable import ModelKitCore

@Suite("ISO8601DateFormat against ISO8601DateFormatter")
struct ISO8601DateFormatTests {
    static func foundation(fractional: Bool) -> ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        if fractional { formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds] }
        return formatter
    }

    @Test("Formats and parses random dates like ISO8601DateFormatter", arguments: [false, true])
    func randomDatesMatch(_ fractional: Bool) {
        let ours = ISO8601DateFormat(includesFractionalSeconds: fractional)
        let theirs = Self.foundation(fractional: fractional)
        var mismatches: [String] = []
        for date in randomDates(count: 5_000, seed: fractional ? 3 : 4) {
            let expected = theirs.string(from: date)
            let actual = ours.string(from: date)
            var appended: [UInt8] = []
            ours.append(date, to: &appended)
            let parsed = ours.date(from: expected)
            if actual != expected || appended != Array(expected.utf8) || parsed != theirs.date(from: expected) {
                mismatches.append("\(date.timeIntervalSince1970): \(actual) vs \(expected)")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) mismatches: \(mismatches.prefix(3))")
    }

    @Test("Reads offsets and fractions like ISO8601DateFormatter", arguments: [
        "2024-03-01T12:34:56Z", "2024-03-01T12:34:56z", "2024-03-01T12:34:56+01:00", "2024-03-01T12:34:56+0100",
        "2024-03-01T12:34:56+01", "2024-03-01T12:34:56-00:00", "2024-03-01T12:34:56-05:30", "2024-03-01T12:34:56+23:59",
        "2024-03-01T12:34:56.5Z", "2024-03-01T12:34:56.123Z", "2024-03-01T12:34:56.1235Z", "2024-03-01T12:34:56.123456Z",
        "2024-03-01T12:34:56.9999Z", "2024-03-01T12:34:56.1234567891Z", "2024-03-01T12:34:56.123+01:00",
        "2024-03-01T12:34:56.5+01", "1900-01-01T00:00:00Z", "2100-12-31T23:59:59.999Z", "2024-02-29T00:00:00Z",
        "1583-01-01T00:00:00Z", "9999-12-31T23:59:59Z", "1500-06-01T00:00:00Z", "0001-01-01T00:00:00Z",
    ])
    func validInput(_ text: String) {
        let expected = Self.foundation(fractional: text.contains(".")).date(from: text)
        #expect(expected != nil)
        #expect(ISO8601DateFormat.internetDateTime.date(from: text) == expected)
        #expect(ISO8601DateFormat.internetDateTimeWithFractionalSeconds.date(from: text) == expected)
    }

    @Test("Rejects what ISO8601DateFormatter rejects", arguments: [
        "", "garbage", "2024-03-01", "2024-03-01t12:34:56Z", "2024-03-01 12:34:56Z", "2024-03-01T12:34:56",
        "2024-13-01T12:34:56Z", "2024-00-01T12:34:56Z", "2024-03-01T23:59:60Z", "2024-03-01T12:60:00Z",
        "2024-03-01T12:34Z", "20240301T123456Z", "2024-03-01T12:34:56.Z", "2024-03-01T12:34:56,5Z",
        "2024-03-01T12:34:56.5", "+2024-03-01T12:34:56Z", "2024-03-01T12:34:56+", "2024-03-0aT12:34:56Z",
    ])
    func rejected(_ text: String) {
        #expect(ISO8601DateFormat.internetDateTime.date(from: text) == nil)
        #expect(Self.foundation(fractional: false).date(from: text) == nil)
        #expect(Self.foundation(fractional: true).date(from: text) == nil)
    }

    @Test("Is deliberately stricter than ISO8601DateFormatter", arguments: [
        "2024-02-30T12:34:56Z", "2024-03-01T24:00:00Z", "2024-03-01T12:34:56Zx", "2024-3-1T12:34:56Z",
        "2024-03-01T12:34:56+24:00", "2024-03-01T12:34:56+01:30:15", "2024-03-01T12:34:56+01:0",
        "2024-03-01T12:34:56GMT", " 2024-03-01T12:34:56Z", "2024-03-01T12:34:56Z ", "02024-03-01T12:34:56Z",
    ])
    func stricter(_ text: String) {
        #expect(Self.foundation(fractional: false).date(from: text) != nil)
        #expect(ISO8601DateFormat.internetDateTime.date(from: text) == nil)
    }

    @Test("Reads both forms whichever way it writes")
    func bothForms() throws {
        let plain = ISO8601DateFormat.internetDateTime
        let date = try #require(plain.date(from: "2024-03-01T12:34:56.789+01:00"))
        #expect(plain.string(from: date) == "2024-03-01T11:34:56Z")
        #expect(ISO8601DateFormat.internetDateTimeWithFractionalSeconds.string(from: date) == "2024-03-01T11:34:56.789Z")
        #expect(plain.date(from: "2024-03-01T11:34:56Z") == Date(timeIntervalSince1970: 1_709_292_896))
    }

    @Test("Mutated and random input never traps and never disagrees when accepted")
    func fuzz() {
        let ours = ISO8601DateFormat.internetDateTime
        let inputs = mutations(of: "2024-03-01T12:34:56.789+01:00", count: 4_000, seed: 5)
            + mutations(of: "2014-08-31T00:29:15Z", count: 2_000, seed: 6) + randomByteStrings(count: 2_000, seed: 8)
        var disagreements: [String] = []
        var accepted = 0
        for bytes in inputs {
            guard let date = bytes.withUnsafeBytes({ ours.date(from: $0) }) else { continue }
            accepted += 1
            let text = String(decoding: bytes, as: UTF8.self)
            if Self.foundation(fractional: text.contains(".")).date(from: text) != date { disagreements.append(text) }
        }
        #expect(accepted > 100)
        #expect(disagreements.isEmpty, "\(disagreements.prefix(5))")
    }

    @Test("Dates outside 1583–9999 go through ISO8601DateFormatter")
    func outsideNativeRange() {
        for seconds in [-62_135_596_800.0, -12_219_292_801, 253_402_300_800] {
            let date = Date(timeIntervalSince1970: seconds)
            #expect(ISO8601DateFormat.internetDateTime.string(from: date) == Self.foundation(fractional: false).string(from: date))
            #expect(ISO8601DateFormat.internetDateTimeWithFractionalSeconds.string(from: date)
                == Self.foundation(fractional: true).string(from: date))
        }
    }
}
