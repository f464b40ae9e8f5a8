import Foundation
import ModelKitCore
import ModelKitPropertyList

// Reading values without a declared type: what `decodeObject(forKey:)`, preserved values and
// migration hooks see. Foundation objects become Swift values (`[Any]`, `[String: Any]`,
// `Set<AnyHashable>`, `ArchivedCountedSet`, `String`, `Int`, `Double`, `Bool`, `Data`, `Date`,
// `URL`, `UUID`, `Decimal`, `NSNull` for null inside collections), registered classes their
// types, and any other class an `ArchivedObject`. Nothing is created from a class name except
// through the registry, and no decoded value is handed to Foundation's hashing (whose
// `NSObject` equality and hashing disagree on Linux for some values; see `hashableValue`).

extension KeyedArchiveReader {
    /// Reads the value at the reader's position without a declared type; null is `NSNull()`.
    mutating func decodeAnyValue() throws -> Any {
        guard let uid = referencedEntry else { return try inlineValue(position) }
        if uid == 0 { return NSNull() }
        if let instance = state.instances[uid] {
            guard let object = instance as? ArchivedObject else { return instance }
            // Not the reference that created it: a weak one, so that cycles do not leak.
            state.genericObjectsReturned += 1
            return object.weakReference
        }
        if let cached = state.genericCache[uid] { return cached }
        switch state.document.entry(uid) {
        case .null:
            return NSNull()
        case .value(let value):
            return try inlineValue(value)
        case .classDescription(let archivedClass):
            throw KeyedArchiveError(.notAnObject(found: "the class description of '\(archivedClass.name)'"), objectID: uid)
        case .object(let archivedClass, let keys):
            for name in archivedClass.chain {
                if let entry = state.registry.entry(named: name) { return try entry.decode(&self) }
                if let kind = FoundationClass(rawValue: name) {
                    let objectsBefore = state.genericObjectsReturned
                    let value = try decodeFoundationObject(kind, uid: uid, archivedClass: archivedClass, keys: keys)
                    if state.genericObjectsReturned == objectsBefore {
                        state.genericCache[uid] = value
                    } else if kind.isCollection {
                        // Only this first use holds the generic objects inside strongly. Later
                        // uses get a second reading, in which every object it holds (and every
                        // collection, cached the same way) is a weak reference.
                        state.genericCache[uid] = try decodeFoundationObject(kind, uid: uid, archivedClass: archivedClass, keys: keys)
                    }
                    return value
                }
            }
            return try decodeGenericObject(uid: uid, archivedClass: archivedClass, keys: keys)
        }
    }

    /// A plain property-list value as a Swift value; arrays and dictionaries hold references or
    /// inline values, read the same way.
    private mutating func inlineValue(_ value: PropertyListValue) throws -> Any {
        switch value {
        case .string(let string): return string
        case .integer(let integer):
            if let signed = integer.int64Value { return Int(truncatingIfNeeded: signed) }
            return integer.uint64Value ?? 0
        case .real(let real): return real.doubleValue
        case .bool(let flag): return flag
        case .date(let date): return date
        case .data(let data): return data
        case .null: return NSNull()
        case .uid:
            try checkDepth()
            return try nested(value) { reader in try reader.deeper { try $0.decodeAnyValue() } }
        case .array(let elements):
            try checkDepth()
            var result: [Any] = []
            result.reserveCapacity(elements.count)
            for element in elements {
                result.append(try nested(element) { reader in try reader.deeper { try $0.decodeAnyValue() } })
            }
            return result
        case .dictionary(let dictionary):
            try checkDepth()
            var result: [String: Any] = [:]
            for (key, member) in dictionary {
                result[key] = try nested(member) { reader in try reader.deeper { try $0.decodeAnyValue() } }
            }
            return result
        }
    }

    private func checkDepth() throws {
        guard depth < state.limits.maxDepth else {
            throw KeyedArchiveError(.limitExceeded(.maxDepth, limit: state.limits.maxDepth))
        }
    }

    private mutating func deeper<T>(_ body: (inout KeyedArchiveReader) throws -> T) throws -> T {
        depth += 1
        defer { depth -= 1 }
        return try body(&self)
    }

    /// A Foundation object as its Swift value.
    private mutating func decodeFoundationObject(
        _ kind: FoundationClass, uid: Int, archivedClass: ArchivedClass, keys: PropertyListDictionary
    ) throws -> Any {
        switch kind {
        case .string, .mutableString: return try decodeString()
        case .data, .mutableData: return try decodeData()
        case .date: return try decodeDate()
        case .url: return try decodeURL()
        case .uuid: return try decodeUUID()
        case .decimalNumber: return try decodeDecimal()
        case .null: return NSNull()
        case .number: return try decodeGenericObject(uid: uid, archivedClass: archivedClass, keys: keys)
        case .countedSet:
            return try decodeCountedSet(uid: uid, archivedClass: archivedClass)
        case .array, .mutableArray, .orderedSet, .mutableOrderedSet, .set, .mutableSet:
            let references = try elementReferences(of: uid, kind: kind)
            let elements = try decodeAnyElements(references, uid: uid, what: archivedClass.name)
            guard kind.isSet else { return elements }
            var set = Set<AnyHashable>()
            for element in elements {
                set.insert(try hashableElement(element, uid: uid, archivedClass: archivedClass))
            }
            return set
        case .dictionary, .mutableDictionary:
            let (keyReferences, valueReferences) = try dictionaryReferences(of: uid)
            let decodedKeys = try decodeAnyElements(keyReferences, uid: uid, what: archivedClass.name)
            let decodedValues = try decodeAnyElements(valueReferences, uid: uid, what: archivedClass.name)
            if decodedKeys.allSatisfy({ type(of: $0) == String.self }) {
                var result: [String: Any] = [:]
                for (key, value) in zip(decodedKeys, decodedValues) {
                    if let key = key as? String { result[key] = value }
                }
                return result
            }
            var result: [AnyHashable: Any] = [:]
            for (key, value) in zip(decodedKeys, decodedValues) {
                result[try hashableElement(key, role: "a key", uid: uid, archivedClass: archivedClass)] = value
            }
            return result
        }
    }

    /// A counted set's members, each read once, with their counts: a Swift value, never
    /// Foundation's `NSCountedSet` (see ``ArchivedCountedSet``). Members that are equal count
    /// together, as `NSCountedSet` counts them.
    private mutating func decodeCountedSet(uid: Int, archivedClass: ArchivedClass) throws -> ArchivedCountedSet {
        let counted: [FoundationCollections.CountedMember]
        switch FoundationCollections.countedMembers(of: ArchivedObjectMembers(document: state.document, uid: uid)) {
        case .success(let members): counted = members
        case .failure(let malformed):
            throw KeyedArchiveError(.invalidObject(className: archivedClass.name, detail: malformed.detail), objectID: uid)
        }
        let members = try decodeAnyElements(counted.lazy.map(\.reference), uid: uid, what: archivedClass.name)
        var result = ArchivedCountedSet()
        for (member, entry) in zip(members, counted) {
            result.add(try hashableElement(member, role: "a member", uid: uid, archivedClass: archivedClass), times: entry.count)
        }
        return result
    }

    /// An element of a set or a key of a dictionary as `AnyHashable`, or a typed error naming
    /// the collection when it cannot be one (see ``hashableValue(_:)``).
    private func hashableElement(
        _ value: Any, role: String = "an element", uid: Int, archivedClass: ArchivedClass
    ) throws -> AnyHashable {
        guard let hashable = hashableValue(value) else {
            throw KeyedArchiveError(
                .invalidObject(className: archivedClass.name, detail: "\(role) of type '\(type(of: value))' is not hashable"),
                objectID: uid)
        }
        return hashable
    }

    /// Reads the objects a collection refers to, one level down.
    private mutating func decodeAnyElements<References: RandomAccessCollection<PropertyListValue>>(
        _ references: References, uid: Int, what: String
    ) throws -> [Any] {
        try enter(uid, what: "an '\(what)'")
        defer { leave(uid) }
        var result: [Any] = []
        result.reserveCapacity(references.count)
        for (index, reference) in references.enumerated() {
            result.append(try prefixingErrors(with: .index(index)) { try nested(reference) { try $0.decodeAnyValue() } })
        }
        return result
    }

    /// An object of an unknown class, shared like the original: registered before its values are
    /// read, so references back to it (cycles) read as weak references to the same object.
    private mutating func decodeGenericObject(uid: Int, archivedClass: ArchivedClass, keys: PropertyListDictionary) throws
        -> Any
    {
        guard state.unarchiver?.decodesUnknownClasses ?? true else {
            throw KeyedArchiveError(.classNotAllowed(found: archivedClass.name, allowed: state.registry.classNames), objectID: uid)
        }
        try enter(uid, what: "'\(archivedClass.name)'")
        let object = ArchivedObject(archivedClass: archivedClass)
        state.genericObjectsReturned += 1
        state.instances[uid] = object
        state.status[uid] = .done
        defer { depth -= 1 }
        for (key, value) in keys where key != "$class" {
            let name = KeyedArchiver.unescapeKey(key)
            if case .uid(let reference) = value, reference > 0 {
                let target = Int(truncatingIfNeeded: reference)
                if depth >= ArchiveDecodingState.deferralDepth, state.instances[target] == nil,
                   state.archivedClass(of: target) != nil
                {
                    object.set(nil, forKey: name)
                    state.fixups.append(.generic(object, key: name, target: target))
                    continue
                }
            }
            do {
                let decoded = try nested(value) { try $0.decodeAnyValue() }
                object.set(value == .uid(0) ? nil : decoded, forKey: name)
            } catch let error as ModelError {
                throw error.prefixed(by: .key(name))
            } catch let error as KeyedArchiveError {
                throw error.inContext(model: archivedClass.name, key: name, objectID: uid)
            }
        }
        if let replacement: Any = try substitute(object as Any, uid: uid) {
            if type(of: replacement) is AnyClass { state.instances[uid] = replacement as AnyObject }
            return replacement
        }
        return object
    }
}

// Casts of values in `Any` to class types (`is NSNull`, `as? AnyHashable`) make Foundation
// bridge a Swift array or dictionary to its NSObject counterpart, element by element: on values
// that share nested collections that work can grow exponentially. These checks look at the
// dynamic type first, so they never bridge.

/// Whether a decoded value is `NSNull`.
func isNSNull(_ value: Any) -> Bool {
    type(of: value) is NSNull.Type
}

/// The value as `AnyHashable` when its type is `Hashable`, without bridging: decoded values are
/// hashed as Swift hashes them, never through `NSObject`'s `hash` and `isEqual(_:)`, which
/// swift-corelibs-foundation lets disagree (an `NSString` of composed and one of decomposed
/// accents are equal with different hashes; an `NSDecimalNumber`'s hash recurses until the stack
/// ends), and the standard library stops the process when equal members hash apart.
///
/// Not `NSNull`: swift-corelibs-foundation gives the one `NSNull` a different `hash` at each
/// call, so two null keys would break a dictionary. A null key or set element is reported as not
/// hashable instead.
func hashableValue(_ value: Any) -> AnyHashable? {
    if isNSNull(value) { return nil }
    guard let type = type(of: value) as? any Hashable.Type else { return nil }
    return hashable(value, as: type)
}

private func hashable<H: Hashable>(_ value: Any, as type: H.Type) -> AnyHashable? {
    guard let typed = value as? H else { return nil }
    return AnyHashable(typed)
}
