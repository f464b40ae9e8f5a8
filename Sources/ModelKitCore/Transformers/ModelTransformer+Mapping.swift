import Foundation

// How generated code reads and writes a transformed property: through the transformer on
// remote mapping, as the property's own value otherwise. Overloads pick, at compile time, the
// most direct way the property's type allows.

extension ModelReader {
    /// Reads a transformed property whose type is a ``ModelValue``.
    // Inlinable, as are the five overloads after it: generated code calls `decodeValue(_:transformer:)` for each
    // transformed property it reads; in the user's module the overload chosen specialises for the concrete reader and
    // transformer.
    @inlinable
    public mutating func decodeValue<T: ModelTransformer>(_ type: T.Value.Type, transformer: T) throws -> T.Value
    where T.Value: ModelValue {
        mapping == .remote ? try transformer.read(from: &self) : try T.Value.read(from: &self)
    }

    /// Reads a transformed property whose type is only `Decodable`.
    // Inlinable: see the first overload (per transformed value read by generated code).
    @inlinable
    public mutating func decodeValue<T: ModelTransformer>(_ type: T.Value.Type, transformer: T) throws -> T.Value
    where T.Value: Decodable {
        mapping == .remote ? try transformer.read(from: &self) : try decodeCodable(T.Value.self)
    }

    /// Reads a transformed property of any other type: always through the transformer.
    // Inlinable: see the first overload (per transformed value read by generated code).
    @inlinable
    public mutating func decodeValue<T: ModelTransformer>(_ type: T.Value.Type, transformer: T) throws -> T.Value {
        try transformer.read(from: &self)
    }

    /// Reads an optional transformed property (`null` is nil) whose type is a ``ModelValue``.
    // Inlinable: see the first overload (per transformed value read by generated code).
    @inlinable
    public mutating func decodeValue<T: ModelTransformer>(_ type: T.Value?.Type, transformer: T) throws -> T.Value?
    where T.Value: ModelValue {
        try decodeNil() ? nil : decodeValue(T.Value.self, transformer: transformer)
    }

    /// Reads an optional transformed property whose type is only `Decodable`.
    // Inlinable: see the first overload (per transformed value read by generated code).
    @inlinable
    public mutating func decodeValue<T: ModelTransformer>(_ type: T.Value?.Type, transformer: T) throws -> T.Value?
    where T.Value: Decodable {
        try decodeNil() ? nil : decodeValue(T.Value.self, transformer: transformer)
    }

    /// Reads an optional transformed property of any other type.
    // Inlinable: see the first overload (per transformed value read by generated code).
    @inlinable
    public mutating func decodeValue<T: ModelTransformer>(_ type: T.Value?.Type, transformer: T) throws -> T.Value? {
        try decodeNil() ? nil : transformer.read(from: &self)
    }
}

extension ModelWriter {
    /// Writes a transformed property whose type is a ``ModelValue``.
    // Inlinable, as are the five overloads after it: the generated `encodeModelField` calls
    // `encodeValue(_:transformer:)` for each transformed property it writes; in the user's module the overload chosen
    // specialises for the concrete writer and transformer.
    @inlinable
    public mutating func encodeValue<T: ModelTransformer>(_ value: T.Value, transformer: T) throws
    where T.Value: ModelValue {
        if mapping == .remote { try transformer.write(value, to: &self) } else { try value.write(to: &self) }
    }

    /// Writes a transformed property whose type is only `Encodable`.
    // Inlinable: see the first `encodeValue` overload (per transformed value written by generated code).
    @inlinable
    public mutating func encodeValue<T: ModelTransformer>(_ value: T.Value, transformer: T) throws
    where T.Value: Encodable {
        if mapping == .remote { try transformer.write(value, to: &self) } else { try encodeCodable(value) }
    }

    /// Writes a transformed property of any other type: always through the transformer.
    // Inlinable: see the first `encodeValue` overload (per transformed value written by generated code).
    @inlinable
    public mutating func encodeValue<T: ModelTransformer>(_ value: T.Value, transformer: T) throws {
        try transformer.write(value, to: &self)
    }

    /// Writes an optional transformed property whose type is a ``ModelValue``.
    // Inlinable: see the first `encodeValue` overload (per transformed value written by generated code).
    @inlinable
    public mutating func encodeValue<T: ModelTransformer>(_ value: T.Value?, transformer: T) throws
    where T.Value: ModelValue {
        if let value { try encodeValue(value, transformer: transformer) } else { try encodeNil() }
    }

    /// Writes an optional transformed property whose type is only `Encodable`.
    // Inlinable: see the first `encodeValue` overload (per transformed value written by generated code).
    @inlinable
    public mutating func encodeValue<T: ModelTransformer>(_ value: T.Value?, transformer: T) throws
    where T.Value: Encodable {
        if let value { try encodeValue(value, transformer: transformer) } else { try encodeNil() }
    }

    /// Writes an optional transformed property of any other type.
    // Inlinable: see the first `encodeValue` overload (per transformed value written by generated code).
    @inlinable
    public mutating func encodeValue<T: ModelTransformer>(_ value: T.Value?, transformer: T) throws {
        if let value { try transformer.write(value, to: &self) } else { try encodeNil() }
    }
}

extension ModelReader {
    /// Runs a property's validation method on a decoded value (PSPDFModel's KVC validation),
    /// naming the value in what it throws.
    // Inlinable: generated code calls it after reading each property that has a `validate<Name>` method; specialised
    // there, the validation function is called directly.
    @inlinable
    public func validateField<V>(_ value: V, _ validate: (V) throws -> Void) throws {
        guard flags.validates else { return }
        do {
            try validate(value)
        } catch let error as ModelError {
            throw error.describingFound(value)
        } catch {
            throw ModelError(.invalidValue, found: ModelError.describe(value), underlying: error)
        }
    }
}

extension ModelError {
    /// An error for validation methods and transformers to throw: `expected <requirement>`.
    ///
    /// ```swift
    /// static func validateScreenName(_ name: String) throws {
    ///     if name.isEmpty { throw ModelError.invalid(expected: "a non-empty name") }
    /// }
    /// ```
    public static func invalid(expected requirement: String, found: String? = nil) -> ModelError {
        ModelError(.invalidValue, expected: requirement, found: found)
    }
}
