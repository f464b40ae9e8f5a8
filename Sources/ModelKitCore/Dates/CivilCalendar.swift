import Foundation

/// Proleptic Gregorian day arithmetic on day numbers counted from 1970-01-01.
///
/// These are pure integer computations (no `Calendar`), used on the hot paths of
/// ``DateFormatPattern`` and ``ISO8601DateFormat``. Day 0 is 1970-01-01, negative
/// days are earlier. Years are astronomical (year 0 is 1 BC), although callers only
/// use the range where the Gregorian calendar was in force (1583 and later).
enum CivilCalendar {
    /// The day number of a calendar date, or nonsense for out-of-range components
    /// (callers validate month and day first).
    ///
    /// ```swift
    /// CivilCalendar.days(year: 1970, month: 1, day: 1)  // 0
    /// CivilCalendar.days(year: 2000, month: 3, day: 1)  // 11017
    /// ```
    @inline(__always)
    static func days(year: Int, month: Int, day: Int) -> Int {
        // Count years from March so the leap day is the last day of the year.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let shiftedMonth = month > 2 ? month - 3 : month + 9
        let dayOfYear = (153 * shiftedMonth + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The calendar date of a day number.
    ///
    /// ```swift
    /// CivilCalendar.date(days: 0)  // (1970, 1, 1)
    /// ```
    @inline(__always)
    static func date(days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }

    /// Whether `year` is a Gregorian leap year.
    @inline(__always)
    static func isLeapYear(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    /// The number of days in `month` (1–12) of `year`.
    @inline(__always)
    static func daysInMonth(year: Int, month: Int) -> Int {
        // Branch-free: two bits per month of (length - 28), then the leap day.
        let lengths = 0b11_10_11_10_11_11_10_11_10_11_00_11_00
        let base = 28 + ((lengths >> ((month & 15) * 2)) & 3)
        return base + (month == 2 && isLeapYear(year) ? 1 : 0)
    }

    /// The weekday of a day number, 0 for Sunday through 6 for Saturday.
    @inline(__always)
    static func weekday(days: Int) -> Int {
        let w = (days + 4) % 7  // 1970-01-01 was a Thursday.
        return w < 0 ? w + 7 : w
    }

    /// The years natively computed; outside them Foundation's Gregorian calendar
    /// (Julian before October 1582) or its range limits take over.
    static let nativeYears = 1583...9999

    /// `a` divided by `b` (positive), rounded towards negative infinity.
    @inline(__always)
    static func floorDivide(_ a: Int, _ b: Int) -> Int {
        let q = a / b
        return (a % b != 0 && a < 0) ? q - 1 : q
    }
}

/// Conversions between `Date` and whole milliseconds since 1970, rounded exactly as
/// Foundation's `DateFormatter` rounds on Linux and Apple platforms.
enum DateMillis {
    /// Seconds between 1970-01-01 and 2001-01-01 (Foundation's reference date).
    static let referenceDateOffset: Double = 978_307_200

    /// The millisecond a date falls in, rounding half-way values up as `DateFormatter` does,
    /// or `nil` for dates that are not finite or are absurdly far away (beyond ±3 million years).
    ///
    /// ```swift
    /// DateMillis.millis(of: Date(timeIntervalSince1970: 1.0006))  // 1001
    /// ```
    @inline(__always)
    static func millis(of date: Date) -> Int? {
        let value = (date.timeIntervalSinceReferenceDate + referenceDateOffset) * 1000 + 0.5
        guard value > -1e17, value < 1e17 else { return nil }  // Also false for NaN.
        // Floor without a libm call: truncate, then step down for negative fractions.
        let truncated = Int(value)
        return Double(truncated) > value ? truncated - 1 : truncated
    }

    /// The date for a millisecond count, built with the same floating-point steps
    /// `DateFormatter` uses, so parsed dates compare equal to Foundation's.
    @inline(__always)
    static func date(millis: Int) -> Date {
        Date(timeIntervalSinceReferenceDate: Double(millis) / 1000 - referenceDateOffset)
    }
}

/// A time zone prepared for hot-path offset look-ups.
///
/// Fixed-offset zones (UTC, GMT, `TimeZone(secondsFromGMT:)`) are answered without any
/// Foundation call. Zones with rules (such as `America/New_York`) ask
/// `TimeZone.secondsFromGMT(for:)` once per formatted date and about three times per
/// parsed date without an explicit offset; that costs a few hundred nanoseconds.
struct DateZoneRule: Sendable {
    /// The zone.
    let timeZone: TimeZone
    /// The offset in seconds when the zone never changes its offset.
    let fixedOffset: Int?

    init(_ timeZone: TimeZone) {
        self.timeZone = timeZone
        self.fixedOffset = DateZoneRule.isFixed(timeZone.identifier) ? timeZone.secondsFromGMT() : nil
    }

    /// Identifiers of zones whose offset never changes.
    private static func isFixed(_ identifier: String) -> Bool {
        switch identifier {
        case "UTC", "GMT", "UCT", "GMT0", "Zulu", "Universal", "Greenwich",
             "Etc/UTC", "Etc/GMT", "Etc/UCT", "Etc/GMT0", "Etc/Zulu", "Etc/Universal", "Etc/Greenwich":
            return true
        default:
            // `TimeZone(secondsFromGMT:)` names its zones "GMT+0100", "GMT-0530".
            let bytes = Array(identifier.utf8)
            guard bytes.count == 8, bytes.starts(with: Array("GMT".utf8)),
                  bytes[3] == UInt8(ascii: "+") || bytes[3] == UInt8(ascii: "-")
            else { return false }
            return bytes[4...].allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
        }
    }

    /// The offset from GMT in seconds at an instant given in milliseconds since 1970.
    @inline(__always)
    func offset(atMillis millis: Int) -> Int {
        if let fixedOffset { return fixedOffset }
        return timeZone.secondsFromGMT(for: DateMillis.date(millis: millis))
    }

    /// The instant (milliseconds since 1970) of a wall-clock time given as milliseconds
    /// since 1970 in local time, or `nil` when the wall-clock time does not exist
    /// (skipped by a daylight-saving transition), as non-lenient `DateFormatter` answers.
    /// A repeated wall-clock time (when clocks go back) resolves to its later instant, in
    /// standard time, as `DateFormatter` (ICU's "last wall time" rule) does.
    func utcMillis(localMillis: Int) -> Int? {
        if let fixedOffset { return localMillis - fixedOffset * 1000 }
        let day = 86_400_000
        let before = offset(atMillis: localMillis - day)
        let after = offset(atMillis: localMillis + day)
        if before == after {
            let candidate = localMillis - before * 1000
            if offset(atMillis: candidate) == before { return candidate }
            let retry = localMillis - offset(atMillis: candidate) * 1000
            return offset(atMillis: retry) * 1000 == localMillis - retry ? retry : nil
        }
        let first = localMillis - before * 1000
        let second = localMillis - after * 1000
        let firstValid = offset(atMillis: first) == before
        let secondValid = offset(atMillis: second) == after
        switch (firstValid, secondValid) {
        case (true, true): return max(first, second)
        case (true, false): return first
        case (false, true): return second
        case (false, false): return nil
        }
    }
}
