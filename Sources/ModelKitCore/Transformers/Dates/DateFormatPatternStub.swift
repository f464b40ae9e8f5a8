import Foundation

// TEMPORARY: replaced by the native pattern parser.
public struct DateFormatPattern: @unchecked Sendable {
    public let format: String
    public let timeZone: TimeZone
    private let formatter: DateFormatter
    private let lock = NSLock()

    public init(_ format: String, timeZone: TimeZone = TimeZone(secondsFromGMT: 0)!) {
        self.format = format
        self.timeZone = timeZone
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = format
        self.formatter = formatter
    }

    public func date(from string: String) -> Date? {
        lock.lock()
        defer { lock.unlock() }
        return formatter.date(from: string)
    }

    public func string(from date: Date) -> String {
        lock.lock()
        defer { lock.unlock() }
        return formatter.string(from: date)
    }
}
