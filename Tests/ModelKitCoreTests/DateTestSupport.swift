import Foundation
@testable import ModelKitCore
import ModelKitTestSupport


/// The time zones the comparison tables run in.
enum ZoneCase: String, CaseIterable, Sendable, CustomStringConvertible {
    case utc, plus0530, minus0300, newYork

    var timeZone: TimeZone {
        switch self {
        case .utc: return TimeZone(identifier: "UTC") ?? .current
        case .plus0530: return TimeZone(secondsFromGMT: 19_800) ?? .current
        case .minus0300: return TimeZone(secondsFromGMT: -10_800) ?? .current
        case .newYork: return TimeZone(identifier: "America/New_York") ?? .current
        }
    }

    var description: String { timeZone.identifier }
}

/// The Foundation formatter a ``DateFormatPattern`` must agree with.
func foundationFormatter(_ pattern: String, _ timeZone: TimeZone) -> DateFormatter {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = timeZone
    formatter.dateFormat = pattern
    return formatter
}

/// Random instants from 1900 through 2100, with sub-millisecond fractions.
func randomDates(count: Int, seed: UInt64) -> [Date] {
    var generator = SeededGenerator(seed: seed)
    return (0..<count).map { _ in
        Date(timeIntervalSince1970: Double.random(in: -2_208_988_800 ..< 4_133_980_800, using: &generator))
    }
}

/// Instants where formatting and parsing turn, in `timeZone`: either side of its daylight-saving
/// transitions in four eras (none in a fixed-offset zone), and either side of local midnight
/// where years, centuries and leap days turn, to the second and to the sub-millisecond.
func boundaryDates(in timeZone: TimeZone) -> [Date] {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    var dates: [Date] = []
    for year in [1918, 1974, 2006, 2037] {
        guard var instant = calendar.date(from: DateComponents(year: year, month: 1, day: 1)) else { continue }
        for _ in 0..<4 {
            guard let transition = timeZone.nextDaylightSavingTimeTransition(after: instant) else { break }
            dates += [-1_800, -1, 0, 1, 1_800].map { transition.addingTimeInterval($0) }
            instant = transition
        }
    }
    let days = [(1900, 1, 1), (1900, 3, 1), (1901, 1, 1), (1969, 12, 31), (1970, 1, 1), (2000, 1, 1),
                (2000, 2, 29), (2000, 3, 1), (2001, 1, 1), (2024, 2, 29), (2038, 1, 19), (2100, 1, 1), (2100, 3, 1)]
    for (year, month, day) in days {
        guard let midnight = calendar.date(from: DateComponents(year: year, month: month, day: day)) else { continue }
        dates += [-1, -0.0004, 0, 0.0004, 0.9996, 43_200].map { midnight.addingTimeInterval($0) }
    }
    return dates
}

/// Random mutations of `text`: replaced, deleted, inserted and duplicated bytes.
func mutations(of text: String, count: Int, seed: UInt64) -> [[UInt8]] {
    var generator = SeededGenerator(seed: seed)
    let alphabet = Array("0123456789 :+-./,TZzAaPpMmSsJjGgUuEeDdNn\t\n'".utf8) + [0x00, 0x7F, 0xC3, 0xA9, 0xFF]
    let original = Array(text.utf8)
    return (0..<count).map { _ in
        var bytes = original
        for _ in 0..<Int.random(in: 1...3, using: &generator) {
            let position = Int.random(in: 0...bytes.count, using: &generator)
            let byte = alphabet.randomElement(using: &generator) ?? 0x20
            switch Int.random(in: 0..<4, using: &generator) {
            case 0 where position < bytes.count: bytes[position] = byte
            case 1 where position < bytes.count: bytes.remove(at: position)
            case 2: bytes.insert(byte, at: position)
            default:
                if position < bytes.count { bytes.insert(bytes[position], at: position) }
            }
        }
        return bytes
    }
}

/// Random byte strings, mostly date-like characters.
func randomByteStrings(count: Int, seed: UInt64) -> [[UInt8]] {
    var generator = SeededGenerator(seed: seed)
    let alphabet = Array("0123456789 :+-./TZAPMSunMonAugDecGMTUTC".utf8) + [0x00, 0xFF, 0xE2, 0x80]
    return (0..<count).map { _ in
        (0..<Int.random(in: 0...40, using: &generator)).map { _ in
            Bool.random(using: &generator) ? (alphabet.randomElement(using: &generator) ?? 0)
                : UInt8.random(in: 0...255, using: &generator)
        }
    }
}

extension DateFormatPattern {
    /// Parses bytes through the raw-buffer entry point.
    func date(fromBytes bytes: [UInt8]) -> Date? {
        bytes.withUnsafeBytes { date(from: $0) }
    }
}
