import Foundation

/// One element of a pattern: a run of literal text, a run of whitespace, or a field.
struct DatePatternStep: Sendable {
    enum Kind: UInt8, Sendable {
        case literal, whitespace
        case era, year, month, monthName, day, weekday, amPm
        case hour0To23, hour1To12, hour0To11, hour1To24, minute, second, fraction
        /// `+HHmm` (`Z`–`ZZZ`, `xx`, `xxxx`; with `flag`: `XX`, `XXXX`).
        case zoneBasic
        /// `+HH:mm` (`xxx`, `xxxxx`; with `flag`: `XXX`, `XXXXX`, `ZZZZZ`).
        case zoneExtended
        /// `+HH`, or `+HHmm` when the minutes are not zero (`x`; with `flag`: `X`).
        case zoneHours
        /// `GMT+1`, `GMT+5:30` (`O`, and `z`–`zzz` for fixed-offset zones).
        case zoneGMTShort
        /// `GMT+01:00` (`OOOO`, `ZZZZ`).
        case zoneGMTLong
    }

    var kind: Kind
    /// How many times the pattern letter was repeated.
    var count = 0
    /// Zones: whether a zero offset is written `Z`. `zoneGMTShort`: whether zone
    /// abbreviations such as `EST` are read.
    var flag = false
    /// Inside a run of abutting numeric fields (after its first field): the exact digit count.
    var fixedWidth = 0
    /// The first field of a run of abutting numeric fields: the digits the rest need.
    var runTail = 0
    /// Literal and whitespace steps: their bytes in ``NativeDateProgram/literals``.
    var literalStart = 0
    var literalEnd = 0
    /// Whether another numeric field directly follows this numeric field.
    var followedByNumber = false

    var isNumeric: Bool {
        switch kind {
        case .year, .month, .day, .hour0To23, .hour1To12, .hour0To11, .hour1To24, .minute, .second, .fraction:
            return true
        default:
            return false
        }
    }
}

/// A date format pattern compiled into steps that the native parser and formatter run.
///
/// Immutable after creation. It owns the memory ``program`` points into; the hot paths
/// read that plain pointer view, so they do no reference counting. Compiling fails
/// (returns `nil`) for anything the native code does not reproduce exactly;
/// ``DateFormatPattern`` then uses a Foundation `DateFormatter` instead.
final class CompiledDatePattern: @unchecked Sendable {
    // The steps, in memory of their own (as the three tables below), so that the program can point into them: the hot
    // paths read plain pointers, with no array to retain.
    private let steps: UnsafeMutableBufferPointer<DatePatternStep>
    // The literal bytes, in memory of their own like `steps`.
    private let literals: UnsafeMutableBufferPointer<UInt8>
    // The fixed layout's literal bytes, in memory of their own like `steps` (`FixedDateLayout.bytes` points here).
    private let fixedBytes: UnsafeMutableBufferPointer<FixedDateLayout.Byte>
    // The fixed layout's numbers, in memory of their own like `steps` (`FixedDateLayout.numbers` points here).
    private let fixedNumbers: UnsafeMutableBufferPointer<FixedDateLayout.Number>
    /// A view of the steps, valid while this object is alive.
    // One allocation with a stable address, which `DateFormatPattern` hands to the parser and formatter.
    let program: UnsafeMutablePointer<NativeDateProgram>

    /// Compiles `pattern`, or returns `nil` when the native code cannot reproduce
    /// `DateFormatter` for it. Without `usesFixedLayout` (for tests), every parse takes the
    /// general path.
    init?(_ pattern: String, zone: DateZoneRule, usesFixedLayout: Bool = true) {
        guard let builder = Builder(pattern, zone: zone) else { return nil }
        // Copied once from the builder's arrays into the memory above, freed in `deinit`.
        steps = .allocate(capacity: builder.steps.count)
        _ = steps.initialize(from: builder.steps)
        literals = .allocate(capacity: builder.literals.count)
        _ = literals.initialize(from: builder.literals)
        let plan = usesFixedLayout ? FixedDateLayout.plan(builder.steps, literals: builder.literals) : FixedDateLayout.Plan()
        fixedBytes = .allocate(capacity: plan.bytes.count)
        _ = fixedBytes.initialize(from: plan.bytes)
        fixedNumbers = .allocate(capacity: plan.numbers.count)
        _ = fixedNumbers.initialize(from: plan.numbers)
        var layout = plan.layout
        // The layout points into the tables this object owns, like the program.
        layout.bytes = UnsafeBufferPointer(fixedBytes)
        layout.numbers = UnsafeBufferPointer(fixedNumbers)
        // The program views the tables above; valid while this object lives.
        program = .allocate(capacity: 1)
        program.initialize(to: NativeDateProgram(
            steps: UnsafeBufferPointer(steps), literals: UnsafeBufferPointer(literals),
            maxOutputLength: builder.maxOutputLength, fixed: layout))
    }

    deinit {
        steps.deallocate()
        literals.deallocate()
        fixedBytes.deallocate()
        fixedNumbers.deallocate()
        program.deinitialize(count: 1)
        program.deallocate()
    }
}

/// A pointer to the program a ``CompiledDatePattern`` owns, valid while that object is
/// alive (``DateFormatPattern`` keeps both together). Passing this pointer, rather than
/// the program or its owner, keeps the hot paths free of copies and reference counting.
struct NativeDateProgramPointer: @unchecked Sendable {
    // See the type: valid while the owning `CompiledDatePattern` lives, which `DateFormatPattern` keeps beside it.
    let pointer: UnsafePointer<NativeDateProgram>
}

/// The compiled steps as plain pointers into memory a ``CompiledDatePattern`` owns.
struct NativeDateProgram: @unchecked Sendable {
    typealias Step = DatePatternStep

    // Plain pointers into the owner's memory (see the type), read per date parsed or formatted without a retain.
    let steps: UnsafeBufferPointer<Step>
    /// The bytes of all literal and whitespace steps.
    // A plain pointer into the owner's memory, like `steps`.
    let literals: UnsafeBufferPointer<UInt8>
    /// An upper bound on the formatted length in bytes.
    let maxOutputLength: Int
    /// The fixed-width prefix the parser's fast path reads at fixed offsets.
    let fixed: FixedDateLayout
}

/// Turns pattern text into steps.
private struct Builder {
    typealias Step = DatePatternStep

    var steps: [Step] = []
    /// The bytes of all literal and whitespace steps.
    var literals: [UInt8] = []
    /// An upper bound on the formatted length in bytes.
    var maxOutputLength = 0

    init?(_ pattern: String, zone: DateZoneRule) {
        let bytes = Array(pattern.utf8)
        guard !bytes.isEmpty else { return nil }
        var seen: Set<Character> = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "'") {
                guard let next = appendQuoted(bytes, from: index) else { return nil }
                index = next
            } else if (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") {
                var count = 1
                while index + count < bytes.count, bytes[index + count] == byte { count += 1 }
                // A field may not be given twice, except the weekday (which is only checked)
                // and the zone (the last one read wins).
                guard let step = Self.field(letter: byte, count: count, zone: zone) else { return nil }
                let category = Self.category(of: step.kind)
                guard seen.insert(category).inserted || category == "E" || category == "Z" else { return nil }
                steps.append(step)
                index += count
            } else {
                appendLiteral(byte)
                index += 1
            }
        }
        // A weekday without a day of the month selects the date in DateFormatter; a
        // 24-hour field together with AM/PM resolves by field order there. Neither is native.
        if seen.contains("E") && !seen.contains("d") { return nil }
        if seen.contains("a") && steps.contains(where: { $0.kind == .hour0To23 || $0.kind == .hour1To24 }) {
            return nil
        }
        guard literals.count <= 4096 else { return nil }
        markAbuttingRuns()
        maxOutputLength = steps.reduce(0) { $0 + outputLength(of: $1) }
    }

    /// Appends a quoted section (or a doubled quote) starting at the quote at `start`;
    /// returns the index after it, or `nil` for an unterminated quote.
    private mutating func appendQuoted(_ bytes: [UInt8], from start: Int) -> Int? {
        let quote = UInt8(ascii: "'")
        if start + 1 < bytes.count, bytes[start + 1] == quote {
            appendLiteral(quote)
            return start + 2
        }
        var index = start + 1
        while index < bytes.count {
            if bytes[index] == quote {
                guard index + 1 < bytes.count, bytes[index + 1] == quote else { return index + 1 }
                appendLiteral(quote)
                index += 2
            } else {
                appendLiteral(bytes[index])
                index += 1
            }
        }
        return nil
    }

    /// Adds one byte of literal text, merging it with the previous step of the same kind.
    private mutating func appendLiteral(_ byte: UInt8) {
        let kind: Step.Kind = DateFieldText.isWhitespace(byte) ? .whitespace : .literal
        if let last = steps.last, last.kind == kind, last.literalEnd == literals.count {
            steps[steps.count - 1].literalEnd += 1
        } else {
            steps.append(Step(kind: kind, literalStart: literals.count, literalEnd: literals.count + 1))
        }
        literals.append(byte)
    }

    /// The step for a run of `count` pattern letters, or `nil` when it is not native.
    private static func field(letter: UInt8, count: Int, zone: DateZoneRule) -> Step? {
        guard count <= 9 else { return nil }
        func step(_ kind: Step.Kind, flag: Bool = false) -> Step { Step(kind: kind, count: count, flag: flag) }
        switch Character(Unicode.Scalar(letter)) {
        case "G": return count <= 3 ? step(.era) : nil
        case "y": return step(.year)
        case "M", "L": return count <= 2 ? step(.month) : count <= 4 ? step(.monthName) : nil
        case "d": return step(.day)
        case "E": return count <= 6 ? step(.weekday) : nil
        case "a": return count <= 5 ? step(.amPm) : nil
        case "H": return step(.hour0To23)
        case "h": return step(.hour1To12)
        case "K": return step(.hour0To11)
        case "k": return step(.hour1To24)
        case "m": return step(.minute)
        case "s": return step(.second)
        case "S": return step(.fraction)
        case "Z":
            switch count {
            case 1...3: return step(.zoneBasic)
            case 4: return step(.zoneGMTLong)
            case 5: return step(.zoneExtended, flag: true)
            default: return nil
            }
        case "X", "x":
            guard count <= 5 else { return nil }
            let kind: Step.Kind = count == 1 ? .zoneHours : count % 2 == 0 ? .zoneBasic : .zoneExtended
            return step(kind, flag: letter == UInt8(ascii: "X"))
        case "O": return count == 1 ? step(.zoneGMTShort) : count == 4 ? step(.zoneGMTLong) : nil
        case "z":
            // Zones with rules are written with names such as "EDT", which only DateFormatter knows.
            return count <= 3 && zone.fixedOffset != nil ? step(.zoneGMTShort, flag: true) : nil
        default: return nil
        }
    }

    /// The kind of calendar value a step sets, to reject patterns that set one twice.
    private static func category(of kind: Step.Kind) -> Character {
        switch kind {
        case .era: return "G"
        case .year: return "y"
        case .month, .monthName: return "M"
        case .day: return "d"
        case .weekday: return "E"
        case .amPm: return "a"
        case .hour0To23, .hour1To12, .hour0To11, .hour1To24: return "H"
        case .minute: return "m"
        case .second: return "s"
        case .fraction: return "S"
        case .zoneBasic, .zoneExtended, .zoneHours, .zoneGMTShort, .zoneGMTLong: return "Z"
        case .literal, .whitespace: return "'"
        }
    }

    /// Numeric fields written back to back ("yyyyMMdd", "HHmmss") are read with fixed
    /// widths, except that the first may be shorter, as in DateFormatter: "12345" for
    /// "HHmmss" is 1:23:45.
    private mutating func markAbuttingRuns() {
        var start = 0
        while start < steps.count {
            var end = start
            while end < steps.count, steps[end].isNumeric { end += 1 }
            if end - start >= 2 {
                var tail = 0
                for index in (start + 1)..<end {
                    steps[index - 1].followedByNumber = true
                    steps[index].fixedWidth = steps[index].count
                    tail += steps[index].count
                }
                steps[start].runTail = tail
            }
            start = max(end, start + 1)
        }
    }

    /// The most bytes a step writes.
    private func outputLength(of step: Step) -> Int {
        switch step.kind {
        case .literal, .whitespace: return step.literalEnd - step.literalStart
        case .era, .amPm: return 2
        case .monthName, .weekday: return 9
        case .zoneBasic, .zoneExtended, .zoneHours, .zoneGMTShort, .zoneGMTLong: return 9
        case .fraction: return step.count
        default: return max(step.count, 4)
        }
    }
}
