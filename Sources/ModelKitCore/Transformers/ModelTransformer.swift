import Foundation

/// A reversible, throwing conversion between a property's value and its remote representation
/// (FDModel's value transformers).
///
/// A transformer runs on remote mapping only (JSON, `Codable`); dictionaries, archives and the
/// store keep the property's own value. Attach one with `@Transform`:
///
/// ```swift
/// @Transform(.dateFormat("EEE MMM dd HH:mm:ss Z yyyy")) var createdAt: Date
/// @Transform(.millisecondsSince1970) var updatedAt: Date?
/// ```
///
/// Write your own by naming the two types and the two directions:
///
/// ```swift
/// struct CentsTransformer: ModelTransformer {
///     var expectation: String { "an amount in cents" }
///     func transformedValue(_ cents: Int) throws -> Decimal { Decimal(cents) / 100 }
///     func reverseTransformedValue(_ amount: Decimal) throws -> Int { NSDecimalNumber(decimal: amount * 100).intValue }
/// }
/// ```
public protocol ModelTransformer<Value>: Sendable {
    /// The property's type.
    associatedtype Value
    /// The type of the remote representation.
    associatedtype Encoded: ModelValue

    /// What the transformer accepts, for error messages, e.g. `a date like "yyyy-MM-dd"`.
    var expectation: String { get }
    /// Converts the remote representation to the property's value.
    func transformedValue(_ encoded: Encoded) throws -> Value
    /// Converts the property's value to its remote representation.
    func reverseTransformedValue(_ value: Value) throws -> Encoded

    /// Reads the value from a reader. The default reads `Encoded` and converts it; override to
    /// read the payload differently (lossy arrays do).
    func read<R: ModelReader>(from reader: inout R) throws -> Value
    /// Writes the value to a writer. The default converts it and writes `Encoded`.
    func write<W: ModelWriter>(_ value: Value, to writer: inout W) throws
}

extension ModelTransformer {
    public var expectation: String { "a value '\(Self.self)' accepts" }

    // Inlinable: the default `read` of every transformer, run per transformed value from `decodeValue(_:transformer:)`,
    // which generated code calls; visible there, it specialises for the concrete transformer and reader, `Encoded.read`
    // included.
    @inlinable
    public func read<R: ModelReader>(from reader: inout R) throws -> Value {
        let encoded = try Encoded.read(from: &reader)
        do {
            return try transformedValue(encoded)
        } catch let error as ModelError {
            throw error.describingFound(encoded)
        } catch {
            throw ModelError(
                .invalidValue, expected: expectation, found: ModelError.describe(encoded), underlying: error)
        }
    }

    // Inlinable: the default `write` of every transformer, run per transformed value from `encodeValue(_:transformer:)`
    // in generated code; specialised there like `read`.
    @inlinable
    public func write<W: ModelWriter>(_ value: Value, to writer: inout W) throws {
        let encoded: Encoded
        do {
            encoded = try reverseTransformedValue(value)
        } catch let error as ModelError {
            throw error.describingFound(value)
        } catch {
            throw ModelError(.invalidValue, expected: expectation, found: ModelError.describe(value), underlying: error)
        }
        try encoded.write(to: &writer)
    }
}

/// Gives a transformer expression its property type, so `.dateFormat(...)` resolves; used by
/// the code `@Model` generates.
// Inlinable: generated code calls it once per transformed property, in the initializer of the transformer's static
// constant; an identity function, inlined away there.
@inlinable
public func modelTransformer<V, T: ModelTransformer>(for type: V.Type, _ transformer: T) -> T where T.Value == V {
    transformer
}

/// What the generated code resolves to when a `@Transform`'s transformer converts another type
/// than the property's, so that the compiler's error says so instead of "requires the types
/// 'Int' and 'Date' be equivalent".
@available(*, unavailable, message: "the '@Transform' transformer converts a type other than the property's: use a transformer whose 'Value' is the property's type (a date transformer for a 'Date' property), or change the property's type")
@_disfavoredOverload
public func modelTransformer<V, T: ModelTransformer>(for type: V.Type, _ transformer: T) -> T {
    transformer
}

/// Same as ``modelTransformer(for:_:)-(_,T)`` for an optional property whose transformer
/// handles the wrapped type.
// Inlinable: the optional-property form of the identity function above, inlined away in generated code likewise.
@inlinable
public func modelTransformer<V, T: ModelTransformer>(for type: V?.Type, _ transformer: T) -> T where T.Value == V {
    transformer
}
