import Foundation
import ModelKitCore

/// Replaces the archived classes a model's properties accept (PSPDFModel's
/// `allowedSecureCodingClassesByPropertyKey`).
///
/// By default a property accepts the classes of its declared type: `String` accepts `NSString`,
/// `[Person]` accepts `NSArray` (whose elements must be `Person`s), `Person?` accepts `Person`,
/// its registered subclasses and `NSNull`. Declare the names for a property to narrow or widen
/// that list:
///
/// ```swift
/// extension Document: KeyedArchiveSecureCoding {
///     static var allowedArchiveClassNames: [String: [String]] { ["author": ["Person"]] }
/// }
/// ```
public protocol KeyedArchiveSecureCoding {
    /// Archived class names allowed for the object a property refers to, by property key.
    static var allowedArchiveClassNames: [String: [String]] { get }
}

extension ModelValueKind {
    /// The archived class names a property of this kind accepts, or nil when the kind does not
    /// say (the typed decoding still checks every value).
    func archiveClassNames(registry: ArchiveClassRegistry) -> [String]? {
        switch self {
        case .string: return FoundationClass.stringNames
        case .bool, .integer, .float: return FoundationClass.numberNames
        case .decimal: return ["NSDecimalNumber", "NSNumber"]
        case .date: return ["NSDate"]
        case .data: return FoundationClass.dataNames
        case .url: return ["NSURL"]
        case .uuid: return ["NSUUID"]
        case .json: return FoundationClass.jsonNames
        case .array: return FoundationClass.arrayNames + ["NSOrderedSet", "NSMutableOrderedSet"]
        case .set: return FoundationClass.setNames
        case .dictionary: return FoundationClass.dictionaryNames
        case .optional(let wrapped): return wrapped.archiveClassNames(registry: registry).map { $0 + ["NSNull"] }
        case .model(let model): return registry.modelNames(acceptedAs: model.schema)
        case .other: return nil
        }
    }

    /// The value a missing key of this kind decodes as in a hand-written ``KeyedArchivable``
    /// type, as Apple's unarchiver gives zero, `NO` or nil: zero for numbers, false, empty
    /// strings, data and collections, nil for optionals; nil for kinds without one.
    var archiveDefault: Any? {
        switch self {
        case .bool: return false
        case .integer, .float: return 0
        case .decimal: return Decimal(0)
        case .string: return ""
        case .data: return Data()
        case .array, .set: return [Any]()
        case .dictionary: return [String: Any]()
        case .optional: return NSNull()
        case .date, .url, .uuid, .json, .model, .other: return nil
        }
    }
}
