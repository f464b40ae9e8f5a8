import Foundation

/// An identifier as the identity map keys it: the common identifier types directly, anything else
/// as `AnyHashable`.
///
/// `AnyHashable`'s hashing and equality go through dynamic casts (integers of different widths
/// compare equal), which made them most of the cost of a lookup; integers, strings and UUIDs skip
/// that, and integers of any width still meet (`Int64(12)` finds what `12` registered).
// Usable from inline: the inlinable `ModelContext.register(_:id:)` makes keys. Package: a store makes the key of a
// row's identifier from the stored value, without `AnyHashable`.
@usableFromInline
package enum IdentityKey: Hashable {
    case integer(Int64)
    case string(String)
    case uuid(UUID)
    case other(AnyHashable)

    /// The key of an identifier of a known type: a comparison of metatypes, not a dynamic cast.
    // Inlinable: made per identifier by the inlinable `register(_:id:)` and the identity paths; specialised for `ID`,
    // the metatype comparisons fold to one case.
    @inlinable
    init<ID: Hashable>(_ id: ID) {
        if ID.self == Int.self {
            self = .integer(Int64(Self.reinterpret(id, as: Int.self)))
        } else if ID.self == String.self {
            self = .string(Self.reinterpret(id, as: String.self))
        } else if ID.self == UUID.self {
            self = .uuid(Self.reinterpret(id, as: UUID.self))
        } else {
            // An `AnyHashable` stays itself: `AnyHashable(_:)` does not wrap one twice.
            self.init(AnyHashable(id))
        }
    }

    /// `value` as `T`, which is its own type (checked by the caller).
    // Inlinable: used by the inlinable generic `init` above and `register(_:id:)`. The value's bytes read as `T`: the
    // caller checked that `ID` is `T`, so the layout is `T`'s own, and no dynamic cast is paid.
    @inlinable @inline(__always)
    static func reinterpret<ID, T>(_ value: ID, as type: T.Type) -> T {
        withUnsafePointer(to: value) { $0.withMemoryRebound(to: T.self, capacity: 1) { $0.pointee } }
    }

    /// The key of a type-erased identifier.
    // Usable from inline: the inlinable generic `init` falls back to it for other identifier types.
    @usableFromInline
    package init(_ id: AnyHashable) {
        switch id.base {
        case let value as String: self = .string(value)
        case let value as Int: self = .integer(Int64(value))
        case let value as UUID: self = .uuid(value)
        case let value as Int64: self = .integer(value)
        case let value as Int32: self = .integer(Int64(value))
        case let value as Int16: self = .integer(Int64(value))
        case let value as Int8: self = .integer(Int64(value))
        case let value as UInt32: self = .integer(Int64(value))
        case let value as UInt16: self = .integer(Int64(value))
        case let value as UInt8: self = .integer(Int64(value))
        case let value as UInt64 where value <= UInt64(Int64.max): self = .integer(Int64(value))
        case let value as UInt where value <= UInt(Int64.max): self = .integer(Int64(value))
        default: self = .other(id)
        }
    }
}
