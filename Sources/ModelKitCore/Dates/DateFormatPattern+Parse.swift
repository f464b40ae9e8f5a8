import Foundation

/// The native parser behind ``DateFormatPattern``.
///
/// Parsing first tries the layout `DateFormatter` itself writes (``FixedDateLayout``); any
/// mismatch there restarts with the general, lenient reader, so both paths accept exactly
/// the same texts with the same results.
extension DateFormatPattern {
    /// What the native parser concluded.
    enum ParseOutcome {
        case success(Date)
        case failure
        /// Well-formed, but outside the native range (a BC or pre-1583 or post-9999 year):
        /// `DateFormatter` decides.
        case delegate
    }

    /// The calendar fields read so far, with DateFormatter's defaults (2000-01-01 00:00).
    /// All plain integers, so the struct stays in registers or aligned stack slots.
    struct ParsedFields {
        /// `offset` when no zone was read.
        static let noOffset = Int.min

        var year = 2000, month = 1, day = 1, hour = 0, minute = 0, second = 0, millisecond = 0
        /// Seconds east of GMT read from a zone field, or ``noOffset``.
        var offset = noOffset
        var isPM = 0, isBC = 0, twoDigitYear = 0

        /// Stores the value of a numeric step read from `digits` digits; `false` when out of range.
        @inline(__always)
        mutating func set(_ step: DatePatternStep, _ value: Int, digits: Int) -> Bool {
            switch step.kind {
            case .year:
                year = value
                if step.count <= 2 && digits == 2 {
                    // DateFormatter's default two-digit window starts in 1950.
                    year = value < 50 ? 2000 + value : 1900 + value
                    twoDigitYear = value == 50 ? 1 : 0
                }
            case .month: month = value
            case .day: day = value
            case .hour0To23: hour = value; return value <= 23
            case .hour1To12: hour = value % 12; return value <= 12
            case .hour0To11: hour = value; return value <= 11
            case .hour1To24: hour = value % 24; return value <= 24
            case .minute: minute = value; return value <= 59
            case .second: second = value; return value <= 59
            default: millisecond = DateFormatPattern.milliseconds(fraction: value, digits: digits)
            }
            return true
        }
    }

    /// Parses `text` with the compiled steps.
    // The text's bytes in place and the program by pointer (see `NativeDateProgramPointer`): parsing copies and
    // retains nothing. Every read of `text` is bounded by its count (the fixed layout checks it once, up front).
    func parse(_ text: UnsafeRawBufferPointer, _ program: UnsafePointer<NativeDateProgram>) -> ParseOutcome {
        var fields = ParsedFields()
        var index = 0
        var first = 0
        if program.pointee.fixed.stepCount > 0 {
            if program.pointee.fixed.read(text, into: &fields) {
                index = program.pointee.fixed.length
                first = program.pointee.fixed.stepCount
            } else {
                fields = ParsedFields()
            }
        }
        guard Self.parseGeneral(text, program, from: first, &index, &fields) else { return .failure }
        // Like DateFormatter, accept trailing spaces and tabs (but not line breaks).
        while index < text.count, text[index] == 0x20 || text[index] == 0x09 { index += 1 }
        guard index == text.count else { return .failure }
        return resolve(&fields)
    }

    /// Reads the steps from `first` on, with DateFormatter's leniency; `false` on a mismatch.
    // As `parse`: the bytes in place, each index checked against `end` before it is read.
    private static func parseGeneral(_ text: UnsafeRawBufferPointer, _ program: UnsafePointer<NativeDateProgram>, from first: Int,
                                     _ index: inout Int, _ fields: inout ParsedFields) -> Bool {
        let end = text.count
        let literals = program.pointee.literals
        for step in program.pointee.steps[first...] {
            switch step.kind {
            case .literal:
                for literal in step.literalStart..<step.literalEnd {
                    guard index < end, text[index] == literals[literal] else { return false }
                    index += 1
                }
                continue
            case .whitespace:
                guard index < end, DateFieldText.isWhitespace(text[index]) else { return false }
                repeat { index += 1 } while index < end && DateFieldText.isWhitespace(text[index])
                continue
            default:
                break
            }
            // DateFormatter skips whitespace before every field, except inside a run of
            // abutting numbers.
            if step.fixedWidth == 0 {
                while index < end, DateFieldText.isWhitespace(text[index]) { index += 1 }
            }
            switch step.kind {
            case .era:
                guard let isAD = DateFieldText.readEra(text, &index) else { return false }
                fields.isBC = isAD ? 0 : 1
            case .monthName:
                guard let month = DateFieldText.readMonth(text, &index) else { return false }
                fields.month = month
            case .weekday:
                guard DateFieldText.readWeekday(text, &index) else { return false }
            case .amPm:
                guard let isPM = DateFieldText.readAmPm(text, &index) else { return false }
                fields.isPM = isPM ? 1 : 0
            case .zoneBasic, .zoneExtended, .zoneHours, .zoneGMTShort, .zoneGMTLong:
                let abbreviations = step.kind == .zoneGMTShort && step.flag
                guard let offset = DateFieldText.readZone(text, &index, abbreviations: abbreviations) else { return false }
                fields.offset = offset
            default:
                let start = index
                guard let value = readNumber(text, &index, step), fields.set(step, value, digits: index - start)
                else { return false }
            }
        }
        return true
    }

    /// Reads the digits of a numeric field: all of them, or the widths a run of abutting
    /// fields dictates. Fails on no digits and on values above `Int32.max` (as DateFormatter).
    // Reads the digits in place, each index checked against `end`.
    @inline(__always)
    private static func readNumber(_ text: UnsafeRawBufferPointer, _ index: inout Int, _ step: DatePatternStep) -> Int? {
        let end = text.count
        var limit = Int.max
        if step.fixedWidth > 0 {
            limit = step.fixedWidth
        } else if step.runTail > 0 {
            var available = 0
            while available < step.count + step.runTail, index + available < end,
                  DateFieldText.isDigit(text[index + available]) {
                available += 1
            }
            limit = min(step.count, available - step.runTail)
            guard limit >= 1 else { return nil }
        }
        var value = 0
        var digits = 0
        while digits < limit, index < end, DateFieldText.isDigit(text[index]) {
            value = value * 10 + Int(text[index] &- 0x30)
            guard value <= Int(Int32.max) else { return nil }
            digits += 1
            index += 1
        }
        guard digits > 0, step.fixedWidth == 0 || digits == step.fixedWidth else { return nil }
        return value
    }

    /// Milliseconds of a fraction of `digits` digits: the first three digits, padded.
    @inline(__always)
    static func milliseconds(fraction value: Int, digits: Int) -> Int {
        var result = value
        var count = digits
        while count < 3 { result *= 10; count += 1 }
        while count > 3 && result > 0 { result /= 10; count -= 1 }
        return result
    }

    /// Validates the fields and turns them into an instant.
    @inline(__always)
    private func resolve(_ fields: inout ParsedFields) -> ParseOutcome {
        let month = fields.month, day = fields.day
        guard (1...12).contains(month) else { return .failure }
        if fields.isBC != 0 || !CivilCalendar.nativeYears.contains(fields.year) { return .delegate }
        guard day >= 1, day <= CivilCalendar.daysInMonth(year: fields.year, month: month) else { return .failure }
        let hour = fields.hour + 12 * fields.isPM  // Only 12-hour fields (or none) meet AM/PM.
        let timeOfDay = hour * 3_600_000 + fields.minute * 60_000 + fields.second * 1000 + fields.millisecond

        let offset = fields.offset
        func instant(year: Int) -> Int? {
            let local = CivilCalendar.days(year: year, month: month, day: day) * 86_400_000 + timeOfDay
            if offset != ParsedFields.noOffset { return local - offset * 1000 }
            return zone.utcMillis(localMillis: local)
        }
        guard var millis = instant(year: fields.year) else { return .failure }
        // "50" means 1950 only from 1950-01-01 00:00 UTC on; earlier instants are 2050.
        if fields.twoDigitYear != 0 && millis < -631_152_000_000 {
            guard let later = instant(year: 2050) else { return .failure }
            millis = later
        }
        return .success(DateMillis.date(millis: millis))
    }
}
