import ModelKitCore
import ModelKitPropertyList

/// Checks the objects of a keyed archive once, without recursion: every reference is in range,
/// every class description is well-formed, and every object refers to a class description.
struct StructureChecker {
    let objects: [PropertyListValue]
    /// For each entry, the index of its class in `classList`, or -1.
    var classIndexes: [Int32]
    var classList: [ArchivedClass] = []
    var classEntries: Set<Int> = []
    private var classListIndex: [Int: Int32] = [:]

    init(objects: [PropertyListValue]) {
        self.objects = objects
        self.classIndexes = [Int32](repeating: -1, count: objects.count)
    }

    /// Checks every entry of `$objects`.
    mutating func checkObjects() throws(KeyedArchiveError) {
        let count = objects.count
        for uid in 1..<max(count, 1) {
            guard case .dictionary(let dictionary) = objects[uid], let name = dictionary["$classname"] else { continue }
            guard case .string(let className) = name else {
                throw KeyedArchiveError(
                    .invalidClassDescription(detail: "'$classname' is \(KeyedArchiveDocument.describe(name)), not a string"),
                    objectID: uid)
            }
            var chain: [String] = []
            if let classes = dictionary["$classes"] {
                guard case .array(let names) = classes else {
                    throw KeyedArchiveError(
                        .invalidClassDescription(detail: "'$classes' is \(KeyedArchiveDocument.describe(classes)), not an array"),
                        objectID: uid)
                }
                for element in names {
                    guard case .string(let superclass) = element else {
                        throw KeyedArchiveError(
                            .invalidClassDescription(
                                detail: "'$classes' holds \(KeyedArchiveDocument.describe(element)), not a class name"),
                            objectID: uid)
                    }
                    chain.append(superclass)
                }
            }
            classEntries.insert(uid)
            classListIndex[uid] = Int32(classList.count)
            classList.append(ArchivedClass(name: className, chain: chain.isEmpty ? [className] : chain))
        }
        for uid in 1..<max(count, 1) where !classEntries.contains(uid) {
            switch objects[uid] {
            case .dictionary(let dictionary):
                guard let reference = dictionary["$class"] else {
                    throw KeyedArchiveError(.missingClass, objectID: uid)
                }
                guard case .uid(let classUID) = reference else {
                    throw KeyedArchiveError(
                        .invalidClassReference(detail: "is \(KeyedArchiveDocument.describe(reference))"), objectID: uid)
                }
                guard classUID < UInt64(count) else {
                    throw KeyedArchiveError(.referenceOutOfRange(classUID, objects: count), objectID: uid, key: "$class")
                }
                guard let index = classListIndex[Int(classUID)] else {
                    throw KeyedArchiveError(
                        .invalidClassReference(detail: "refers to object \(classUID), \(describeRaw(Int(classUID)))"),
                        objectID: uid)
                }
                classIndexes[uid] = index
                try checkReferences(in: dictionary, objectID: uid)
            case .array, .uid:
                try checkNested(objects[uid], objectID: uid, key: nil)
            default:
                break
            }
        }
    }

    /// Checks the references among the values of a dictionary (an object, or `$top`).
    func checkReferences(in dictionary: PropertyListDictionary, objectID: Int?) throws(KeyedArchiveError) {
        let count = UInt64(objects.count)
        for position in dictionary.indices {
            switch dictionary.values[position] {
            case .uid(let reference):
                // The common case, checked without allocating.
                guard reference < count else {
                    throw KeyedArchiveError(
                        .referenceOutOfRange(reference, objects: objects.count), objectID: objectID,
                        key: dictionary.keys[position])
                }
            case .array(let elements) where elements.allSatisfy({ if case .uid(let reference) = $0 { reference < count } else { false } }):
                continue
            case .array, .dictionary:
                try checkNested(dictionary.values[position], objectID: objectID, key: dictionary.keys[position])
            default:
                continue
            }
        }
    }

    /// Checks every reference inside `value`, walking nested containers with an explicit stack.
    func checkNested(_ value: PropertyListValue, objectID: Int?, key: String?) throws(KeyedArchiveError) {
        var pending = [value]
        while let next = pending.popLast() {
            switch next {
            case .uid(let reference):
                guard reference < UInt64(objects.count) else {
                    throw KeyedArchiveError(
                        .referenceOutOfRange(reference, objects: objects.count), objectID: objectID, key: key)
                }
            case .array(let elements):
                pending.append(contentsOf: elements)
            case .dictionary(let dictionary):
                pending.append(contentsOf: dictionary.values)
            default:
                continue
            }
        }
    }

    /// What entry `uid` is, before classes are known: `a string`, `a dictionary`, ...
    private func describeRaw(_ uid: Int) -> String {
        if uid == 0 { return "'$null'" }
        switch objects[uid] {
        case .string: return "a string"
        case .integer: return "an integer"
        case .dictionary: return "an object"
        default: return KeyedArchiveDocument.describe(objects[uid])
        }
    }
}
