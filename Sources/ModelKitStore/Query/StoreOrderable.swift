import Foundation
import ModelKitCore

/// A value whose stored form orders as the value does, on every store: integers and booleans,
/// floating-point numbers, strings, and dates (stored as fixed-width UTC text on SQLite, so text
/// order is time order; `timestamptz` on PostgreSQL). Only these take `<`, `<=`, `>` and `>=` in a
/// query, and `order(by:)`'s results follow the same rules.
///
/// Decimals, URLs, UUIDs, data and nested values are not orderable: SQLite keeps them as text or
/// bytes, whose order is not theirs (`"10.5" < "9"` as text). Comparing them is a compile-time
/// error rather than a silently wrong result. A type of yours whose stored form orders correctly
/// (an enum with `Int` raw values, say) may conform:
///
/// ```swift
/// enum Priority: Int, ModelValue, StoreOrderable { case low, normal, high }
/// let urgent = ModelQuery(Task.self).filter(\Task.priority >= .high)
/// ```
public protocol StoreOrderable: ModelValue {}

extension Int: StoreOrderable {}
extension Int8: StoreOrderable {}
extension Int16: StoreOrderable {}
extension Int32: StoreOrderable {}
extension Int64: StoreOrderable {}
extension UInt: StoreOrderable {}
extension UInt8: StoreOrderable {}
extension UInt16: StoreOrderable {}
extension UInt32: StoreOrderable {}
extension UInt64: StoreOrderable {}
extension Bool: StoreOrderable {}
extension Double: StoreOrderable {}
extension Float: StoreOrderable {}
extension String: StoreOrderable {}
extension Date: StoreOrderable {}
extension Optional: StoreOrderable where Wrapped: StoreOrderable {}

/// The ordering operators for values that do not order as stored: compile-time errors that say
/// why, in place of "requires that 'Decimal' conform to 'StoreOrderable'".
extension KeyPath where Root: Model, Value: ModelValue {
    @_disfavoredOverload
    @available(*, unavailable, message: "a query orders only numbers, strings and dates ('StoreOrderable'): this property is stored as text, bytes or JSON, whose order is not its own")
    public static func < (keyPath: KeyPath, value: Value) -> ModelPredicate<Root> { ModelPredicate(.failure(.notOrderable)) }

    @_disfavoredOverload
    @available(*, unavailable, message: "a query orders only numbers, strings and dates ('StoreOrderable'): this property is stored as text, bytes or JSON, whose order is not its own")
    public static func <= (keyPath: KeyPath, value: Value) -> ModelPredicate<Root> { ModelPredicate(.failure(.notOrderable)) }

    @_disfavoredOverload
    @available(*, unavailable, message: "a query orders only numbers, strings and dates ('StoreOrderable'): this property is stored as text, bytes or JSON, whose order is not its own")
    public static func > (keyPath: KeyPath, value: Value) -> ModelPredicate<Root> { ModelPredicate(.failure(.notOrderable)) }

    @_disfavoredOverload
    @available(*, unavailable, message: "a query orders only numbers, strings and dates ('StoreOrderable'): this property is stored as text, bytes or JSON, whose order is not its own")
    public static func >= (keyPath: KeyPath, value: Value) -> ModelPredicate<Root> { ModelPredicate(.failure(.notOrderable)) }
}

extension ModelQuery {
    @available(*, unavailable, message: "a query orders only by numbers, strings and dates ('StoreOrderable'): this property is stored as text, bytes or JSON, whose order is not its own")
    public func order<V: ModelValue>(by keyPath: KeyPath<M, V>, _ order: StoreOrder = .ascending) -> ModelQuery { self }
}

extension StoreError {
    /// What the unavailable ordering operators would answer, were they called.
    static let notOrderable = StoreError(.unknownKeyPath, reason: "the property's stored form does not order as its values do")
}
