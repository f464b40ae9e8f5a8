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
