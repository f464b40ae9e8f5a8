import Foundation
import ModelKitCore
import ModelKitPropertyList

// Writing values whose type is only known at run time (`encodeObject(_:forKey:)`, delegate
// replacements, `Codable` values through their JSON form): Swift values, models, archivable
// types, generic objects, and Foundation objects. Foundation class instances keep their
// identity, as they do in Apple's archiver: one `NSString` instance referenced twice is one
// object, two equal `NSString` instances are two. `NSNumber`s are written by value, as
// Apple's tagged numbers are.

extension KeyedArchiveWriter {
    /// Writes any supported value; throws ``KeyedArchiveError/Kind/unencodable(detail:)`` for others.
    mutating func encodeAny(_ value: Any?) throws {
        guard let value = value.flatMap(unwrappedOptional) else {
            try encodeNil()
            return
        }
        if type(of: value) is AnyClass {
            if let model = value as? any Model {
                try encodeModel(model)
            } else if let archivable = value as? any KeyedArchivable {
                try encodeArchivable(archivable)
            } else {
                try encodeObjectInstance(value as AnyObject)
            }
            return
        }
        if let number = FoundationNumber(value) {
            try encodeNumber(number)
            return
        }
        switch value {
        case let string as String: try encodeString(string)
        case let data as Data: try encodeData(data)
        case let date as Date: try encodeDate(date)
        case let url as URL: try encodeURL(url)
        case let uuid as UUID: try encodeUUID(uuid)
        case let decimal as Decimal: try encodeDecimal(decimal)
        case let json as JSONValue: try encodeJSONValue(json)
        case let model as any Model: try encodeModel(model)
        case let archivable as any KeyedArchivable: try encodeArchivable(archivable)
        case let dictionary as [String: Any]:
            let keys = dictionary.keys.sorted()
            try writeDictionary(keys: keys, values: keys.map { dictionary[$0] as Any }) { writer, member in
                try writer.encodeAny(member)
            }
        case let array as [Any]:
            try encodeArray(array) { writer, element in try writer.encodeAny(element) }
        case let set as Set<AnyHashable>:
            try writeCollection(Array(set), as: .nsSet)
        case let counted as ArchivedCountedSet:
            try writeCountedSet(counted.counts.map { ($0.key.base, $0.value) })
        case let dictionary as [AnyHashable: Any]:
            try writeObjectDictionary(keys: Array(dictionary.keys), values: Array(dictionary.values), as: .nsDictionary)
        default:
            throw KeyedArchiveError(
                .unencodable(detail: "a value of type '\(type(of: value))' cannot be archived"), isEncoding: true)
        }
    }

    /// Writes a number as Foundation holds it (a boolean stays a boolean).
    private mutating func encodeNumber(_ number: FoundationNumber) throws {
        switch number {
        case .bool(let flag): try encodeBool(flag)
        case .int(let integer): try encodeInt64(integer)
        case .uint(let integer): try encodeUInt64(integer)
        case .double(let real): try encodeDouble(real)
        case .decimal(let decimal): try encodeDecimal(decimal)
        }
    }

    /// Writes a class instance that is not a model: a generic object or a Foundation object.
    private mutating func encodeObjectInstance(_ object: AnyObject) throws {
        var object = object
        if let generic = object as? ArchivedObject, generic.isWeakReference {
            // A weak reference writes the object it stands for, or null once that is gone.
            guard let owner = generic.resolved else { return try encodeNil() }
            object = owner
        }
        if object is NSNull {
            result = .reference(state.nullObjectSlot())
            return
        }
        if let number = object as? NSDecimalNumber {
            try encodeDecimal(number.decimalValue)
            return
        }
        if let number = object as? NSNumber, let classified = FoundationNumber(number: number) {
            try encodeNumber(classified)
            return
        }
        if state.hasDelegate, try substitute(object, isObject: true) { return }
        if let existing = state.slot(of: object) {
            if !isConditional && state.slotState(existing) == .conditional {
                state.promote(existing)
                try writeObjectBody(object, slot: existing)
            }
            result = .reference(existing)
            return
        }
        if isConditional {
            result = .reference(state.assignSlot(to: object, .conditional))
            return
        }
        guard Self.isSupportedObject(object) else {
            throw KeyedArchiveError(
                .unencodable(detail: "an instance of class '\(type(of: object))' cannot be archived"), isEncoding: true)
        }
        let slot = state.assignSlot(to: object)
        try writeObjectBody(object, slot: slot)
        result = .reference(slot)
    }

    static func isSupportedObject(_ object: AnyObject) -> Bool {
        object is ArchivedObject || object is NSString || object is NSData || object is NSDate || object is NSUUID
            || object is NSURL || object is NSArray || object is NSDictionary || object is NSSet || object is NSOrderedSet
    }

    /// Writes the entry of a Foundation or generic object into its slot.
    private mutating func writeObjectBody(_ object: AnyObject, slot: Int) throws {
        var body = self
        body.isConditional = false
        switch object {
        case let generic as ArchivedObject:
            var keys: [String] = []
            var values: [PropertyListValue] = []
            for key in generic.keys {
                var writer = KeyedArchiveWriter(state: state, inline: true, depth: depth + 1)
                try writer.encodeAny(generic[key])
                keys.append(KeyedArchiver.escapeKey(key))
                values.append(writer.result.propertyListValue)
            }
            state.setEntry(
                state.objectEntry(keys: keys, values: values, classSlot: state.classSlot(generic.archivedClass)), at: slot)
        case let string as NSMutableString:
            let text = PropertyListValue.uid(UInt64(state.stringSlot(string as String)))
            state.setEntry(
                state.objectEntry(keys: ["NS.string"], values: [text], classSlot: state.classSlot(.nsMutableString)), at: slot)
        case let string as NSString:
            state.setEntry(.string(string as String), at: slot)
        case let data as NSMutableData:
            state.setEntry(
                state.objectEntry(keys: ["NS.data"], values: [.data(data as Data)], classSlot: state.classSlot(.nsMutableData)),
                at: slot)
        case let data as NSData:
            state.setEntry(.data(data as Data), at: slot)
        case let date as NSDate:
            writeDate(date as Date, into: slot)
        case let uuid as NSUUID:
            state.setEntry(uuidEntry(uuid as UUID), at: slot)
        case let url as NSURL:
            try body.writeURL(url as URL, into: slot)
        case let array as NSArray:
            try body.writeCollection(array.map { $0 }, as: object is NSMutableArray ? .nsMutableArray : .nsArray, into: slot)
        case let counted as NSCountedSet:
            try body.writeCountedSet(counted.allObjects.map { ($0, counted.count(for: $0)) }, into: slot)
        case let set as NSSet:
            try body.writeCollection(set.allObjects, as: object is NSMutableSet ? .nsMutableSet : .nsSet, into: slot)
        case let dictionary as NSDictionary:
            let keys = dictionary.allKeys
            try body.writeObjectDictionary(
                keys: keys, values: keys.map { dictionary.object(forKey: $0) as Any },
                as: object is NSMutableDictionary ? .nsMutableDictionary : .nsDictionary, into: slot)
        case let ordered as NSOrderedSet:
            try body.writeOrderedSet(
                ordered.array, as: object is NSMutableOrderedSet ? .nsMutableOrderedSet : .nsOrderedSet, into: slot)
        default:
            break
        }
    }

    /// Writes an `NSURL` object into `slot`: the base URL (or `$null`), then the relative string.
    mutating func writeURL(_ url: URL, into slot: Int) throws {
        var base = PropertyListValue.uid(0)
        if let baseURL = url.baseURL {
            var writer = elementWriter()
            try writer.encodeURL(baseURL)
            base = writer.result.propertyListValue
        }
        let relative = PropertyListValue.uid(UInt64(state.stringSlot(url.relativeString)))
        state.setEntry(
            state.objectEntry(sharedKeys: ArchiveEncodingState.urlKeys, classSlot: state.classSlot(.nsURL), base, relative),
            at: slot)
    }

    /// Writes an array or set of objects (`NS.objects`), in a new slot or in `slot`.
    mutating func writeCollection(_ elements: [Any], as archivedClass: ArchivedClass, into slot: Int? = nil) throws {
        let slot = slot ?? state.reserveSlot()
        var references: [PropertyListValue] = []
        references.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            references.append(try elementReference(element, at: index))
        }
        state.setEntry(
            state.objectEntry(keys: ["NS.objects"], values: [.array(references)], classSlot: state.classSlot(archivedClass)),
            at: slot)
        result = .reference(slot)
    }

    /// Writes an ordered set (`NS.object.0`, `NS.object.1`, ...) into `slot`.
    private mutating func writeOrderedSet(_ elements: [Any], as archivedClass: ArchivedClass, into slot: Int) throws {
        var keys: [String] = []
        var references: [PropertyListValue] = []
        for (index, element) in elements.enumerated() {
            keys.append("NS.object.\(index)")
            references.append(try elementReference(element, at: index))
        }
        state.setEntry(state.objectEntry(keys: keys, values: references, classSlot: state.classSlot(archivedClass)), at: slot)
        result = .reference(slot)
    }

    /// The reference to one element of a collection being written; its errors name its index.
    private func elementReference(_ element: Any, at index: Int) throws -> PropertyListValue {
        var writer = elementWriter()
        try prefixingErrors(with: .index(index)) { try writer.encodeAny(element) }
        return writer.result.propertyListValue
    }

    /// Writes a counted set's members and their counts (`NS.count`, then `NS.object<i>` and
    /// `NS.count<i>`), in a new slot or in `slot`.
    private mutating func writeCountedSet(_ members: [(member: Any, count: Int)], into slot: Int? = nil) throws {
        let slot = slot ?? state.reserveSlot()
        var keys = ["NS.count"]
        var values = [PropertyListValue.integer(PropertyListInteger(Int64(members.count)))]
        for (index, (member, count)) in members.enumerated() {
            keys += ["NS.object\(index)", "NS.count\(index)"]
            values += [try elementReference(member, at: index), .integer(PropertyListInteger(Int64(count)))]
        }
        state.setEntry(state.objectEntry(keys: keys, values: values, classSlot: state.classSlot(.nsCountedSet)), at: slot)
        result = .reference(slot)
    }

    /// Writes a dictionary with keys of any archivable type: all keys, then all values.
    mutating func writeObjectDictionary(keys: [Any], values: [Any], as archivedClass: ArchivedClass, into slot: Int? = nil)
        throws
    {
        let slot = slot ?? state.reserveSlot()
        var keyReferences: [PropertyListValue] = []
        var valueReferences: [PropertyListValue] = []
        for key in keys {
            var writer = elementWriter()
            try writer.encodeAny(key)
            keyReferences.append(writer.result.propertyListValue)
        }
        for value in values {
            var writer = elementWriter()
            try writer.encodeAny(value)
            valueReferences.append(writer.result.propertyListValue)
        }
        state.setEntry(
            state.objectEntry(
                keys: ["NS.keys", "NS.objects"], values: [.array(keyReferences), .array(valueReferences)],
                classSlot: state.classSlot(archivedClass)),
            at: slot)
        result = .reference(slot)
    }
}
