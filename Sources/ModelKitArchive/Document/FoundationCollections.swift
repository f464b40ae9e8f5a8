import ModelKitCore
import ModelKitPropertyList

/// Where each Foundation collection class keeps its elements, as Apple's archiver writes them:
/// one place, read by typed and generic decoding and by the dump.
///
/// - `NSArray`, `NSSet` (and their mutable kinds): `NS.objects`, an array of references;
/// - `NSOrderedSet`: `NS.object.0`, `NS.object.1`, ...;
/// - `NSCountedSet`: `NS.count` members, each `NS.object<i>` with its count `NS.count<i>`
///   (a missing count is 1);
/// - `NSDictionary`: `NS.keys` and `NS.objects`, arrays of the same length.
///
/// An object that lacks them is malformed, never an empty collection.
enum FoundationCollections {
    /// The element references of an array, set or ordered set object, or why there are none.
    /// A counted set's are its ``countedMembers(of:)``.
    static func elements<Members: ArchivedMembers>(of keys: Members, kind: FoundationClass) -> Result<[PropertyListValue], Malformed> {
        switch kind {
        case .orderedSet, .mutableOrderedSet:
            var elements: [PropertyListValue] = []
            while let next = keys["NS.object.\(elements.count)"] { elements.append(next) }
            return .success(elements)
        case .countedSet:
            return countedMembers(of: keys).map { members in members.map(\.reference) }
        default:
            guard let stored = keys["NS.objects"] else { return .failure(Malformed("'NS.objects' is missing")) }
            guard case .array(let references) = stored else {
                return .failure(Malformed("'NS.objects' is \(KeyedArchiveReader.describe(stored)), not an array"))
            }
            return .success(references)
        }
    }

    /// The members of a counted set object, each once with its count, or why they cannot be
    /// read. Counts are kept as numbers, never expanded here: a few bytes of file can count a
    /// member two billion times.
    static func countedMembers<Members: ArchivedMembers>(of keys: Members) -> Result<[CountedMember], Malformed> {
        guard let total = keys["NS.count"]?.int64Value, total >= 0, total <= Int64(keys.memberCount) else {
            return .failure(Malformed("'NS.count' is missing or not a member count"))
        }
        var members: [CountedMember] = []
        members.reserveCapacity(Int(total))
        for index in 0..<Int(total) {
            guard let reference = keys["NS.object\(index)"] else { return .failure(Malformed("'NS.object\(index)' is missing")) }
            var count: Int64 = 1
            if let stored = keys["NS.count\(index)"] {
                guard let number = stored.int64Value, number >= 1 else {
                    return .failure(Malformed("'NS.count\(index)' is \(KeyedArchiveReader.describe(stored)), not a count"))
                }
                count = number
            }
            members.append(CountedMember(reference: reference, count: Int(count)))
        }
        return .success(members)
    }

    /// One member of a counted set: its reference, and how many times it was added (at least 1).
    struct CountedMember {
        let reference: PropertyListValue
        let count: Int
    }

    /// The key and value references of a dictionary object, or why they do not pair up.
    static func entries<Members: ArchivedMembers>(of keys: Members) -> Result<(keys: [PropertyListValue], values: [PropertyListValue]), Malformed> {
        guard let storedKeys = keys["NS.keys"], let storedValues = keys["NS.objects"] else {
            return .failure(Malformed("'NS.keys' or 'NS.objects' is missing"))
        }
        guard case .array(let keyReferences) = storedKeys, case .array(let valueReferences) = storedValues else {
            return .failure(Malformed("'NS.keys' and 'NS.objects' must be arrays"))
        }
        guard keyReferences.count == valueReferences.count else {
            return .failure(
                Malformed("'NS.keys' has \(keyReferences.count) entries but 'NS.objects' has \(valueReferences.count)"))
        }
        return .success((keyReferences, valueReferences))
    }

    /// What is wrong with a collection object.
    struct Malformed: Error {
        let detail: String
        init(_ detail: String) { self.detail = detail }
    }
}

/// The keyed values of an archived object, as the collections read them: its dictionary read
/// whole, or the object read in place (``ArchivedObjectMembers``).
protocol ArchivedMembers {
    /// The value under `key`.
    subscript(key: String) -> PropertyListValue? { get }
    /// The number of keys (`$class` included).
    var memberCount: Int { get }
}

extension PropertyListDictionary: ArchivedMembers {
    var memberCount: Int { count }
}

/// The keyed values of object `uid` of a document, read in place.
struct ArchivedObjectMembers: ArchivedMembers {
    let document: KeyedArchiveDocument
    let uid: Int

    subscript(key: String) -> PropertyListValue? {
        document.memberValue(document.keyID(for: key), ofObject: uid)
    }

    var memberCount: Int { document.objectDictionary(uid)?.count ?? 0 }
}

