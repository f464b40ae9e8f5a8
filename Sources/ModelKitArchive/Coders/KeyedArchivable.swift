import Foundation
import ModelKitCore

/// A hand-written type that archives itself with an `NSCoder`-like keyed API (NSCoding for
/// Swift types that are not `@Model`s).
///
/// The archive holds an object of ``archiveClassName`` whose keys are the ones `encode(with:)`
/// writes; `init(from:)` reads them back, with defaults for missing keys. Classes are written
/// once however often they are referenced; register the type to decode it through
/// ``KeyedUnarchiver/decodeObject(forKey:)`` or under another name.
///
/// ```swift
/// struct Version: KeyedArchivable {
///     static let archiveClassName = "AppVersion"
///     var major: Int
///     var label: String?
///
///     func encode(with encoder: inout KeyedArchiveObjectEncoder) throws {
///         try encoder.encode(major, forKey: "major")
///         try encoder.encode(label, forKey: "label")
///     }
///
///     init(from decoder: inout KeyedArchiveObjectDecoder) throws {
///         major = try decoder.decode(Int.self, forKey: "major")            // 0 when missing
///         label = try decoder.decode(String?.self, forKey: "label")        // nil when missing
///     }
/// }
/// ```
public protocol KeyedArchivable {
    /// The class name written to archives (`$classname`). The default is the type's name.
    static var archiveClassName: String { get }
    /// The superclass names written after the class name in `$classes`. The default is
    /// `["NSObject"]`.
    static var archiveSuperclassNames: [String] { get }

    /// Writes the value's keys.
    func encode(with encoder: inout KeyedArchiveObjectEncoder) throws

    /// Reads a value from an object's keys.
    init(from decoder: inout KeyedArchiveObjectDecoder) throws
}

extension KeyedArchivable {
    public static var archiveClassName: String { String(describing: Self.self) }

    public static var archiveSuperclassNames: [String] { ["NSObject"] }
}

/// A value with a natural default, which decoding a missing key gives (Apple's unarchiver
/// returns zero, `NO` or nil for missing keys).
///
/// Numbers give 0, `Bool` false, strings "", data, arrays, sets and dictionaries empty values,
/// optionals nil.
///
/// ```swift
/// try decoder.decode(Int.self, forKey: "missing")   // 0
/// ```
public protocol KeyedArchiveDefaultValue {
    /// The value a missing key decodes as.
    static var archiveDefaultValue: Self { get }
}

extension Int: KeyedArchiveDefaultValue { public static var archiveDefaultValue: Int { 0 } }
extension Int8: KeyedArchiveDefaultValue { public static var archiveDefaultValue: Int8 { 0 } }
extension Int16: KeyedArchiveDefaultValue { public static var archiveDefaultValue: Int16 { 0 } }
extension Int32: KeyedArchiveDefaultValue { public static var archiveDefaultValue: Int32 { 0 } }
extension Int64: KeyedArchiveDefaultValue { public static var archiveDefaultValue: Int64 { 0 } }
extension UInt: KeyedArchiveDefaultValue { public static var archiveDefaultValue: UInt { 0 } }
extension UInt8: KeyedArchiveDefaultValue { public static var archiveDefaultValue: UInt8 { 0 } }
extension UInt16: KeyedArchiveDefaultValue { public static var archiveDefaultValue: UInt16 { 0 } }
extension UInt32: KeyedArchiveDefaultValue { public static var archiveDefaultValue: UInt32 { 0 } }
extension UInt64: KeyedArchiveDefaultValue { public static var archiveDefaultValue: UInt64 { 0 } }
extension Double: KeyedArchiveDefaultValue { public static var archiveDefaultValue: Double { 0 } }
extension Float: KeyedArchiveDefaultValue { public static var archiveDefaultValue: Float { 0 } }
extension Bool: KeyedArchiveDefaultValue { public static var archiveDefaultValue: Bool { false } }
extension String: KeyedArchiveDefaultValue { public static var archiveDefaultValue: String { "" } }
extension Array: KeyedArchiveDefaultValue { public static var archiveDefaultValue: [Element] { [] } }
extension Set: KeyedArchiveDefaultValue { public static var archiveDefaultValue: Set<Element> { [] } }
extension Dictionary: KeyedArchiveDefaultValue { public static var archiveDefaultValue: [Key: Value] { [:] } }
extension Optional: KeyedArchiveDefaultValue { public static var archiveDefaultValue: Wrapped? { nil } }
extension Data: KeyedArchiveDefaultValue { public static var archiveDefaultValue: Data { Data() } }
extension Decimal: KeyedArchiveDefaultValue { public static var archiveDefaultValue: Decimal { 0 } }
