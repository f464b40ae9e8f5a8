import Foundation

/// A value every ModelKit reader and writer knows how to read and write directly.
///
/// Strings, numbers, `Bool`, `Date`, `Data`, `URL`, `UUID`, `Decimal`, optionals, arrays,
/// sets, string-keyed dictionaries and every `@Model` type conform. Other `Codable` types
/// work too, through their `Codable` implementation (slower). A `RawRepresentable` enum
/// joins the fast path with an empty conformance:
///
/// ```swift
/// enum Kind: String, Codable, ModelValue { case photo, video }
/// ```
public protocol ModelValue: Codable {
    /// Reads a value at the reader's current position.
    static func read<R: ModelReader>(from reader: inout R) throws -> Self
    /// Writes the value to a writer.
    func write<W: ModelWriter>(to writer: inout W) throws
    /// What kind of value the type is (see ``ModelValueKind``). The default is
    /// ``ModelValueKind/other``: formats keep the value as JSON.
    static var modelValueKind: ModelValueKind { get }
}

extension ModelValue {
    public static var modelValueKind: ModelValueKind { .other }
}

extension ModelReader {
    /// Decodes a value of a known type: the direct path for ``ModelValue`` types.
    // Inlinable: what the code `@Model` generates calls for each property it reads (`reader.decodeValue(T.self)`); in
    // the user's module it specialises to the concrete reader and `T.read`, with no witness call per value.
    @inlinable
    public mutating func decodeValue<T: ModelValue>(_ type: T.Type) throws -> T {
        try T.read(from: &self)
    }

    /// Decodes a value of a known type through its `Decodable` implementation.
    // Inlinable: what generated code resolves to for a property of a Codable type, per value; specialised there, it
    // calls the concrete reader's `decodeCodable` directly.
    @inlinable
    public mutating func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        try decodeCodable(T.self)
    }

    /// Decodes a value into `target`, taking the type from it.
    // Inlinable: generated code calls it, per value, for a property declared without a type annotation; specialised
    // like `decodeValue(_:)` above.
    @inlinable
    public mutating func decodeValue<T: ModelValue>(into target: inout T) throws {
        target = try T.read(from: &self)
    }

    /// Decodes a value into `target` through its `Decodable` implementation.
    // Inlinable: the Codable path of a property without a type annotation, per value from generated code; specialised
    // to the concrete reader's `decodeCodable`.
    @inlinable
    public mutating func decodeValue<T: Decodable>(into target: inout T) throws {
        target = try decodeCodable(T.self)
    }

    /// What the generated code of a property whose type ModelKit cannot read resolves to, so
    /// that the compiler's error says what would work instead of "no exact matches".
    @available(*, unavailable, message: "a '@Model' property's type must be a standard value (String, Int, Double, Bool, Date, Data, URL, UUID, Decimal), a '@Model' type, Codable, or an optional, array or dictionary of those: make the type Codable, give the property a '@Transform', or mark it '@Transient'")
    @_disfavoredOverload
    public mutating func decodeValue<T>(_ type: T.Type) throws -> T {
        throw ModelError(.typeMismatch, expected: "a mappable type")
    }
}

extension ModelWriter {
    /// Encodes a value of a known type: the direct path for ``ModelValue`` types.
    // Inlinable: the call the generated `encodeModelField` makes for each property it writes; in the user's module it
    // specialises to the concrete writer and `T.write`.
    @inlinable
    public mutating func encodeValue<T: ModelValue>(_ value: T) throws {
        try value.write(to: &self)
    }

    /// Encodes a value through its `Encodable` implementation.
    // Inlinable: generated code's path for a property of an Encodable type, per value; specialised to the concrete
    // writer's `encodeNil` and `encodeCodable`.
    @inlinable
    public mutating func encodeValue<T: Encodable>(_ value: T) throws {
        if isNullValue(value) { try encodeNil() } else { try encodeCodable(value) }
    }

    /// The writing side of `ModelReader.decodeValue(_:)`'s fallback.
    @available(*, unavailable, message: "a '@Model' property's type must be a standard value (String, Int, Double, Bool, Date, Data, URL, UUID, Decimal), a '@Model' type, Codable, or an optional, array or dictionary of those: make the type Codable, give the property a '@Transform', or mark it '@Transient'")
    @_disfavoredOverload
    public mutating func encodeValue<T>(_ value: T) throws {
        throw ModelError(.typeMismatch, expected: "a mappable type")
    }
}
