import Foundation

/// A JSON document as a tree of values, with object members in document order.
///
/// `JSONValue` is the format-neutral picture of JSON that transformers, hooks and tools share:
/// lenient transformers read it, the rewrite-before-mapping hook edits it, and
/// `modelkit json` prints it. Numbers keep their exact integer value where they have one.
///
/// ```swift
/// let value: JSONValue = .object([.init("id", .int(1)), .init("tags", .array([.string("a")]))])
/// value["id"]       // .int(1)
/// value["tags"]?[0] // .string("a")
/// ```
public enum JSONValue: Hashable, Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// An integer that fits in `Int64`.
    case int(Int64)
    /// A non-negative integer above `Int64.max` that fits in `UInt64`.
    case uint(UInt64)
    /// A fraction or an exponent that a `Double` holds: its shortest description is the
    /// number's value.
    case double(Double)
    /// A number no other case holds exactly, kept as written: an integer beyond 64 bits, or a
    /// fraction with more significant digits than a `Double` keeps (`0.30000000000000004441`).
    case decimal(Decimal)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object, its members in document order (duplicate keys are kept; lookups take the last).
    case object([JSONMember])
}

/// One member of a JSON object: a key and its value.
public struct JSONMember: Hashable, Sendable {
    /// The member's key.
    public var key: String
    /// The member's value.
    public var value: JSONValue

    /// Creates a member.
    public init(_ key: String, _ value: JSONValue) {
        self.key = key
        self.value = value
    }
}

extension JSONValue {
    /// The value of the last member named `key`, when this is an object.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.last(where: { $0.key == key })?.value
    }

    /// The element at `index`, when this is an array and the index is in range.
    public subscript(index: Int) -> JSONValue? {
        guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
        return elements[index]
    }

    /// Whether this is `null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// Whether this is an array or an object.
    public var isContainer: Bool {
        switch self {
        case .array, .object: return true
        default: return false
        }
    }
}
