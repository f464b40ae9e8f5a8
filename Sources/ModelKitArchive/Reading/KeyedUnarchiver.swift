import Foundation
import ModelKitCore

/// Reads keyed archives in Apple's `NSKeyedArchiver` format (binary or XML property lists),
/// whoever wrote them, without ever crashing on a malformed or hostile file.
///
/// The archive's structure is checked when the unarchiver is created; decoding then resolves
/// each object's class against the type asked for. Types are never created from names in the
/// file except through the ``ArchiveClassRegistry``: a typed decode accepts the declared type and
/// its registered subtypes, a generic decode Foundation's classes, registered types and, for any
/// other class, an ``ArchivedObject`` holding its keys and values. Anything else is a
/// ``KeyedArchiveError`` naming the key, the class found and the classes allowed.
///
/// ```swift
/// let unarchiver = try KeyedUnarchiver(data: data)
/// let document = try unarchiver.decode(Document.self, forKey: "root")
/// let count = try unarchiver.decode(Int.self, forKey: "count")      // 0 when missing
/// let anything = try unarchiver.decodeObject(forKey: "extra")        // [String: Any], ArchivedObject, ...
///
/// let document = try KeyedUnarchiver.unarchive(Document.self, from: data)
/// ```
public final class KeyedUnarchiver {
    /// The checked archive.
    public let document: KeyedArchiveDocument
    /// Receives every decoded model, archivable value and generic object, and may replace it.
    public weak var delegate: (any KeyedUnarchiverDelegate)? {
        didSet { state.hasDelegate = delegate != nil }
    }
    /// Whether generic decoding turns objects of unknown classes into ``ArchivedObject``s (the
    /// default) or rejects them with ``KeyedArchiveError/Kind/classNotAllowed(found:allowed:)``.
    public var decodesUnknownClasses = true

    let state: ArchiveDecodingState
    private var root: KeyedArchiveObjectDecoder

    /// Reads and checks an archive.
    ///
    /// - Parameters:
    ///   - data: A binary or XML property list.
    ///   - registry: The types that may be created from class names, and their archived names.
    ///   - limits: Bounds on the file and on decoding.
    ///   - options: Mapping options (validation, collect-all errors).
    public convenience init(
        data: Data, registry: ArchiveClassRegistry = ArchiveClassRegistry(), limits: KeyedArchiveLimits = .default,
        options: MappingOptions = .default
    ) throws {
        let document = try KeyedArchiveDocument(data: data, limits: limits)
        self.init(document: document, registry: registry, limits: limits, options: options)
    }

    /// An unarchiver over a checked document.
    public init(
        document: KeyedArchiveDocument, registry: ArchiveClassRegistry = ArchiveClassRegistry(),
        limits: KeyedArchiveLimits = .default, options: MappingOptions = .default
    ) {
        self.document = document
        self.state = ArchiveDecodingState(document: document, registry: registry, options: options, limits: limits)
        self.root = KeyedArchiveObjectDecoder(state: state, objectID: 0, keys: document.top, depth: 0)
        state.unarchiver = self
    }

    /// Reads objects archived as `name` as `type` (Apple's `setClass(_:forClassName:)`).
    ///
    /// ```swift
    /// unarchiver.setClass(Person.self, forClassName: "MyApp.Person")
    /// ```
    public func setClass<M: Model>(_ type: M.Type, forClassName name: String) {
        state.registry.register(M.self, as: name)
        state.readInfo.removeAll()
    }

    /// Reads objects archived as `name` as the hand-written type `type`.
    public func setClass<T: KeyedArchivable>(_ type: T.Type, forClassName name: String) {
        state.registry.register(T.self, as: name)
        state.readInfo.removeAll()
    }

    /// The root keys, unescaped, in archive order.
    public var allKeys: [String] { root.storedKeys }

    /// Whether the archive has a root value for `key`.
    public func contains(_ key: String) -> Bool {
        root.contains(key)
    }

    // MARK: Root values

    /// Reads the root value for `key` as `T`; a missing key gives the type's default, or throws a
    /// missing-value error for types without one.
    public func decode<T: ModelValue>(_ type: T.Type, forKey key: String) throws -> T {
        try topLevel { try root.decode(T.self, forKey: key) }
    }

    /// Reads the root value for `key` as `T`, or `defaultValue` when the key is missing.
    public func decode<T: ModelValue>(_ type: T.Type, forKey key: String, default defaultValue: @autoclosure () -> T) throws
        -> T
    {
        try topLevel { try root.decodeIfPresent(T.self, forKey: key) } ?? defaultValue()
    }

    /// Reads the root value for `key` as `T`, or nil when the key is missing.
    public func decodeIfPresent<T: ModelValue>(_ type: T.Type, forKey key: String) throws -> T? {
        try topLevel { try root.decodeIfPresent(T.self, forKey: key) }
    }

    /// Reads a hand-written archivable root value; nil when missing or `$null`.
    public func decode<T: KeyedArchivable>(_ type: T.Type, forKey key: String) throws -> T? {
        try topLevel { try root.decode(T.self, forKey: key) }
    }

    /// Reads the root value for `key` without a declared type (see
    /// ``KeyedArchiveObjectDecoder/decodeObject(forKey:)``); nil when missing or `$null`.
    public func decodeObject(forKey key: String) throws -> Any? {
        try topLevel { try root.decodeObject(forKey: key) }
    }

    /// Reads the next unkeyed root value (`$0`, `$1`, ...) as `T`.
    public func decode<T: ModelValue>(_ type: T.Type) throws -> T {
        try topLevel { try root.decode(T.self) }
    }

    /// Reads the next unkeyed root value (`$0`, `$1`, ...) without a declared type.
    public func decodeObject() throws -> Any? {
        try topLevel { try root.decodeObject() }
    }

    /// Reads object `objectID` of the archive's `$objects` without a declared type, as a root
    /// key referring to it would be read: for tools that look at every object of an archive
    /// (an inspector, a fuzzer) rather than follow its keys. nil for `$null`; an identifier
    /// outside `$objects` is ``KeyedArchiveError/Kind/referenceOutOfRange(_:objects:)``.
    ///
    /// ```swift
    /// for objectID in 1..<unarchiver.document.objectCount {
    ///     print(objectID, try unarchiver.decodeObject(withID: objectID) ?? "nil")
    /// }
    /// ```
    public func decodeObject(withID objectID: Int) throws -> Any? {
        guard objectID >= 0, objectID < document.objectCount else {
            throw KeyedArchiveError(
                .referenceOutOfRange(UInt64(truncatingIfNeeded: objectID), objects: document.objectCount))
        }
        let decoded = try topLevel {
            var reader = KeyedArchiveReader(state: state, position: .uid(UInt64(objectID)), depth: 0)
            do {
                return try reader.decodeAnyValue()
            } catch let error as KeyedArchiveError {
                throw error.inContext(model: nil, key: nil, objectID: objectID)
            }
        }
        return isNSNull(decoded) ? nil : decoded
    }

    /// Reads the root object (`unarchive(_:from:)`), with error paths that start inside it.
    func decodeRoot<T: ModelValue>(_ type: T.Type) throws -> T {
        try topLevel { try root.decodeRootValue(T.self) }
    }

    /// Runs a root decoding, then sets the references left for later (cycles, deep chains).
    private func topLevel<T>(_ body: () throws -> T) throws -> T {
        do {
            let value = try body()
            try state.drainFixups()
            return value
        } catch {
            state.resetAfterFailure()
            throw error
        }
    }

    // MARK: One-shot

    /// Reads the value archived under `root` (Apple's `unarchivedObject(ofClass:from:)`).
    ///
    /// ```swift
    /// let users = try KeyedUnarchiver.unarchive([User].self, from: data)
    /// ```
    public static func unarchive<T: ModelValue>(
        _ type: T.Type, from data: Data, registry: ArchiveClassRegistry = ArchiveClassRegistry(),
        limits: KeyedArchiveLimits = .default
    ) throws -> T {
        try rootReader(data, registry: registry, limits: limits).decodeRoot(T.self)
    }

    /// Reads the value archived under `root` without a declared type; nil only for an archived
    /// nil (`$null`).
    ///
    /// ```swift
    /// let object = try KeyedUnarchiver.unarchiveObject(from: data) as? [String: Any]
    /// ```
    public static func unarchiveObject(
        from data: Data, registry: ArchiveClassRegistry = ArchiveClassRegistry(), limits: KeyedArchiveLimits = .default
    ) throws -> Any? {
        try rootReader(data, registry: registry, limits: limits).decodeObject(forKey: KeyedArchiver.rootKey)
    }

    /// An unarchiver of an archive that has a root object; an archive without one is a
    /// ``KeyedArchiveError/Kind/missingRoot(key:)`` for both one-shot reads.
    private static func rootReader(
        _ data: Data, registry: ArchiveClassRegistry, limits: KeyedArchiveLimits
    ) throws -> KeyedUnarchiver {
        let unarchiver = try KeyedUnarchiver(data: data, registry: registry, limits: limits)
        guard unarchiver.contains(KeyedArchiver.rootKey) else {
            throw KeyedArchiveError(.missingRoot(key: KeyedArchiver.rootKey))
        }
        return unarchiver
    }
}

/// Replaces objects as a ``KeyedUnarchiver`` decodes them (Apple's `unarchiver(_:didDecode:)`).
///
/// ```swift
/// final class Upgrader: KeyedUnarchiverDelegate {
///     func unarchiver(_ unarchiver: KeyedUnarchiver, didDecode object: Any) throws -> Any? {
///         (object as? LegacyUser).map(User.init(legacy:)) ?? object
///     }
/// }
/// ```
public protocol KeyedUnarchiverDelegate: AnyObject {
    /// Returns what to use in place of a decoded model, archivable value or generic object: the
    /// object itself to keep it, or a replacement of a type the reference accepts. Every other
    /// reference to the same archived object gets the replacement.
    func unarchiver(_ unarchiver: KeyedUnarchiver, didDecode object: Any) throws -> Any?

    /// Names the model type to decode an object of an unregistered subclass of the declared type
    /// as (Apple's `unarchiver(_:cannotDecodeObjectOfClassName:originalClasses:)`); nil makes
    /// it an error. `classes` is the archived class chain, the object's own class first. The
    /// default returns nil: an unknown subclass is never decoded as its base class silently.
    ///
    /// ```swift
    /// func unarchiver(_ unarchiver: KeyedUnarchiver, cannotDecodeObjectOfClassName name: String,
    ///                 originalClasses classes: [String]) -> (any Model.Type)? {
    ///     name == "LegacySquare" ? Square.self : nil
    /// }
    /// ```
    func unarchiver(
        _ unarchiver: KeyedUnarchiver, cannotDecodeObjectOfClassName name: String, originalClasses classes: [String]
    ) -> (any Model.Type)?
}

extension KeyedUnarchiverDelegate {
    public func unarchiver(_ unarchiver: KeyedUnarchiver, didDecode object: Any) throws -> Any? { object }

    public func unarchiver(
        _ unarchiver: KeyedUnarchiver, cannotDecodeObjectOfClassName name: String, originalClasses classes: [String]
    ) -> (any Model.Type)? {
        nil
    }
}
