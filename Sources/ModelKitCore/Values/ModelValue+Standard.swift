import Foundation

// The standard library's and Foundation's value types read and write themselves through the
// reader's typed primitives, so a model of plain values never passes through `Any`; each states
// its kind here, once.

extension String: ModelValue {
    // Inlinable, with `write`: run per String value by generated model code and the collections below; specialised
    // there to the concrete reader's `decodeString` and writer's `encodeString`.
    @inlinable public static func read<R: ModelReader>(from reader: inout R) throws -> String {
        try reader.decodeString()
    }
    @inlinable public func write<W: ModelWriter>(to writer: inout W) throws { try writer.encodeString(self) }
    public static var modelValueKind: ModelValueKind { .string }
}

extension Bool: ModelValue {
    // Inlinable, with `write`: per Bool value from generated code, specialised to `decodeBool` / `encodeBool`.
    @inlinable public static func read<R: ModelReader>(from reader: inout R) throws -> Bool {
        try reader.decodeBool()
    }
    @inlinable public func write<W: ModelWriter>(to writer: inout W) throws { try writer.encodeBool(self) }
    public static var modelValueKind: ModelValueKind { .bool }
}

extension Double: ModelValue {
    // Inlinable, with `write`: per Double value from generated code, specialised to `decodeDouble` / `encodeDouble`.
    @inlinable public static func read<R: ModelReader>(from reader: inout R) throws -> Double {
        try reader.decodeDouble()
    }
    @inlinable public func write<W: ModelWriter>(to writer: inout W) throws { try writer.encodeDouble(self) }
    public static var modelValueKind: ModelValueKind { .float }
}

extension Float: ModelValue {
    // Inlinable, with `write`: per Float value from generated code; inlined there, one call to the reader's
    // `decodeFloat` or the writer's `encodeFloat`.
    @inlinable public static func read<R: ModelReader>(from reader: inout R) throws -> Float {
        try reader.decodeFloat()
    }
    @inlinable public func write<W: ModelWriter>(to writer: inout W) throws { try writer.encodeFloat(self) }
    public static var modelValueKind: ModelValueKind { .float }
}

/// A fixed-width integer as a ``ModelValue``: read through the reader's 64-bit primitives, with a
/// range error when the value does not fit the type.
public protocol ModelInteger: FixedWidthInteger, ModelValue {}

extension ModelInteger {
    // Inlinable, with `write`: per integer value of any width; specialised for the width, `decodeInteger`'s range check
    // needs no generic metadata.
    @inlinable public static func read<R: ModelReader>(from reader: inout R) throws -> Self {
        try reader.decodeInteger(Self.self)
    }
    @inlinable public func write<W: ModelWriter>(to writer: inout W) throws { try writer.encodeInteger(self) }
    public static var modelValueKind: ModelValueKind { .integer }
}

extension Int: ModelInteger {}
extension Int8: ModelInteger {}
extension Int16: ModelInteger {}
extension Int32: ModelInteger {}
extension Int64: ModelInteger {}
extension UInt: ModelInteger {}
extension UInt8: ModelInteger {}
extension UInt16: ModelInteger {}
extension UInt32: ModelInteger {}
extension UInt64: ModelInteger {}

extension Decimal: ModelValue {
    // Inlinable, with `write`: per Decimal value from generated code, specialised to `decodeDecimal` / `encodeDecimal`.
    @inlinable public static func read<R: ModelReader>(from reader: inout R) throws -> Decimal {
        try reader.decodeDecimal()
    }
    @inlinable public func write<W: ModelWriter>(to writer: inout W) throws { try writer.encodeDecimal(self) }
    public static var modelValueKind: ModelValueKind { .decimal }
}

extension Date: ModelValue {
    // Inlinable, with `write`: per Date value from generated code, specialised to the format's `decodeDate` /
    // `encodeDate`.
    @inlinable public static func read<R: ModelReader>(from reader: inout R) throws -> Date {
        try reader.decodeDate()
    }
    @inlinable public func write<W: ModelWriter>(to writer: inout W) throws { try writer.encodeDate(self) }
    public static var modelValueKind: ModelValueKind { .date }
}

extension Data: ModelValue {
    // Inlinable, with `write`: per Data value from generated code, specialised to `decodeData` / `encodeData`.
    @inlinable public static func read<R: ModelReader>(from reader: inout R) throws -> Data {
        try reader.decodeData()
    }
    @inlinable public func write<W: ModelWriter>(to writer: inout W) throws { try writer.encodeData(self) }
    public static var modelValueKind: ModelValueKind { .data }
}

extension URL: ModelValue {
    // Inlinable, with `write`: per URL value from generated code, specialised to `decodeURL` / `encodeURL`.
    @inlinable public static func read<R: ModelReader>(from reader: inout R) throws -> URL {
        try reader.decodeURL()
    }
    @inlinable public func write<W: ModelWriter>(to writer: inout W) throws { try writer.encodeURL(self) }
    public static var modelValueKind: ModelValueKind { .url }
}

extension UUID: ModelValue {
    // Inlinable, with `write`: per UUID value from generated code, specialised to `decodeUUID` / `encodeUUID`.
    @inlinable public static func read<R: ModelReader>(from reader: inout R) throws -> UUID {
        try reader.decodeUUID()
    }
    @inlinable public func write<W: ModelWriter>(to writer: inout W) throws { try writer.encodeUUID(self) }
    public static var modelValueKind: ModelValueKind { .uuid }
}

extension JSONValue: ModelValue {
    // Inlinable, with `write`: per JSONValue property value, specialised to `decodeJSONValue` / `encodeJSONValue`.
    @inlinable public static func read<R: ModelReader>(from reader: inout R) throws -> JSONValue {
        try reader.decodeJSONValue()
    }
    @inlinable public func write<W: ModelWriter>(to writer: inout W) throws { try writer.encodeJSONValue(self) }
    public static var modelValueKind: ModelValueKind { .json }
}

extension Optional: ModelValue where Wrapped: ModelValue {
    // Inlinable, with `write`: per optional value; specialised, the null check and the wrapped type's `read`/`write`
    // are inlined together.
    @inlinable public static func read<R: ModelReader>(from reader: inout R) throws -> Wrapped? {
        try reader.decodeNil() ? nil : Wrapped.read(from: &reader)
    }
    @inlinable public func write<W: ModelWriter>(to writer: inout W) throws {
        if let value = self { try value.write(to: &writer) } else { try writer.encodeNil() }
    }
    public static var modelValueKind: ModelValueKind { .optional(Wrapped.modelValueKind) }
}

extension Array: ModelValue where Element: ModelValue {
    // Inlinable, with `write`: per array; specialised, the element closure calls the element type's `read`/`write`
    // directly, once per element.
    @inlinable public static func read<R: ModelReader>(from reader: inout R) throws -> [Element] {
        try reader.decodeArray { try Element.read(from: &$0) }
    }
    @inlinable public func write<W: ModelWriter>(to writer: inout W) throws {
        // References back to a model being written, through an inverse, are left out (see `isReferenceBack`); a class's
        // value is its reference, so the bits are the same. The class test is a constant where the element type is known not
        // to be a class (see `isClassType`).
        if !isEmpty, isClassType(Element.self), WritesInProgress.isWriting,
            contains(where: { WritesInProgress.isReferenceBack(unsafeBitCast($0, to: AnyObject.self)) })
        {
            let kept = filter { !WritesInProgress.isReferenceBack(unsafeBitCast($0, to: AnyObject.self)) }
            return try writer.encodeArray(kept) { writer, element in try element.write(to: &writer) }
        }
        try writer.encodeArray(self) { writer, element in try element.write(to: &writer) }
    }
    public static var modelValueKind: ModelValueKind { .array(Element.modelValueKind) }
}

extension Set: ModelValue where Element: ModelValue {
    // Inlinable, with `write`: per set, specialised for the element type like the array's.
    @inlinable public static func read<R: ModelReader>(from reader: inout R) throws -> Set<Element> {
        Set(try reader.decodeArray { try Element.read(from: &$0) })
    }
    @inlinable public func write<W: ModelWriter>(to writer: inout W) throws {
        try writer.encodeArray(self) { writer, element in try element.write(to: &writer) }
    }
    public static var modelValueKind: ModelValueKind { .set(Element.modelValueKind) }
}

extension Dictionary: ModelValue where Key == String, Value: ModelValue {
    // Inlinable, with `write`: per dictionary, specialised for the value type like the array's.
    @inlinable public static func read<R: ModelReader>(from reader: inout R) throws -> [String: Value] {
        try reader.decodeDictionary { try Value.read(from: &$0) }
    }
    @inlinable public func write<W: ModelWriter>(to writer: inout W) throws {
        try writer.encodeDictionary(self) { writer, value in try value.write(to: &writer) }
    }
    public static var modelValueKind: ModelValueKind { .dictionary(Value.modelValueKind) }
}

extension RawRepresentable where Self: ModelValue, RawValue: ModelValue {
    /// Reads the raw value and makes the case from it; an unknown raw value is an error.
    // Inlinable: per value of a raw-value enum that joins the fast path; specialised, it is the raw value's `read` and
    // `init(rawValue:)`.
    @inlinable public static func read<R: ModelReader>(from reader: inout R) throws -> Self {
        let raw = try RawValue.read(from: &reader)
        guard let value = Self(rawValue: raw) else {
            throw ModelError(.invalidValue, expected: "one of the cases of '\(Self.self)'", found: ModelError.describe(raw))
        }
        return value
    }
    /// Writes the raw value.
    // Inlinable: the writing side of the above, per value: the raw value's `write`, specialised.
    @inlinable public func write<W: ModelWriter>(to writer: inout W) throws { try rawValue.write(to: &writer) }
    /// The raw value's kind: the case is kept as its raw value.
    public static var modelValueKind: ModelValueKind { RawValue.modelValueKind }
}
