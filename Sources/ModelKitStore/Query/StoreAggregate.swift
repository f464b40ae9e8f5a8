import Foundation
import ModelKitCore

/// One value computed over the rows a query selects: how many there are, how many distinct
/// values a property takes, or a property's sum, smallest, largest or average value.
///
/// Computed by the store (SQL's `COUNT`, `SUM`, `MIN`, `MAX` and `AVG` on SQLite and
/// PostgreSQL, the same rules in Swift on the memory store), with no model read. `nil`s are left
/// out, as SQL leaves out `NULL`s; the sum of no values is 0, and the smallest, largest or
/// average of none is nil.
///
/// ```swift
/// let retweets = try await store.fetchAggregate(ModelQuery(Status.self), .sum(\.retweetCount))
/// let languages = try await store.fetchAggregate(ModelQuery(Status.self), .count(distinct: \.lang))
/// let byLanguage = try await store.fetchGroups(ModelQuery(Status.self), by: \.lang, aggregate: .count)
/// ```
public struct StoreAggregate<M: Model, Value> {
    /// What is computed, and over which property.
    let function: StoreAggregateFunction
    /// The column the aggregate reads (none for a count of rows), or why a key path names none.
    let column: Result<String?, StoreError>
    /// The stored result as the aggregate's value.
    let decode: (StoreValue) throws -> Value

    init(function: StoreAggregateFunction, keyPath: AnyKeyPath?, decode: @escaping (StoreValue) throws -> Value) {
        self.function = function
        self.column = Result { try keyPath.map { try ModelPredicate<M>.column(of: $0) } }.mapError { error in
            error as? StoreError ?? StoreError(.unknownKeyPath, reason: "\(error)", underlying: error)
        }
        self.decode = decode
    }
}

/// The functions a ``StoreAggregate`` computes.
package enum StoreAggregateFunction: Sendable {
    case count
    case countDistinct
    /// A sum of integers: SQL's `SUM`, an integer (PostgreSQL's cast back from `numeric`).
    case sumOfIntegers
    /// A sum of floating-point numbers.
    case sumOfReals
    case min
    case max
    case average
}

extension StoreAggregate where Value == Int {
    /// How many rows the query selects.
    public static var count: StoreAggregate {
        StoreAggregate(function: .count, keyPath: nil) { try StoreRowReader.decodeColumn(Int.self, from: $0) }
    }

    /// How many distinct values other than `nil` a property takes in the rows the query selects.
    public static func count<V: ModelValue>(distinct keyPath: KeyPath<M, V>) -> StoreAggregate {
        StoreAggregate(function: .countDistinct, keyPath: keyPath) { try StoreRowReader.decodeColumn(Int.self, from: $0) }
    }
}

extension StoreAggregate where Value: StoreSummable {
    /// The sum of a property's values (0 for none); an integer sum past 64 bits is an error.
    public static func sum(_ keyPath: KeyPath<M, Value>) -> StoreAggregate {
        StoreAggregate(function: Value.sumsAsIntegers ? .sumOfIntegers : .sumOfReals, keyPath: keyPath) { value in
            try StoreRowReader.decodeColumn(Value.self, from: value == .null ? .integer(0) : value)
        }
    }

    /// The sum of an optional property's values other than `nil` (0 for none).
    public static func sum(_ keyPath: KeyPath<M, Value?>) -> StoreAggregate {
        StoreAggregate(function: Value.sumsAsIntegers ? .sumOfIntegers : .sumOfReals, keyPath: keyPath) { value in
            try StoreRowReader.decodeColumn(Value.self, from: value == .null ? .integer(0) : value)
        }
    }
}

extension StoreAggregate {
    /// The smallest value of a property (nil when no row has one), in the order ``ModelQuery/order(by:_:)`` sorts.
    public static func min<V: StoreOrderable>(_ keyPath: KeyPath<M, V>) -> StoreAggregate where Value == V? {
        StoreAggregate(function: .min, keyPath: keyPath) { try StoreRowReader.decodeColumn(V?.self, from: $0) }
    }

    /// The smallest value of an optional property other than `nil`.
    public static func min<V: StoreOrderable>(_ keyPath: KeyPath<M, V?>) -> StoreAggregate where Value == V? {
        StoreAggregate(function: .min, keyPath: keyPath) { try StoreRowReader.decodeColumn(V?.self, from: $0) }
    }

    /// The largest value of a property (nil when no row has one).
    public static func max<V: StoreOrderable>(_ keyPath: KeyPath<M, V>) -> StoreAggregate where Value == V? {
        StoreAggregate(function: .max, keyPath: keyPath) { try StoreRowReader.decodeColumn(V?.self, from: $0) }
    }

    /// The largest value of an optional property other than `nil`.
    public static func max<V: StoreOrderable>(_ keyPath: KeyPath<M, V?>) -> StoreAggregate where Value == V? {
        StoreAggregate(function: .max, keyPath: keyPath) { try StoreRowReader.decodeColumn(V?.self, from: $0) }
    }

    /// The mean of a property's values (nil when there are none).
    public static func average<V: StoreSummable>(_ keyPath: KeyPath<M, V>) -> StoreAggregate where Value == Double? {
        StoreAggregate(function: .average, keyPath: keyPath) { try StoreRowReader.decodeColumn(Double?.self, from: $0) }
    }

    /// The mean of an optional property's values other than `nil`.
    public static func average<V: StoreSummable>(_ keyPath: KeyPath<M, V?>) -> StoreAggregate where Value == Double? {
        StoreAggregate(function: .average, keyPath: keyPath) { try StoreRowReader.decodeColumn(Double?.self, from: $0) }
    }
}

/// A number a store can add up: integers (summed exactly, as 64-bit integers) and floating-point
/// numbers.
public protocol StoreSummable: StoreOrderable {
    /// Whether sums are integers (`true`) or doubles.
    static var sumsAsIntegers: Bool { get }
}

extension Int: StoreSummable { public static var sumsAsIntegers: Bool { true } }
extension Int8: StoreSummable { public static var sumsAsIntegers: Bool { true } }
extension Int16: StoreSummable { public static var sumsAsIntegers: Bool { true } }
extension Int32: StoreSummable { public static var sumsAsIntegers: Bool { true } }
extension Int64: StoreSummable { public static var sumsAsIntegers: Bool { true } }
extension UInt8: StoreSummable { public static var sumsAsIntegers: Bool { true } }
extension UInt16: StoreSummable { public static var sumsAsIntegers: Bool { true } }
extension UInt32: StoreSummable { public static var sumsAsIntegers: Bool { true } }
extension Double: StoreSummable { public static var sumsAsIntegers: Bool { false } }
extension Float: StoreSummable { public static var sumsAsIntegers: Bool { false } }
