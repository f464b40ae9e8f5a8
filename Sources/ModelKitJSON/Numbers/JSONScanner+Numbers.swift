import Foundation
import ModelKitCore

/// Reading numbers with ``JSONScanner``.
///
/// Integers are exact: `1.0`, `1e3` and `2500e-2` read as integers because their values are
/// whole, while `1.5` is an error saying it is not a whole number and `1e30` an error saying it
/// is out of range. Doubles are correctly rounded. On any such error nothing is consumed.
extension JSONScanner {
    /// Reads a number as an exact `Int64`.
    ///
    /// Throws ``JSONValueError`` (consuming nothing) when the next value is not a number, is not
    /// a whole number, or is outside `Int64`.
    ///
    /// ```swift
    /// let id = try scanner.readInt64() // 505874924095815681
    /// ```
    // @inlinable: called for every integer value (JSONBytesReader.decodeInt64(), readInteger(_:));
    // plain digits, the shape of almost every integer, are read by a loop compiled into the caller.
    @inlinable
    public mutating func readInt64() throws -> Int64 {
        skipWhitespace()
        // Fast path: up to 18 plain digits (always in range), the shape of almost every integer.
        var index = position
        let isNegative = index < end && input[index] == UInt8(ascii: "-")
        if isNegative { index &+= 1 }
        let digitsStart = index
        var magnitude: UInt64 = 0
        index = accumulateDigits(from: index, into: &magnitude)
        let count = index &- digitsStart
        if count > 0 && count <= 18 && (count == 1 || input[digitsStart] != UInt8(ascii: "0"))
            && (index == end || !JSONScanner.continuesNumber(input[index])) {
            position = index
            let value = Int64(truncatingIfNeeded: magnitude)
            return isNegative ? 0 &- value : value
        }
        return try readInt64Slowly()
    }

    /// Reads a number as an exact `UInt64`.
    ///
    /// Throws ``JSONValueError`` (consuming nothing) when the next value is not a number, is not
    /// a whole number, or is outside `UInt64` (negative zero reads as 0).
    ///
    /// ```swift
    /// let followers = try scanner.readUInt64()
    /// ```
    // @inlinable: called for every unsigned value (JSONBytesReader.decodeUInt64(),
    // readInteger(_:)); plain digits are read by a loop compiled into the caller.
    @inlinable
    public mutating func readUInt64() throws -> UInt64 {
        skipWhitespace()
        var magnitude: UInt64 = 0
        let index = accumulateDigits(from: position, into: &magnitude)
        let count = index &- position
        if count > 0 && count <= 19 && (count == 1 || input[position] != UInt8(ascii: "0"))
            && (index == end || !JSONScanner.continuesNumber(input[index])) {
            position = index
            return magnitude
        }
        return try readUInt64Slowly()
    }

    /// Reads a number as an integer of type `T`, exactly.
    ///
    /// Throws ``JSONValueError`` (consuming nothing) when the number is not a whole number or
    /// does not fit `T`; the message names `T`.
    ///
    /// ```swift
    /// let age = try scanner.readInteger(UInt8.self)
    /// ```
    // @inlinable: generic over the integer type, for hand-written decoders: compiled where `T` is
    // known, so the range check is a compare for that type instead of generic integer code.
    @inlinable
    public mutating func readInteger<T: FixedWidthInteger>(_ type: T.Type = T.self) throws -> T {
        let mark = position
        do {
            if T.isSigned {
                if let result = T(exactly: try readInt64()) { return result }
            } else {
                if let result = T(exactly: try readUInt64()) { return result }
            }
        } catch let error as JSONValueError {
            throw error.naming(type: String(describing: T.self))
        }
        position = mark
        skipWhitespace()
        throw valueError(.numberOutOfRange(type: String(describing: T.self)), at: position)
    }

    /// Reads a number as the nearest `Double` (correctly rounded).
    ///
    /// Throws ``JSONValueError`` (consuming nothing) when the next value is not a number or is
    /// too large for a `Double` (such as `1e400`); tiny values round to zero as IEEE 754 says.
    ///
    /// ```swift
    /// let latitude = try scanner.readDouble() // 35.6895
    /// ```
    // @inlinable: called for every floating-point value (JSONBytesReader.decodeDouble()); the
    // whitespace skip is compiled into the caller and the conversion stays out of line.
    @inlinable
    public mutating func readDouble() throws -> Double {
        skipWhitespace()
        return try readDoubleAfterWhitespace()
    }

    /// Reads a number literal exactly as written, for `Decimal` or arbitrary precision.
    ///
    /// ```swift
    /// let price = Decimal(string: try scanner.readNumberText()) // "19.99"
    /// ```
    public mutating func readNumberText() throws -> String {
        let literal = try numberLiteralAtPosition()
        position = literal.end
        // Unsafe: the literal as a slice of the document, copied once into the String;
        // scanNumber(at:) found its end inside the document.
        return String(decoding: UnsafeRawBufferPointer(rebasing: input[literal.start..<literal.end]), as: UTF8.self)
    }

    /// Reads a number as a `JSONValue`: `.int` when it is an integer literal that fits `Int64`,
    /// `.uint` above `Int64.max` up to `UInt64.max`, and `.double` for everything else.
    ///
    /// A fraction or exponent always gives `.double` (`1.0` stays a double, `-0.0` keeps its
    /// sign), while the integer literal `-0` gives `.int(0)`. Throws ``JSONValueError``
    /// (consuming nothing) when the number is too large for a `Double`.
    ///
    /// ```swift
    /// let id = try scanner.readNumberValue() // .int(505874924095815681)
    /// ```
    public mutating func readNumberValue() throws -> JSONValue {
        let literal = try numberLiteralAtPosition()
        if literal.isInteger {
            if literal.integerEnd - literal.integerStart <= 18 {
                var magnitude: Int64 = 0
                for index in literal.integerStart..<literal.integerEnd {
                    magnitude = magnitude &* 10 &+ Int64(input[index] &- UInt8(ascii: "0"))
                }
                position = literal.end
                return .int(literal.isNegative ? 0 &- magnitude : magnitude)
            }
            if case .magnitude(let magnitude) = exactInteger(literal) {
                if literal.isNegative, magnitude <= 1 << 63 {
                    position = literal.end
                    return .int(Int64(truncatingIfNeeded: 0 &- magnitude))
                }
                if !literal.isNegative {
                    position = literal.end
                    return magnitude <= UInt64(Int64.max) ? .int(Int64(magnitude)) : .uint(magnitude)
                }
            }
        }
        let value = doubleValue(literal)
        guard value.isFinite else { throw valueError(.numberOutOfRange(type: "Double"), at: literal.start) }
        position = literal.end
        // A Double keeps 15 significant digits of any number; past that, keep the number as
        // written when the Double would say another one.
        if literal.digitCount > 15, let exact = exactDecimal(literal, near: value) { return .decimal(exact) }
        return .double(value)
    }

    /// The literal as a `Decimal` when no `Double` says the same number (its shortest
    /// description differs) and a `Decimal` holds it; nil when `double` says it already.
    func exactDecimal(_ literal: NumberLiteral, near double: Double) -> Decimal? {
        // Unsafe: the literal as a slice of the document, copied once into the String;
        // scanNumber(at:) found its end inside the document.
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: input[literal.start..<literal.end]), as: UTF8.self)
        guard let decimal = Decimal(string: text, locale: posixLocale), !decimal.isNaN,
              decimal != Decimal(exactly: double)
        else { return nil }
        return decimal
    }

    /// The value of the number at the current position when it is
    /// `-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]{1,4})?` with at most 19 mantissa digits and a
    /// finite value that `quickDouble(mantissa:scale:)` settles, consuming it; nil, consuming
    /// nothing, for anything else.
    // @usableFromInline: no inlinable body calls this (only readDoubleAfterWhitespace(), out of
    // line, does): a candidate for removal.
    @usableFromInline
    mutating func shortDecimalAtPosition() -> Double? {
        var index = position
        let isNegative = index < end && input[index] == UInt8(ascii: "-")
        if isNegative { index &+= 1 }
        let integerStart = index
        var mantissa: UInt64 = 0
        index = accumulateDigits(from: index, into: &mantissa)
        let integerCount = index &- integerStart
        guard integerCount > 0, integerCount == 1 || input[integerStart] != UInt8(ascii: "0") else { return nil }
        var fractionCount = 0
        if index < end && input[index] == UInt8(ascii: ".") {
            index &+= 1
            let fractionStart = index
            index = accumulateDigits(from: index, into: &mantissa)
            fractionCount = index &- fractionStart
            guard fractionCount > 0 else { return nil }
        }
        // 19 digits cannot overflow the mantissa; 2^53 and 10^19 are exact doubles.
        guard integerCount &+ fractionCount <= 19 else { return nil }
        var scale = -fractionCount
        if index < end && input[index] | 0x20 == UInt8(ascii: "e") {
            guard let exponent = shortExponent(at: index) else { return nil }
            scale &+= exponent.value
            index = exponent.end
        }
        // Undecided, or too large: the general path decides, or reports the error.
        guard let magnitude = JSONScanner.quickDouble(mantissa: mantissa, scale: scale), magnitude.isFinite
        else { return nil }
        position = index
        return isNegative ? -magnitude : magnitude
    }

    /// The value of the exponent whose `e` is at `index`, and where it ends, when it has one to
    /// four digits; nil otherwise (longer exponents are left to the general path, which
    /// saturates them).
    private func shortExponent(at index: Int) -> (value: Int, end: Int)? {
        var index = index &+ 1
        let isNegative = index < end && input[index] == UInt8(ascii: "-")
        if index < end && (isNegative || input[index] == UInt8(ascii: "+")) { index &+= 1 }
        let start = index
        var value = 0
        while index < end && index &- start < 4 {
            let digit = input[index] &- UInt8(ascii: "0")
            if digit > 9 { break }
            value = value &* 10 &+ Int(digit)
            index &+= 1
        }
        guard index > start, index == end || input[index] &- UInt8(ascii: "0") > 9 else { return nil }
        return (isNegative ? -value : value, index)
    }

    /// Folds the run of ASCII digits starting at `index` into `value` (wrapping: callers bound
    /// the digit count) and returns where the run ends.
    // @inlinable: the digit loop of the inlinable readInt64() and readUInt64(), compiled with them
    // into their callers.
    @inlinable @inline(__always)
    func accumulateDigits(from start: Int, into value: inout UInt64) -> Int {
        var index = start
        while index < end {
            let digit = input[index] &- UInt8(ascii: "0")
            if digit > 9 { break }
            value = value &* 10 &+ UInt64(digit)
            index &+= 1
        }
        return index
    }

    /// 10^`exponent` for 0...22, exactly (every one is a `Double`), as a switch of constants (a
    /// table load, no array to retain).
    @inline(__always)
    static func exactPowerOfTen(_ exponent: Int) -> Double {
        switch exponent {
        case 0: 1e0
        case 1: 1e1
        case 2: 1e2
        case 3: 1e3
        case 4: 1e4
        case 5: 1e5
        case 6: 1e6
        case 7: 1e7
        case 8: 1e8
        case 9: 1e9
        case 10: 1e10
        case 11: 1e11
        case 12: 1e12
        case 13: 1e13
        case 14: 1e14
        case 15: 1e15
        case 16: 1e16
        case 17: 1e17
        case 18: 1e18
        case 19: 1e19
        case 20: 1e20
        case 21: 1e21
        default: 1e22
        }
    }

    // MARK: - Slow paths

    /// The validated number literal at the current position (after whitespace), or the error
    /// for a value of another kind.
    // @usableFromInline: no inlinable body calls this (only the out-of-line slow paths below and
    // readNumberText() do): a candidate for removal.
    @usableFromInline
    mutating func numberLiteralAtPosition() throws -> NumberLiteral {
        skipWhitespace()
        guard position < end, JSONValueKind(firstByte: input[position]) == .number else {
            throw kindMismatch(expected: .number)
        }
        return try scanNumber(at: position)
    }

    /// `readInt64()` for everything its fast path does not take.
    // @usableFromInline: called by the inlinable readInt64() for what its fast path does not take
    // (long numbers, fractions, exponents, errors); out of line, being long.
    @usableFromInline
    mutating func readInt64Slowly() throws -> Int64 {
        let literal = try numberLiteralAtPosition()
        switch exactInteger(literal) {
        case .magnitude(let magnitude):
            if literal.isNegative, magnitude <= 1 << 63 {
                position = literal.end
                return Int64(truncatingIfNeeded: 0 &- magnitude)
            }
            if !literal.isNegative, magnitude <= UInt64(Int64.max) {
                position = literal.end
                return Int64(magnitude)
            }
            throw valueError(.numberOutOfRange(type: "Int64"), at: literal.start)
        case .notIntegral:
            throw valueError(.notAnInteger(type: "Int64"), at: literal.start)
        case .outOfRange:
            throw valueError(.numberOutOfRange(type: "Int64"), at: literal.start)
        }
    }

    /// `readUInt64()` for everything its fast path does not take.
    // @usableFromInline: called by the inlinable readUInt64() for what its fast path does not take
    // (long numbers, fractions, exponents, errors); out of line, being long.
    @usableFromInline
    mutating func readUInt64Slowly() throws -> UInt64 {
        let literal = try numberLiteralAtPosition()
        switch exactInteger(literal) {
        case .magnitude(let magnitude):
            guard !literal.isNegative || magnitude == 0 else {
                throw valueError(.numberOutOfRange(type: "UInt64"), at: literal.start)
            }
            position = literal.end
            return magnitude
        case .notIntegral:
            throw valueError(.notAnInteger(type: "UInt64"), at: literal.start)
        case .outOfRange:
            throw valueError(.numberOutOfRange(type: "UInt64"), at: literal.start)
        }
    }

    /// `readDouble()` after whitespace has been skipped.
    ///
    /// Most numbers are up to 19 digits with or without a fraction and exponent (`-12.345`,
    /// `6.02214076e23`): those are read in one pass and converted as ``doubleValue(_:)`` would;
    /// everything else (longer mantissas, undecided roundings, errors) takes the general path.
    // @usableFromInline: called by the inlinable readDouble(); the conversion is long, so it stays
    // out of line.
    @usableFromInline
    mutating func readDoubleAfterWhitespace() throws -> Double {
        if let value = shortDecimalAtPosition() { return value }
        let literal = try numberLiteralAtPosition()
        let value = doubleValue(literal)
        guard value.isFinite else { throw valueError(.numberOutOfRange(type: "Double"), at: literal.start) }
        position = literal.end
        return value
    }
}
