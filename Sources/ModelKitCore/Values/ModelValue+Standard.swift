import Foundation

// The standard library's and Foundation's value types read and write themselves through the
// reader's typed primitives, so a model of plain values never passes through `Any`.

extension String: ModelValue {
    @inlinable public static func read<R: ModelReader>(from reader: inout R) throws -> String {
        try reader.decodeString()
    }
    @inlinable public func write<W: ModelWriter>(to writer: inout W) throws { try writer.encodeString(self) }
}

extension Bool: ModelValue {
    @inlinable public static func read<R: ModelReader>(from reader: inout R) throws -> Bool {
        try reader.decodeBool()
    }
    @inlinable public func write<W: ModelWriter>(to writer: inout W) throws { try writer.encodeBool(self) }
}

extension Double: ModelValue {
    @inlinable public static func read<R: ModelReader>(from reader: inout R) throws -> Double {
        try reader.decodeDouble()
    }
    @inlinable public func write<W: ModelWriter>(to writer: inout W) throws { try writer.encodeDouble(self) }
}

extension Float: ModelValue {
    @inlinable public static func read<R: ModelReader>(from reader: inout R) throws -> Float {
        try reader.decodeFloat()
    }
    @inlinable public func write<W: ModelWriter>(to writer: inout W) throws { try writer.encodeFloat(self) }
}

extension Int: ModelValue {
    @inlinable public static func read<R: ModelReader>(from reader: inout R) throws -> Int {
        try reader.decodeInteger(Int.self)
    }
    @inlinable public func write<W: ModelWriter>(to writer: inout W) throws { try writer.encodeInteger(self) }
}

extension Int8: ModelValue {
    @inlinable public static func read<R: ModelReader>(from reader: inout R) throws -> Int8 {
        try reader.decodeInteger(Int8.self)
    }
    @inlinable public func write<W: ModelWriter>(to writer: inout W) throws { try writer.encodeInteger(self) }
}

extension Int16: ModelValue {
    @inlinable public static func read<R: ModelReader>(from reader: inout R) throws -> Int16 {
        try reader.decodeInteger(Int16.self)
    }
    @inlinable public func write<W: ModelWriter>(to writer: inout W) throws { try writer.encodeInteger(self) }
}

extension Int32: ModelValue {
    @inlinable public static func read<R: ModelReader>(from reader: inout R) throws -> Int32 {
        try reader.decodeInteger(Int32.self)
    }
    @inlinable public func write<W: ModelWriter>(to writer: inout W) throws { try writer.encodeInteger(self) }
}

extension Int64: ModelValue {
    @inlinable public static func read<R: ModelReader>(from reader: inout R) throws -> Int64 {
        try reader.decodeInt64()
    }
    @inlinable public func write<W: ModelWriter>(to writer: inout W) throws { try writer.encodeInt64(self) }
}

extension UInt: ModelValue {
    @inlinable public static func read<R: ModelReader>(from reader: inout R) throws -> UInt {
        try reader.decodeInteger(UInt.self)
    }
    @inlinable public func write<W: ModelWriter>(to writer: inout W) throws { try writer.encodeInteger(self) }
}

extension UInt8: ModelValue {
    @inlinable public static func read<R: ModelReader>(from reader: inout R) throws -> UInt8 {
        try reader.decodeInteger(UInt8.self)
    }
    @inlinable public func write<W: ModelWriter>(to writer: inout W) throws { try writer.encodeInteger(self) }
}

extension UInt16: ModelValue {
    @inlinable public static func read<R: ModelReader>(from reader: inout R) throws -> UInt16 {
        try reader.decodeInteger(UInt16.self)
    }
    @inlinable public func write<W: ModelWriter>(to writer: inout W) throws { try writer.encodeInteger(self) }
}

extension UInt32: ModelValue {
    @inlinable public static func read<R: ModelReader>(from reader: inout R) throws -> UInt32 {
        try reader.decodeInteger(UInt32.self)
    }
    @inlinable public func write<W: ModelWriter>(to writer: inout W) throws { try writer.encodeInteger(self) }
}

extension UInt64: ModelValue {
    @inlinable public static func read<R: ModelReader>(from reader: inout R) throws -> UInt64 {
        try reader.decodeUInt64()
    }
    @inlinable public func write<W: ModelWriter>(to writer: inout W) throws { try writer.encodeUInt64(self) }
}

extension Decimal: ModelValue {
    @inlinable public static func read<R: ModelReader>(from reader: inout R) throws -> Decimal {
        try reader.decodeDecimal()
    }
    @inlinable public func write<W: ModelWriter>(to writer: inout W) throws { try writer.encodeDecimal(self) }
}

extension Date: ModelValue {
    @inlinable public static func read<R: ModelReader>(from reader: inout R) throws -> Date {
        try reader.decodeDate()
    }
    @inlinable public func write<W: ModelWriter>(to writer: inout W) throws { try writer.encodeDate(self) }
}

extension Data: ModelValue {
    @inlinable public static func read<R: ModelReader>(from reader: inout R) throws -> Data {
        try reader.decodeData()
    }
    @inlinable public func write<W: ModelWriter>(to writer: inout W) throws { try writer.encodeData(self) }
}

extension URL: ModelValue {
    @inlinable public static func read<R: ModelReader>(from reader: inout R) throws -> URL {
        try reader.decodeURL()
    }
    @inlinable public func write<W: ModelWriter>(to writer: inout W) throws { try writer.encodeURL(self) }
}

extension UUID: ModelValue {
    @inlinable public static func read<R: ModelReader>(from reader: inout R) throws -> UUID {
        try reader.decodeUUID()
    }
    @inlinable public func write<W: ModelWriter>(to writer: inout W) throws { try writer.encodeUUID(self) }
}

extension JSONValue: ModelValue {
    @inlinable public static func read<R: ModelReader>(from reader: inout R) throws -> JSONValue {
        try reader.decodeJSONValue()
    }
    @inlinable public func write<W: ModelWriter>(to writer: inout W) throws { try writer.encodeJSONValue(self) }
}

extension Optional: ModelValue where Wrapped: ModelValue {
    @inlinable public static func read<R: ModelReader>(from reader: inout R) throws -> Wrapped? {
        try reader.decodeNil() ? nil : Wrapped.read(from: &reader)
    }
    @inlinable public func write<W: ModelWriter>(to writer: inout W) throws {
        if let value = self { try value.write(to: &writer) } else { try writer.encodeNil() }
    }
}

extension Array: ModelValue where Element: ModelValue {
    @inlinable public static func read<R: ModelReader>(from reader: inout R) throws -> [Element] {
        try reader.decodeArray { try Element.read(from: &$0) }
    }
    @inlinable public func write<W: ModelWriter>(to writer: inout W) throws {
        try writer.encodeArray(self) { writer, element in try element.write(to: &writer) }
    }
}

extension Set: ModelValue where Element: ModelValue {
    @inlinable public static func read<R: ModelReader>(from reader: inout R) throws -> Set<Element> {
        Set(try reader.decodeArray { try Element.read(from: &$0) })
    }
    @inlinable public func write<W: ModelWriter>(to writer: inout W) throws {
        try writer.encodeArray(self) { writer, element in try element.write(to: &writer) }
    }
}

extension Dictionary: ModelValue where Key == String, Value: ModelValue {
    @inlinable public static func read<R: ModelReader>(from reader: inout R) throws -> [String: Value] {
        try reader.decodeDictionary { try Value.read(from: &$0) }
    }
    @inlinable public func write<W: ModelWriter>(to writer: inout W) throws {
        try writer.encodeDictionary(self) { writer, value in try value.write(to: &writer) }
    }
}

extension RawRepresentable where Self: ModelValue, RawValue: ModelValue {
    /// Reads the raw value and makes the case from it; an unknown raw value is an error.
    @inlinable public static func read<R: ModelReader>(from reader: inout R) throws -> Self {
        let raw = try RawValue.read(from: &reader)
        guard let value = Self(rawValue: raw) else {
            throw ModelError(.invalidValue, expected: "one of the cases of '\(Self.self)'", found: ModelError.describe(raw))
        }
        return value
    }
    /// Writes the raw value.
    @inlinable public func write<W: ModelWriter>(to writer: inout W) throws { try rawValue.write(to: &writer) }
}
