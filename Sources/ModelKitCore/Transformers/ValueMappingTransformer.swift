import Foundation

/// Values looked up in a table, both ways (Mantle's value-mapping transformer): each payload
/// value names a property value, with defaults for values the table lacks.
///
/// ```swift
/// enum Status: Sendable { case draft, live, archived }
///
/// @Transform(.valueMapping(["draft": Status.draft, "published": .live, "gone": .archived],
///                          default: .draft, reverseDefault: "draft"))
/// var status: Status
/// ```
///
/// Reading a payload value the table lacks gives `defaultValue` (an error without one); writing
/// a property value no entry has gives `reverseDefaultValue` (an error without one). When two
/// payload values map to the same property value, writing uses the first in the payload values'
/// sorted order, so output is the same on every run.
public struct ValueMappingTransformer<Encoded: ModelValue & Hashable & Sendable, Value: Equatable & Sendable>:
    ModelTransformer
{
    /// The table: payload value to property value.
    public let table: [Encoded: Value]
    /// The property value of a payload value the table lacks; nil: that is an error.
    public let defaultValue: Value?
    /// The payload value of a property value the table lacks; nil: that is an error.
    public let reverseDefaultValue: Encoded?
    /// The entries in a fixed order, for writing.
    private let entries: [(encoded: Encoded, value: Value)]

    /// A transformer over `table`, with defaults for what it lacks.
    public init(_ table: [Encoded: Value], default defaultValue: Value? = nil, reverseDefault reverseDefaultValue: Encoded? = nil) {
        self.table = table
        self.defaultValue = defaultValue
        self.reverseDefaultValue = reverseDefaultValue
        self.entries = table.map { ($0.key, $0.value) }.sorted { "\($0.encoded)" < "\($1.encoded)" }
    }

    public var expectation: String {
        "one of " + entries.map { ModelError.describe($0.encoded) }.joined(separator: ", ")
    }

    public func transformedValue(_ encoded: Encoded) throws -> Value {
        if let value = table[encoded] ?? defaultValue { return value }
        throw ModelError.invalid(expected: expectation, found: ModelError.describe(encoded))
    }

    public func reverseTransformedValue(_ value: Value) throws -> Encoded {
        if let entry = entries.first(where: { $0.value == value }) { return entry.encoded }
        if let reverseDefaultValue { return reverseDefaultValue }
        throw ModelError.invalid(
            expected: "a value the table maps to (\(expectation))", found: ModelError.describe(value))
    }
}

extension ModelTransformer {
    /// Values looked up in a table both ways, with defaults for what it lacks (see
    /// ``ValueMappingTransformer``).
    public static func valueMapping<Encoded, Value>(
        _ table: [Encoded: Value], default defaultValue: Value? = nil, reverseDefault reverseDefaultValue: Encoded? = nil
    ) -> Self where Self == ValueMappingTransformer<Encoded, Value> {
        ValueMappingTransformer(table, default: defaultValue, reverseDefault: reverseDefaultValue)
    }
}
