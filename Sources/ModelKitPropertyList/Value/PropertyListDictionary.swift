/// A property-list dictionary: string keys mapped to values, in document order.
///
/// Readers keep the order in which keys appear in the document; the binary writer writes entries
/// in this order, and the XML writer sorts keys by UTF-16 code units, as Apple's writer does.
/// Keys are compared by their exact bytes (see `ExactString`): `"é"` and `"e\u{301}"` are two
/// keys. When a document repeats a key, the last value wins and the entry keeps the position of
/// the first occurrence, as a CFDictionary built from the same document would hold it.
///
/// Equality and hashing ignore order: two dictionaries are equal when they hold the same keys
/// with equal values.
///
/// ```swift
/// var object: PropertyListDictionary = ["$class": .uid(4), "NS.string": "hello"]
/// object["NS.string"]            // .string("hello")
/// object["extra"] = true
/// object.keys                    // ["$class", "NS.string", "extra"]
/// ```
public struct PropertyListDictionary: Sendable {
    /// The keys, in document (insertion) order.
    public private(set) var keys: [String]
    /// The values, parallel to `keys`.
    public private(set) var values: [PropertyListValue]
    /// A key index, kept only for dictionaries larger than `linearSearchLimit`.
    private var index: [ExactStringKey: Int]?

    /// Dictionaries up to this size are searched linearly, which is faster than hashing and keeps
    /// the many small dictionaries of a keyed archive free of an index allocation.
    static let linearSearchLimit = 12

    /// Creates an empty dictionary.
    ///
    /// ```swift
    /// var dictionary = PropertyListDictionary()
    /// dictionary["key"] = "value"
    /// ```
    public init() {
        keys = []
        values = []
        index = nil
    }

    /// Creates a dictionary from key-value pairs, in order; a repeated key keeps its first
    /// position and its last value.
    ///
    /// ```swift
    /// let dictionary = PropertyListDictionary([("a", 1), ("b", 2)])
    /// ```
    public init<Entries: Sequence>(_ entries: Entries) where Entries.Element == (String, PropertyListValue) {
        var keys: [String] = []
        var values: [PropertyListValue] = []
        keys.reserveCapacity(entries.underestimatedCount)
        values.reserveCapacity(entries.underestimatedCount)
        for (key, value) in entries {
            keys.append(key)
            values.append(value)
        }
        self.init(trustedKeys: keys, values: values)
    }

    /// Creates a dictionary from arrays whose counts are known to match (the readers' path).
    package init(trustedKeys keys: [String], values: [PropertyListValue]) {
        self.keys = keys
        self.values = values
        index = nil
        if keys.count > Self.linearSearchLimit {
            buildIndexRemovingDuplicates()
        } else {
            removeDuplicatesLinearly()
        }
    }

    /// Creates a dictionary from keys the caller guarantees to be distinct (the keyed archiver's
    /// objects), skipping the duplicate check and the key index; lookups search linearly.
    package init(uniqueKeys keys: [String], values: [PropertyListValue]) {
        self.keys = keys
        self.values = values
        index = nil
    }

    /// The number of entries.
    public var count: Int { keys.count }

    /// Whether the dictionary has no entries.
    public var isEmpty: Bool { keys.isEmpty }

    /// The position of `key`, or `nil` when it is absent.
    ///
    /// ```swift
    /// let dictionary: PropertyListDictionary = ["a": 1, "b": 2]
    /// dictionary.index(forKey: "b")   // 1
    /// ```
    public func index(forKey key: String) -> Int? {
        if let index { return index[ExactStringKey(key)] }
        for position in keys.indices where ExactString.equal(keys[position], key) {
            return position
        }
        return nil
    }

    /// The value for `key`; assigning `nil` removes the entry, assigning a new key appends it.
    ///
    /// ```swift
    /// var dictionary: PropertyListDictionary = ["a": 1]
    /// dictionary["a"] = nil
    /// dictionary.isEmpty   // true
    /// ```
    public subscript(key: String) -> PropertyListValue? {
        get {
            guard let position = index(forKey: key) else { return nil }
            return values[position]
        }
        set {
            if let newValue {
                updateValue(newValue, forKey: key)
            } else {
                removeValue(forKey: key)
            }
        }
    }

    /// Sets the value for `key`, keeping an existing key's position, and returns the old value.
    ///
    /// ```swift
    /// var dictionary: PropertyListDictionary = ["a": 1]
    /// dictionary.updateValue(2, forKey: "a")   // .integer(1)
    /// ```
    @discardableResult
    public mutating func updateValue(_ value: PropertyListValue, forKey key: String) -> PropertyListValue? {
        if let position = index(forKey: key) {
            let old = values[position]
            values[position] = value
            return old
        }
        keys.append(key)
        values.append(value)
        if index != nil {
            index?[ExactStringKey(key)] = keys.count - 1
        } else if keys.count > Self.linearSearchLimit {
            buildIndexRemovingDuplicates()
        }
        return nil
    }

    /// Removes the entry for `key`, keeping the order of the others, and returns its value.
    ///
    /// ```swift
    /// var dictionary: PropertyListDictionary = ["a": 1, "b": 2]
    /// dictionary.removeValue(forKey: "a")   // .integer(1)
    /// dictionary.keys                       // ["b"]
    /// ```
    @discardableResult
    public mutating func removeValue(forKey key: String) -> PropertyListValue? {
        guard let position = index(forKey: key) else { return nil }
        keys.remove(at: position)
        let old = values.remove(at: position)
        if index != nil {
            if keys.count > Self.linearSearchLimit {
                buildIndexRemovingDuplicates()
            } else {
                index = nil
            }
        }
        return old
    }

    /// Builds the key index, dropping repeated keys (first position, last value).
    private mutating func buildIndexRemovingDuplicates() {
        var map = [ExactStringKey: Int](minimumCapacity: keys.count)
        var duplicates = false
        for position in keys.indices {
            let key = ExactStringKey(keys[position])
            if let first = map[key] {
                values[first] = values[position]
                duplicates = true
            } else {
                map[key] = position
            }
        }
        if duplicates {
            var keptKeys: [String] = []
            var keptValues: [PropertyListValue] = []
            keptKeys.reserveCapacity(map.count)
            keptValues.reserveCapacity(map.count)
            for position in keys.indices where map[ExactStringKey(keys[position])] == position {
                keptKeys.append(keys[position])
                keptValues.append(values[position])
            }
            keys = keptKeys
            values = keptValues
            map.removeAll(keepingCapacity: true)
            for position in keys.indices {
                map[ExactStringKey(keys[position])] = position
            }
        }
        index = map
    }

    /// Drops repeated keys of a small dictionary (first position, last value).
    private mutating func removeDuplicatesLinearly() {
        let count = keys.count
        guard count > 1 else { return }
        // Compare byte lengths first (O(1) for native strings); only equal lengths compare bytes.
        var duplicate = false
        search: for position in 1..<count {
            let length = keys[position].utf8.count
            for earlier in 0..<position where keys[earlier].utf8.count == length {
                if length > 64 {
                    // Long keys of equal length are hashed once each instead of compared in pairs:
                    // a binary property list can share long keys among millions of dictionaries.
                    buildIndexRemovingDuplicates()
                    if keys.count <= Self.linearSearchLimit { index = nil }
                    return
                }
                if ExactString.equal(keys[earlier], keys[position]) {
                    duplicate = true
                    break search
                }
            }
        }
        guard duplicate else { return }
        var position = 1
        while position < keys.count {
            var earlier = 0
            while earlier < position, !ExactString.equal(keys[earlier], keys[position]) {
                earlier += 1
            }
            if earlier < position {
                values[earlier] = values[position]
                keys.remove(at: position)
                values.remove(at: position)
            } else {
                position += 1
            }
        }
    }
}

extension PropertyListDictionary: RandomAccessCollection {
    /// An entry: a key and its value.
    public typealias Element = (key: String, value: PropertyListValue)

    /// The position of the first entry (always zero).
    public var startIndex: Int { 0 }

    /// The position past the last entry.
    public var endIndex: Int { keys.count }

    /// The entry at `position`, in document order.
    public subscript(position: Int) -> Element {
        (keys[position], values[position])
    }
}

extension PropertyListDictionary: ExpressibleByDictionaryLiteral {
    /// Creates a dictionary from a literal, in the literal's order; a repeated key keeps its first
    /// position and its last value.
    ///
    /// ```swift
    /// let dictionary: PropertyListDictionary = ["name": "ModelKit", "version": 1]
    /// ```
    public init(dictionaryLiteral elements: (String, PropertyListValue)...) {
        self.init(trustedKeys: elements.map(\.0), values: elements.map(\.1))
    }
}

extension PropertyListDictionary: Hashable {
    /// Whether both dictionaries hold the same keys with equal values, in any order.
    public static func == (lhs: PropertyListDictionary, rhs: PropertyListDictionary) -> Bool {
        guard lhs.count == rhs.count else { return false }
        for position in lhs.keys.indices {
            // Same order is the common case: check the same position first.
            if ExactString.equal(lhs.keys[position], rhs.keys[position]) {
                if lhs.values[position] != rhs.values[position] { return false }
                continue
            }
            guard let other = rhs.index(forKey: lhs.keys[position]),
                  lhs.values[position] == rhs.values[other]
            else { return false }
        }
        return true
    }

    /// Hashes the entries independently of their order.
    public func hash(into hasher: inout Hasher) {
        var combined = 0
        for position in keys.indices {
            var entry = Hasher()
            ExactString.hash(keys[position], into: &entry)
            entry.combine(values[position])
            combined ^= entry.finalize()
        }
        hasher.combine(keys.count)
        hasher.combine(combined)
    }
}

// MARK: - Exact string identity

/// Exact, byte-level string identity for property-list keys and uniquing.
///
/// Swift's `String` equality follows Unicode canonical equivalence, so `"é"` (U+00E9) equals
/// `"e\u{301}"`. Property lists are byte-exact: CFString compares UTF-16 code units, and two keys
/// that differ only in normalization are two different keys. Everything in this layer that
/// decides whether two strings are "the same" (dictionary keys, writer uniquing, value equality)
/// goes through these helpers, which compare the UTF-8 bytes.
package enum ExactString {
    /// Whether two strings have identical UTF-8 bytes.
    ///
    /// ```swift
    /// ExactString.equal("é", "e\u{301}")   // false
    /// ```
    package static func equal(_ lhs: String, _ rhs: String) -> Bool {
        if lhs.utf8.count != rhs.utf8.count { return false }
        var lhs = lhs
        var rhs = rhs
        // Both strings' UTF-8 in place, compared byte for byte without copies.
        return lhs.withUTF8 { left in
            rhs.withUTF8 { right in
                bytesEqual(UnsafeRawBufferPointer(left), UnsafeRawBufferPointer(right))
            }
        }
    }

    /// Feeds the UTF-8 bytes of a string to a hasher; consistent with `equal(_:_:)`.
    package static func hash(_ string: String, into hasher: inout Hasher) {
        var string = string
        // The UTF-8 in place, fed to the hasher in one call.
        string.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }

    /// Whether two byte buffers hold the same bytes, compared eight at a time.
    // Compared in place, eight bytes at a time with unaligned loads: the buffers may start at any offset.
    package static func bytesEqual(_ lhs: UnsafeRawBufferPointer, _ rhs: UnsafeRawBufferPointer) -> Bool {
        let count = lhs.count
        guard count == rhs.count else { return false }
        var offset = 0
        while offset + 8 <= count {
            if lhs.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                != rhs.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            {
                return false
            }
            offset += 8
        }
        while offset < count {
            if lhs[offset] != rhs[offset] { return false }
            offset += 1
        }
        return true
    }

    /// Whether `lhs` sorts before `rhs` in Apple's XML key order: by UTF-16 code units.
    ///
    /// ```swift
    /// ExactString.precedesInUTF16Order("$10", "$2")   // true
    /// ```
    package static func precedesInUTF16Order(_ lhs: String, _ rhs: String) -> Bool {
        var lhs = lhs
        var rhs = rhs
        // ASCII-only strings order the same in UTF-8 and UTF-16; compare their bytes directly.
        // Both strings' UTF-8 in place, compared without copies.
        let bytewise: Bool? = lhs.withUTF8 { left in
            rhs.withUTF8 { right -> Bool? in
                let shared = min(left.count, right.count)
                for index in 0..<shared {
                    let a = left[index]
                    let b = right[index]
                    if a >= 0x80 || b >= 0x80 { return nil }
                    if a != b { return a < b }
                }
                return left.count < right.count
            }
        }
        if let bytewise { return bytewise }
        return lhs.utf16.lexicographicallyPrecedes(rhs.utf16)
    }
}

/// A `String` wrapper whose equality and hash use exact UTF-8 bytes (see `ExactString`).
package struct ExactStringKey: Hashable, Sendable {
    package let string: String

    package init(_ string: String) {
        self.string = string
    }

    package static func == (lhs: ExactStringKey, rhs: ExactStringKey) -> Bool {
        ExactString.equal(lhs.string, rhs.string)
    }

    package func hash(into hasher: inout Hasher) {
        ExactString.hash(string, into: &hasher)
    }
}
