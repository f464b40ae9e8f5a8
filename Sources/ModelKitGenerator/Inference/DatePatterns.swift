import ModelKitCore

/// The dates the generator recognises, read with the parsers the generated transformers use, so
/// that a value taken for a date always maps.
///
/// ```swift
/// DatePatterns.isISO8601("2024-03-01T12:34:56Z")                 // true
/// DatePatterns.isTwitterDate("Sun Aug 31 00:29:15 +0000 2014")   // true
/// DatePatterns.epochUnit(key: "created_at", min: 1409444955, max: 1409444999) // .seconds
/// ```
enum DatePatterns {
    /// Twitter's date format, as `@Transform(.dateFormat(...))` takes it.
    static let twitterFormat = "EEE MMM dd HH:mm:ss Z yyyy"

    private static let twitterPattern = DateFormatPattern(twitterFormat)

    /// Whether `text` is an internet date-time that `@Transform(.iso8601)` reads.
    static func isISO8601(_ text: String) -> Bool {
        text.utf8.count >= 20 && ISO8601DateFormat.internetDateTime.date(from: text) != nil
    }

    /// Whether `text` is a date like `Sun Aug 31 00:29:15 +0000 2014`: thirty characters,
    /// spaces where the format has them, and a date the pattern reads.
    static func isTwitterDate(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 30, [3, 7, 10, 19, 25].allSatisfy({ bytes[$0] == UInt8(ascii: " ") }) else {
            return false
        }
        return twitterPattern.date(from: text) != nil
    }

    /// The unit of integer timestamps.
    enum EpochUnit {
        case seconds
        case milliseconds
    }

    /// 2000-01-01T00:00:00Z and 2100-01-01T00:00:00Z in seconds since 1970: the years a
    /// timestamp in a payload plausibly falls in.
    static let plausibleSeconds: ClosedRange<Int64> = 946_684_800...4_102_444_800

    /// The unit of integers between `min` and `max` under `key`, when the key names a time
    /// (`created_at`, `updatedAt`, `start_time`, `timestamp`) and every value falls in the
    /// plausible range of one unit; nil otherwise.
    static func epochUnit(key: String, min: Int64, max: Int64) -> EpochUnit? {
        guard namesTime(key) else { return nil }
        if plausibleSeconds.contains(min) && plausibleSeconds.contains(max) { return .seconds }
        let milliseconds = (plausibleSeconds.lowerBound * 1000)...(plausibleSeconds.upperBound * 1000)
        if milliseconds.contains(min) && milliseconds.contains(max) { return .milliseconds }
        return nil
    }

    /// Whether a key names a point in time: its last word is `at` or `time`, or it contains
    /// `timestamp`.
    static func namesTime(_ key: String) -> Bool {
        guard let last = SwiftNames.words(of: key).last?.lowercased() else { return false }
        return last == "at" || last == "time" || key.lowercased().contains("timestamp")
    }
}
