/// The rules that take objects for dictionaries (`[String: T]`) rather than models with a property
/// per key: their keys are data, not names.
///
/// Objects at one place are dictionaries when every key seen there looks like an identifier
/// (``looksLikeIdentifier(_:)``), or when at least ``manyKeys`` keys were seen there (across all
/// samples) and their values are alike: all of one kind once nulls are set aside, and, for
/// objects, each sharing at least half of its keys with those seen before it. A ticket catalogue's
/// `{"205705993": "Arrière-scène central", ...}` is a `[String: String]`, its events keyed by id a
/// `[String: Event]`; a user with forty keys of several kinds stays a model.
///
/// ```swift
/// DictionaryDetection.looksLikeIdentifier("138586341")                             // true
/// DictionaryDetection.looksLikeIdentifier("1b4e28ba-2fa1-11d2-883f-0016d3cca427")  // true
/// DictionaryDetection.looksLikeIdentifier("screen_name")                           // false
/// ```
package enum DictionaryDetection {
    /// The number of keys from which objects whose values are alike are taken for dictionaries:
    /// few hand-written models have twenty properties all of one kind, and a lookup table of
    /// twenty entries already makes a model no one would keep.
    static let manyKeys = 20

    /// The hexadecimal digits a long hexadecimal key is made of.
    private static let hexDigits = Set("0123456789abcdefABCDEF")

    /// Whether objects seen at one place are dictionaries (see the type's rules).
    static func isDictionary(_ object: ObjectShape) -> Bool {
        guard !object.keys.isEmpty else { return false }
        if object.keys.allSatisfy(looksLikeIdentifier) { return true }
        return object.keys.count >= manyKeys && valuesAreAlike(object)
    }

    /// Whether a key reads as a value rather than a name: all ASCII digits (`"205705993"`), a
    /// UUID, a hexadecimal string of 16 digits or more with at least one decimal digit (a hash,
    /// a database object id), or a date (`"2024-03-01"`, `"2024-03-01T12:00:00Z"`).
    package static func looksLikeIdentifier(_ key: String) -> Bool {
        let bytes = Array(key.utf8)
        guard !bytes.isEmpty else { return false }
        if bytes.allSatisfy(isDigit) { return true }
        if isUUID(key) { return true }
        if bytes.count >= 16, key.allSatisfy(hexDigits.contains), bytes.contains(where: isDigit) { return true }
        return isDate(bytes)
    }

    /// `8-4-4-4-12` hexadecimal digits.
    private static func isUUID(_ key: String) -> Bool {
        let groups = key.split(separator: "-", omittingEmptySubsequences: false)
        return groups.map(\.count) == [8, 4, 4, 4, 12] && groups.allSatisfy { $0.allSatisfy(hexDigits.contains) }
    }

    /// A year, a dash and a month (`2024-03`), followed only by the digits and marks of a date
    /// and a time.
    private static func isDate(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 7, bytes[0..<4].allSatisfy(isDigit), bytes[4] == UInt8(ascii: "-"),
            bytes[5..<7].allSatisfy(isDigit)
        else { return false }
        let marks: Set<UInt8> = Set("-:.TZ+ ".utf8)
        return bytes[7...].allSatisfy { isDigit($0) || marks.contains($0) }
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    /// Whether the members' values are all of one kind (nulls aside), and, when they are objects,
    /// each shares at least ``TypeNamer/mergeThreshold`` of its keys with the keys seen before it,
    /// as the objects merged into one model do.
    static func valuesAreAlike(_ object: ObjectShape) -> Bool {
        var kind: ValueKind?
        var seenKeys: Set<String> = []
        for key in object.keys {
            guard let member = object.members[key] else { continue }
            let memberKind = member.kind
            if memberKind == .none { continue }
            if memberKind == .mixed { return false }
            if let kind, kind != memberKind { return false }
            kind = memberKind
            guard memberKind == .object, let keys = member.object?.keys else { continue }
            if !seenKeys.isEmpty {
                let mine = Set(keys)
                let shared = mine.intersection(seenKeys).count
                if Double(shared) / Double(mine.union(seenKeys).count) < TypeNamer.mergeThreshold { return false }
            }
            seenKeys.formUnion(keys)
        }
        return kind != nil
    }
}
