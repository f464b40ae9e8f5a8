import Foundation

/// Dates as text in a fixed format, parsed and printed with the POSIX locale.
///
/// ```swift
/// @Transform(.dateFormat("EEE MMM dd HH:mm:ss Z yyyy")) var createdAt: Date
/// @Transform(.dateFormat("yyyy-MM-dd", timeZone: TimeZone(identifier: "Europe/Paris")!)) var day: Date
/// ```
public struct DateFormatTransformer: ModelTransformer {
    /// The compiled pattern.
    public let pattern: DateFormatPattern

    /// A transformer for a Unicode date format; `timeZone` applies when the text carries none.
    public init(_ format: String, timeZone: TimeZone = .modelKitUTC) {
        self.pattern = DateFormatPattern(format, timeZone: timeZone)
    }

    public var expectation: String { "a date like \(ModelError.quoted(pattern.pattern))" }

    public func transformedValue(_ text: String) throws -> Date {
        guard let date = pattern.date(from: text) else { throw ModelError.invalid(expected: expectation) }
        return date
    }

    public func reverseTransformedValue(_ date: Date) throws -> String {
        pattern.string(from: date)
    }

    /// Parses the string's bytes where it lies, without making a `String` first.
    // Inlinable: runs per date read by `decodeValue(_:transformer:)` for a `@Transform(.dateFormat)` property; with
    // `readDate` it specialises for the concrete reader, whose `decodeStringBytes` then hands the pattern the string's
    // bytes where they lie.
    @inlinable
    public func read<R: ModelReader>(from reader: inout R) throws -> Date {
        try readDate(from: &reader, expectation: expectation) { pattern.date(from: $0) }
    }
}

/// Dates as ISO 8601 text: `2024-03-01T12:34:56Z`, with the fraction of a second a date has
/// (`2024-03-01T12:34:56.789Z`): what it reads, it writes back, to the last digit a `Date` holds.
public struct ISO8601Transformer: ModelTransformer {
    /// Whether output always carries a fraction, milliseconds at least, even for whole seconds
    /// (`2024-03-01T12:34:56.000Z`).
    public let writesFractionalSeconds: Bool

    /// A transformer writing the fraction a date has, or always one with `fractionalSeconds`.
    public init(fractionalSeconds: Bool = false) {
        self.writesFractionalSeconds = fractionalSeconds
    }

    public var expectation: String { "an ISO 8601 date" }

    public func transformedValue(_ text: String) throws -> Date {
        guard let date = DateCoding.parseISO8601(text) else { throw ModelError.invalid(expected: expectation) }
        return date
    }

    public func reverseTransformedValue(_ date: Date) throws -> String {
        DateCoding.formatISO8601(date, fractionalSeconds: writesFractionalSeconds)
    }

    /// Parses the string's bytes where it lies, without making a `String` first.
    // Inlinable: runs per date read for a `@Transform(.iso8601)` property; specialised with `readDate` like
    // `DateFormatTransformer.read`.
    @inlinable
    public func read<R: ModelReader>(from reader: inout R) throws -> Date {
        try readDate(from: &reader, expectation: expectation) { DateCoding.parseISO8601($0) }
    }
}

/// Reads a date from a string's UTF-8 bytes; the string itself, and `expectation`, are only
/// made for the error (a format's expectation quotes its pattern: building it for every date
/// read cost more than parsing the date). Inlinable, with the transformers' `read`, so that a
/// format's reader reads the string's bytes directly (unspecialised, this took a third of reading
/// a date: a witness call and the closure's type metadata for each).
@inlinable
func readDate<R: ModelReader>(
    from reader: inout R, expectation: @autoclosure () -> String, _ parse: (UnsafeRawBufferPointer) -> Date?
) throws -> Date {
    var rejected: String?
    let date = try reader.decodeStringBytes { bytes -> Date? in
        if let date = parse(bytes) { return date }
        rejected = String(decoding: bytes, as: UTF8.self)
        return nil
    }
    guard let date else {
        throw ModelError.invalid(expected: expectation(), found: ModelError.quoted(rejected ?? ""))
    }
    return date
}

/// Dates as a number of seconds or milliseconds since 1970 (integers or fractions on input).
public struct EpochTransformer: ModelTransformer {
    /// The unit of the number.
    public enum Unit: Sendable {
        case seconds
        case milliseconds
    }

    /// The unit of the number.
    public let unit: Unit

    /// A transformer for a unit.
    public init(_ unit: Unit) {
        self.unit = unit
    }

    public var expectation: String { unit == .seconds ? "seconds since 1970" : "milliseconds since 1970" }

    public func transformedValue(_ number: Double) throws -> Date {
        Date(timeIntervalSince1970: unit == .seconds ? number : number / 1000)
    }

    public func reverseTransformedValue(_ date: Date) throws -> Double {
        let seconds = date.timeIntervalSince1970
        return unit == .seconds ? seconds : (seconds * 1000).rounded()
    }

    /// Writes a whole number as an integer (`1372701600000`, not `1372701600000.0`), so an
    /// integer read from a payload is written back as one.
    public func write<W: ModelWriter>(_ date: Date, to writer: inout W) throws {
        let number = try reverseTransformedValue(date)
        if number.rounded() == number, let integer = Int64(exactly: number) {
            try writer.encodeInt64(integer)
        } else {
            try writer.encodeDouble(number)
        }
    }
}

extension ModelTransformer where Self == DateFormatTransformer {
    /// Dates in a fixed Unicode format with the POSIX locale (see ``DateFormatTransformer``).
    public static func dateFormat(_ format: String, timeZone: TimeZone = .modelKitUTC) -> DateFormatTransformer {
        DateFormatTransformer(format, timeZone: timeZone)
    }
}

extension ModelTransformer where Self == ISO8601Transformer {
    /// ISO 8601 dates, whole seconds on output.
    public static var iso8601: ISO8601Transformer { ISO8601Transformer() }

    /// ISO 8601 dates with milliseconds on output.
    public static var iso8601WithFractionalSeconds: ISO8601Transformer { ISO8601Transformer(fractionalSeconds: true) }
}

extension ModelTransformer where Self == EpochTransformer {
    /// Dates as seconds since 1970.
    public static var secondsSince1970: EpochTransformer { EpochTransformer(.seconds) }

    /// Dates as milliseconds since 1970.
    public static var millisecondsSince1970: EpochTransformer { EpochTransformer(.milliseconds) }
}

extension TimeZone {
    /// Coordinated Universal Time.
    public static let modelKitUTC = TimeZone(secondsFromGMT: 0) ?? TimeZone.current
}
