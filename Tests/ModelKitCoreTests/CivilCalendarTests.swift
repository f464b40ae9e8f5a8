import Foundation
import ModelKitTestSupport
import Testing
@testable import ModelKitCore

@Suite("CivilCalendar")
struct CivilCalendarTests {
    @Test("Day numbers of known dates", arguments: [
        (1970, 1, 1, 0), (2000, 3, 1, 11_017), (1969, 12, 31, -1), (1900, 1, 1, -25_567),
        (2100, 12, 31, 47_846), (1583, 1, 1, -141_349), (9999, 12, 31, 2_932_896), (2024, 2, 29, 19_782),
    ])
    func knownDays(_ year: Int, _ month: Int, _ day: Int, _ days: Int) {
        expectEqual(CivilCalendar.days(year: year, month: month, day: day), days)
        #expect(CivilCalendar.date(days: days) == (year, month, day))
    }

    @Test("Round-trips every day from 1583 to 9999 in order")
    func roundTrip() {
        var expected = (year: 1583, month: 1, day: 1)
        var weekday = 6  // 1583-01-01 was a Saturday.
        for days in CivilCalendar.days(year: 1583, month: 1, day: 1)...CivilCalendar.days(year: 9999, month: 12, day: 31) {
            let date = CivilCalendar.date(days: days)
            guard date == expected, CivilCalendar.weekday(days: days) == weekday else {
                Issue.record("day \(days): \(date) weekday \(CivilCalendar.weekday(days: days)), expected \(expected) \(weekday)")
                return
            }
            weekday = (weekday + 1) % 7
            expected.day += 1
            if expected.day > CivilCalendar.daysInMonth(year: expected.year, month: expected.month) {
                expected.day = 1
                expected.month += 1
                if expected.month > 12 { expected.month = 1; expected.year += 1 }
            }
        }
    }

    @Test("Leap years")
    func leapYears() {
        #expect(CivilCalendar.isLeapYear(2000))
        #expect(CivilCalendar.isLeapYear(2024))
        #expect(!CivilCalendar.isLeapYear(1900))
        #expect(!CivilCalendar.isLeapYear(2100))
        expectEqual(CivilCalendar.daysInMonth(year: 2023, month: 2), 28)
    }

    @Test("Milliseconds round like DateFormatter")
    func millisecondRounding() {
        expectEqual(DateMillis.millis(of: Date(timeIntervalSince1970: 1.0006)), 1001)
        expectEqual(DateMillis.millis(of: Date(timeIntervalSince1970: -0.0004)), 0)
        #expect(DateMillis.millis(of: Date(timeIntervalSinceReferenceDate: .nan)) == nil)
        #expect(DateMillis.millis(of: Date(timeIntervalSinceReferenceDate: .infinity)) == nil)
        expectEqual(DateMillis.date(millis: 1500).timeIntervalSince1970, 1.5)
    }
}
