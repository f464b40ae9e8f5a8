import Foundation
import ModelKitTestSupport
import Testing
@testable import ModelKitCore

@Suite("ISO8601DateFormat against ISO8601DateFormatter")
struct ISO8601DateFormatTests {
    static func foundation(fractional: Bool) -> ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        if fractional { formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds] }
        return formatter
    }

    /// Whole seconds: the text of the second a date falls in (rounded down), as Foundation
    /// writes that second.
    @Test("Formats whole seconds like ISO8601DateFormatter")
    func wholeSecondsMatch() {
        let ours = ISO8601DateFormat.internetDateTime
        let theirs = Self.foundation(fractional: false)
        var mismatches: [String] = []
        for date in randomDates(count: 5_000, seed: 4) {
            let second = Date(timeIntervalSinceReferenceDate: date.timeIntervalSinceReferenceDate.rounded(.down))
            let expected = theirs.string(from: second)
            var appended: [UInt8] = []
            ours.append(date, to: &appended)
            if ours.string(from: date) != expected || appended != Array(expected.utf8) || ours.date(from: expected) != second {
                mismatches.append("\(date.timeIntervalSince1970): \(ours.string(from: date)) vs \(expected)")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) mismatches: \(mismatches.prefix(3))")
    }

    /// With fractions: the fewest digits (three at least) that read back to the very same
    /// `Date`, where Foundation keeps milliseconds; the seconds are Foundation's.
    @Test("Fractions round-trip exactly, to the last bit")
    func fractionsRoundTripExactly() throws {
        let ours = ISO8601DateFormat.internetDateTimeWithFractionalSeconds
        let theirs = Self.foundation(fractional: false)
        var failures: [String] = []
        for date in randomDates(count: 5_000, seed: 3) + [Date(), Date(timeIntervalSince1970: 1_700_000_000.123456789)] {
            let text = ours.string(from: date)
            let second = Date(timeIntervalSinceReferenceDate: date.timeIntervalSinceReferenceDate.rounded(.down))
            let seconds = String(theirs.string(from: second).dropLast())
            let fraction = text.split(separator: ".").last.map { $0.dropLast() } ?? ""
            if ours.date(from: text) != date || !text.hasPrefix(seconds + ".") || fraction.count < 3 {
                failures.append("\(date.timeIntervalSinceReferenceDate): \(text)")
            }
        }
        #expect(failures.isEmpty, "\(failures.count) failures: \(failures.prefix(3))")
        let millisecond = try #require(ours.date(from: "2024-03-01T12:34:56.789Z"))
        expectEqual(ours.string(from: millisecond), "2024-03-01T12:34:56.789Z")
    }

    /// The store's text: nine digits or more and `+00:00`, so text order is time order, and exact.
    @Test("Sortable text sorts in time order and reads back exactly")
    func sortableText() {
        let near2001 = (0..<200).map { Date(timeIntervalSinceReferenceDate: Double($0 - 100) * 0.731_07) }
        let dates = randomDates(count: 2_000, seed: 9) + near2001 + [Date(), Date(timeIntervalSince1970: 0)]
        let texts = dates.map(DateCoding.formatSortableISO8601)
        #expect(texts.allSatisfy { $0.count >= 35 && $0.hasSuffix("+00:00") })
        let inexact = zip(dates, texts).filter { DateCoding.parseISO8601($1) != $0 }
        #expect(inexact.isEmpty, "\(inexact.prefix(3).map { "\($0.0.timeIntervalSinceReferenceDate) \($0.1)" })")
        let byText = zip(dates, texts).sorted { $0.1 < $1.1 }.map(\.0)
        expectEqual(byText, dates.sorted())
    }

    @Test("Reads offsets and fractions like ISO8601DateFormatter", arguments: [
        "2024-03-01T12:34:56Z", "2024-03-01T12:34:56z", "2024-03-01T12:34:56+01:00", "2024-03-01T12:34:56+0100",
        "2024-03-01T12:34:56+01", "2024-03-01T12:34:56-00:00", "2024-03-01T12:34:56-05:30", "2024-03-01T12:34:56+23:59",
        "2024-03-01T12:34:56.5Z", "2024-03-01T12:34:56.123Z", "2024-03-01T12:34:56.1235Z", "2024-03-01T12:34:56.123456Z",
        "2024-03-01T12:34:56.9999Z", "2024-03-01T12:34:56.1234567891Z", "2024-03-01T12:34:56.123+01:00",
        "2024-03-01T12:34:56.5+01", "1900-01-01T00:00:00Z", "2100-12-31T23:59:59.999Z", "2024-02-29T00:00:00Z",
        "1583-01-01T00:00:00Z", "9999-12-31T23:59:59Z", "1500-06-01T00:00:00Z", "0001-01-01T00:00:00Z",
    ])
    func validInput(_ text: String) throws {
        let expected = try #require(Self.foundation(fractional: text.contains(".")).date(from: text))
        let plain = try #require(ISO8601DateFormat.internetDateTime.date(from: text))
        expectEqual(ISO8601DateFormat.internetDateTimeWithFractionalSeconds.date(from: text), plain)
        guard text.contains(".") else { return expectEqual(plain, expected) }
        // Foundation keeps milliseconds; ModelKit keeps every digit a `Date` can hold.
        #expect(abs(plain.timeIntervalSince(expected)) < 0.001)
        let digits = text.split(separator: ".")[1].prefix { $0.isNumber }
        let exact = try #require(Decimal(string: "0." + digits))
        let second = expected.timeIntervalSinceReferenceDate.rounded(.down)
        let kept = Decimal(string: String(plain.timeIntervalSinceReferenceDate - second)) ?? 0
        #expect(abs((kept - exact) as NSDecimalNumber as Decimal) < Decimal(string: "0.0000001")!, "\(text)")
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
        expectEqual(plain.string(from: date), "2024-03-01T11:34:56Z")
        expectEqual(ISO8601DateFormat.internetDateTimeWithFractionalSeconds.string(from: date), "2024-03-01T11:34:56.789Z")
        expectEqual(plain.date(from: "2024-03-01T11:34:56Z"), Date(timeIntervalSince1970: 1_709_292_896))
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
            // Foundation keeps milliseconds of a fraction; ModelKit keeps all its digits.
            let theirs = Self.foundation(fractional: text.contains(".")).date(from: text)
            if theirs.map({ abs(date.timeIntervalSince($0)) >= 0.001 }) ?? true { disagreements.append(text) }
        }
        #expect(accepted > 100)
        #expect(disagreements.isEmpty, "\(disagreements.prefix(5))")
    }

    @Test("Dates outside 1583–9999 go through ISO8601DateFormatter")
    func outsideNativeRange() {
        for seconds in [-62_135_596_800.0, -12_219_292_801, 253_402_300_800] {
            let date = Date(timeIntervalSince1970: seconds)
            expectEqual(ISO8601DateFormat.internetDateTime.string(from: date), Self.foundation(fractional: false).string(from: date))
            #expect(ISO8601DateFormat.internetDateTimeWithFractionalSeconds.string(from: date)
                == Self.foundation(fractional: true).string(from: date))
        }
    }
}
