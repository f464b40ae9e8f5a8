import Foundation

extension JSONValue {
    /// The value as `JSONSerialization` would produce it: `[String: Any]`, `[Any]`, `String`,
    /// numbers, `Bool` and `NSNull`.
    public var foundationObject: Any {
        switch self {
        case .null: return NSNull()
        case .bool(let value): return value
        case .int(let value): return Int(value)
        case .uint(let value): return value
        case .double(let value): return value
        case .decimal(let value): return value
        case .string(let value): return value
        case .array(let elements): return elements.map(\.foundationObject)
        case .object(let members):
            // `init(minimumCapacity:)`: `reserveCapacity(_:)` also looks generic metadata up per call.
            var dictionary = [String: Any](minimumCapacity: members.count)
            for member in members { dictionary[member.key] = member.value.foundationObject }
            return dictionary
        }
    }

    /// Converts a `JSONSerialization`-style object; throws for values JSON cannot hold.
    ///
    /// Dictionary members come out sorted by key, since `[String: Any]` has no order.
    public init(foundationObject value: Any, maxDepth: Int = 512) throws {
        guard maxDepth > 0 else {
            throw ModelError(.limitExceeded, expected: "nesting of at most the depth limit", found: "deeper nesting")
        }
        if isNullValue(value) {
            self = .null
        } else if let string = value as? String {
            self = .string(string)
        } else if let number = FoundationNumber(value) {
            switch number {
            case .bool(let value): self = .bool(value)
            case .int(let value): self = .int(value)
            case .uint(let value): self = value <= UInt64(Int64.max) ? .int(Int64(value)) : .uint(value)
            case .double(let value):
                guard value.isFinite else {
                    throw ModelError(.invalidValue, expected: "a finite number", found: "\(value)")
                }
                self = .double(value)
            case .decimal(let value):
                self = JSONValue(exactly: value)
            }
        } else if let dictionary = value as? [String: Any] {
            self = .object(
                try dictionary.sorted { $0.key < $1.key }.map {
                    JSONMember($0.key, try JSONValue(foundationObject: $0.value, maxDepth: maxDepth - 1))
                })
        } else if let array = value as? [Any] {
            self = .array(try array.map { try JSONValue(foundationObject: $0, maxDepth: maxDepth - 1) })
        } else if let value = value as? JSONValue {
            self = value
        } else {
            throw ModelError(.typeMismatch, expected: "a JSON value", found: ModelError.describe(value))
        }
    }
}

/// A number as Foundation holds it, told apart exactly: a `Bool` is never taken for 1.
// Usable from inline, though no inlinable body refers to it: JSONObjectReader's number reads, which do, are not
// inlinable.
@usableFromInline
package enum FoundationNumber {
    case bool(Bool)
    case int(Int64)
    case uint(UInt64)
    case double(Double)
    /// An `NSDecimalNumber` or `Decimal`: JSONSerialization's number for one a `Double` cannot
    /// hold (`0.30000000000000004441`, `-9223372036854775809`).
    case decimal(Decimal)

    /// Classifies Swift numbers and `NSNumber`s by their dynamic type; nil for anything else.
    // Usable from inline, though no inlinable body calls it (see the enum).
    @usableFromInline
    package init?(_ value: Any) {
        let type = Swift.type(of: value)
        if type == NSNumber.self || type == booleanNumberType, let number = value as? NSNumber {
            // What JSONSerialization makes, told apart without walking the class hierarchy.
            self.init(number: number)
        } else if type is NSDecimalNumber.Type, let number = value as? NSDecimalNumber {
            self = .decimal(number.decimalValue)
        } else if type is NSNumber.Type, let number = value as? NSNumber {
            self.init(number: number)
        } else if type == Int.self, let value = value as? Int {
            self = .int(Int64(value))
        } else if type == Double.self, let value = value as? Double {
            self = .double(value)
        } else if type == Bool.self, let value = value as? Bool {
            self = .bool(value)
        } else if type == Int64.self, let value = value as? Int64 {
            self = .int(value)
        } else if type == Int32.self, let value = value as? Int32 {
            self = .int(Int64(value))
        } else if type == Int16.self, let value = value as? Int16 {
            self = .int(Int64(value))
        } else if type == Int8.self, let value = value as? Int8 {
            self = .int(Int64(value))
        } else if type == UInt.self, let value = value as? UInt {
            self = .uint(UInt64(value))
        } else if type == UInt64.self, let value = value as? UInt64 {
            self = .uint(value)
        } else if type == UInt32.self, let value = value as? UInt32 {
            self = .uint(UInt64(value))
        } else if type == UInt16.self, let value = value as? UInt16 {
            self = .uint(UInt64(value))
        } else if type == UInt8.self, let value = value as? UInt8 {
            self = .uint(UInt64(value))
        } else if type == Float.self, let value = value as? Float {
            self = .double(Double(value))
        } else if type == Decimal.self, let value = value as? Decimal {
            self = .decimal(value)
        } else {
            return nil
        }
    }

    // Usable from inline, though no inlinable body calls it (see the enum).
    @usableFromInline
    package init?(number: NSNumber) {
        if type(of: number) == booleanNumberType {
            self = .bool(number.boolValue)
            return
        }
        // `objCType` is a C string Foundation keeps valid at least as long as the number, which lives through this
        // read; only its first character, which names the stored type, is read.
        switch UInt8(bitPattern: number.objCType.pointee) {
        case UInt8(ascii: "d"), UInt8(ascii: "f"):
            self = .double(number.doubleValue)
        case UInt8(ascii: "Q"), UInt8(ascii: "L"), UInt8(ascii: "I"), UInt8(ascii: "S"), UInt8(ascii: "C"):
            self = .uint(number.uint64Value)
        default:
            self = .int(number.int64Value)
        }
    }
}

/// The class Foundation uses for boolean `NSNumber`s.
let booleanNumberType: AnyClass = type(of: NSNumber(value: true))

/// Whether a Foundation-style value is null: `NSNull` or an optional holding nothing.
// Usable from inline: the inlinable `encodeValue` (Encodable) and JSONObjectReader's inlinable `decodeNil` and
// `lookUpMembers` call it.
@usableFromInline
package func isNullValue(_ value: Any) -> Bool {
    if value is NSNull { return true }
    if value is String || value is NSNumber || value is [String: Any] || value is [Any] { return false }
    if let optional = value as? any OptionalValue { return optional.isNone }
    return false
}

/// Lets a value in `Any` say whether it is an empty optional.
package protocol OptionalValue {
    var isNone: Bool { get }
    /// The wrapped value, unwrapping nested optionals too.
    var wrappedAny: Any? { get }
}

extension Optional: OptionalValue {
    package var isNone: Bool { self == nil }

    package var wrappedAny: Any? {
        switch self {
        case .some(let value): return unwrappedOptional(value)
        case .none: return nil
        }
    }
}
