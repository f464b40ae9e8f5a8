import Foundation
import ModelKitCore

/// One value as a store holds it: SQLite's storage classes.
///
/// Every stored property becomes one of these: integers and booleans are `integer`, floating-point
/// numbers `real`, strings, dates (ISO 8601 in UTC, milliseconds), URLs, UUIDs and decimals `text`,
/// `Data` a `blob`, and nested models and collections `text` holding JSON. Query arguments are
/// encoded the same way, so `\Status.createdAt > date` compares like with like.
///
/// ```swift
/// let query = ModelQuery(Status.self).filter(\Status.lang == "ja")
/// try query.selectSQL().arguments   // [.text("ja")]
/// ```
public enum StoreValue: Hashable, Sendable {
    /// SQL `NULL`: a nil optional.
    case null
    /// A 64-bit signed integer.
    case integer(Int64)
    /// A double.
    case real(Double)
    /// UTF-8 text.
    case text(String)
    /// Bytes.
    case blob(Data)

    /// Encodes a value as the store writes it in a column (an identified class model as its
    /// identifier, nested models and collections as JSON text).
    ///
    /// ```swift
    /// try StoreValue(encoding: Date(timeIntervalSince1970: 0))   // .text("1970-01-01T00:00:00.000Z")
    /// ```
    public init<V: ModelValue>(encoding value: V) throws {
        var writer = StoreRowWriter(columnCount: 1)
        try value.write(to: &writer)
        self = writer.values[0]
    }

    /// Encodes a value of a type known only at run time; nil when it is not a ``ModelValue``.
    init?(encodingAny value: Any) throws {
        guard let value = value as? any ModelValue else { return nil }
        try self.init(encoding: value)
    }

    /// The value as it would appear in SQL text or a message: `NULL`, `42`, `'text'`, `x'0A1B'`.
    public var sqlLiteral: String {
        switch self {
        case .null: return "NULL"
        case .integer(let value): return String(value)
        case .real(let value): return String(value)
        case .text(let text): return "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
        case .blob(let data): return "x'" + data.map { String(format: "%02X", $0) }.joined() + "'"
        }
    }

    /// The value as an identifier in messages: text in double quotes, anything else as it is.
    package var quotedDescription: String {
        switch self {
        case .text(let text): return "\"\(text)\""
        case .integer(let value): return String(value)
        case .real(let value): return String(value)
        case .null: return "null"
        case .blob(let data): return "\(data.count) bytes"
        }
    }

    /// The value as a plain Swift value, for migration hooks: `Int`, `Double`, `String`, `Data`,
    /// nil for `null`.
    package var plainValue: Any? {
        switch self {
        case .null: return nil
        case .integer(let value): return Int(exactly: value) ?? value
        case .real(let value): return value
        case .text(let text): return text
        case .blob(let data): return data
        }
    }

    /// A plain Swift value (what a migration hook leaves) as a stored value.
    package init(plain value: Any?) throws {
        switch value {
        case nil, is NSNull: self = .null
        case let text as String: self = .text(text)
        case let flag as Bool: self = .integer(flag ? 1 : 0)
        case let number as Int: self = .integer(Int64(number))
        case let number as Int64: self = .integer(number)
        case let number as Double: self = .real(number)
        case let data as Data: self = .blob(data)
        case let value?:
            guard let encoded = try StoreValue(encodingAny: value) else {
                throw ModelError(.invalidValue, expected: "a value the store can hold", found: "\(type(of: value))")
            }
            self = encoded
        }
    }
}

extension StoreValue: CustomStringConvertible {
    public var description: String { sqlLiteral }
}

extension StoreValue {
    /// SQLite's order of values: `NULL`, then numbers (integers and reals compared by value), then
    /// text (by UTF-8 bytes, SQLite's `BINARY` collation), then blobs (by bytes).
    package static func compare(_ lhs: StoreValue, _ rhs: StoreValue) -> Int {
        switch (lhs, rhs) {
        case (.null, .null): return 0
        case (.null, _): return -1
        case (_, .null): return 1
        case (.integer(let a), .integer(let b)): return a < b ? -1 : a == b ? 0 : 1
        case (.integer(let a), .real(let b)): return compareNumbers(Double(a), b)
        case (.real(let a), .integer(let b)): return compareNumbers(a, Double(b))
        case (.real(let a), .real(let b)): return compareNumbers(a, b)
        case (.integer, _), (.real, _): return -1
        case (_, .integer), (_, .real): return 1
        case (.text(let a), .text(let b)): return compareBytes(a.utf8, b.utf8)
        case (.text, .blob): return -1
        case (.blob, .text): return 1
        case (.blob(let a), .blob(let b)): return compareBytes(a, b)
        }
    }

    private static func compareNumbers(_ a: Double, _ b: Double) -> Int {
        a < b ? -1 : a == b ? 0 : 1
    }

    private static func compareBytes<C: Sequence>(_ a: C, _ b: C) -> Int where C.Element == UInt8 {
        var left = a.makeIterator()
        var right = b.makeIterator()
        while true {
            switch (left.next(), right.next()) {
            case (nil, nil): return 0
            case (nil, _): return -1
            case (_, nil): return 1
            case (let x?, let y?) where x != y: return x < y ? -1 : 1
            default: continue
            }
        }
    }
}
