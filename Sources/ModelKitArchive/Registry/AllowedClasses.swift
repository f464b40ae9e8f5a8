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

/// The archived class names a declared Swift type accepts, derived from the type itself.
enum AllowedClasses {
    /// The names objects of `type` may be archived as, or nil when the type does not say (the
    /// typed decoding still checks every value).
    static func names(for type: Any.Type, registry: ArchiveClassRegistry) -> [String]? {
        if let named = type as? any ArchiveClassNaming.Type { return named.archiveClassNames(registry: registry) }
        if let model = type as? any Model.Type { return registry.modelNames(acceptedAs: model.modelSchema) }
        if let archivable = type as? any KeyedArchivable.Type {
            return [registry.archivedName(for: type) ?? archivable.archiveClassName]
        }
        if let raw = type as? any RawRepresentable.Type { return names(for: rawValueType(of: raw), registry: registry) }
        return nil
    }

    private static func rawValueType<T: RawRepresentable>(of type: T.Type) -> Any.Type {
        T.RawValue.self
    }

    static let numberNames = ["NSNumber"]
    static let jsonNames =
        FoundationClass.stringNames + numberNames + FoundationClass.arrayNames + FoundationClass.dictionaryNames + ["NSNull"]
}

/// A Swift type whose archived classes are fixed (strings, numbers, Foundation values, collections).
protocol ArchiveClassNaming {
    static func archiveClassNames(registry: ArchiveClassRegistry) -> [String]?
}

extension String: ArchiveClassNaming {
    static func archiveClassNames(registry: ArchiveClassRegistry) -> [String]? { FoundationClass.stringNames }
}

extension Bool: ArchiveClassNaming {
    static func archiveClassNames(registry: ArchiveClassRegistry) -> [String]? { AllowedClasses.numberNames }
}

extension Int: ArchiveClassNaming {
    static func archiveClassNames(registry: ArchiveClassRegistry) -> [String]? { AllowedClasses.numberNames }
}

extension Int8: ArchiveClassNaming {
    static func archiveClassNames(registry: ArchiveClassRegistry) -> [String]? { AllowedClasses.numberNames }
}

extension Int16: ArchiveClassNaming {
    static func archiveClassNames(registry: ArchiveClassRegistry) -> [String]? { AllowedClasses.numberNames }
}

extension Int32: ArchiveClassNaming {
    static func archiveClassNames(registry: ArchiveClassRegistry) -> [String]? { AllowedClasses.numberNames }
}

extension Int64: ArchiveClassNaming {
    static func archiveClassNames(registry: ArchiveClassRegistry) -> [String]? { AllowedClasses.numberNames }
}

extension UInt: ArchiveClassNaming {
    static func archiveClassNames(registry: ArchiveClassRegistry) -> [String]? { AllowedClasses.numberNames }
}

extension UInt8: ArchiveClassNaming {
    static func archiveClassNames(registry: ArchiveClassRegistry) -> [String]? { AllowedClasses.numberNames }
}

extension UInt16: ArchiveClassNaming {
    static func archiveClassNames(registry: ArchiveClassRegistry) -> [String]? { AllowedClasses.numberNames }
}

extension UInt32: ArchiveClassNaming {
    static func archiveClassNames(registry: ArchiveClassRegistry) -> [String]? { AllowedClasses.numberNames }
}

extension UInt64: ArchiveClassNaming {
    static func archiveClassNames(registry: ArchiveClassRegistry) -> [String]? { AllowedClasses.numberNames }
}

extension Double: ArchiveClassNaming {
    static func archiveClassNames(registry: ArchiveClassRegistry) -> [String]? { AllowedClasses.numberNames }
}

extension Float: ArchiveClassNaming {
    static func archiveClassNames(registry: ArchiveClassRegistry) -> [String]? { AllowedClasses.numberNames }
}

extension Decimal: ArchiveClassNaming {
    static func archiveClassNames(registry: ArchiveClassRegistry) -> [String]? { ["NSDecimalNumber", "NSNumber"] }
}

extension Data: ArchiveClassNaming {
    static func archiveClassNames(registry: ArchiveClassRegistry) -> [String]? { FoundationClass.dataNames }
}

extension Date: ArchiveClassNaming {
    static func archiveClassNames(registry: ArchiveClassRegistry) -> [String]? { ["NSDate"] }
}

extension URL: ArchiveClassNaming {
    static func archiveClassNames(registry: ArchiveClassRegistry) -> [String]? { ["NSURL"] }
}

extension UUID: ArchiveClassNaming {
    static func archiveClassNames(registry: ArchiveClassRegistry) -> [String]? { ["NSUUID"] }
}

extension JSONValue: ArchiveClassNaming {
    static func archiveClassNames(registry: ArchiveClassRegistry) -> [String]? { AllowedClasses.jsonNames }
}

extension Array: ArchiveClassNaming {
    static func archiveClassNames(registry: ArchiveClassRegistry) -> [String]? {
        FoundationClass.arrayNames + ["NSOrderedSet", "NSMutableOrderedSet"]
    }
}

extension Set: ArchiveClassNaming {
    static func archiveClassNames(registry: ArchiveClassRegistry) -> [String]? { FoundationClass.setNames }
}

extension Dictionary: ArchiveClassNaming {
    static func archiveClassNames(registry: ArchiveClassRegistry) -> [String]? { FoundationClass.dictionaryNames }
}

extension Optional: ArchiveClassNaming {
    static func archiveClassNames(registry: ArchiveClassRegistry) -> [String]? {
        AllowedClasses.names(for: Wrapped.self, registry: registry).map { $0 + ["NSNull"] }
    }
}
