import Foundation
import ModelKitCore
import ModelKitPropertyList

/// Writes object graphs as keyed archives in Apple's `NSKeyedArchiver` format, which Apple's
/// `NSKeyedUnarchiver` and ModelKit's ``KeyedUnarchiver`` read.
///
/// Encode one or more root objects under keys (or unkeyed, as `$0`, `$1`, ...), then finish.
/// `@Model` types are archived from their schema: each object holds its archived properties
/// under their property keys and its model version; transient and `@Archive(.excluded)`
/// properties are left out, weak and `@Archive(.conditional)` ones are written only if the
/// same object is written unconditionally somewhere else. A class instance referenced several
/// times is written once.
///
/// ```swift
/// let archiver = KeyedArchiver()                   // binary property list
/// try archiver.encode(document, forKey: "root")
/// try archiver.encode(42, forKey: "count")
/// let data = try archiver.finishEncoding()
///
/// let data = try KeyedArchiver.archivedData(withRootObject: document, format: .xml)
/// ```
public final class KeyedArchiver {
    /// The key under which every model object stores its model version.
    public static let modelVersionKey = "MK.modelVersion"
    /// The root key of ``archivedData(withRootObject:format:registry:)-(Any?,_,_)`` (Apple's
    /// `NSKeyedArchiveRootObjectKey`).
    public static let rootKey = "root"

    /// The property-list format ``finishEncoding()`` writes; binary by default.
    public var outputFormat: PropertyListFormat
    /// Receives every model, archivable value and Foundation object before it is written, and
    /// may replace it.
    public weak var delegate: (any KeyedArchiverDelegate)? {
        didSet { state.hasDelegate = delegate != nil }
    }

    let state: ArchiveEncodingState
    private var top: KeyedArchiveObjectEncoder
    /// The finished archive as a binary property list.
    private var finished: [UInt8]?

    /// Creates an archiver.
    ///
    /// - Parameters:
    ///   - outputFormat: `.binary` (Apple's default) or `.xml`.
    ///   - registry: The class names to write for registered types.
    ///   - options: Mapping options (validation and the depth limit of nested values).
    public init(
        outputFormat: PropertyListFormat = .binary, registry: ArchiveClassRegistry = ArchiveClassRegistry(),
        options: MappingOptions = .default
    ) {
        self.outputFormat = outputFormat
        self.state = ArchiveEncodingState(options: options, registry: registry)
        self.top = KeyedArchiveObjectEncoder(state: state, depth: 0)
        state.archiver = self
    }

    /// Writes `type` under the class name `name` (Apple's `setClassName(_:for:)`).
    ///
    /// ```swift
    /// archiver.setClassName("MyApp.Person", for: Person.self)
    /// ```
    public func setClassName<M: Model>(_ name: String, for type: M.Type) {
        state.registry.register(M.self, as: name)
        state.modelInfo.removeAll()
    }

    /// Writes `type` under the class name `name`.
    public func setClassName<T: KeyedArchivable>(_ name: String, for type: T.Type) {
        state.registry.register(T.self, as: name)
    }

    // MARK: Root objects

    /// Writes a value (a model, a Swift value) under `key`; numbers and booleans inline.
    public func encode<T: ModelValue>(_ value: T, forKey key: String) throws {
        try unfinished { try top.encode(value, forKey: key) }
    }

    /// Writes a hand-written archivable value under `key`.
    public func encode<T: KeyedArchivable>(_ value: T?, forKey key: String) throws {
        try unfinished { try top.encode(value, forKey: key) }
    }

    /// Writes any supported value under `key` as an object (see
    /// ``KeyedArchiveObjectEncoder/encodeObject(_:forKey:)``).
    public func encodeObject(_ value: Any?, forKey key: String) throws {
        try unfinished { try top.encodeObject(value, forKey: key) }
    }

    /// Writes an object under `key` only if something else writes it unconditionally.
    public func encodeConditionalObject(_ object: Any?, forKey key: String) throws {
        try unfinished { try top.encodeConditionalObject(object, forKey: key) }
    }

    /// Writes a value under the next unkeyed root key (`$0`, `$1`, ...).
    public func encode<T: ModelValue>(_ value: T) throws {
        try unfinished { try top.encode(value) }
    }

    /// Writes any supported value as an object under the next unkeyed root key.
    public func encodeObject(_ value: Any?) throws {
        try unfinished { try top.encodeObject(value) }
    }

    private func unfinished(_ body: () throws -> Void) throws {
        guard finished == nil else {
            throw KeyedArchiveError(.unencodable(detail: "the archive is already finished"), isEncoding: true)
        }
        try body()
    }

    // MARK: Finishing

    /// The archive as a property list; finishes encoding.
    public func finishedPropertyList() throws -> PropertyListValue {
        let bytes = try finishedBytes()
        do {
            // The archive's own bytes: nothing to guard against but its size.
            return try PropertyListValue(binary: bytes, limits: Self.ownOutputLimits)
        } catch {
            throw KeyedArchiveError(.unencodable(detail: error.kind.message), isEncoding: true)
        }
    }

    /// The archive as a binary property list; finishes encoding.
    private func finishedBytes() throws -> [UInt8] {
        if let finished { return finished }
        let bytes = try state.finish(top: PropertyListDictionary(uniqueKeys: top.keys, values: top.values))
        finished = bytes
        return bytes
    }

    /// No limit: the archiver reads back only what it wrote.
    private static let ownOutputLimits = PropertyListLimits(
        maxDepth: .max, maxObjectCount: .max, maxCollectionCount: .max, maxStringLength: .max, maxDataLength: .max,
        maxTotalLength: .max)

    /// Finishes encoding and returns the archive's bytes in ``outputFormat``.
    ///
    /// ```swift
    /// try archiver.finishEncoding().write(to: url)
    /// ```
    public func finishEncoding() throws -> Data {
        switch outputFormat {
        case .binary:
            return Data(try finishedBytes())
        case .xml:
            do {
                return try finishedPropertyList().xmlData()
            } catch let error as PropertyListError {
                throw KeyedArchiveError(.unencodable(detail: error.kind.message), isEncoding: true)
            }
        }
    }

    /// Archives one value under the key `root` (Apple's `archivedData(withRootObject:)`).
    ///
    /// ```swift
    /// let data = try KeyedArchiver.archivedData(withRootObject: [user1, user2])
    /// ```
    public static func archivedData<T: ModelValue>(
        withRootObject value: T, format: PropertyListFormat = .binary,
        registry: ArchiveClassRegistry = ArchiveClassRegistry()
    ) throws -> Data {
        let archiver = KeyedArchiver(outputFormat: format, registry: registry)
        try archiver.encodeObjectValue(value, forKey: rootKey)
        return try archiver.finishEncoding()
    }

    /// Archives any supported value under the key `root`.
    public static func archivedData(
        withRootObject value: Any?, format: PropertyListFormat = .binary,
        registry: ArchiveClassRegistry = ArchiveClassRegistry()
    ) throws -> Data {
        let archiver = KeyedArchiver(outputFormat: format, registry: registry)
        try archiver.encodeObject(value, forKey: rootKey)
        return try archiver.finishEncoding()
    }

    /// Writes a typed value as an object reference (numbers as `NSNumber` objects), as a root
    /// object must be for Apple's `decodeObject(forKey:)`.
    func encodeObjectValue<T: ModelValue>(_ value: T, forKey key: String) throws {
        try unfinished { try top.encodeValueAsObject(value, forKey: key) }
    }

    // MARK: Keys

    /// Escapes a user key: a key that starts with `$` gets a second `$` (Apple's archiver
    /// reserves `$` keys).
    ///
    /// ```swift
    /// KeyedArchiver.escapeKey("$price")   // "$$price"
    /// ```
    public static func escapeKey(_ key: String) -> String {
        key.utf8.first == UInt8(ascii: "$") ? "$" + key : key
    }

    /// Undoes ``escapeKey(_:)``: `$$price` is `$price`; other keys are unchanged.
    public static func unescapeKey(_ key: String) -> String {
        key.utf8.starts(with: [UInt8(ascii: "$"), UInt8(ascii: "$")]) ? String(key.dropFirst()) : key
    }
}

/// Replaces objects as a ``KeyedArchiver`` writes them (Apple's `archiver(_:willEncode:)`).
///
/// ```swift
/// final class Redactor: KeyedArchiverDelegate {
///     func archiver(_ archiver: KeyedArchiver, willEncode object: Any) -> Any? {
///         (object as? Secret).map { _ in "redacted" } ?? object
///     }
/// }
/// ```
public protocol KeyedArchiverDelegate: AnyObject {
    /// Returns what to write in place of `object`: the object itself to keep it, another value,
    /// or nil to write nil. Called once per class instance, for every model, archivable value and
    /// Foundation object (not for strings, numbers and other plain values).
    func archiver(_ archiver: KeyedArchiver, willEncode object: Any) -> Any?
}
