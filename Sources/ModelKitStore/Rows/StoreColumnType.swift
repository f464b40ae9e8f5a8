import Foundation
import ModelKitCore

/// The SQLite type of a property's column, from its declared type: what the store's row writer
/// writes for values of that type.
enum StoreColumnType {
    /// `INTEGER`, `REAL`, `TEXT` or `BLOB` for a Swift type.
    static func sqlType(of type: Any.Type) -> String {
        if let optional = type as? any StoreOptional.Type { return sqlType(of: optional.wrappedType) }
        switch ObjectIdentifier(type) {
        case ObjectIdentifier(Bool.self), ObjectIdentifier(Int.self), ObjectIdentifier(Int8.self),
            ObjectIdentifier(Int16.self), ObjectIdentifier(Int32.self), ObjectIdentifier(Int64.self),
            ObjectIdentifier(UInt.self), ObjectIdentifier(UInt8.self), ObjectIdentifier(UInt16.self),
            ObjectIdentifier(UInt32.self), ObjectIdentifier(UInt64.self):
            return "INTEGER"
        case ObjectIdentifier(Double.self), ObjectIdentifier(Float.self):
            return "REAL"
        case ObjectIdentifier(Data.self):
            return "BLOB"
        default:
            break
        }
        if let model = type as? any Model.Type {
            // An identified class is stored as its identifier; anything else as JSON text.
            let schema = model.modelSchema
            if type is AnyObject.Type, let identifier = schema.identifier { return sqlType(of: identifier.valueType) }
            return "TEXT"
        }
        if let raw = type as? any RawRepresentable.Type, type is any ModelValue.Type {
            return sqlType(of: rawValueType(raw))
        }
        return "TEXT"
    }

    private static func rawValueType<T: RawRepresentable>(_ type: T.Type) -> Any.Type {
        T.RawValue.self
    }
}

/// Lets a type in `Any.Type` say which type it wraps, when it is an optional.
protocol StoreOptional {
    static var wrappedType: Any.Type { get }
}

extension Optional: StoreOptional {
    static var wrappedType: Any.Type { Wrapped.self }
}
