import Foundation

/// The native text form of dates in JSON: ISO 8601 in UTC, with or without fractional seconds.
package enum DateCoding {
    /// Parses `2024-03-01T12:34:56Z`, `2024-03-01T12:34:56.789+01:00` and the like.
    package static func parseISO8601(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions.insert(.withFractionalSeconds)
        return formatter.date(from: text)
    }

    /// Formats a date as ISO 8601 in UTC; with milliseconds when asked, or by default when the
    /// date has a fraction of a second.
    package static func formatISO8601(_ date: Date, fractionalSeconds: Bool? = nil) -> String {
        let formatter = ISO8601DateFormatter()
        let fraction = date.timeIntervalSince1970.rounded(.down) != date.timeIntervalSince1970
        if fractionalSeconds ?? fraction {
            formatter.formatOptions.insert(.withFractionalSeconds)
        }
        return formatter.string(from: date)
    }
}
