import Foundation

/// What kind of value a type is, stated once per type: formats that keep each kind their own
/// way (SQL column types, archived classes and their defaults) derive what they need from it
/// instead of asking the type at run time.
///
/// Every standard ``ModelValue`` states its kind; `@Model` types are ``model(_:)``, enums with
/// raw values take their raw value's kind, and other `Codable` types are ``other``.
///
/// ```swift
/// Int.modelValueKind          // .integer
/// [Tag]?.modelValueKind       // .optional(.array(.model(AnyModelType(Tag.self))))
/// User.modelSchema["createdAt"]?.valueKind // .date
/// ```
///
/// Only the nesting cases are `indirect`: with ``model(_:)`` stored inline, Swift keeps the
/// case tag beside the boxes' pointers rather than in their high bits, so leak checkers
/// (LeakSanitizer in the fuzz harnesses) can follow them; a wholly `indirect` enum made every
/// schema's nested kinds look leaked.
public enum ModelValueKind: Sendable {
    /// `Bool`.
    case bool
    /// A fixed-width integer (`Int`, `Int8`, ..., `UInt64`).
    case integer
    /// A binary floating-point number (`Double`, `Float`).
    case float
    /// `Decimal`.
    case decimal
    /// `String`.
    case string
    /// `Date`.
    case date
    /// `Data`.
    case data
    /// `URL`.
    case url
    /// `UUID`.
    case uuid
    /// ``JSONValue``: any JSON.
    case json
    /// An optional of a kind.
    indirect case optional(ModelValueKind)
    /// An array of a kind.
    indirect case array(ModelValueKind)
    /// A set of a kind.
    indirect case set(ModelValueKind)
    /// A string-keyed dictionary of a kind.
    indirect case dictionary(ModelValueKind)
    /// A `@Model` type.
    case model(AnyModelType)
    /// Any other `Codable` type: formats keep it as JSON.
    case other

    /// The kind without optionals around it.
    public var unwrapped: ModelValueKind {
        if case .optional(let wrapped) = self { return wrapped.unwrapped }
        return self
    }

    /// Whether this is an optional kind.
    public var isOptional: Bool {
        if case .optional = self { return true }
        return false
    }

    /// For a `@Model` class with an `@Identifier`: the identifier's kind (stores keep such a
    /// model as a reference to its own row); nil otherwise.
    public var referenceIdentifierKind: ModelValueKind? {
        guard case .model(let model) = self, model.type is AnyObject.Type, let identifier = model.schema.identifier else {
            return nil
        }
        return identifier.valueKind
    }
}

extension ModelValueKind: CustomStringConvertible {
    public var description: String {
        switch self {
        case .bool: return "bool"
        case .integer: return "integer"
        case .float: return "float"
        case .decimal: return "decimal"
        case .string: return "string"
        case .date: return "date"
        case .data: return "data"
        case .url: return "url"
        case .uuid: return "uuid"
        case .json: return "json"
        case .optional(let wrapped): return "optional(\(wrapped))"
        case .array(let element): return "array(\(element))"
        case .set(let element): return "set(\(element))"
        case .dictionary(let value): return "dictionary(\(value))"
        case .model(let model): return "model(\(model.schema.modelName))"
        case .other: return "other"
        }
    }
}

/// A `@Model` type, as a value (``ModelValueKind/model(_:)``).
public struct AnyModelType: @unchecked Sendable {
    // @unchecked: a metatype is immutable and can be used from any thread.

    /// The model type.
    public let type: any Model.Type

    /// Wraps a model type.
    public init(_ type: any Model.Type) {
        self.type = type
    }

    /// The type's schema.
    public var schema: ModelSchema { type.modelSchema }
}
