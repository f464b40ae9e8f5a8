import ModelKitCore
import ModelKitPropertyList

/// Where each Foundation collection class keeps its elements, as Apple's archiver writes them:
/// one place, read by typed and generic decoding and by the dump.
///
/// - `NSArray`, `NSSet` (and their mutable kinds): `NS.objects`, an array of references;
/// - `NSOrderedSet`: `NS.object.0`, `NS.object.1`, ...;
/// - `NSCountedSet`: `NS.count` members, each `NS.object<i>` with its count `NS.count<i>`;
/// - `NSDictionary`: `NS.keys` and `NS.objects`, arrays of the same length.
///
/// An object that lacks them is malformed, never an empty collection.
enum FoundationCollections {
    /// The element references of an array, set, ordered set or counted set object, a counted
    /// set's members as often as it counts them (a set reads its members, an array the bag), or
    /// why there are none.
    static func elements(of keys: PropertyListDictionary, kind: FoundationClass) -> Result<[PropertyListValue], Malformed> {
        switch kind {
        case .orderedSet, .mutableOrderedSet:
            var elements: [PropertyListValue] = []
            while let next = keys["NS.object.\(elements.count)"] { elements.append(next) }
            return .success(elements)
        case .countedSet:
            guard let total = keys["NS.count"]?.int64Value, total >= 0, total <= Int64(keys.count) else {
                return .failure(Malformed("'NS.count' is missing or not a member count"))
            }
            var elements: [PropertyListValue] = []
            for index in 0..<Int(total) {
                guard let reference = keys["NS.object\(index)"] else { return .failure(Malformed("'NS.object\(index)' is missing")) }
                let count = keys["NS.count\(index)"]?.int64Value ?? 1
                guard count >= 1, count <= Int64(Int32.max) else {
                    return .failure(Malformed("'NS.count\(index)' is not a count"))
                }
                elements.append(contentsOf: repeatElement(reference, count: Int(count)))
            }
            return .success(elements)
        default:
            guard let stored = keys["NS.objects"] else { return .failure(Malformed("'NS.objects' is missing")) }
            guard case .array(let references) = stored else {
                return .failure(Malformed("'NS.objects' is \(KeyedArchiveReader.describe(stored)), not an array"))
            }
            return .success(references)
        }
    }

    /// The key and value references of a dictionary object, or why they do not pair up.
    static func entries(of keys: PropertyListDictionary) -> Result<(keys: [PropertyListValue], values: [PropertyListValue]), Malformed> {
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
