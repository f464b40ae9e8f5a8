import Foundation

/// The native text form of dates in JSON: ISO 8601 in UTC, with or without fractional seconds.
// Usable from inline: the inlinable `ISO8601Transformer.read` parses through it.
@usableFromInline
package enum DateCoding {
    /// Parses `2024-03-01T12:34:56Z`, `2024-03-01T12:34:56.789+01:00` and the like.
    package static func parseISO8601(_ text: String) -> Date? {
        ISO8601DateFormat.internetDateTime.date(from: text)
    }

    /// Parses ISO 8601 text from UTF-8 bytes.
    // Usable from inline: called per date by the inlinable `ISO8601Transformer.read`, on the bytes a reader hands it in
    // place (`decodeStringBytes`), so no String is made.
    @usableFromInline
    package static func parseISO8601(_ bytes: UnsafeRawBufferPointer) -> Date? {
        ISO8601DateFormat.internetDateTime.date(from: bytes)
    }

    /// Formats a date as ISO 8601 in UTC, exactly: with the fraction it has (at least
    /// milliseconds, as many digits as it needs), or with at least milliseconds when asked.
    package static func formatISO8601(_ date: Date, fractionalSeconds: Bool = false) -> String {
        format(for: date, fractionalSeconds: fractionalSeconds).string(from: date)
    }

    /// Appends the exact ISO 8601 text of a date (see ``formatISO8601(_:fractionalSeconds:)``).
    package static func appendISO8601(_ date: Date, to bytes: inout [UInt8]) {
        format(for: date, fractionalSeconds: false).append(date, to: &bytes)
    }

    private static func format(for date: Date, fractionalSeconds: Bool) -> ISO8601DateFormat {
        let interval = date.timeIntervalSinceReferenceDate
        return fractionalSeconds || interval.rounded(.down) != interval
            ? .internetDateTimeWithFractionalSeconds : .internetDateTime
    }

    /// ISO 8601 text in UTC whose text order is time order, and exact: at least nine fraction
    /// digits (more where the date needs them to read back), and the zone written `+00:00`,
    /// which sorts below every digit (`…56.123456789+00:00` < `…56.1234567891+00:00`).
    package static func formatSortableISO8601(_ date: Date) -> String {
        ISO8601DateFormat.internetDateTime.string(from: date, fraction: .shortest(minimum: 9), zone: "+00:00")
            ?? formatISO8601(date)
    }
}
