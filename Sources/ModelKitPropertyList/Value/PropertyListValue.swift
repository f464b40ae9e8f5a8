#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A property-list value: the tree that binary (`bplist00`) and XML property lists encode.
///
/// The cases cover every object a binary property list can hold, plus `uid`, the reference type
/// of keyed archives (`CF$UID`), and `null`, the binary format's null marker (which XML cannot
/// express). Values are exact: integers keep the full signed and unsigned 64-bit ranges, reals
/// keep their 4- or 8-byte width and bit pattern, strings compare by their exact bytes, and
/// dictionaries keep document order (see `PropertyListDictionary` for the ordering rules).
///
/// Dates are Foundation `Date`s, that is seconds since 2001-01-01T00:00:00Z
/// (`timeIntervalSinceReferenceDate`), the same instant scale both formats use. Two dates are
/// equal when their time intervals have the same bit pattern.
///
/// ```swift
/// let archive: PropertyListValue = [
///     "$archiver": "NSKeyedArchiver",
///     "$version": 100_000,
///     "$top": ["root": .uid(1)],
///     "$objects": ["$null", "hello"],
/// ]
/// let bytes = try archive.binaryData()
/// let again = try PropertyListValue(binary: bytes)
/// again == archive   // true
/// ```
public enum PropertyListValue: Sendable {
    /// A string (binary: ASCII or UTF-16BE; XML: `<string>`).
    case string(String)
    /// An integer in the signed or unsigned 64-bit range (XML: `<integer>`).
    case integer(PropertyListInteger)
    /// A 4- or 8-byte floating-point number (XML: `<real>`).
    case real(PropertyListReal)
    /// A boolean (XML: `<true/>` or `<false/>`).
    case bool(Bool)
    /// An instant, stored as seconds since 2001-01-01T00:00:00Z (XML: `<date>`, whole seconds).
    case date(Date)
    /// Raw bytes (XML: `<data>`, base64).
    case data(Data)
    /// An ordered list of values; binary sets are read as arrays.
    case array([PropertyListValue])
    /// String keys mapped to values, in document order.
    case dictionary(PropertyListDictionary)
    /// A keyed-archive object reference (binary: UID object; XML: `<dict><key>CF$UID</key>…`).
    case uid(UInt64)
    /// The binary format's null object (marker `0x00`); XML property lists cannot hold it.
    case null
}

extension PropertyListValue {
    /// The string, when this is a `.string`.
    ///
    /// ```swift
    /// PropertyListValue.string("baa").stringValue   // "baa"
    /// ```
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The integer, when this is an `.integer`.
    public var integerValue: PropertyListInteger? {
        if case .integer(let value) = self { return value }
        return nil
    }

    /// The integer as a signed 64-bit value, when this is an `.integer` in that range.
    ///
    /// ```swift
    /// PropertyListValue.integer(100_000).int64Value   // 100000
    /// ```
    public var int64Value: Int64? {
        integerValue?.int64Value
    }

    /// The number as a `Double`, when this is a `.real` or an `.integer`.
    public var doubleValue: Double? {
        switch self {
        case .real(let value): return value.doubleValue
        case .integer(let value): return value.doubleValue
        default: return nil
        }
    }

    /// The real, when this is a `.real`.
    public var realValue: PropertyListReal? {
        if case .real(let value) = self { return value }
        return nil
    }

    /// The boolean, when this is a `.bool`.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The date, when this is a `.date`.
    public var dateValue: Date? {
        if case .date(let value) = self { return value }
        return nil
    }

    /// The bytes, when this is a `.data`.
    public var dataValue: Data? {
        if case .data(let value) = self { return value }
        return nil
    }

    /// The elements, when this is an `.array`.
    public var arrayValue: [PropertyListValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The dictionary, when this is a `.dictionary`.
    public var dictionaryValue: PropertyListDictionary? {
        if case .dictionary(let value) = self { return value }
        return nil
    }

    /// The object reference, when this is a `.uid`.
    ///
    /// ```swift
    /// PropertyListValue.uid(7).uidValue   // 7
    /// ```
    public var uidValue: UInt64? {
        if case .uid(let value) = self { return value }
        return nil
    }

    /// Whether this is `.null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The value for `key` when this is a `.dictionary`, otherwise `nil`.
    ///
    /// ```swift
    /// let archive: PropertyListValue = ["$top": ["root": .uid(1)]]
    /// archive["$top"]?["root"]   // .uid(1)
    /// ```
    public subscript(key: String) -> PropertyListValue? {
        if case .dictionary(let dictionary) = self { return dictionary[key] }
        return nil
    }

    /// The element at `index` when this is an `.array` and the index is in range, otherwise `nil`.
    ///
    /// ```swift
    /// let objects: PropertyListValue = ["$null", "baa"]
    /// objects[1]   // .string("baa")
    /// objects[5]   // nil
    /// ```
    public subscript(index: Int) -> PropertyListValue? {
        if case .array(let elements) = self, elements.indices.contains(index) { return elements[index] }
        return nil
    }

    /// A short lowercase name of the case (`"string"`, `"dictionary"`, …), used in error messages.
    public var kindName: String {
        switch self {
        case .string: return "string"
        case .integer: return "integer"
        case .real: return "real"
        case .bool: return "bool"
        case .date: return "date"
        case .data: return "data"
        case .array: return "array"
        case .dictionary: return "dictionary"
        case .uid: return "uid"
        case .null: return "null"
        }
    }
}

extension PropertyListValue: Hashable {
    /// Exact equality: strings by bytes, reals and dates by bit pattern, dictionaries ignoring
    /// order.
    public static func == (lhs: PropertyListValue, rhs: PropertyListValue) -> Bool {
        switch (lhs, rhs) {
        case let (.string(a), .string(b)): return ExactString.equal(a, b)
        case let (.integer(a), .integer(b)): return a == b
        case let (.real(a), .real(b)): return a == b
        case let (.bool(a), .bool(b)): return a == b
        case let (.date(a), .date(b)):
            return a.timeIntervalSinceReferenceDate.bitPattern == b.timeIntervalSinceReferenceDate.bitPattern
        case let (.data(a), .data(b)): return a == b
        case let (.array(a), .array(b)): return a == b
        case let (.dictionary(a), .dictionary(b)): return a == b
        case let (.uid(a), .uid(b)): return a == b
        case (.null, .null): return true
        default: return false
        }
    }

    /// Hashes consistently with `==`.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .string(let value):
            hasher.combine(0 as UInt8)
            ExactString.hash(value, into: &hasher)
        case .integer(let value):
            hasher.combine(1 as UInt8)
            hasher.combine(value)
        case .real(let value):
            hasher.combine(2 as UInt8)
            hasher.combine(value)
        case .bool(let value):
            hasher.combine(3 as UInt8)
            hasher.combine(value)
        case .date(let value):
            hasher.combine(4 as UInt8)
            hasher.combine(value.timeIntervalSinceReferenceDate.bitPattern)
        case .data(let value):
            hasher.combine(5 as UInt8)
            hasher.combine(value)
        case .array(let elements):
            hasher.combine(6 as UInt8)
            hasher.combine(elements)
        case .dictionary(let dictionary):
            hasher.combine(7 as UInt8)
            hasher.combine(dictionary)
        case .uid(let value):
            hasher.combine(8 as UInt8)
            hasher.combine(value)
        case .null:
            hasher.combine(9 as UInt8)
        }
    }
}

extension PropertyListValue: ExpressibleByStringLiteral {
    /// Creates a `.string` from a literal: `let name: PropertyListValue = "baa"`.
    public init(stringLiteral value: String) {
        self = .string(value)
    }
}

extension PropertyListValue: ExpressibleByIntegerLiteral {
    /// Creates an `.integer` from a literal: `let version: PropertyListValue = 100_000`.
    public init(integerLiteral value: Int64) {
        self = .integer(PropertyListInteger(value))
    }
}

extension PropertyListValue: ExpressibleByFloatLiteral {
    /// Creates an 8-byte `.real` from a literal: `let ratio: PropertyListValue = 1.5`.
    public init(floatLiteral value: Double) {
        self = .real(PropertyListReal(value))
    }
}

extension PropertyListValue: ExpressibleByBooleanLiteral {
    /// Creates a `.bool` from a literal: `let flag: PropertyListValue = true`.
    public init(booleanLiteral value: Bool) {
        self = .bool(value)
    }
}

extension PropertyListValue: ExpressibleByArrayLiteral {
    /// Creates an `.array` from a literal: `let list: PropertyListValue = ["a", 1, true]`.
    public init(arrayLiteral elements: PropertyListValue...) {
        self = .array(elements)
    }
}

extension PropertyListValue: ExpressibleByDictionaryLiteral {
    /// Creates a `.dictionary` from a literal, keeping the literal's order:
    /// `let object: PropertyListValue = ["$class": .uid(2)]`.
    public init(dictionaryLiteral elements: (String, PropertyListValue)...) {
        self = .dictionary(PropertyListDictionary(elements))
    }
}
