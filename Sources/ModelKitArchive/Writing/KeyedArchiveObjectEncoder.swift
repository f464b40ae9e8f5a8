import ModelKitCore
import ModelKitPropertyList

/// Writes the keys of one object of a keyed archive: the `NSCoder`-like API that hand-written
/// ``KeyedArchivable`` types use in `encode(with:)`, and that ``KeyedArchiver`` uses for the
/// root objects (`$top`).
///
/// Each object has its own key namespace. Numbers and booleans are stored inline under their
/// key (Apple's `encodeInt:forKey:`); everything else is an object reference. A key that starts
/// with `$` is escaped with a second `$`, as Apple's archiver does (its own keys use `$`).
///
/// ```swift
/// func encode(with encoder: inout KeyedArchiveObjectEncoder) throws {
///     try encoder.encode(title, forKey: "title")              // a reference to a string
///     try encoder.encode(pageCount, forKey: "pageCount")      // an inline integer
///     try encoder.encodeConditionalObject(owner, forKey: "owner")
///     try encoder.encodeObject(NSNumber(value: 3), forKey: "boxed") // always a reference
/// }
/// ```
public struct KeyedArchiveObjectEncoder {
    let state: ArchiveEncodingState
    /// How many objects enclose this one.
    let depth: Int
    /// The archive keys written so far (escaped), in order.
    private(set) var keys: [String] = []
    /// The values, parallel to `keys`.
    private(set) var values: [PropertyListValue] = []
    private var unkeyedCount = 0
    /// A key index, once the object has many keys.
    private var index: [ExactStringKey: Int]?

    init(state: ArchiveEncodingState, depth: Int) {
        self.state = state
        self.depth = depth
    }

    /// The keys written so far, as given (unescaped).
    public var encodedKeys: [String] { keys.map(KeyedArchiver.unescapeKey) }

    /// Writes a value under `key`: numbers and booleans inline, other values as objects.
    ///
    /// ```swift
    /// try encoder.encode(["a", "b"], forKey: "tags")   // an NSArray of two strings
    /// ```
    public mutating func encode<T: ModelValue>(_ value: T, forKey key: String) throws {
        var writer = writer(inline: true)
        try contextual(key) { try value.write(to: &writer) }
        set(writer.result.propertyListValue, forKey: KeyedArchiver.escapeKey(key))
    }

    /// Writes a typed value under `key` as an object reference (numbers as `NSNumber` objects).
    mutating func encodeValueAsObject<T: ModelValue>(_ value: T, forKey key: String) throws {
        if let optional = value as? any OptionalValue, optional.isNone {
            set(.uid(0), forKey: KeyedArchiver.escapeKey(key))
            return
        }
        var writer = writer(inline: false)
        try contextual(key) { try value.write(to: &writer) }
        set(writer.result.propertyListValue, forKey: KeyedArchiver.escapeKey(key))
    }

    /// Writes a hand-written archivable value under `key`, as an object of its class.
    public mutating func encode<T: KeyedArchivable>(_ value: T?, forKey key: String) throws {
        var writer = writer(inline: true)
        if let value {
            try contextual(key) { try writer.encodeArchivable(value) }
        }
        set(writer.result.propertyListValue, forKey: KeyedArchiver.escapeKey(key))
    }

    /// Writes an object under `key` only if something else in the archive writes it
    /// unconditionally; otherwise the key decodes as nil (Apple's `encodeConditionalObject`).
    ///
    /// Value types have no identity: they are written unconditionally.
    public mutating func encodeConditionalObject(_ object: Any?, forKey key: String) throws {
        var writer = writer(inline: true)
        writer.isConditional = true
        try contextual(key) { try writer.encodeAny(object) }
        set(writer.result.propertyListValue, forKey: KeyedArchiver.escapeKey(key))
    }

    /// Writes any supported value under `key` as an object reference: Swift values, models,
    /// archivable types and Foundation objects (an `NSString` instance keeps its identity, an
    /// `Int` becomes an `NSNumber` object).
    public mutating func encodeObject(_ value: Any?, forKey key: String) throws {
        set(try objectReference(value, key: key), forKey: KeyedArchiver.escapeKey(key))
    }

    /// Writes a list of object references inline under `key`, as Foundation's collections store
    /// their elements (`NS.objects`), for hand-written collection classes.
    public mutating func encodeArrayOfObjects(_ objects: [Any?], forKey key: String) throws {
        var references: [PropertyListValue] = []
        references.reserveCapacity(objects.count)
        for (index, object) in objects.enumerated() {
            var writer = writer(inline: false)
            try contextual(key) {
                try prefixingErrors(with: .index(index)) { try writer.encodeAny(object) }
            }
            references.append(writer.result.propertyListValue)
        }
        set(.array(references), forKey: KeyedArchiver.escapeKey(key))
    }

    /// Writes a value under the next unkeyed key (`$0`, `$1`, ...), as Apple's archiver does for
    /// `encode(_:)` without a key.
    public mutating func encode<T: ModelValue>(_ value: T) throws {
        var writer = writer(inline: true)
        let key = nextUnkeyedKey()
        try contextual(key) { try value.write(to: &writer) }
        set(writer.result.propertyListValue, forKey: key)
    }

    /// Writes any supported value as an object under the next unkeyed key (`$0`, `$1`, ...).
    public mutating func encodeObject(_ value: Any?) throws {
        let key = nextUnkeyedKey()
        set(try objectReference(value, key: key), forKey: key)
    }

    // MARK: Helpers

    /// Writes `value` as an object and returns its reference (`$null` for nil).
    private func objectReference(_ value: Any?, key: String) throws -> PropertyListValue {
        guard let value = value.flatMap(unwrappedOptional) else { return .uid(0) }
        var writer = writer(inline: false)
        try contextual(key) { try writer.encodeAny(value) }
        return writer.result.propertyListValue
    }

    private func writer(inline: Bool) -> KeyedArchiveWriter {
        KeyedArchiveWriter(state: state, inline: inline, depth: depth)
    }

    private mutating func nextUnkeyedKey() -> String {
        defer { unkeyedCount += 1 }
        return "$\(unkeyedCount)"
    }

    /// Names `key` in mapping errors thrown by `body`.
    private func contextual(_ key: String, _ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as ModelError {
            throw error.prefixed(by: .key(key))
        } catch let error as KeyedArchiveError {
            throw error.inContext(model: nil, key: key, objectID: nil)
        }
    }

    /// Stores a value; a key written twice keeps its first position and its last value. Keys
    /// compare by their exact bytes, as property-list keys do.
    private mutating func set(_ value: PropertyListValue, forKey key: String) {
        if let index {
            if let position = index[ExactStringKey(key)] {
                values[position] = value
                return
            }
        } else if let position = keys.firstIndex(where: { ExactString.equal($0, key) }) {
            values[position] = value
            return
        }
        keys.append(key)
        values.append(value)
        if index != nil {
            index?[ExactStringKey(key)] = keys.count - 1
        } else if keys.count > 16 {
            index = Dictionary(uniqueKeysWithValues: keys.enumerated().map { (ExactStringKey($0.element), $0.offset) })
        }
    }
}
