import Foundation

/// The native text form of dates in JSON: ISO 8601 in UTC, with or without fractional seconds.
@usableFromInline
package enum DateCoding {
    /// Parses `2024-03-01T12:34:56Z`, `2024-03-01T12:34:56.789+01:00` and the like.
    package static func parseISO8601(_ text: String) -> Date? {
        ISO8601DateFormat.internetDateTime.date(from: text)
    }

    /// Parses ISO 8601 text from UTF-8 bytes.
    @usableFromInline
    package static func parseISO8601(_ bytes: UnsafeRawBufferPointer) -> Date? {
        ISO8601DateFormat.internetDateTime.date(from: bytes)
    }

    /// Formats a date as ISO 8601 in UTC; with milliseconds when asked, or by default when the
    /// date has a fraction of a second.
    package static func formatISO8601(_ date: Date, fractionalSeconds: Bool? = nil) -> String {
        let fraction = date.timeIntervalSince1970.rounded(.down) != date.timeIntervalSince1970
        return (fractionalSeconds ?? fraction
            ? ISO8601DateFormat.internetDateTimeWithFractionalSeconds : ISO8601DateFormat.internetDateTime)
            .string(from: date)
    }
}
