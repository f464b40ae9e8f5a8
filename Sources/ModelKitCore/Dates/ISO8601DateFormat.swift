import Foundation

/// Fast RFC 3339 / ISO 8601 internet date-time parsing and formatting on UTF-8 bytes, exact to
/// the last bit of a `Date`.
///
/// Parsing reads `2024-03-01T12:34:56Z`, with or without a fraction of any length
/// (`.5`, `.123`, `.123456789`), and with the zone `Z`, `z`, `+01:00`, `+0100` or `+01`; the
/// fraction's digits are kept (up to 17), not rounded to milliseconds. Formatting writes UTC with
/// `Z`; with ``includesFractionalSeconds`` it writes at least milliseconds and as many more
/// digits as the date needs to read back exactly, so `Date()` round-trips through the text.
///
/// ```swift
/// let iso = ISO8601DateFormat.internetDateTime
/// let date = iso.date(from: "2024-03-01T12:34:56.5+01:00")  // 2024-03-01 11:34:56.500 UTC
/// iso.string(from: date!)                                   // "2024-03-01T11:34:56Z"
/// ISO8601DateFormat.internetDateTimeWithFractionalSeconds.string(from: date!)
/// // "2024-03-01T11:34:56.500Z"
/// ```
///
/// Differences from Foundation's `ISO8601DateFormatter`, all deliberate:
/// - Fractions keep their digits: Foundation keeps milliseconds, reading `.123456` as `.123`
///   and writing milliseconds only.
/// - Either formatter instance reads text with and without a fraction (Foundation's plain
///   formatter rejects a fraction, and its fractional one requires one).
/// - Stricter: Foundation leniently accepts and rolls over impossible dates (Feb 30),
///   `24:00:00`, offsets up to `+24:00`, `+01:30:15` and `+01:0`, `GMT`/`UTC` zones,
///   one-digit fields (`2024-3-1`), signed or five-digit years, surrounding whitespace
///   and even trailing garbage (`…Zx`). All of these give `nil` here.
///
/// Years 1583–9999 are native. Earlier years (where Foundation switches to the Julian
/// calendar) are parsed and formatted by a lock-guarded `ISO8601DateFormatter`.
public struct ISO8601DateFormat: Sendable, Hashable {
    /// Whether formatting writes a fraction: at least milliseconds (`.SSS`), and more digits
    /// when the date needs them to read back exactly. Parsing accepts both forms.
    public var includesFractionalSeconds: Bool

    /// A format writing whole seconds, like `ISO8601DateFormatter` with `.withInternetDateTime`.
    public static let internetDateTime = ISO8601DateFormat()

    /// A format writing fractional seconds: milliseconds, or more digits where the date has them.
    public static let internetDateTimeWithFractionalSeconds = ISO8601DateFormat(includesFractionalSeconds: true)

    /// Creates a format.
    ///
    /// ```swift
    /// let format = ISO8601DateFormat(includesFractionalSeconds: true)
    /// ```
    public init(includesFractionalSeconds: Bool = false) {
        self.includesFractionalSeconds = includesFractionalSeconds
    }

    /// The date in UTF-8 `bytes`, or `nil` when they are not an internet date-time.
    ///
    /// ```swift
    /// let date = Array("2024-03-01T12:34:56Z".utf8).withUnsafeBytes {
    ///     ISO8601DateFormat.internetDateTime.date(from: $0)
    /// }
    /// ```
    // Raw bytes, so a reader parses a date where it lies in its input (`decodeStringBytes`), with no String made.
    public func date(from bytes: UnsafeRawBufferPointer) -> Date? {
        switch Self.parse(bytes) {
        case .success(let date): return date
        case .failure: return nil
        case .delegate(let fraction):
            return ISO8601FallbackFormatters.shared.date(from: String(decoding: bytes, as: UTF8.self), fraction: fraction)
        }
    }

    /// The date in `string`, or `nil` when it is not an internet date-time.
    ///
    /// ```swift
    /// ISO8601DateFormat.internetDateTime.date(from: "2024-03-01T12:34:56+0100")
    /// ISO8601DateFormat.internetDateTime.date(from: "2024-02-30T12:34:56Z")  // nil
    /// ```
    public func date(from string: String) -> Date? {
        // A native string's UTF-8 where it is, with no copy; one without contiguous UTF-8 (bridged) is copied into an
        // array below.
        if let date = string.utf8.withContiguousStorageIfAvailable({ date(from: UnsafeRawBufferPointer($0)) }) {
            return date
        }
        return Array(string.utf8).withUnsafeBytes { date(from: $0) }
    }

    /// The text for `date` in UTC, such as `2024-03-01T12:34:56Z` or `2024-03-01T12:34:56.789Z`.
    ///
    /// ```swift
    /// ISO8601DateFormat.internetDateTime.string(from: Date(timeIntervalSince1970: 0))
    /// // "1970-01-01T00:00:00Z"
    /// ```
    public func string(from date: Date) -> String {
        // A stack buffer longer than any text written (38 bytes at most: 17 fraction digits and `Z`): formatting
        // allocates only the String.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 40) { buffer in
            var writer = DateTextWriter(buffer)
            guard write(date, to: &writer) else {
                return ISO8601FallbackFormatters.shared.string(from: date, fraction: includesFractionalSeconds)
            }
            return String(decoding: writer.written, as: UTF8.self)
        }
    }

    /// Appends the UTF-8 text for `date` in UTC to `bytes`.
    ///
    /// ```swift
    /// var out: [UInt8] = []
    /// ISO8601DateFormat.internetDateTime.append(Date(timeIntervalSince1970: 0), to: &out)
    /// ```
    public func append(_ date: Date, to bytes: inout [UInt8]) {
        // A stack buffer longer than any text written, as in `string(from:)`: nothing is allocated but the bytes
        // appended.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 40) { buffer in
            var writer = DateTextWriter(buffer)
            if write(date, to: &writer) {
                bytes.append(contentsOf: writer.written)
            } else {
                bytes.append(contentsOf: ISO8601FallbackFormatters.shared.string(from: date, fraction: includesFractionalSeconds).utf8)
            }
        }
    }

    // MARK: Native code

    enum ParseOutcome {
        case success(Date)
        case failure
        /// Well-formed with a year before 1583: Foundation decides (Julian calendar).
        case delegate(fraction: Bool)
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH[[:]MM])`.
    // The bytes in place: `end >= 20` is checked first, so the fixed fields in bytes 0 to 19 are read without further
    // checks; every later index is checked against `end`.
    static func parse(_ text: UnsafeRawBufferPointer) -> ParseOutcome {
        let end = text.count
        guard end >= 20 else { return .failure }
        @inline(__always) func digit(_ index: Int) -> Int? {
            let value = Int(text[index] &- 0x30)
            return value < 10 ? value : nil
        }
        @inline(__always) func two(_ index: Int) -> Int? {
            guard index + 1 < end, let high = digit(index), let low = digit(index + 1) else { return nil }
            return high * 10 + low
        }
        guard let century = two(0), let yearInCentury = two(2), text[4] == UInt8(ascii: "-"),
              let month = two(5), text[7] == UInt8(ascii: "-"), let day = two(8),
              text[10] == UInt8(ascii: "T"), let hour = two(11), text[13] == UInt8(ascii: ":"),
              let minute = two(14), text[16] == UInt8(ascii: ":"), let second = two(17)
        else { return .failure }
        var index = 19
        var fraction: UInt64 = 0
        var fractionDigits = 0
        if text[index] == UInt8(ascii: ".") {
            index += 1
            var digits = 0
            while index < end, let value = digit(index) {
                // Digits past the 17th are below what a `Date` can tell apart from its neighbours.
                if digits < ExactFraction.maximumDigits {
                    fraction = fraction * 10 + UInt64(value)
                    fractionDigits += 1
                }
                digits += 1
                index += 1
            }
            guard digits > 0 else { return .failure }
        }
        guard index < end else { return .failure }
        var offset = 0
        switch text[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            index += 1
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            let sign = text[index] == UInt8(ascii: "-") ? -1 : 1
            guard let hours = two(index + 1), hours < 24 else { return .failure }
            index += 3
            var minutes = 0
            if index < end {
                let colon = text[index] == UInt8(ascii: ":")
                guard let value = two(colon ? index + 1 : index), value < 60 else { return .failure }
                minutes = value
                index += colon ? 3 : 2
            }
            offset = sign * (hours * 3600 + minutes * 60)
        default:
            return .failure
        }
        let year = century * 100 + yearInCentury
        guard index == end, (1...12).contains(month), day >= 1,
              hour < 24, minute < 60, second < 60
        else { return .failure }
        guard CivilCalendar.nativeYears.contains(year) else { return .delegate(fraction: fractionDigits > 0) }
        guard day <= CivilCalendar.daysInMonth(year: year, month: month) else { return .failure }
        let days = CivilCalendar.days(year: year, month: month, day: day)
        let seconds = ((days * 24 + hour) * 60 + minute) * 60 + second - offset
        return .success(ExactFraction.date(seconds: seconds, fraction: fraction, digits: fractionDigits))
    }

    /// How many fraction digits the text of a date has.
    enum FractionStyle {
        /// Whole seconds.
        case none
        /// The fewest digits, at least `minimum`, that read back to the same date.
        case shortest(minimum: Int)
    }

    /// The text of `date` in UTC with the fraction `style` says and `zone` for UTC (`Z`, or
    /// `+00:00`, which sorts below every digit); nil outside years 1583–9999.
    func string(from date: Date, fraction style: FractionStyle, zone: StaticString) -> String? {
        // A stack buffer with room for the longest text and its zone (`+00:00`): nothing is allocated but the String.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 48) { buffer in
            var writer = DateTextWriter(buffer)
            guard write(date, to: &writer, fraction: style, zone: zone) else { return nil }
            return String(decoding: writer.written, as: UTF8.self)
        }
    }

    /// Writes `date` in UTC; returns `false` (writing nothing) outside years 1583–9999.
    func write(_ date: Date, to writer: inout DateTextWriter) -> Bool {
        write(date, to: &writer, fraction: includesFractionalSeconds ? .shortest(minimum: 3) : .none, zone: "Z")
    }

    func write(_ date: Date, to writer: inout DateTextWriter, fraction style: FractionStyle, zone: StaticString) -> Bool {
        guard let split = ExactFraction(date) else { return false }
        let days = CivilCalendar.floorDivide(split.seconds, 86_400)
        let inDay = split.seconds - days * 86_400
        let (year, month, day) = CivilCalendar.date(days: days)
        guard CivilCalendar.nativeYears.contains(year) else { return false }
        writer.number(year, width: 4)
        writer.byte(UInt8(ascii: "-"))
        writer.number(month, width: 2)
        writer.byte(UInt8(ascii: "-"))
        writer.number(day, width: 2)
        writer.byte(UInt8(ascii: "T"))
        writer.number(inDay / 3600, width: 2)
        writer.byte(UInt8(ascii: ":"))
        writer.number(inDay / 60 % 60, width: 2)
        writer.byte(UInt8(ascii: ":"))
        writer.number(inDay % 60, width: 2)
        switch style {
        case .none:
            break
        case .shortest(let minimum):
            let (digits, count) = split.shortestDigits(minimum: minimum)
            writer.byte(UInt8(ascii: "."))
            writer.fraction(digits, count: count)
        }
        writer.text(zone)
        return true
    }
}

/// A date as whole seconds since 1970 and the exact fraction of a second after them, and the
/// shortest decimal digits that give the same date back.
///
/// Text reads back as `Double(whole seconds since 2001) + digits / 10^count`: two correctly
/// rounded steps that writing checks, so the digits written always read back to the same `Date`.
struct ExactFraction {
    /// Seconds since 1970, rounded down.
    let seconds: Int
    /// The date's `timeIntervalSinceReferenceDate`.
    let interval: Double
    /// `interval` rounded down.
    let whole: Double

    /// The most fraction digits read or written: finer digits cannot change a `Date`.
    static let maximumDigits = 17

    /// Powers of ten that a `Double` holds exactly.
    static let powers: [Double] = (0...maximumDigits).map { exponent in
        (0..<exponent).reduce(1.0) { value, _ in value * 10 }
    }

    /// Splits a date; nil when it is not finite or beyond ±3 million years.
    init?(_ date: Date) {
        let interval = date.timeIntervalSinceReferenceDate
        guard interval > -1e14, interval < 1e14 else { return nil }  // Also false for NaN.
        let whole = interval.rounded(.down)
        self.interval = interval
        self.whole = whole
        self.seconds = Int(whole) + Int(DateMillis.referenceDateOffset)
    }

    /// The date of `seconds` since 1970 and a fraction of `count` decimal digits.
    static func date(seconds: Int, fraction: UInt64, digits count: Int) -> Date {
        let whole = Double(seconds - Int(DateMillis.referenceDateOffset))
        guard count > 0 else { return Date(timeIntervalSinceReferenceDate: whole) }
        return Date(timeIntervalSinceReferenceDate: whole + Double(fraction) / powers[count])
    }

    /// The fewest fraction digits, `minimum` or more, that read back to this date exactly; 17
    /// digits (the nearest) for the few dates within a second of 2001 that no digits give back.
    func shortestDigits(minimum: Int) -> (digits: UInt64, count: Int) {
        let fraction = interval - whole
        for count in max(minimum, 1)...Self.maximumDigits {
            let scaled = (fraction * Self.powers[count]).rounded()
            guard scaled < Self.powers[count] else { continue }
            if whole + scaled / Self.powers[count] == interval { return (UInt64(scaled), count) }
        }
        let count = Self.maximumDigits
        return (UInt64(min((fraction * Self.powers[count]).rounded(), Self.powers[count] - 1)), count)
    }

}

/// Foundation `ISO8601DateFormatter`s for dates outside the native years, behind a lock
/// (the formatter class is not `Sendable`), created on first use.
final class ISO8601FallbackFormatters: Sendable {
    static let shared = ISO8601FallbackFormatters()

    private let formatters = Locked<(plain: ISO8601DateFormatter, fractional: ISO8601DateFormatter)?>(nil)

    func date(from string: String, fraction: Bool) -> Date? {
        withFormatter(fraction: fraction) { $0.date(from: string) }
    }

    func string(from date: Date, fraction: Bool) -> String {
        withFormatter(fraction: fraction) { $0.string(from: date) }
    }

    private func withFormatter<Result>(fraction: Bool, _ body: (ISO8601DateFormatter) -> Result) -> Result {
        formatters.withLock { formatters in
            let pair: (plain: ISO8601DateFormatter, fractional: ISO8601DateFormatter)
            if let formatters {
                pair = formatters
            } else {
                let plain = ISO8601DateFormatter()
                let fractional = ISO8601DateFormatter()
                fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
                pair = (plain, fractional)
                formatters = pair
            }
            return body(fraction ? pair.fractional : pair.plain)
        }
    }
}
