// MARK: - Integers

/// An integer stored in a property list: any signed 64-bit value, or an unsigned 64-bit value above
/// `Int64.max`.
///
/// Apple's property lists store integers as signed 64-bit values, except that values between
/// `Int64.max + 1` and `UInt64.max` are written as 16-byte integers (binary) or as plain decimal
/// digits (XML). `PropertyListInteger` holds both ranges exactly and keeps a single canonical
/// representation for each number, so `PropertyListInteger(5 as UInt64) == PropertyListInteger(5)`.
///
/// ```swift
/// let small: PropertyListInteger = -42
/// let large = PropertyListInteger(UInt64.max)
/// small.int64Value   // -42
/// large.int64Value   // nil
/// large.uint64Value  // 18446744073709551615
/// ```
public struct PropertyListInteger: Hashable, Sendable {
    /// The canonical storage: `unsigned` only ever holds values above `Int64.max`.
    enum Storage: Hashable, Sendable {
        case signed(Int64)
        case unsigned(UInt64)
    }

    let storage: Storage

    /// Creates an integer from a signed 64-bit value.
    ///
    /// ```swift
    /// let value = PropertyListInteger(Int64(-1))
    /// ```
    public init(_ value: Int64) {
        storage = .signed(value)
    }

    /// Creates an integer from an unsigned 64-bit value; every `UInt64` is representable.
    ///
    /// ```swift
    /// let value = PropertyListInteger(UInt64(1) << 63)
    /// ```
    public init(_ value: UInt64) {
        storage = value > UInt64(Int64.max) ? .unsigned(value) : .signed(Int64(value))
    }

    /// Creates an integer from a platform `Int`.
    ///
    /// ```swift
    /// let value = PropertyListInteger(42)
    /// ```
    public init(_ value: Int) {
        storage = .signed(Int64(value))
    }

    /// Creates an integer from any binary integer, or returns `nil` when the value is below
    /// `Int64.min` or above `UInt64.max`.
    ///
    /// ```swift
    /// PropertyListInteger(exactly: UInt8(7))   // 7
    /// ```
    public init?<T: BinaryInteger>(exactly value: T) {
        if let signed = Int64(exactly: value) {
            storage = .signed(signed)
        } else if let unsigned = UInt64(exactly: value) {
            storage = .unsigned(unsigned)
        } else {
            return nil
        }
    }

    /// The value as a signed 64-bit integer, or `nil` when it is above `Int64.max`.
    public var int64Value: Int64? {
        switch storage {
        case .signed(let value): return value
        case .unsigned: return nil
        }
    }

    /// The value as an unsigned 64-bit integer, or `nil` when it is negative.
    public var uint64Value: UInt64? {
        switch storage {
        case .signed(let value): return value < 0 ? nil : UInt64(value)
        case .unsigned(let value): return value
        }
    }

    /// The value as a platform `Int`, or `nil` when it does not fit.
    public var intValue: Int? {
        switch storage {
        case .signed(let value): return Int(exactly: value)
        case .unsigned(let value): return Int(exactly: value)
        }
    }

    /// Whether the value is below zero.
    public var isNegative: Bool {
        if case .signed(let value) = storage { return value < 0 }
        return false
    }

    /// Whether the value lies above `Int64.max`, which binary property lists store as a 16-byte
    /// integer.
    public var needsUnsigned128BitEncoding: Bool {
        if case .unsigned = storage { return true }
        return false
    }

    /// The value as a `Double`, rounded to the nearest representable value.
    public var doubleValue: Double {
        switch storage {
        case .signed(let value): return Double(value)
        case .unsigned(let value): return Double(value)
        }
    }

    /// The 64 low bits of the value: the two's complement bit pattern of signed values, the value
    /// itself for unsigned ones.
    var bitPattern: UInt64 {
        switch storage {
        case .signed(let value): return UInt64(bitPattern: value)
        case .unsigned(let value): return value
        }
    }
}

extension PropertyListInteger: ExpressibleByIntegerLiteral {
    /// Creates an integer from a literal in the signed 64-bit range.
    ///
    /// ```swift
    /// let value: PropertyListInteger = 100_000
    /// ```
    public init(integerLiteral value: Int64) {
        storage = .signed(value)
    }
}

extension PropertyListInteger: Comparable {
    /// Orders integers by numeric value across the signed and unsigned ranges.
    ///
    /// ```swift
    /// PropertyListInteger(-1) < PropertyListInteger(UInt64.max)   // true
    /// ```
    public static func < (lhs: PropertyListInteger, rhs: PropertyListInteger) -> Bool {
        switch (lhs.storage, rhs.storage) {
        case let (.signed(a), .signed(b)): return a < b
        case let (.unsigned(a), .unsigned(b)): return a < b
        case (.signed, .unsigned): return true
        case (.unsigned, .signed): return false
        }
    }
}

extension PropertyListInteger: CustomStringConvertible {
    /// The decimal digits of the value, with a leading `-` for negative values; this is also the
    /// text of an XML `<integer>` element.
    public var description: String {
        switch storage {
        case .signed(let value): return String(value)
        case .unsigned(let value): return String(value)
        }
    }
}

// MARK: - Reals

/// A floating-point number stored in a property list, with the width it was stored in.
///
/// Binary property lists store reals as 4-byte (`Float`) or 8-byte (`Double`) IEEE 754 values.
/// `PropertyListReal` keeps the width and the exact bit pattern, so a value read from a binary
/// property list is written back byte for byte. XML property lists have a single `<real>` form:
/// reading XML always gives a `.double` real, and writing a `.single` one prints its value
/// widened to `Double`, as Apple does.
///
/// Equality compares bit patterns and widths: `0.0` and `-0.0` differ, a NaN equals the same NaN,
/// and `PropertyListReal(Float(1.5)) != PropertyListReal(1.5)`. Compare `doubleValue` for numeric
/// equality.
///
/// ```swift
/// let half: PropertyListReal = 0.5
/// let single = PropertyListReal(Float(0.1))
/// half.doubleValue     // 0.5
/// single.width         // .single
/// single.doubleValue   // 0.10000000149011612
/// ```
public struct PropertyListReal: Hashable, Sendable {
    /// The storage width of a real.
    public enum Width: Hashable, Sendable {
        /// A 4-byte IEEE 754 single-precision value (`Float`).
        case single
        /// An 8-byte IEEE 754 double-precision value (`Double`).
        case double
    }

    /// The width the value is stored in.
    public let width: Width

    /// The raw bits: a `Double` bit pattern, or a `Float` bit pattern in the low 32 bits.
    let bits: UInt64

    /// Creates an 8-byte real.
    ///
    /// ```swift
    /// let value = PropertyListReal(3.25)
    /// ```
    public init(_ value: Double) {
        width = .double
        bits = value.bitPattern
    }

    /// Creates a 4-byte real.
    ///
    /// ```swift
    /// let value = PropertyListReal(Float(3.25))
    /// ```
    public init(_ value: Float) {
        width = .single
        bits = UInt64(value.bitPattern)
    }

    /// Creates a real from the raw bits of its stored width.
    init(width: Width, bits: UInt64) {
        self.width = width
        self.bits = width == .single ? bits & 0xFFFF_FFFF : bits
    }

    /// The value as a `Double`; single-precision values widen exactly.
    public var doubleValue: Double {
        switch width {
        case .double: return Double(bitPattern: bits)
        case .single: return Double(Float(bitPattern: UInt32(truncatingIfNeeded: bits)))
        }
    }

    /// The value as a `Float`, exact for single-precision reals and rounded for double ones.
    public var floatValue: Float {
        switch width {
        case .double: return Float(Double(bitPattern: bits))
        case .single: return Float(bitPattern: UInt32(truncatingIfNeeded: bits))
        }
    }

    /// The same numeric value as an 8-byte real.
    ///
    /// ```swift
    /// PropertyListReal(Float(0.5)).widened == PropertyListReal(0.5)   // true
    /// ```
    public var widened: PropertyListReal {
        width == .double ? self : PropertyListReal(doubleValue)
    }
}

extension PropertyListReal: ExpressibleByFloatLiteral {
    /// Creates an 8-byte real from a literal.
    ///
    /// ```swift
    /// let value: PropertyListReal = 2.5
    /// ```
    public init(floatLiteral value: Double) {
        self.init(value)
    }
}

extension PropertyListReal: CustomStringConvertible {
    /// The value as Apple's XML writer prints it (`1.5`, `0.10000000000000001`, `+infinity`).
    public var description: String {
        PropertyListRealFormatter.format(doubleValue)
    }
}
