import ModelKitCore
import ModelKitPropertyList

// Collections: `NSArray`, `NSSet` and `NSOrderedSet` read as arrays (and sets), `NSDictionary`
// as string-keyed dictionaries. Elements are references; each is read one level down the path,
// with collect-all and lossy handling from the core's shared rules.

extension KeyedArchiveReader {
    public mutating func decodeArray<T>(_ element: (inout KeyedArchiveReader) throws -> T) throws -> [T] {
        // The class alone first: an entry with a class is an object (a dictionary, checked with the
        // document), as `object()` would find reading its dictionary.
        guard let uid = referencedEntry, let kind = state.foundationKind(of: uid),
              kind.isArray || kind.isSet || kind.isOrderedSet
        else { throw mismatch("an array") }
        let references = try elementReferences(of: uid, kind: kind)
        // Strings, the commonest elements, gather in an array of their own type: unspecialised,
        // an array of `T` looks its type metadata up (about 330 instructions) to be made.
        if T.self == String.self {
            var strings: [String] = []
            strings.reserveCapacity(references.count)
            try insideCollection(uid) { reader in
                // Unsafe: `T` is `String` (checked above), so both casts change no type and no layout.
                try reader.readElements(references, element) { strings.append(unsafeBitCast($0, to: String.self)) }
            }
            return unsafeBitCast(strings, to: [T].self)
        }
        // Elements go straight into the array's memory: appended to an array of `T`, each looked
        // the array's type metadata up again.
        return try insideCollection(uid) { reader in
            // Unsafe: `readElements` appends at most one element per reference, so `initialized` stays within the
            // capacity; on a throw the array keeps, and releases, the elements initialized so far.
            try [T](unsafeUninitializedCapacity: references.count) { buffer, initialized in
                try reader.readElements(references, element) { value in
                    buffer.initializeElement(at: initialized, to: value)
                    initialized += 1
                }
            }
        }
    }

    /// Reads the elements at `references` with `element`, one level down the path each, and
    /// hands each to `append`; in collect-all mode a failing one is recorded and left out.
    private mutating func readElements<T>(
        _ references: ElementReferences, _ element: (inout KeyedArchiveReader) throws -> T, _ append: (T) -> Void
    ) throws {
        let collects = flags.collectsAllErrors
        // By index: an iterator copied the references (and retained the table) for every step.
        for index in 0..<references.endIndex {
            position = references[index]
            if collects {
                try collectElement(at: index, element, append)
            } else {
                // What `decodeElement` does outside collect-all mode, without its optional
                // result (whose type metadata an unspecialised caller looks up on every call).
                append(try atElement(index, element))
            }
        }
    }

    /// ``ModelReader/withPathComponent(_:_:)`` at element `index`, for this reader: the shared
    /// one, generic over the reader too, runs unspecialised from a caller generic over the
    /// element (through the reader's witnesses, some 450 instructions an element).
    @inline(__always)
    private mutating func atElement<T>(_ index: Int, _ body: (inout KeyedArchiveReader) throws -> T) throws -> T {
        let mark = collectedProblems.count
        do {
            let result = try body(&self)
            if collectedProblems.count > mark { prefixProblems(since: mark, with: .index(index)) }
            return result
        } catch let error as ModelError {
            if collectedProblems.count > mark { prefixProblems(since: mark, with: .index(index)) }
            throw error.prefixed(by: .index(index))
        }
    }

    /// Reads an element in collect-all mode: a failing one is recorded and left out.
    @inline(never)
    mutating func collectElement<T>(at index: Int, _ element: (inout KeyedArchiveReader) throws -> T, _ append: (T) -> Void)
        throws
    {
        if let decoded = try decodeElement(at: index, element) { append(decoded) }
    }

    /// Runs `body` inside collection object `uid`: entered (depth, decoding budget, cycles), its
    /// elements read with no field of a model in scope, and the reader's position restored after.
    mutating func insideCollection<R>(_ uid: Int, _ body: (inout KeyedArchiveReader) throws -> R) throws -> R {
        try enterObject(uid)
        let saved = position
        let savedField = field
        field = nil
        defer {
            position = saved
            field = savedField
            leave(uid)
        }
        return try body(&self)
    }

    /// The element references of an array, set, ordered set or counted set object (a counted
    /// set's members as often as it counts them, so that a set reads its members and an array
    /// reads the bag): an array's or set's `NS.objects` read in place.
    func elementReferences(of uid: Int, kind: FoundationClass) throws -> ElementReferences {
        if !kind.isOrderedSet && kind != .countedSet, let key = keys.nsObjects, let dictionary = state.objectDictionary(uid),
           let objects = state.table.object(forKey: key, in: dictionary), let elements = state.table.container(objects),
           !elements.isDictionary
        {
            return ElementReferences(inPlace: elements, of: state.table)
        }
        let members = ArchivedObjectMembers(document: state.document, uid: uid)
        if kind == .countedSet {
            switch FoundationCollections.countedMembers(of: members) {
            case .success(let counted): return try countedElements(counted, of: uid)
            case .failure(let malformed):
                throw KeyedArchiveError(.invalidObject(className: className(of: uid), detail: malformed.detail), objectID: uid)
            }
        }
        switch FoundationCollections.elements(of: members, kind: kind) {
        case .success(let elements): return ElementReferences(elements)
        case .failure(let malformed):
            throw KeyedArchiveError(.invalidObject(className: className(of: uid), detail: malformed.detail), objectID: uid)
        }
    }

    /// A counted set's bag, each member repeated as often as it is counted, within the limit of
    /// one collection's elements (``PropertyListLimits/maxCollectionCount``): a count is any
    /// positive 64-bit number, so the bag of a small file could otherwise outgrow memory.
    private func countedElements(_ members: [FoundationCollections.CountedMember], of uid: Int) throws -> ElementReferences {
        let limit = state.limits.propertyList.maxCollectionCount
        var total = 0
        for member in members {
            guard member.count <= limit - total else {
                throw KeyedArchiveError(
                    .invalidObject(
                        className: className(of: uid),
                        detail: "its counts add up to more than \(limit) elements, the limit 'maxCollectionCount' sets"),
                    objectID: uid)
            }
            total += member.count
        }
        return ElementReferences(counted: members)
    }

    public mutating func decodeDictionary<T>(_ value: (inout KeyedArchiveReader) throws -> T) throws -> [String: T] {
        guard let uid = object(), let kind = state.foundationKind(of: uid), kind.isDictionary else {
            throw mismatch("a dictionary")
        }
        let (keyReferences, valueReferences) = try dictionaryReferences(of: uid)
        return try insideCollection(uid) { reader in
            var result: [String: T] = [:]
            result.reserveCapacity(keyReferences.count)
            for (keyReference, valueReference) in zip(keyReferences, valueReferences) {
                reader.position = keyReference
                let key: String
                do {
                    key = try reader.decodeString()
                } catch let error as ModelError {
                    throw ModelError(
                        .typeMismatch, expected: "a dictionary with string keys", found: error.found,
                        path: error.path)
                }
                reader.position = valueReference
                if let decoded = try reader.decodeMember(key, value) { result[key] = decoded }
            }
            return result
        }
    }

    /// The key and value references of a dictionary object, checked to pair up.
    func dictionaryReferences(of uid: Int) throws -> ([PropertyListValue], [PropertyListValue]) {
        switch FoundationCollections.entries(of: ArchivedObjectMembers(document: state.document, uid: uid)) {
        case .success(let entries): return (entries.keys, entries.values)
        case .failure(let malformed):
            throw KeyedArchiveError(.invalidObject(className: className(of: uid), detail: malformed.detail), objectID: uid)
        }
    }
}

// The key-tree walk's access: an object's keys (a model's or a dictionary's), and an array's
// elements.
extension KeyedArchiveReader {
    public mutating func peekShape() throws -> ModelValueShape {
        switch resolved() {
        case .null: return .null
        case .value: return .scalar
        case .classDescription: return .scalar
        case .object(let archivedClass):
            switch FoundationClass(chain: archivedClass.chain) {
            case .null?: return .null
            case let kind? where kind.isArray || kind.isSet || kind.isOrderedSet: return .array
            case let kind? where kind.isDictionary: return .object
            case nil: return .object
            default: return .scalar
            }
        }
    }

    /// An archive's objects hold the keys their classes write (with `$class` and versions beside
    /// the properties), so unknown keys are not reported.
    public mutating func readMembers(
        of node: ModelKeyNode, expected: @autoclosure () -> String, reportingUnknownKeys: Bool,
        _ member: (inout KeyedArchiveReader, Int) throws -> Void, unknown: (inout KeyedArchiveReader, String) throws -> Void
    ) throws {
        guard let uid = object() else { throw mismatch(expected()) }
        if let (owner, info) = fieldsOf, owner == uid {
            fieldsOf = nil
            return try readModelMembers(uid: uid, info: info, member)
        }
        if let kind = state.foundationKind(of: uid), kind.isDictionary {
            let (keyReferences, valueReferences) = try dictionaryReferences(of: uid)
            try insideCollection(uid) { reader in
                for (keyReference, valueReference) in zip(keyReferences, valueReferences) {
                    reader.position = keyReference
                    guard let edge = node.edgeIndex(forKey: try reader.decodeString()) else { continue }
                    reader.position = valueReference
                    try member(&reader, edge)
                }
            }
            return
        }
        let keys = state.dictionary(of: uid)
        try insideCollection(uid) { reader in
            for (key, value) in zip(keys.keys, keys.values) {
                guard let edge = node.edgeIndex(forKey: key) else { continue }
                reader.position = value
                try member(&reader, edge)
            }
        }
    }

    public mutating func readIndexedElements(
        of node: ModelKeyNode, _ element: (inout KeyedArchiveReader, Int) throws -> Void
    ) throws -> Int {
        guard let uid = object(), let kind = state.foundationKind(of: uid),
              kind.isArray || kind.isSet || kind.isOrderedSet
        else { throw mismatch("an array") }
        let references = try elementReferences(of: uid, kind: kind)
        try insideCollection(uid) { reader in
            for (index, reference) in references.enumerated() {
                guard let edge = node.edgeByIndex[index] else { continue }
                reader.position = reference
                try element(&reader, edge)
            }
        }
        return references.count
    }
}

/// The element references of a collection object: its array of references read in place,
/// listed (an ordered set's, gathered from its keys), or a counted set's bag, each member as
/// often as it is counted (not expanded in memory).
struct ElementReferences: RandomAccessCollection {
    private enum Storage {
        case inPlace(BinaryPropertyListTable.Container, BinaryPropertyListTable)
        case listed([PropertyListValue])
        /// Members, and the bag position just past each member's last copy.
        case counted([PropertyListValue], ends: [Int])
    }

    private let storage: Storage

    init(inPlace elements: BinaryPropertyListTable.Container, of table: BinaryPropertyListTable) {
        storage = .inPlace(elements, table)
    }

    init(_ elements: [PropertyListValue]) {
        storage = .listed(elements)
    }

    /// The bag of `members`.
    init(counted members: [FoundationCollections.CountedMember]) {
        var ends: [Int] = []
        ends.reserveCapacity(members.count)
        var end = 0
        for member in members {
            end += member.count
            ends.append(end)
        }
        storage = .counted(members.map(\.reference), ends: ends)
    }

    var startIndex: Int { 0 }

    var endIndex: Int {
        switch storage {
        case .inPlace(let elements, _): return elements.count
        case .listed(let elements): return elements.count
        case .counted(_, let ends): return ends.last ?? 0
        }
    }

    subscript(index: Int) -> PropertyListValue {
        switch storage {
        case let .inPlace(elements, table): return table.value(at: index, of: elements)
        case .listed(let elements): return elements[index]
        case let .counted(members, ends):
            // The first member whose copies end past `index`.
            var low = 0
            var high = ends.count - 1
            while low < high {
                let middle = (low + high) / 2
                if ends[middle] > index { high = middle } else { low = middle + 1 }
            }
            return members[low]
        }
    }
}
