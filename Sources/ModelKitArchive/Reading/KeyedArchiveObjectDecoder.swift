import Foundation
import ModelKitCore
import ModelKitPropertyList

/// Reads the keys of one object of a keyed archive: the `NSCoder`-like API hand-written
/// ``KeyedArchivable`` types use in `init(from:)`, and what migration hooks receive as
/// `ModelStoredValues`.
///
/// A missing key decodes as its type's default (zero, false, empty, nil; see
/// `ModelValueKind.archiveDefault`), as with Apple's unarchiver; ``contains(_:)`` tells a missing
/// key from a stored default.
///
/// ```swift
/// init(from decoder: inout KeyedArchiveObjectDecoder) throws {
///     title = try decoder.decode(String.self, forKey: "title")
///     pageCount = try decoder.decode(Int.self, forKey: "pageCount", default: 1)
///     owner = try decoder.decodeIfPresent(Person.self, forKey: "owner")
///     extra = try decoder.decodeObject(forKey: "extra")       // any Foundation value, generic
/// }
/// ```
public struct KeyedArchiveObjectDecoder: ModelStoredValues {
    let state: ArchiveDecodingState
    /// The object's index in `$objects` (0 for the root keys, `$top`).
    public let objectID: Int
    let keys: PropertyListDictionary
    let depth: Int
    private var unkeyedIndex = 0

    init(state: ArchiveDecodingState, objectID: Int, keys: PropertyListDictionary, depth: Int) {
        self.state = state
        self.objectID = objectID
        self.keys = keys
        self.depth = depth
    }

    /// The object's class (nil for the root keys).
    public var archivedClass: ArchivedClass? { state.archivedClass(of: objectID) }

    /// The model version stored in the object (`MK.modelVersion`), 0 when there is none.
    public var modelVersion: Int {
        keys[KeyedArchiver.modelVersionKey]?.int64Value.map { Int(clamping: $0) } ?? 0
    }

    /// The keys the object holds, unescaped, in archive order (`$class` excluded).
    public var storedKeys: [String] {
        keys.keys.filter { $0 != "$class" }.map(KeyedArchiver.unescapeKey)
    }

    /// Whether the object holds a value for `key` (Apple's `containsValue(forKey:)`).
    public func contains(_ key: String) -> Bool {
        keys[KeyedArchiver.escapeKey(key)] != nil
    }

    /// Reads the value for `key` as `T`; a missing key gives the type's default, or throws a
    /// missing-value error for types without one.
    public mutating func decode<T: ModelValue>(_ type: T.Type, forKey key: String) throws -> T {
        if let value = try decodeIfPresent(T.self, forKey: key) { return value }
        if let defaulted = try missingValue(T.self) { return defaulted }
        throw ModelError(.missingValue, property: key)
    }

    /// The value a missing key of type `T` decodes as (see ``ModelValueKind/archiveDefault``).
    private func missingValue<T: ModelValue>(_ type: T.Type) throws -> T? {
        guard let zero = T.modelValueKind.archiveDefault else { return nil }
        var reader = JSONObjectReader(value: zero, mapping: .propertyKeys)
        return try T.read(from: &reader)
    }

    /// Reads the value for `key` as `T`, or `defaultValue` when the key is missing.
    public mutating func decode<T: ModelValue>(_ type: T.Type, forKey key: String, default defaultValue: @autoclosure () -> T)
        throws -> T
    {
        try decodeIfPresent(T.self, forKey: key) ?? defaultValue()
    }

    /// Reads the archive's root object as `T`: errors' paths start inside it, as a JSON
    /// document's do (`name`, not `root.name`).
    mutating func decodeRootValue<T: ModelValue>(_ type: T.Type) throws -> T {
        guard let value = keys[KeyedArchiver.rootKey] else {
            throw ModelError(.missingValue, property: KeyedArchiver.rootKey)
        }
        return try read(value, key: KeyedArchiver.rootKey, pathPrefix: false) { try T.read(from: &$0) }
    }

    /// Reads the value for `key` as `T`, or nil when the key is missing.
    public mutating func decodeIfPresent<T: ModelValue>(_ type: T.Type, forKey key: String) throws -> T? {
        guard let value = keys[KeyedArchiver.escapeKey(key)] else { return nil }
        return try read(value, key: key) { try T.read(from: &$0) }
    }

    /// Reads a hand-written archivable value for `key`; nil when missing or `$null`.
    public mutating func decode<T: KeyedArchivable>(_ type: T.Type, forKey key: String) throws -> T? {
        guard let value = keys[KeyedArchiver.escapeKey(key)] else { return nil }
        return try read(value, key: key) { reader in try reader.decodeNil() ? nil : reader.decodeArchivable(T.self) }
    }

    /// Reads the value for `key` without a declared type: Swift values for Foundation objects,
    /// registered types, ``ArchivedObject`` for other classes; nil when missing or `$null`.
    public mutating func decodeObject(forKey key: String) throws -> Any? {
        guard let value = keys[KeyedArchiver.escapeKey(key)] else { return nil }
        let decoded = try read(value, key: key) { try $0.decodeAnyValue() }
        return isNSNull(decoded) ? nil : decoded
    }

    /// Same as ``decodeObject(forKey:)`` (`ModelStoredValues` conformance).
    public mutating func decodeAny(forKey key: String) throws -> Any? {
        try decodeObject(forKey: key)
    }

    /// Reads a list of object references stored inline under `key` (`NS.objects`), each without a
    /// declared type.
    public mutating func decodeArrayOfObjects(forKey key: String) throws -> [Any]? {
        guard let value = keys[KeyedArchiver.escapeKey(key)] else { return nil }
        guard case .array(let references) = value else {
            throw ModelError(.typeMismatch, expected: "a list of objects", found: KeyedArchiveReader.describe(value), property: key)
        }
        var result: [Any] = []
        result.reserveCapacity(references.count)
        for (index, reference) in references.enumerated() {
            result.append(
                try read(reference, key: key) { reader in
                    return try prefixingErrors(with: .index(index)) { try reader.decodeAnyValue() }
                })
        }
        return result
    }

    /// Reads the next unkeyed value (`$0`, `$1`, ...) as `T`.
    public mutating func decode<T: ModelValue>(_ type: T.Type) throws -> T {
        let key = "$\(unkeyedIndex)"
        unkeyedIndex += 1
        guard let value = keys[key] else {
            if let defaulted = try missingValue(T.self) { return defaulted }
            throw ModelError(.missingValue, property: key)
        }
        return try read(value, key: key) { try T.read(from: &$0) }
    }

    /// Reads the next unkeyed value (`$0`, `$1`, ...) as a hand-written archivable type; nil when
    /// missing or `$null`.
    public mutating func decode<T: KeyedArchivable>(_ type: T.Type) throws -> T? {
        let key = "$\(unkeyedIndex)"
        unkeyedIndex += 1
        guard let value = keys[key] else { return nil }
        return try read(value, key: key) { reader in try reader.decodeNil() ? nil : reader.decodeArchivable(T.self) }
    }

    /// Reads the next unkeyed value (`$0`, `$1`, ...) without a declared type.
    public mutating func decodeObject() throws -> Any? {
        let key = "$\(unkeyedIndex)"
        unkeyedIndex += 1
        guard let value = keys[key] else { return nil }
        let decoded = try read(value, key: key) { try $0.decodeAnyValue() }
        return isNSNull(decoded) ? nil : decoded
    }

    /// Runs `body` with a reader at `value`, naming `key` in errors.
    private func read<T>(
        _ value: PropertyListValue, key: String, pathPrefix: Bool = true, _ body: (inout KeyedArchiveReader) throws -> T
    ) throws -> T {
        var reader = KeyedArchiveReader(state: state, position: value, depth: depth)
        do {
            return try body(&reader)
        } catch let error as ModelError {
            throw pathPrefix ? error.prefixed(by: .key(key)) : error
        } catch let error as KeyedArchiveError {
            throw error.inContext(model: archivedClass?.name, key: key, objectID: objectID == 0 ? nil : objectID)
        }
    }
}
