import Foundation

/// A Unicode date format pattern with a time zone, compiled once for fast parsing and formatting.
///
/// `DateFormatPattern` reads and writes dates the way a Foundation `DateFormatter` does with
/// the `en_US_POSIX` locale, the same `dateFormat` and the same `timeZone`, but works on raw
/// UTF-8 bytes without allocating: parsing a Twitter date takes tens of nanoseconds instead of
/// microseconds.
///
/// ```swift
/// let twitter = DateFormatPattern("EEE MMM dd HH:mm:ss Z yyyy")
/// let date = twitter.date(from: "Sun Aug 31 00:29:15 +0000 2014")  // 2014-08-31 00:29:15 UTC
/// twitter.string(from: date!)                                       // "Sun Aug 31 00:29:15 +0000 2014"
///
/// let local = DateFormatPattern("dd/MM/yy h:mm a", timeZone: TimeZone(identifier: "America/New_York")!)
/// local.date(from: "31/08/14 8:29 PM")  // 2014-09-01 00:29 UTC
/// ```
///
/// ## Native fields
/// `G`–`GGG`, `y` (any count; `yy` uses DateFormatter's 1950–2049 window), `M`/`L` (1–4),
/// `d`, `E` (1–6), `a` (1–5), `H`, `h`, `K`, `k`, `m`, `s`, `S` (fraction, 1–9 digits),
/// `Z`–`ZZZZZ`, `X`–`XXXXX`, `x`–`xxxxx`, `O`, `OOOO`, and `z`–`zzz` for fixed-offset
/// zones; quoted literals (`'T'`, `''`) and any other punctuation. Weekday and zone fields
/// may repeat. Any other pattern (for example with `D`, `w`, `u`, `zzzz`, `MMMMM`, `z` in a
/// zone with rules, another field given twice, a weekday without a day, or `H` with `a`)
/// is handed whole to a Foundation `DateFormatter`; ``isNative`` tells which path a
/// pattern takes.
///
/// ## Parsing
/// Parsing matches non-lenient `DateFormatter` (its default) on everything it formats and
/// on its documented leniencies: names are case-insensitive, `MMM` also reads full month
/// names and `E` reads full, three-, two- and one-letter weekday names; a weekday that
/// disagrees with the date is ignored (the date comes from year, month and day); numbers
/// may have more or fewer digits than the pattern (`d` reads "031", `HH` reads "0"),
/// except in runs of abutting numeric fields; whitespace may be repeated where the
/// pattern has whitespace and may precede any field; trailing spaces and tabs are
/// ignored. Missing fields default to 2000-01-01 00:00:00.000. Out-of-range values
/// (month 13, day 32 or Feb 30, hour 24, minute or second 60) give `nil`. Zone fields
/// read `Z`, `+01`, `+0100`, `+01:00`, `GMT`, `UTC`, `GMT+1`, `UTC+01:00` whatever their
/// width, and `z` also reads `EST`, `PDT` and the other North American abbreviations. A
/// wall-clock time skipped by a daylight-saving change gives `nil`, and a repeated one
/// resolves to its later (standard-time) instant, both as in `DateFormatter`.
///
/// Deliberately stricter than `DateFormatter`: literal separators must match exactly
/// (DateFormatter accepts "2014/08/01" for "yyyy-MM-dd"), digits must be ASCII, only ASCII
/// whitespace counts as whitespace. As in `DateFormatter`, numbers (fractions included)
/// above 2147483647 give `nil`.
///
/// ## Precision and range
/// Parsing and formatting use whole milliseconds, as `DateFormatter` does (formatting rounds
/// to the nearest millisecond). The proleptic Gregorian arithmetic covers local years 1583
/// through 9999; dates outside that range and BC dates are delegated to `DateFormatter`
/// (which uses the Julian calendar before October 1582), and so is formatting in a zone
/// whose offset is not a whole number of minutes (local mean time before 1900 in most zones).
///
/// ## Time zones and speed
/// Fixed-offset zones (UTC, GMT, `TimeZone(secondsFromGMT:)`) need no Foundation call. Zones
/// with rules (`America/New_York`) ask `TimeZone.secondsFromGMT(for:)` once per formatted
/// date and about three times per parsed date that carries no offset of its own, a few
/// hundred nanoseconds. Text laid out as `DateFormatter` writes it is read by a fast path
/// at precomputed offsets; anything else goes through the general, lenient reader.
///
/// ## Thread safety
/// The value is `Sendable` and can be shared across tasks. The native path holds no state.
/// The Foundation fallback keeps one lazily created `DateFormatter` per pattern behind a lock,
/// so concurrent use of a non-native pattern is correct but serialised.
public struct DateFormatPattern: Sendable {
    /// The Unicode (TR35) date format pattern, as given.
    public let pattern: String
    /// The zone used for formatting and for parsing text that carries no zone.
    public let timeZone: TimeZone
    /// The native program, or `nil` when the pattern is handed to `DateFormatter`. It points
    /// into memory `storage` owns, so the hot paths use it without reference counting.
    let compiled: NativeDateProgramPointer?
    let storage: CompiledDatePattern?
    let zone: DateZoneRule
    let fallback: FoundationDateFormatterBox

    /// Compiles `pattern` for `timeZone` (UTC by default).
    ///
    /// ```swift
    /// let iso = DateFormatPattern("yyyy-MM-dd'T'HH:mm:ss.SSSZZZZZ")
    /// iso.isNative  // true
    /// ```
    public init(_ pattern: String, timeZone: TimeZone = TimeZone(secondsFromGMT: 0) ?? .current) {
        self.init(pattern, timeZone: timeZone, usesFixedLayout: true)
    }

    /// Compiles `pattern`; without `usesFixedLayout` (for tests) parsing skips the fast path.
    init(_ pattern: String, timeZone: TimeZone, usesFixedLayout: Bool) {
        self.pattern = pattern
        self.timeZone = timeZone
        self.zone = DateZoneRule(timeZone)
        self.storage = CompiledDatePattern(pattern, zone: zone, usesFixedLayout: usesFixedLayout)
        // A view of the program `storage` owns; the two are kept together in this value, so the view is valid as long
        // as it is.
        self.compiled = storage.map { NativeDateProgramPointer(pointer: UnsafePointer($0.program)) }
        self.fallback = FoundationDateFormatterBox(pattern: pattern, timeZone: timeZone)
    }

    /// Whether the pattern runs natively; `false` means every call goes to `DateFormatter`.
    public var isNative: Bool { compiled != nil }

    /// The date in UTF-8 `bytes`, or `nil` when they do not match the pattern or name an
    /// impossible date. Never traps, whatever the bytes.
    ///
    /// ```swift
    /// let day = DateFormatPattern("yyyy-MM-dd")
    /// let date = Array("2024-03-01".utf8).withUnsafeBytes { day.date(from: $0) }
    /// ```
    // Raw bytes, so a reader parses a date where it lies in its input (`decodeStringBytes`), with no String made.
    public func date(from bytes: UnsafeRawBufferPointer) -> Date? {
        guard let compiled else { return fallback.date(from: String(decoding: bytes, as: UTF8.self)) }
        switch parse(bytes, compiled.pointer) {
        case .success(let date): return date
        case .failure: return nil
        case .delegate: return fallback.date(from: String(decoding: bytes, as: UTF8.self))
        }
    }

    /// The date in `string`, or `nil` when it does not match the pattern.
    ///
    /// ```swift
    /// DateFormatPattern("MM-dd-yyyy").date(from: "03-01-2024")  // 2024-03-01 00:00 UTC
    /// DateFormatPattern("MM-dd-yyyy").date(from: "13-01-2024")  // nil
    /// ```
    public func date(from string: String) -> Date? {
        // A native string's UTF-8 where it is, with no copy; one without contiguous UTF-8 (bridged) is copied into an
        // array below.
        if let date = string.utf8.withContiguousStorageIfAvailable({ date(from: UnsafeRawBufferPointer($0)) }) {
            return date
        }
        return Array(string.utf8).withUnsafeBytes { date(from: $0) }
    }

    /// The text for `date` in ``timeZone``.
    ///
    /// ```swift
    /// DateFormatPattern("EEEE, d MMMM yyyy").string(from: Date(timeIntervalSince1970: 0))
    /// // "Thursday, 1 January 1970"
    /// ```
    public func string(from date: Date) -> String {
        guard let compiled, let fields = localFields(of: date) else { return fallback.string(from: date) }
        // A stack buffer of the pattern's longest output (`maxOutputLength`, from compiling): formatting allocates only
        // the String.
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: compiled.pointer.pointee.maxOutputLength + 1) { buffer in
            var writer = DateTextWriter(buffer)
            write(fields, compiled.pointer, to: &writer)
            return String(decoding: writer.written, as: UTF8.self)
        }
    }

    /// Appends the UTF-8 text for `date` to `bytes`.
    ///
    /// ```swift
    /// var json: [UInt8] = Array("\"".utf8)
    /// DateFormatPattern("yyyy-MM-dd").append(Date(timeIntervalSince1970: 0), to: &json)  // "1970-01-01
    /// ```
    public func append(_ date: Date, to bytes: inout [UInt8]) {
        guard let compiled, let fields = localFields(of: date) else {
            bytes.append(contentsOf: fallback.string(from: date).utf8)
            return
        }
        // A stack buffer of the pattern's longest output, as in `string(from:)`: nothing is allocated but the bytes
        // appended.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: compiled.pointer.pointee.maxOutputLength + 1) { buffer in
            var writer = DateTextWriter(buffer)
            write(fields, compiled.pointer, to: &writer)
            bytes.append(contentsOf: writer.written)
        }
    }
}

/// The native formatter behind ``DateFormatPattern``.
extension DateFormatPattern {
    /// The wall-clock fields of one instant in ``timeZone``.
    struct LocalFields {
        var year: Int, month: Int, day: Int, weekday: Int
        var hour: Int, minute: Int, second: Int, millisecond: Int
        var offset: Int
    }

    /// The wall-clock fields of `date`, or `nil` when the native path cannot format it.
    func localFields(of date: Date) -> LocalFields? {
        guard let millis = DateMillis.millis(of: date) else { return nil }
        let offset = zone.offset(atMillis: millis)
        guard offset % 60 == 0 else { return nil }
        let local = millis + offset * 1000
        let days = CivilCalendar.floorDivide(local, 86_400_000)
        let inDay = local - days * 86_400_000
        let (year, month, day) = CivilCalendar.date(days: days)
        guard CivilCalendar.nativeYears.contains(year) else { return nil }
        return LocalFields(
            year: year, month: month, day: day, weekday: CivilCalendar.weekday(days: days),
            hour: inDay / 3_600_000, minute: inDay / 60_000 % 60, second: inDay / 1000 % 60,
            millisecond: inDay % 1000, offset: offset)
    }

    /// Writes `fields` with the compiled steps.
    // The program by pointer (see `NativeDateProgramPointer`): no copy of it and no reference counting per date
    // formatted.
    func write(_ fields: LocalFields, _ program: UnsafePointer<NativeDateProgram>, to writer: inout DateTextWriter) {
        let literals = program.pointee.literals
        for step in program.pointee.steps {
            let count = step.count
            switch step.kind {
            case .literal, .whitespace:
                for index in step.literalStart..<step.literalEnd { writer.byte(literals[index]) }
            case .era: writer.text("AD")
            case .year: count == 2 ? writer.number(fields.year % 100, width: 2) : writer.number(fields.year, width: count)
            case .month: writer.number(fields.month, width: count)
            case .monthName:
                if count == 3 {
                    writer.monthAbbreviation(fields.month)
                } else {
                    writer.text(DateFieldText.monthName(fields.month))
                }
            case .day: writer.number(fields.day, width: count)
            case .weekday:
                if count <= 3 {
                    writer.weekdayAbbreviation(fields.weekday)
                } else {
                    writer.text(DateFieldText.weekdayName(fields.weekday), limit: count == 4 ? .max : count == 5 ? 1 : 2)
                }
            case .amPm:
                let pm = fields.hour >= 12
                writer.text(count == 5 ? (pm ? "p" : "a") : (pm ? "PM" : "AM"))
            case .hour0To23: writer.number(fields.hour, width: count)
            case .hour1To12: writer.number(fields.hour % 12 == 0 ? 12 : fields.hour % 12, width: count)
            case .hour0To11: writer.number(fields.hour % 12, width: count)
            case .hour1To24: writer.number(fields.hour == 0 ? 24 : fields.hour, width: count)
            case .minute: writer.number(fields.minute, width: count)
            case .second: writer.number(fields.second, width: count)
            case .fraction:
                let value = count == 1 ? fields.millisecond / 100 : count == 2 ? fields.millisecond / 10 : fields.millisecond
                writer.number(value, width: min(count, 3))
                for _ in 3..<max(count, 3) { writer.byte(0x30) }
            case .zoneBasic, .zoneExtended, .zoneHours:
                if step.flag && fields.offset == 0 {
                    writer.byte(UInt8(ascii: "Z"))
                } else {
                    writer.offset(fields.offset, separator: step.kind == .zoneExtended,
                                  hoursOnlyWhenWhole: step.kind == .zoneHours)
                }
            case .zoneGMTShort: writer.localizedGMT(fields.offset, long: false)
            case .zoneGMTLong: writer.localizedGMT(fields.offset, long: true)
            }
        }
    }
}

extension DateFormatPattern: Hashable {
    /// Patterns are equal when their pattern text and time zone are.
    public static func == (lhs: DateFormatPattern, rhs: DateFormatPattern) -> Bool {
        lhs.pattern == rhs.pattern && lhs.timeZone == rhs.timeZone
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(pattern)
        hasher.combine(timeZone)
    }
}

extension DateFormatPattern: CustomStringConvertible {
    /// The pattern and zone, for example `"yyyy-MM-dd" (UTC, native)`.
    public var description: String {
        "\"\(pattern)\" (\(timeZone.identifier), \(isNative ? "native" : "DateFormatter"))"
    }
}

/// A Foundation `DateFormatter` shared behind a lock, created on first use.
///
/// `DateFormatter` is not `Sendable`; this box serialises every use of its one instance, so
/// a ``DateFormatPattern`` can be shared freely. Native patterns only reach it for dates
/// outside the native range, so most never create it.
final class FoundationDateFormatterBox: Sendable {
    private let pattern: String
    private let timeZone: TimeZone
    private let formatter = Locked<DateFormatter?>(nil)

    init(pattern: String, timeZone: TimeZone) {
        self.pattern = pattern
        self.timeZone = timeZone
    }

    /// `DateFormatter.date(from:)` with the POSIX locale, the pattern and the zone.
    func date(from string: String) -> Date? {
        withFormatter { $0.date(from: string) }
    }

    /// `DateFormatter.string(from:)` with the POSIX locale, the pattern and the zone.
    func string(from date: Date) -> String {
        withFormatter { $0.string(from: date) }
    }

    private func withFormatter<Result>(_ body: (DateFormatter) -> Result) -> Result {
        formatter.withLock { formatter in
            if let formatter { return body(formatter) }
            let created = DateFormatter()
            created.locale = Locale(identifier: "en_US_POSIX")
            created.timeZone = timeZone
            created.dateFormat = pattern
            formatter = created
            return body(created)
        }
    }
}
