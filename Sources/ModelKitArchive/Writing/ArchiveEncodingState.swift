import Foundation
import ModelKitCore
import ModelKitPropertyList

/// The state of one archiving run, shared by every writer and object encoder of a
/// ``KeyedArchiver``: the `$objects` being built, the slots of objects already written (by
/// identity for class instances, by value for strings, numbers and data), class descriptions,
/// conditional references and objects whose encoding was deferred.
///
/// A slot is an entry of `$objects`; its index is the object's UID unless conditional-only slots
/// are dropped when the archive is finished.
final class ArchiveEncodingState {
    /// What a slot holds.
    enum SlotState: UInt8 {
        /// Written (or being written).
        case written
        /// Only referenced conditionally so far: dropped, and its references nil, unless something
        /// writes the object unconditionally.
        case conditional
    }

    /// An object whose body is written later, to keep recursion shallow.
    struct Pending {
        let slot: Int
        let write: (ArchiveEncodingState) throws -> Void
    }

    var entries: [PropertyListValue] = [.string("$null")]
    var slotStates: [SlotState] = [.written]
    var conditionalCount = 0
    /// Slots of class instances, by identity; `retained` keeps the instances alive so that an
    /// identifier is never reused during the run.
    var objectSlots: [ObjectIdentifier: Int] = [:]
    var retained: [AnyObject] = []
    /// Strings, numbers and data written once per distinct value (exactly: strings by bytes,
    /// reals by bit pattern); the table keeps hashes, so growing it never hashes again.
    var plainSlots = ScalarTable()
    var trueSlot = 0
    var falseSlot = 0
    var nullSlot = 0
    /// Class descriptions by class name (a name is written with the first chain it comes with).
    var classSlots: [String: Int] = [:]
    var pending: [Pending] = []
    var modelInfo: [ObjectIdentifier: ModelWriteInfo] = [:]
    /// Replacements a delegate chose, by the identity of the replaced instance.
    var replacements: [ObjectIdentifier: Any] = [:]

    let options: MappingOptions
    var registry: ArchiveClassRegistry
    weak var archiver: KeyedArchiver?

    /// Objects nested deeper than this are written later, from the top, so that a long chain
    /// of objects never deepens the stack.
    static let deferralDepth = 48

    init(options: MappingOptions, registry: ArchiveClassRegistry) {
        self.options = options
        self.registry = registry
    }

    // MARK: Slots

    /// Reserves the next slot for an object about to be written.
    func reserveSlot(_ state: SlotState = .written) -> Int {
        entries.append(.null)
        slotStates.append(state)
        if state == .conditional { conditionalCount += 1 }
        return entries.count - 1
    }

    /// Marks a conditional slot as written.
    func promote(_ slot: Int) {
        guard slotStates[slot] == .conditional else { return }
        slotStates[slot] = .written
        conditionalCount -= 1
    }

    /// Appends a plain value (string, number, data) and returns its slot.
    private func appendPlain(_ value: PropertyListValue) -> Int {
        entries.append(value)
        slotStates.append(.written)
        return entries.count - 1
    }

    func stringSlot(_ string: String) -> Int {
        plainSlot(.string(ExactStringKey(string)), .string(string))
    }

    func integerSlot(_ integer: PropertyListInteger) -> Int {
        plainSlot(.integer(integer), .integer(integer))
    }

    func realSlot(_ real: PropertyListReal) -> Int {
        plainSlot(.real(real), .real(real))
    }

    /// The slot of a plain value, appended the first time it is seen.
    private func plainSlot(_ key: ScalarKey, _ value: PropertyListValue) -> Int {
        let next = entries.count
        let slot = plainSlots.findOrInsert(key, object: next)
        if slot == next {
            entries.append(value)
            slotStates.append(.written)
        }
        return slot
    }

    func boolSlot(_ flag: Bool) -> Int {
        if flag {
            if trueSlot == 0 { trueSlot = appendPlain(.bool(true)) }
            return trueSlot
        }
        if falseSlot == 0 { falseSlot = appendPlain(.bool(false)) }
        return falseSlot
    }

    func dataSlot(_ data: Data) -> Int {
        plainSlot(.data(data), .data(data))
    }

    /// The slot of the one `NSNull` object, which stands for nil inside collections.
    func nullObjectSlot() -> Int {
        if nullSlot == 0 {
            let slot = reserveSlot()
            entries[slot] = objectEntry(keys: [], values: [], classSlot: classSlot(.nsNull))
            nullSlot = slot
        }
        return nullSlot
    }

    /// The slot of a class description, written once per class.
    func classSlot(_ archivedClass: ArchivedClass) -> Int {
        if let slot = classSlots[archivedClass.name] { return slot }
        let chain = PropertyListValue.array(archivedClass.chain.map { .string($0) })
        let slot = appendPlain(
            .dictionary(PropertyListDictionary(uniqueKeys: ["$classes", "$classname"], values: [chain, .string(archivedClass.name)])))
        classSlots[archivedClass.name] = slot
        return slot
    }

    /// An object entry whose keys (`$class` first) are shared by every object of its kind.
    func objectEntry(sharedKeys keys: [String], classSlot: Int, _ values: PropertyListValue...) -> PropertyListValue {
        var allValues: [PropertyListValue] = [.uid(UInt64(classSlot))]
        allValues.reserveCapacity(keys.count)
        allValues.append(contentsOf: values)
        return .dictionary(PropertyListDictionary(uniqueKeys: keys, values: allValues))
    }

    static let timeKeys = ["$class", "NS.time"]
    static let uuidKeys = ["$class", "NS.uuidbytes"]
    static let urlKeys = ["$class", "NS.base", "NS.relative"]
    static let objectsKeys = ["$class", "NS.objects"]
    static let dictionaryKeys = ["$class", "NS.keys", "NS.objects"]

    /// An object entry: `$class` first, then the keyed values.
    func objectEntry(keys: [String], values: [PropertyListValue], classSlot: Int) -> PropertyListValue {
        var allKeys = ["$class"]
        allKeys.reserveCapacity(keys.count + 1)
        allKeys.append(contentsOf: keys)
        var allValues: [PropertyListValue] = [.uid(UInt64(classSlot))]
        allValues.reserveCapacity(values.count + 1)
        allValues.append(contentsOf: values)
        return .dictionary(PropertyListDictionary(uniqueKeys: allKeys, values: allValues))
    }

    /// The slot already given to a class instance, if any.
    func slot(of object: AnyObject) -> Int? {
        objectSlots[ObjectIdentifier(object)]
    }

    /// Gives a class instance a new slot.
    func assignSlot(to object: AnyObject, _ state: SlotState = .written) -> Int {
        let slot = reserveSlot(state)
        objectSlots[ObjectIdentifier(object)] = slot
        retained.append(object)
        return slot
    }

    // MARK: Finishing

    /// Writes deferred objects until none is left.
    func drainPending() throws {
        var index = 0
        while index < pending.count {
            let next = pending[index]
            index += 1
            try next.write(self)
            if index > 4_096 && index * 2 > pending.count {
                pending.removeFirst(index)
                index = 0
            }
        }
        pending.removeAll()
    }

    /// The finished `$objects` and `$top`: deferred objects written, conditional-only slots
    /// dropped and their references made `$null`.
    func finishedObjects(top: PropertyListDictionary) throws -> (objects: [PropertyListValue], top: PropertyListDictionary) {
        try drainPending()
        guard conditionalCount > 0 else { return (entries, top) }
        var map = [UInt64](repeating: 0, count: entries.count)
        var kept: [PropertyListValue] = []
        kept.reserveCapacity(entries.count - conditionalCount)
        for slot in entries.indices where slotStates[slot] == .written {
            map[slot] = UInt64(kept.count)
            kept.append(entries[slot])
        }
        return (
            kept.map { Self.remap($0, map) },
            PropertyListDictionary(uniqueKeys: top.keys, values: top.values.map { Self.remap($0, map) })
        )
    }

    /// The archive's root dictionary over finished objects.
    static func propertyList(objects: [PropertyListValue], top: PropertyListDictionary) -> PropertyListValue {
        .dictionary(
            PropertyListDictionary(
                uniqueKeys: ["$archiver", "$objects", "$top", "$version"],
                values: [
                    .string(KeyedArchiveDocument.archiverName), .array(objects), .dictionary(top),
                    .integer(PropertyListInteger(KeyedArchiveDocument.formatVersion)),
                ]))
    }

    /// Rewrites the references in an entry (objects hold references one or two levels deep).
    private static func remap(_ value: PropertyListValue, _ map: [UInt64]) -> PropertyListValue {
        switch value {
        case .uid(let slot):
            return .uid(slot < UInt64(map.count) ? map[Int(slot)] : 0)
        case .array(let elements):
            return .array(elements.map { remap($0, map) })
        case .dictionary(let dictionary):
            return .dictionary(PropertyListDictionary(uniqueKeys: dictionary.keys, values: dictionary.values.map { remap($0, map) }))
        default:
            return value
        }
    }
}

/// What the archiver needs to know about a model type, computed once per schema.
final class ModelWriteInfo {
    /// One archived property.
    struct Field {
        let index: Int
        let name: String
        let conditional: Bool
    }

    let fields: [Field]
    let archivedClass: ArchivedClass
    let version: Int
    /// The keys of every object of the type: `$class`, the archived properties, the version.
    let keys: [String]
    /// The inline model version.
    let versionValue: PropertyListValue
    /// The slot of the class description, once written.
    var classSlot = 0

    init(schema: ModelSchema, registry: ArchiveClassRegistry) {
        var fields: [Field] = []
        for (index, property) in schema.properties.enumerated()
        where !property.isTransient && property.archiveBehavior != .excluded {
            fields.append(Field(index: index, name: property.name, conditional: property.archiveBehavior == .conditional))
        }
        self.fields = fields
        var chain: [String] = []
        var current: ModelSchema? = schema
        while let next = current {
            chain.append(registry.archivedName(for: next.modelType) ?? next.modelName)
            current = next.superschema
        }
        chain.append("NSObject")
        self.archivedClass = ArchivedClass(name: chain[0], chain: chain)
        self.version = schema.version
        self.keys = ["$class"] + fields.map(\.name) + [KeyedArchiver.modelVersionKey]
        self.versionValue = .integer(PropertyListInteger(schema.version))
    }
}
