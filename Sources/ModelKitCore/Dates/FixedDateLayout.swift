/// The fast path of ``DateFormatPattern`` parsing: the text layout `DateFormatter` writes.
///
/// When a pattern starts with fields whose text always has the same width for years
/// 1000–9999 (`yyyy`, `MM`, `dd`, `HH`, `mm`, `ss`, `SSS`, `EEE`, `MMM`, `a`, `G`, `Z`,
/// `xx`, `xxx`, literals), every byte of that prefix sits at an offset known when the
/// pattern is compiled. The layout checks those bytes with two flat loops (literal bytes,
/// then numbers) and a few fixed-position names, with no per-field dispatch, which brings
/// it within about twice the cost of a parser hand-written for one pattern.
///
/// The layout only ever accepts what the lenient general reader accepts, with the same
/// result: it gives up (and the general reader starts over) on any other input.
struct FixedDateLayout: @unchecked Sendable {
    /// A literal byte at a fixed offset.
    struct Byte {
        var offset: Int
        var value: UInt8
    }

    /// A number of `width` digits at a fixed offset, stored in value slot `slot`.
    struct Number {
        var offset: Int
        var width: Int
        var slot: Int
        /// Whether a digit right after it makes the general reader read more.
        var checkNext: Bool
    }

    /// Value slots of numbers.
    enum Slot {
        static let year = 0, month = 1, day = 2, hour = 3, minute = 4, second = 5, fraction = 6
    }

    // Points into memory the compiled pattern owns (see `CompiledDatePattern`), with `numbers`: the fast path loops
    // over both per date parsed, with no array to retain.
    var bytes: UnsafeBufferPointer<Byte>
    // Points into the compiled pattern's memory, like `bytes`.
    var numbers: UnsafeBufferPointer<Number>
    /// How many leading steps the layout covers, and their total width in bytes.
    var stepCount = 0
    var length = 0
    /// Which slots hold a value (bit `1 << slot`).
    var slotMask = 0
    /// A year of one or two pattern letters read as two digits: the 1950–2049 window applies.
    var twoDigitYear = false
    var hourKind = DatePatternStep.Kind.hour0To23
    var fractionDigits = 0
    /// Offsets of the named fields, or -1.
    var monthNameAt = -1, weekdayAt = -1, amPmAt = -1, eraAt = -1, zoneAt = -1
    var zoneExtended = false

    /// Reads the layout's prefix of `text` into `fields`; `false` when the text differs
    /// from the layout in any way.
    // The input's bytes in place: `text.count >= length` is checked first, and every offset the layout reads lies below
    // `length`, so the loops read without further checks.
    @inline(__always)
    func read(_ text: UnsafeRawBufferPointer, into fields: inout DateFormatPattern.ParsedFields) -> Bool {
        guard text.count >= length else { return false }
        for byte in bytes where text[byte.offset] != byte.value { return false }
        var slots: (Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0)
        // The eight `Int` slots as raw bytes, so each number is stored at its slot's offset without a switch per
        // number: `slot * MemoryLayout<Int>.stride`, a homogeneous tuple's element offset (4 bytes on arm64_32).
        let complete = withUnsafeMutableBytes(of: &slots) { slotBytes -> Bool in
            for number in numbers {
                var value = 0
                for position in number.offset..<(number.offset &+ number.width) {
                    let digit = text[position] &- 0x30
                    guard digit < 10 else { return false }
                    value = value &* 10 &+ Int(digit)
                }
                let next = number.offset &+ number.width
                if number.checkNext, next < text.count, DateFieldText.isDigit(text[next]) { return false }
                slotBytes.storeBytes(of: value, toByteOffset: number.slot &* MemoryLayout<Int>.stride, as: Int.self)
            }
            return true
        }
        guard complete, apply(slots, to: &fields) else { return false }
        return readNames(text, into: &fields)
    }

    /// Moves slot values into `fields`, validating them as the general reader does.
    @inline(__always)
    private func apply(_ slots: (Int, Int, Int, Int, Int, Int, Int, Int), to fields: inout DateFormatPattern.ParsedFields) -> Bool {
        if slotMask & (1 << Slot.year) != 0 {
            fields.year = slots.0
            if twoDigitYear {
                fields.year = slots.0 < 50 ? 2000 + slots.0 : 1900 + slots.0
                fields.twoDigitYear = slots.0 == 50 ? 1 : 0
            }
        }
        if slotMask & (1 << Slot.month) != 0 { fields.month = slots.1 }
        if slotMask & (1 << Slot.day) != 0 { fields.day = slots.2 }
        if slotMask & (1 << Slot.hour) != 0 {
            let hour = slots.3
            switch hourKind {
            case .hour1To12: guard hour <= 12 else { return false }; fields.hour = hour % 12
            case .hour0To11: guard hour <= 11 else { return false }; fields.hour = hour
            case .hour1To24: guard hour <= 24 else { return false }; fields.hour = hour % 24
            default: guard hour <= 23 else { return false }; fields.hour = hour
            }
        }
        if slotMask & (1 << Slot.minute) != 0 {
            guard slots.4 <= 59 else { return false }
            fields.minute = slots.4
        }
        if slotMask & (1 << Slot.second) != 0 {
            guard slots.5 <= 59 else { return false }
            fields.second = slots.5
        }
        if slotMask & (1 << Slot.fraction) != 0 {
            fields.millisecond = DateFormatPattern.milliseconds(fraction: slots.6, digits: fractionDigits)
        }
        return true
    }

    /// Reads the named fields at their offsets: exactly the short forms DateFormatter writes.
    // The same bytes, read at the named fields' offsets, which lie below `length` (checked in `read`).
    @inline(__always)
    private func readNames(_ text: UnsafeRawBufferPointer, into fields: inout DateFormatPattern.ParsedFields) -> Bool {
        if monthNameAt >= 0 {
            var index = monthNameAt
            guard let month = DateFieldText.readMonth(text, &index), index == monthNameAt &+ 3 else { return false }
            fields.month = month
        }
        if weekdayAt >= 0 {
            var index = weekdayAt
            guard DateFieldText.readWeekday(text, &index), index == weekdayAt &+ 3 else { return false }
        }
        if amPmAt >= 0 {
            var index = amPmAt
            guard let isPM = DateFieldText.readAmPm(text, &index), index == amPmAt &+ 2 else { return false }
            fields.isPM = isPM ? 1 : 0
        }
        if eraAt >= 0 {
            var index = eraAt
            guard let isAD = DateFieldText.readEra(text, &index) else { return false }
            fields.isBC = isAD ? 0 : 1
        }
        if zoneAt >= 0 {
            // "+HHmm" or "+HH:mm", not followed by what would extend it.
            let sign = text[zoneAt]
            guard sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-"),
                  let hours = twoDigits(text, zoneAt &+ 1), hours < 24,
                  !zoneExtended || text[zoneAt &+ 3] == UInt8(ascii: ":"),
                  let minutes = twoDigits(text, zoneAt &+ (zoneExtended ? 4 : 3)), minutes < 60
            else { return false }
            let next = zoneAt &+ (zoneExtended ? 6 : 5)
            if next < text.count, DateFieldText.isDigit(text[next]) || text[next] == UInt8(ascii: ":") { return false }
            fields.offset = (sign == UInt8(ascii: "-") ? -60 : 60) * (hours * 60 + minutes)
        }
        return true
    }

    /// Two ASCII digits at `index`, or `nil`.
    // Reads in place after checking `index + 1` against the count.
    @inline(__always)
    private func twoDigits(_ text: UnsafeRawBufferPointer, _ index: Int) -> Int? {
        guard index &+ 1 < text.count else { return nil }
        let high = text[index] &- 0x30, low = text[index &+ 1] &- 0x30
        return high < 10 && low < 10 ? Int(high) * 10 + Int(low) : nil
    }
}

extension FixedDateLayout {
    /// The layout of a compiled pattern, with its tables as arrays (the caller copies them
    /// into memory it owns and points ``bytes`` and ``numbers`` at them).
    struct Plan {
        // Empty until `CompiledDatePattern` points them at its own copies of `bytes` and `numbers`.
        var layout = FixedDateLayout(bytes: UnsafeBufferPointer(start: nil, count: 0),
                                     numbers: UnsafeBufferPointer(start: nil, count: 0))
        var bytes: [Byte] = []
        var numbers: [Number] = []
    }

    /// Plans the longest usable fixed-width prefix of `steps`.
    static func plan(_ steps: [DatePatternStep], literals: [UInt8]) -> Plan {
        var widths: [Int] = []
        var seen = Set<DatePatternStep.Kind>()
        for step in steps {
            guard let width = fixedWidth(of: step) else { break }
            // A repeated weekday or zone field is left to the general reader.
            if step.kind != .literal && step.kind != .whitespace && !seen.insert(step.kind).inserted { break }
            widths.append(width)
        }
        // Never stop inside a run of abutting numbers or right after whitespace, where the
        // general reader, continuing, could read differently.
        var count = widths.count
        while count > 0, count < steps.count, steps[count - 1].followedByNumber || steps[count - 1].kind == .whitespace {
            count -= 1
        }
        var plan = Plan()
        guard count > 0 else { return plan }
        var offset = 0
        for (step, width) in zip(steps[0..<count], widths) {
            plan.add(step, at: offset, width: width, literals: literals)
            offset += width
        }
        plan.layout.stepCount = count
        plan.layout.length = offset
        return plan
    }

    /// The width of a step in DateFormatter's output when it never varies.
    private static func fixedWidth(of step: DatePatternStep) -> Int? {
        switch step.kind {
        case .literal, .whitespace: return step.literalEnd - step.literalStart
        case .year: return step.count == 2 ? 2 : max(step.count, 4)
        case .month, .day, .hour0To23, .hour1To12, .hour0To11, .hour1To24, .minute, .second:
            return step.count >= 2 ? step.count : nil
        case .fraction: return step.count
        case .monthName, .weekday: return step.count <= 3 ? 3 : nil
        case .amPm: return step.count <= 4 ? 2 : nil
        case .era: return 2
        case .zoneBasic: return step.flag ? nil : 5
        case .zoneExtended: return step.flag ? nil : 6
        case .zoneHours, .zoneGMTShort, .zoneGMTLong: return nil
        }
    }
}

extension FixedDateLayout.Plan {
    fileprivate mutating func add(_ step: DatePatternStep, at offset: Int, width: Int, literals: [UInt8]) {
        typealias Slot = FixedDateLayout.Slot
        func number(_ slot: Int) {
            numbers.append(.init(offset: offset, width: width, slot: slot, checkNext: !step.followedByNumber))
            layout.slotMask |= 1 << slot
        }
        switch step.kind {
        case .literal, .whitespace:
            for index in 0..<width {
                bytes.append(.init(offset: offset + index, value: literals[step.literalStart + index]))
            }
        case .year:
            number(Slot.year)
            layout.twoDigitYear = step.count <= 2 && width == 2
        case .month: number(Slot.month)
        case .day: number(Slot.day)
        case .hour0To23, .hour1To12, .hour0To11, .hour1To24:
            number(Slot.hour)
            layout.hourKind = step.kind
        case .minute: number(Slot.minute)
        case .second: number(Slot.second)
        case .fraction:
            number(Slot.fraction)
            layout.fractionDigits = width
        case .monthName: layout.monthNameAt = offset
        case .weekday: layout.weekdayAt = offset
        case .amPm: layout.amPmAt = offset
        case .era: layout.eraAt = offset
        case .zoneBasic, .zoneExtended:
            layout.zoneAt = offset
            layout.zoneExtended = step.kind == .zoneExtended
        case .zoneHours, .zoneGMTShort, .zoneGMTLong:
            break  // Never planned: not fixed-width.
        }
    }
}
