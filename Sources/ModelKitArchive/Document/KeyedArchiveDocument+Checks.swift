import ModelKitCore
import ModelKitPropertyList

/// The numbers of the keys the unarchiver looks up, in one archive's table (nil: no dictionary
/// of the archive has the key, so no lookup finds it).
struct ArchiveKeys: Sendable {
    let archiver: Int32?
    let version: Int32?
    let top: Int32?
    let objects: Int32?
    /// `$class`, `$classname`, `$classes`.
    let classReference: Int32?
    let className: Int32?
    let classes: Int32?
    /// The keys of Foundation's objects.
    let nsObjects: Int32?
    let nsKeys: Int32?
    let nsTime: Int32?
    let nsString: Int32?
    let nsData: Int32?
    let nsUUIDBytes: Int32?
    let nsRelative: Int32?
    let nsBase: Int32?

    init(_ table: BinaryPropertyListTable) {
        archiver = table.keyID(for: "$archiver")
        version = table.keyID(for: "$version")
        top = table.keyID(for: "$top")
        objects = table.keyID(for: "$objects")
        classReference = table.keyID(for: "$class")
        className = table.keyID(for: "$classname")
        classes = table.keyID(for: "$classes")
        nsObjects = table.keyID(for: "NS.objects")
        nsKeys = table.keyID(for: "NS.keys")
        nsTime = table.keyID(for: "NS.time")
        nsString = table.keyID(for: "NS.string")
        nsData = table.keyID(for: "NS.data")
        nsUUIDBytes = table.keyID(for: "NS.uuidbytes")
        nsRelative = table.keyID(for: "NS.relative")
        nsBase = table.keyID(for: "NS.base")
    }
}

/// Checks the objects of a keyed archive once, without recursion: every reference is in range,
/// every class description is well-formed, and every object refers to a class description.
struct StructureChecker {
    let table: BinaryPropertyListTable
    let objects: BinaryPropertyListTable.Container
    let keys: ArchiveKeys
    /// For each entry, the index of its class in `classList`, or -1.
    var classIndexes: [Int32]
    var classList: [ArchivedClass] = []
    /// For each entry, its index in `classList` when it is a class description, or -1.
    var classDescriptions: [Int32]
    /// Per key shape (see ``BinaryPropertyListTable/Container/keyShape``), where its dictionaries
    /// hold `$class` and `$classname` (-1: nowhere), once known (-2: not yet): objects of one
    /// class share their keys, and an archive's objects come in a few classes.
    private var positionsByShape: [(classReference: Int, className: Int)]

    init(table: BinaryPropertyListTable, objects: BinaryPropertyListTable.Container, keys: ArchiveKeys) {
        self.table = table
        self.objects = objects
        self.keys = keys
        classIndexes = [Int32](repeating: -1, count: objects.count)
        classDescriptions = [Int32](repeating: -1, count: objects.count)
        positionsByShape = Array(repeating: (-2, -2), count: table.keyShapeCount)
    }

    /// Where `dictionary` holds `$class` and `$classname`.
    @inline(__always)
    private mutating func classKeyPositions(of dictionary: BinaryPropertyListTable.Container) -> (
        classReference: Int?, className: Int?
    ) {
        let shape = Int(dictionary.keyShape)
        let known = shape >= 0 ? positionsByShape[shape] : (classReference: -2, className: -2)
        if known.classReference != -2 {
            return (known.classReference >= 0 ? known.classReference : nil, known.className >= 0 ? known.className : nil)
        }
        let classReference = keys.classReference.flatMap { table.position(ofKey: $0, in: dictionary) }
        let className = keys.className.flatMap { table.position(ofKey: $0, in: dictionary) }
        if shape >= 0 { positionsByShape[shape] = (classReference ?? -1, className ?? -1) }
        return (classReference, className)
    }

    /// What an entry of `$objects` is, for the second pass of ``checkObjects()``.
    private enum EntryKind: UInt8 {
        /// A scalar (or a class description, which the second pass skips).
        case other
        /// An object: a dictionary with its `$class` reference (see `classUIDs`).
        case object
        /// A dictionary without `$class`.
        case objectWithoutClass
        /// A dictionary whose `$class` is not a UID.
        case objectWithBadClass
        /// An array or a UID, whose references are checked.
        case nested
    }

    /// Checks every entry of `$objects`: the class descriptions first, then each entry in order,
    /// from what the first pass noted of it (each entry's object is looked up in the table once).
    mutating func checkObjects() throws(KeyedArchiveError) {
        let count = objects.count
        var kinds = [EntryKind](repeating: .other, count: count)
        // Per object entry, the UID its `$class` holds.
        var classUIDs = [UInt64](repeating: 0, count: count)
        for uid in 1..<max(count, 1) {
            let object = table.reference(objects, uid)
            switch table.kind(of: object) {
            case .dictionary?:
                break
            case .array?, .uid?:
                kinds[uid] = .nested
                continue
            default:
                continue
            }
            guard let dictionary = table.container(object) else { continue }
            let positions = classKeyPositions(of: dictionary)
            guard let namePosition = positions.className else {
                if let classPosition = positions.classReference {
                    if let classUID = table.uid(table.valueReference(ofEntry: classPosition, in: dictionary)) {
                        (kinds[uid], classUIDs[uid]) = (.object, classUID)
                    } else {
                        kinds[uid] = .objectWithBadClass
                    }
                } else {
                    kinds[uid] = .objectWithoutClass
                }
                continue
            }
            try describeClass(uid, of: dictionary, namePosition: namePosition)
        }
        let checksReferences = table.largestUID >= UInt64(count)
        for uid in 1..<max(count, 1) where classDescriptions[uid] < 0 {
            switch kinds[uid] {
            case .object:
                let classUID = classUIDs[uid]
                guard classUID < UInt64(count) else {
                    throw KeyedArchiveError(.referenceOutOfRange(classUID, objects: count), objectID: uid, key: "$class")
                }
                let index = classDescriptions[Int(classUID)]
                guard index >= 0 else {
                    throw KeyedArchiveError(
                        .invalidClassReference(detail: "refers to object \(classUID), \(describeRaw(Int(classUID)))"),
                        objectID: uid)
                }
                classIndexes[uid] = index
                // Nothing can be out of range otherwise (see `checkReferences`).
                if checksReferences, let dictionary = table.container(table.reference(objects, uid)) {
                    try checkReferences(in: dictionary, objectID: uid)
                }
            case .objectWithoutClass:
                throw KeyedArchiveError(.missingClass, objectID: uid)
            case .objectWithBadClass:
                var found = "?"
                if let dictionary = table.container(table.reference(objects, uid)),
                   let classPosition = classKeyPositions(of: dictionary).classReference
                {
                    found = KeyedArchiveDocument.describe(table.value(ofEntry: classPosition, in: dictionary))
                }
                throw KeyedArchiveError(.invalidClassReference(detail: "is \(found)"), objectID: uid)
            case .nested:
                try checkNested(table.reference(objects, uid), objectID: uid, key: nil)
            case .other:
                break
            }
        }
    }

    /// Reads the class description entry `uid` (`$classname` at `namePosition`, and `$classes`)
    /// into `classList`.
    private mutating func describeClass(
        _ uid: Int, of dictionary: BinaryPropertyListTable.Container, namePosition: Int
    ) throws(KeyedArchiveError) {
        let name = table.valueReference(ofEntry: namePosition, in: dictionary)
        guard let className = table.string(name) else {
            let found = KeyedArchiveDocument.describe(table.value(of: name))
            throw KeyedArchiveError(.invalidClassDescription(detail: "'$classname' is \(found), not a string"), objectID: uid)
        }
        var chain: [String] = []
        if let classes = keys.classes.flatMap({ table.object(forKey: $0, in: dictionary) }) {
            guard let names = table.container(classes), !names.isDictionary else {
                let found = KeyedArchiveDocument.describe(table.value(of: classes))
                throw KeyedArchiveError(.invalidClassDescription(detail: "'$classes' is \(found), not an array"), objectID: uid)
            }
            for index in 0..<names.count {
                let element = table.reference(names, index)
                guard let superclass = table.string(element) else {
                    let found = KeyedArchiveDocument.describe(table.value(of: element))
                    throw KeyedArchiveError(
                        .invalidClassDescription(detail: "'$classes' holds \(found), not a class name"), objectID: uid)
                }
                chain.append(superclass)
            }
        }
        classDescriptions[uid] = Int32(classList.count)
        classList.append(ArchivedClass(name: className, chain: chain.isEmpty ? [className] : chain))
    }

    /// Checks the references among the values of a dictionary (an object, or `$top`).
    func checkReferences(in dictionary: BinaryPropertyListTable.Container, objectID: Int?) throws(KeyedArchiveError) {
        // No UID in the table reaches past `$objects` (as in every archive an archiver wrote):
        // nothing here can be out of range.
        guard table.largestUID >= UInt64(objects.count) else { return }
        let count = UInt64(objects.count)
        var next = 0
        // Scalars and UIDs in range pass in the table's own loop; the rest are looked at here.
        while let position = table.firstValueToCheck(in: dictionary, from: next, uidsBelow: count) {
            next = position + 1
            let member = table.valueReference(ofEntry: position, in: dictionary)
            switch table.kind(of: member) {
            case .uid?:
                // Out of range (the table passed those in range).
                guard let reference = table.uid(member), reference < count else {
                    throw KeyedArchiveError(
                        .referenceOutOfRange(table.uid(member) ?? 0, objects: objects.count), objectID: objectID,
                        key: key(at: position, of: dictionary))
                }
            case .array?, .dictionary?:
                if let elements = table.container(member), !elements.isDictionary,
                   (0..<elements.count).allSatisfy({ (table.uid(table.reference(elements, $0)) ?? count) < count })
                {
                    continue
                }
                try checkNested(member, objectID: objectID, key: key(at: position, of: dictionary))
            default:
                continue
            }
        }
    }

    private func key(at position: Int, of dictionary: BinaryPropertyListTable.Container) -> String? {
        table.string(table.reference(dictionary, position))
    }

    /// Checks every reference inside `object`, walking nested containers with an explicit stack.
    func checkNested(_ object: Int, objectID: Int?, key: String?) throws(KeyedArchiveError) {
        guard table.largestUID >= UInt64(objects.count) else { return }
        var pending = [object]
        while let next = pending.popLast() {
            switch table.kind(of: next) {
            case .uid?:
                let reference = table.uid(next) ?? 0
                guard reference < UInt64(objects.count) else {
                    throw KeyedArchiveError(
                        .referenceOutOfRange(reference, objects: objects.count), objectID: objectID, key: key)
                }
            case .array?:
                guard let elements = table.container(next) else { continue }
                pending.append(contentsOf: (0..<elements.count).map { table.reference(elements, $0) })
            case .dictionary?:
                guard let dictionary = table.container(next) else { continue }
                pending.append(contentsOf: (0..<dictionary.count).map { table.valueReference(ofEntry: $0, in: dictionary) })
            default:
                continue
            }
        }
    }

    /// What entry `uid` is, before classes are known: `a string`, `a dictionary`, ...
    private func describeRaw(_ uid: Int) -> String {
        if uid == 0 { return "'$null'" }
        let value = table.value(at: uid, of: objects)
        switch value {
        case .string: return "a string"
        case .integer: return "an integer"
        case .dictionary: return "an object"
        default: return KeyedArchiveDocument.describe(value)
        }
    }
}
