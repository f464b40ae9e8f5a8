/// English (POSIX locale) date field text, read from and written to raw UTF-8 bytes.
///
/// Reading is case-insensitive and accepts the same name forms `DateFormatter` accepts
/// with the `en_US_POSIX` locale: full or abbreviated month names, and full, abbreviated,
/// two-letter or one-letter weekday names. Nothing here allocates.
enum DateFieldText {
    // MARK: Bytes

    @inline(__always)
    static func isDigit(_ byte: UInt8) -> Bool { byte &- 0x30 < 10 }

    /// ASCII whitespace: space, tab, line feed, vertical tab, form feed, carriage return.
    @inline(__always)
    static func isWhitespace(_ byte: UInt8) -> Bool { byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) }

    /// Lowercases an ASCII letter; other bytes never become lowercase letters.
    @inline(__always)
    static func lowercase(_ byte: UInt8) -> UInt8 { byte | 0x20 }

    /// The number of bytes at `index` that match `name` case-insensitively, counting from
    /// the start of `name`.
    // The input's bytes in place; each index is checked against `text.count` before it is read.
    @inline(__always)
    static func commonPrefix(_ text: UnsafeRawBufferPointer, _ index: Int, _ name: StaticString) -> Int {
        let length = name.utf8CodeUnitCount
        // The name's static bytes, read in place; `matched` stays below their count.
        let start = name.utf8Start
        var matched = 0
        while matched < length, index + matched < text.count,
              lowercase(text[index + matched]) == lowercase(start[matched]) {
            matched += 1
        }
        return matched
    }

    // MARK: Names

    /// The full English name of a month, 1–12.
    @inline(__always)
    static func monthName(_ month: Int) -> StaticString {
        switch month {
        case 1: return "January"
        case 2: return "February"
        case 3: return "March"
        case 4: return "April"
        case 5: return "May"
        case 6: return "June"
        case 7: return "July"
        case 8: return "August"
        case 9: return "September"
        case 10: return "October"
        case 11: return "November"
        default: return "December"
        }
    }

    /// The full English name of a weekday, 0 (Sunday) – 6.
    @inline(__always)
    static func weekdayName(_ weekday: Int) -> StaticString {
        switch weekday {
        case 0: return "Sunday"
        case 1: return "Monday"
        case 2: return "Tuesday"
        case 3: return "Wednesday"
        case 4: return "Thursday"
        case 5: return "Friday"
        default: return "Saturday"
        }
    }

    /// The three lowercased bytes at `index` packed big-endian, or 0 when fewer remain.
    // Reads three bytes in place after checking `index + 2` against the count.
    @inline(__always)
    private static func key(_ text: UnsafeRawBufferPointer, _ index: Int) -> UInt32 {
        guard index + 2 < text.count else { return 0 }
        return UInt32(lowercase(text[index])) << 16 | UInt32(lowercase(text[index + 1])) << 8
            | UInt32(lowercase(text[index + 2]))
    }

    /// Advances past the full name (`name(value)`) when the text continues with it after the
    /// three letters at `index`, else past the three letters. The name is only looked up
    /// when a letter follows, which DateFormatter's own output never has.
    // Reads in place after checking `index + 3`; `commonPrefix` checks its own indexes.
    @inline(__always)
    private static func advance(_ text: UnsafeRawBufferPointer, _ index: inout Int, value: Int,
                                name: (Int) -> StaticString) {
        if index + 3 < text.count, text[index + 3] | 0x20 >= UInt8(ascii: "a") {
            let fullName = name(value)
            let full = fullName.utf8CodeUnitCount
            if full > 3, commonPrefix(text, index, fullName) == full {
                index += full
                return
            }
        }
        index += 3
    }

    /// Reads a month name (full or three-letter) at `index`, preferring the longest match.
    /// Returns the month, 1–12, and advances `index`; returns `nil` without advancing otherwise.
    // Reads in place through `key` and `advance`, which check the bounds.
    @inline(__always)
    static func readMonth(_ text: UnsafeRawBufferPointer, _ index: inout Int) -> Int? {
        // A perfect hash of the twelve abbreviations; entries are `key << 8 | month`.
        let key = key(text, index)
        let entry = monthsByHash[Int(truncatingIfNeeded: (key &* 331_520) >> 27)]
        guard key != 0, entry >> 8 == key else { return nil }
        let month = Int(entry & 0xFF)
        advance(text, &index, value: month, name: monthName)
        return month
    }

    /// Reads a weekday name at `index`: full, three-letter, two-letter or one-letter, the
    /// longest that matches. Advances `index` and returns whether a name was found. The
    /// weekday itself is not returned: like `DateFormatter`, the date comes from the year,
    /// month and day fields.
    // Reads in place through `key` and `advance`, which check the bounds.
    @inline(__always)
    static func readWeekday(_ text: UnsafeRawBufferPointer, _ index: inout Int) -> Bool {
        // A perfect hash of the seven abbreviations; entries are `key << 8 | weekday`.
        let key = key(text, index)
        let entry = weekdaysByHash[Int(truncatingIfNeeded: (key &* 7_914) >> 28)]
        guard key != 0, entry >> 8 == key else { return readShortWeekday(text, &index) }
        advance(text, &index, value: Int(entry & 0xFF), name: weekdayName)
        return true
    }

    /// The two- and one-letter weekday forms ("Su", "M").
    // Reads in place through `commonPrefix`, which checks the bounds.
    private static func readShortWeekday(_ text: UnsafeRawBufferPointer, _ index: inout Int) -> Bool {
        var best = 0
        for weekday in 0...6 {
            best = max(best, min(commonPrefix(text, index, weekdayName(weekday)), 2))
        }
        index += best
        return best > 0
    }

    /// Reads "AM"/"PM" or "A"/"P" at `index`; returns whether it was PM.
    // Reads in place, each index checked against the count.
    @inline(__always)
    static func readAmPm(_ text: UnsafeRawBufferPointer, _ index: inout Int) -> Bool? {
        guard index < text.count else { return nil }
        let first = lowercase(text[index])
        guard first == UInt8(ascii: "a") || first == UInt8(ascii: "p") else { return nil }
        let hasM = index + 1 < text.count && lowercase(text[index + 1]) == UInt8(ascii: "m")
        index += hasM ? 2 : 1
        return first == UInt8(ascii: "p")
    }

    /// Reads "AD" or "BC"; returns whether it was AD.
    // Reads in place after checking `index + 1` against the count.
    @inline(__always)
    static func readEra(_ text: UnsafeRawBufferPointer, _ index: inout Int) -> Bool? {
        guard index + 1 < text.count else { return nil }
        let pair = (lowercase(text[index]), lowercase(text[index + 1]))
        if pair == (UInt8(ascii: "a"), UInt8(ascii: "d")) { index += 2; return true }
        if pair == (UInt8(ascii: "b"), UInt8(ascii: "c")) { index += 2; return false }
        return nil
    }

    // MARK: Zones

    /// Reads a zone designator the way `DateFormatter` reads any zone field: `Z`, an ISO
    /// offset (`+01`, `+0130`, `+01:30`, `+013015`, `+01:30:15`, `+1`, `+130`), or `GMT`,
    /// `UTC` or `UT` optionally followed by `+1`, `+01:30`, `-5:30:15`. With
    /// `abbreviations`, the North American names `DateFormatter` knows in English (`EST`,
    /// `PDT`, `AKST`, `HST`, …) are read as their fixed offsets. Returns seconds east of GMT.
    // Reads in place; it and the readers it calls check each index against the count.
    static func readZone(_ text: UnsafeRawBufferPointer, _ index: inout Int, abbreviations: Bool) -> Int? {
        guard index < text.count else { return nil }
        let first = text[index]
        if first == UInt8(ascii: "+") || first == UInt8(ascii: "-") {
            return readISOOffset(text, &index)
        }
        if lowercase(first) == UInt8(ascii: "z") {
            index += 1
            return 0
        }
        let prefixLength = commonPrefix(text, index, "UTC") == 3 || commonPrefix(text, index, "GMT") == 3 ? 3
            : commonPrefix(text, index, "UT") == 2 ? 2 : 0
        if prefixLength > 0 {
            index += prefixLength
            return readLocalizedOffset(text, &index) ?? 0
        }
        return abbreviations ? readAbbreviation(text, &index) : nil
    }

    /// An ISO 8601 offset after its sign: `HH:mm[:ss]`, or 1–6 digits (`H`, `HH`, `Hmm`,
    /// `HHmm`, `Hmmss`, `HHmmss`). Hours 0–23, minutes and seconds 0–59.
    // Reads in place: `readZone` saw the sign at `index`; each later index is checked against the count.
    private static func readISOOffset(_ text: UnsafeRawBufferPointer, _ index: inout Int) -> Int? {
        let sign = text[index] == UInt8(ascii: "-") ? -1 : 1
        var i = index + 1
        func two(_ at: Int) -> Int? {
            guard at + 1 < text.count, isDigit(text[at]), isDigit(text[at + 1]) else { return nil }
            return Int(text[at] - 0x30) * 10 + Int(text[at + 1] - 0x30)
        }
        var hours = 0, minutes = 0, seconds = 0
        if let h = two(i), i + 2 < text.count, text[i + 2] == UInt8(ascii: ":"), let m = two(i + 3) {
            (hours, minutes) = (h, m)
            i += 5
            if i < text.count, text[i] == UInt8(ascii: ":"), let s = two(i + 1) {
                seconds = s
                i += 3
            }
        } else {
            var digits = 0
            var value = 0
            while digits < 6, i < text.count, isDigit(text[i]) {
                value = value * 10 + Int(text[i] - 0x30)
                digits += 1
                i += 1
            }
            switch digits {
            case 1, 2: hours = value
            case 3, 4: (hours, minutes) = (value / 100, value % 100)
            case 5, 6: (hours, minutes, seconds) = (value / 10_000, value / 100 % 100, value % 100)
            default: return nil
            }
        }
        guard hours < 24, minutes < 60, seconds < 60 else { return nil }
        index = i
        return sign * (hours * 3600 + minutes * 60 + seconds)
    }

    /// The offset after `GMT`: sign, 1–2 digit hours, then optionally `:mm` and `:ss`.
    /// Returns `nil` without advancing when there is no signed hour.
    // Reads in place, each index checked against the count.
    private static func readLocalizedOffset(_ text: UnsafeRawBufferPointer, _ index: inout Int) -> Int? {
        var i = index
        guard i + 1 < text.count, text[i] == UInt8(ascii: "+") || text[i] == UInt8(ascii: "-"),
              isDigit(text[i + 1])
        else { return nil }
        let sign = text[i] == UInt8(ascii: "-") ? -1 : 1
        i += 1
        var hours = 0
        for _ in 0..<2 where i < text.count && isDigit(text[i]) {
            hours = hours * 10 + Int(text[i] - 0x30)
            i += 1
        }
        var total = hours * 3600
        var scale = 60
        while scale > 0 {
            guard i + 2 < text.count, text[i] == UInt8(ascii: ":"), isDigit(text[i + 1]), isDigit(text[i + 2])
            else { break }
            let value = Int(text[i + 1] - 0x30) * 10 + Int(text[i + 2] - 0x30)
            guard value < 60 else { return nil }
            total += value * scale
            i += 3
            scale = scale == 60 ? 1 : 0
        }
        guard hours < 24 else { return nil }
        index = i
        return sign * total
    }

    /// North American zone abbreviations known to the English locale, as fixed offsets.
    // Reads in place through `commonPrefix`, which checks the bounds.
    private static func readAbbreviation(_ text: UnsafeRawBufferPointer, _ index: inout Int) -> Int? {
        for entry in 0..<14 {
            let (name, hours): (StaticString, Int)
            switch entry {
            case 0: (name, hours) = ("AKST", -9)
            case 1: (name, hours) = ("AKDT", -8)
            case 2: (name, hours) = ("EST", -5)
            case 3: (name, hours) = ("EDT", -4)
            case 4: (name, hours) = ("CST", -6)
            case 5: (name, hours) = ("CDT", -5)
            case 6: (name, hours) = ("MST", -7)
            case 7: (name, hours) = ("MDT", -6)
            case 8: (name, hours) = ("PST", -8)
            case 9: (name, hours) = ("PDT", -7)
            case 10: (name, hours) = ("HST", -10)
            case 11: (name, hours) = ("HDT", -9)
            case 12: (name, hours) = ("AST", -4)
            default: (name, hours) = ("ADT", -3)
            }
            if commonPrefix(text, index, name) == name.utf8CodeUnitCount {
                index += name.utf8CodeUnitCount
                return hours * 3600
            }
        }
        return nil
    }
}

/// Month abbreviations ("jan" … "dec") by perfect hash `(key &* 331_520) >> 27`.
private let monthsByHash: [UInt32] = [
    0x6175_6708, 0, 0, 0, 0x6A61_6E01, 0, 0, 0, 0, 0x6D61_7203, 0x6D61_7905, 0, 0, 0, 0, 0x6F63_740A,
    0x6A75_6C07, 0x6A75_6E06, 0, 0, 0x6E6F_760B, 0, 0, 0x7365_7009, 0, 0, 0, 0x6465_630C, 0x6170_7204, 0, 0, 0x6665_6202,
]

/// Weekday abbreviations ("sun" … "sat") by perfect hash `(key &* 7_914) >> 28`.
private let weekdaysByHash: [UInt32] = [
    0x7468_7504, 0x7475_6502, 0, 0x6D6F_6E01, 0, 0x6672_6905, 0x7765_6403, 0, 0, 0, 0, 0, 0, 0, 0x7361_7406, 0x7375_6E00,
]

/// "Jan" … "Dec" as little-endian bytes, for writing without a lookup by name.
private let monthAbbreviationBytes: [UInt32] = [
    0x6E_614A, 0x62_6546, 0x72_614D, 0x72_7041, 0x79_614D, 0x6E_754A,
    0x6C_754A, 0x67_7541, 0x70_6553, 0x74_634F, 0x76_6F4E, 0x63_6544,
]

/// "Sun" … "Sat" as little-endian bytes.
private let weekdayAbbreviationBytes: [UInt32] = [0x6E_7553, 0x6E_6F4D, 0x65_7554, 0x64_6557, 0x75_6854, 0x69_7246, 0x74_6153]

/// Appends bytes to a fixed-capacity buffer whose size was computed from the pattern.
/// Writes past the capacity are dropped (never out of bounds).
struct DateTextWriter {
    // The caller's temporary buffer, sized from the pattern (`maxOutputLength`): formatting writes into it without
    // allocating, each write checked against its count.
    private let buffer: UnsafeMutableBufferPointer<UInt8>
    private(set) var count = 0

    // Borrows the caller's buffer for one formatting call (inside its `withUnsafeTemporaryAllocation`).
    init(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        self.buffer = buffer
    }

    /// The bytes written so far.
    // A view of the bytes written, valid while the caller's buffer is.
    var written: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: buffer[0..<count]) }

    @inline(__always)
    mutating func byte(_ value: UInt8) {
        guard count < buffer.count else { return }
        buffer[count] = value
        count += 1
    }

    /// Writes the three-letter abbreviation of a month (1–12).
    @inline(__always)
    mutating func monthAbbreviation(_ month: Int) {
        packed(monthAbbreviationBytes[(month &- 1) & 15 < 12 ? (month &- 1) & 15 : 0])
    }

    /// Writes the three-letter abbreviation of a weekday (0 for Sunday – 6).
    @inline(__always)
    mutating func weekdayAbbreviation(_ weekday: Int) {
        packed(weekdayAbbreviationBytes[weekday & 7 < 7 ? weekday & 7 : 0])
    }

    @inline(__always)
    private mutating func packed(_ bytes: UInt32) {
        byte(UInt8(truncatingIfNeeded: bytes))
        byte(UInt8(truncatingIfNeeded: bytes >> 8))
        byte(UInt8(truncatingIfNeeded: bytes >> 16))
    }

    @inline(__always)
    mutating func text(_ value: StaticString, limit: Int = .max) {
        let length = min(value.utf8CodeUnitCount, limit)
        // A static string's bytes, read in place; `offset` stays below its length.
        for offset in 0..<length { byte(value.utf8Start[offset]) }
    }

    /// Writes `digits` as exactly `count` decimal digits, with leading zeros (a fraction's
    /// digits, or a number's once its width is known).
    @inline(__always)
    mutating func fraction(_ digits: UInt64, count: Int) {
        let count = max(count, 1)
        guard self.count + count <= buffer.count else { return }
        var rest = digits
        var position = self.count + count
        while position > self.count {
            position -= 1
            buffer[position] = UInt8(truncatingIfNeeded: rest % 10) &+ 0x30
            rest /= 10
        }
        self.count += count
    }

    /// Writes a non-negative number in decimal, zero-padded to `width` digits.
    @inline(__always)
    mutating func number(_ value: Int, width: Int) {
        if value >= 0 && value < 100 && width <= 2 {
            if value >= 10 || width == 2 { byte(UInt8(truncatingIfNeeded: value / 10) &+ 0x30) }
            byte(UInt8(truncatingIfNeeded: value % 10) &+ 0x30)
            return
        }
        if value >= 1000 && value < 10_000 && width <= 4 {
            byte(UInt8(truncatingIfNeeded: value / 1000) &+ 0x30)
            byte(UInt8(truncatingIfNeeded: value / 100 % 10) &+ 0x30)
            byte(UInt8(truncatingIfNeeded: value / 10 % 10) &+ 0x30)
            byte(UInt8(truncatingIfNeeded: value % 10) &+ 0x30)
            return
        }
        anyNumber(value, width: width)
    }

    /// ``number(_:width:)`` for numbers of any size.
    @inline(never)
    private mutating func anyNumber(_ value: Int, width: Int) {
        let value = max(value, 0)
        var digits = 1
        var scale = 10
        while digits < 19, value >= scale {
            digits += 1
            scale &*= 10
        }
        var padding = width - digits
        while padding > 0 {
            byte(0x30)
            padding -= 1
        }
        fraction(UInt64(value), count: digits)
    }

    /// Writes `+HH`, `+HHmm` or `+HH:mm` (with the sign of `seconds`); `hoursOnlyWhenWhole`
    /// drops the minutes when they are zero.
    mutating func offset(_ seconds: Int, separator: Bool, hoursOnlyWhenWhole: Bool = false) {
        byte(seconds < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
        let minutes = abs(seconds) / 60
        number(minutes / 60, width: 2)
        if hoursOnlyWhenWhole && minutes % 60 == 0 { return }
        if separator { byte(UInt8(ascii: ":")) }
        number(minutes % 60, width: 2)
    }

    /// Writes `GMT`, or `GMT+1` / `GMT+5:30` (`long`: `GMT+01:00`).
    mutating func localizedGMT(_ seconds: Int, long: Bool) {
        text("GMT")
        guard seconds != 0 else { return }
        byte(seconds < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
        let minutes = abs(seconds) / 60
        number(minutes / 60, width: long ? 2 : 1)
        if long || minutes % 60 != 0 {
            byte(UInt8(ascii: ":"))
            number(minutes % 60, width: 2)
        }
    }
}
