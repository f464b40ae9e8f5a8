import Foundation
import ModelKitCore
import ModelKitPropertyList

/// The state of one archiving run, shared by every writer and object encoder of a
/// ``KeyedArchiver``: the archive's bytes being written (``ArchiveBinaryBuilder``), the slots
/// of objects already written (by identity for class instances, by value for strings, numbers
/// and data), class descriptions, conditional references and objects whose encoding was
/// deferred.
///
/// A slot is an entry of `$objects`; its index is the object's UID unless conditional-only slots
/// are dropped when the archive is finished.
final class ArchiveEncodingState {
    typealias SlotState = ArchiveBinaryBuilder.SlotState

    /// An object whose body is written later, to keep recursion shallow.
    struct Pending {
        let slot: Int
        let write: (ArchiveEncodingState) throws -> Void
    }

    /// The archive being written. Behind a pointer: the writers reach it through this state on
    /// every value, and a class's stored property would pay a dynamic exclusivity check on each.
    // Unsafe: one builder (never copied: `~Copyable`), initialized in `init`, deinitialized and freed in `deinit`;
    // every writer and pending body holds this state, so no `output.pointee`, here or in the writers, outlives it.
    let output: UnsafeMutablePointer<ArchiveBinaryBuilder>
    /// Slots of class instances, by identity; `retained` keeps the instances alive so that an
    /// identifier is never reused during the run.
    ///
    /// The state's mutable properties skip the dynamic exclusivity check (tens of instructions
    /// per access, several accesses per object): one archiving run uses them, from one thread,
    /// and no access to one of them overlaps another (nothing runs inside an access to them).
    // @exclusivity(unchecked): probed by `slot(of:)` for every class instance written, set by `assignSlot(to:_:)`.
    @exclusivity(unchecked) private var objectSlots = IntegerSlotMap(spread: .scattered)
    // @exclusivity(unchecked): appended to by `assignSlot(to:_:)` for every class instance given a slot.
    @exclusivity(unchecked) private var retained: [AnyObject] = []
    // @exclusivity(unchecked): read by `nullObjectSlot()` for every nil inside a collection and every `NSNull`.
    @exclusivity(unchecked) var nullSlot = 0
    /// Class descriptions by class name (a name is written with the first chain it comes with),
    /// and the last few looked up, compared before hashing.
    // @exclusivity(unchecked): this pair is read by `classSlot(_:)` for every dictionary, UUID, URL and other
    // Foundation object and every hand-written archivable value written: `recentClasses` first, then `classSlots`.
    @exclusivity(unchecked) private var classSlots: [String: Int] = [:]
    @exclusivity(unchecked) private var recentClasses: [(name: String, slot: Int)] = []
    /// The class slots of the Foundation classes Swift values are written as, one per date or
    /// collection, found once (-1 until then): ``classSlot(_:)`` compares names on every call.
    // @exclusivity(unchecked): read by `dateClassSlot()` and `collectionClassSlot(isSet:)` for every date, array and
    // set written.
    @exclusivity(unchecked) private var valueClassSlots = (date: -1, array: -1, set: -1)
    // @exclusivity(unchecked): appended to for every object nested deeper than `deferralDepth`; `drainPending()`
    // copies each one out before running it, so the appends it causes overlap no access of its own.
    @exclusivity(unchecked) var pending: [Pending] = []
    // @exclusivity(unchecked): looked up by `writeInfo(for:)` for every model object written; a lookup and an insert
    // are separate accesses, the info computed between them (see `SchemaInfoCache`).
    @exclusivity(unchecked) var modelInfo = SchemaInfoCache<ModelWriteInfo>()
    /// Replacements a delegate chose, by the identity of the replaced instance.
    var replacements: [ObjectIdentifier: Any] = [:]
    /// Whether the archiver has a delegate (kept by the archiver, read per object).
    // @exclusivity(unchecked): read for every model, archivable value and Foundation object written (`slotToWrite`,
    // `encodeObjectInstance`); written only by the archiver's `delegate` observer, never inside a read of it.
    @exclusivity(unchecked) var hasDelegate = false
    /// The collection type written last and whether it is archived as a set: arrays of one type
    /// check their conformance once.
    // @exclusivity(unchecked): read by `isArchivedAsSet(_:)` for every array and set written.
    @exclusivity(unchecked) private var lastCollection: (type: ObjectIdentifier, isSet: Bool)?
    /// Shared keys of Foundation objects, numbered the first time an object of the kind is
    /// written.
    var timeKeys: [Int32] { timeKeyObjects ?? sharedKeys(&timeKeyObjects, ["$class", "NS.time"]) }
    var objectsKeys: [Int32] { objectsKeyObjects ?? sharedKeys(&objectsKeyObjects, ["$class", "NS.objects"]) }
    // @exclusivity(unchecked): this pair is read by `timeKeys` and `objectsKeys` for every date, array and set
    // written; filled once through `sharedKeys(_:_:)`, whose `inout` access calls only `keyObjects(_:)`.
    @exclusivity(unchecked) private var timeKeyObjects: [Int32]?
    @exclusivity(unchecked) private var objectsKeyObjects: [Int32]?

    let options: MappingOptions
    var registry: ArchiveClassRegistry
    weak var archiver: KeyedArchiver?

    /// Objects nested deeper than this are written later, from the top, so that a long chain
    /// of objects never deepens the stack.
    static let deferralDepth = 48

    init(options: MappingOptions, registry: ArchiveClassRegistry) {
        self.options = options
        self.registry = registry
        // Unsafe: the builder's memory (see `output`), freed in `deinit`.
        output = .allocate(capacity: 1)
        output.initialize(to: ArchiveBinaryBuilder())
    }

    deinit {
        // Unsafe: the builder `init` made; no writer is left to reach it.
        output.deinitialize(count: 1)
        output.deallocate()
        objectSlots.deallocate()
    }

    // MARK: Slots

    /// Reserves the next slot for an object about to be written.
    func reserveSlot(_ state: SlotState = .written) -> Int {
        output.pointee.reserveSlot(state)
    }

    /// The state of `slot`.
    func slotState(_ slot: Int) -> SlotState {
        output.pointee.slotState(slot)
    }

    /// Marks a conditional slot as written.
    func promote(_ slot: Int) {
        output.pointee.promote(slot)
    }

    func stringSlot(_ string: String) -> Int {
        output.pointee.stringSlot(string)
    }

    func integerSlot(_ integer: PropertyListInteger) -> Int {
        output.pointee.scalarSlot(.integer(integer))
    }

    func realSlot(_ real: PropertyListReal) -> Int {
        output.pointee.scalarSlot(.real(real))
    }

    func boolSlot(_ flag: Bool) -> Int {
        output.pointee.scalarSlot(.bool(flag))
    }

    func dataSlot(_ data: Data) -> Int {
        output.pointee.dataSlot(data)
    }

    /// The slot of the one `NSNull` object, which stands for nil inside collections.
    func nullObjectSlot() -> Int {
        if nullSlot == 0 {
            let slot = reserveSlot()
            setEntry(objectEntry(keys: [], values: [], classSlot: classSlot(.nsNull)), at: slot)
            nullSlot = slot
        }
        return nullSlot
    }

    /// The slot of a class description, written once per class.
    func classSlot(_ archivedClass: ArchivedClass) -> Int {
        for recent in recentClasses where recent.name == archivedClass.name { return recent.slot }
        let slot: Int
        if let known = classSlots[archivedClass.name] {
            slot = known
        } else {
            slot = reserveSlot()
            let chain = PropertyListValue.array(archivedClass.chain.map { .string($0) })
            let description = PropertyListDictionary(
                uniqueKeys: ["$classes", "$classname"], values: [chain, .string(archivedClass.name)])
            setEntry(.dictionary(description), at: slot)
            classSlots[archivedClass.name] = slot
        }
        if recentClasses.count == 4 { recentClasses.removeFirst() }
        recentClasses.append((archivedClass.name, slot))
        return slot
    }

    /// The slot of `NSDate`'s class description (see ``valueClassSlots``).
    func dateClassSlot() -> Int {
        if valueClassSlots.date < 0 { valueClassSlots.date = classSlot(.nsDate) }
        return valueClassSlots.date
    }

    /// The slot of `NSSet`'s or `NSArray`'s class description (see ``valueClassSlots``).
    func collectionClassSlot(isSet: Bool) -> Int {
        if isSet {
            if valueClassSlots.set < 0 { valueClassSlots.set = classSlot(.nsSet) }
            return valueClassSlots.set
        }
        if valueClassSlots.array < 0 { valueClassSlots.array = classSlot(.nsArray) }
        return valueClassSlots.array
    }

    /// Whether a collection of type `type` is archived as an `NSSet`.
    func isArchivedAsSet<C>(_ type: C.Type) -> Bool {
        let identity = ObjectIdentifier(C.self)
        if let last = lastCollection, last.type == identity { return last.isSet }
        let isSet = C.self is any ArchivedAsSet.Type
        lastCollection = (identity, isSet)
        return isSet
    }

    // MARK: Entries

    /// Writes `entry` (a plain value or an object dictionary) as the entry of `slot`.
    func setEntry(_ entry: PropertyListValue, at slot: Int) {
        let object = output.pointee.object(for: entry)
        output.pointee.setEntry(slot, object: object)
    }

    /// Writes an object of `classSlot` whose keys (`$class` first) are `keys` and whose other
    /// values are `first` and, for three keys, `second`.
    func setObject(at slot: Int, keys: [Int32], classSlot: Int, _ first: Int32, _ second: Int32 = -1) {
        // The values in a tuple on the stack, not an array allocated for every date and array.
        var values = (output.pointee.uidObject(classSlot), first, second)
        let count = second < 0 ? 2 : 3
        // Unsafe: the shared keys' array in place, and the tuple as three `Int32`s (a homogeneous tuple lies as
        // contiguous elements), of which the first `count` are passed; `dictionary` copies both during the call.
        let object = keys.withUnsafeBufferPointer { keys in
            withUnsafePointer(to: &values) { tuple in
                tuple.withMemoryRebound(to: Int32.self, capacity: 3) { values in
                    output.pointee.dictionary(keys: keys, values: UnsafeBufferPointer(start: values, count: count))
                }
            }
        }
        output.pointee.setEntry(slot, object: object)
    }

    /// The objects of keys shared by every object of a kind.
    func keyObjects(_ keys: [String]) -> [Int32] {
        keys.map { output.pointee.keyObject($0) }
    }

    /// The objects of `keys`, numbered into `cache` (the first time: the getters read the cache
    /// first, without making the array of keys).
    private func sharedKeys(_ cache: inout [Int32]?, _ keys: [String]) -> [Int32] {
        let objects = keyObjects(keys)
        cache = objects
        return objects
    }

    /// An object entry whose keys (`$class` first) are shared by every object of its kind.
    func objectEntry(sharedKeys keys: [String], classSlot: Int, _ values: PropertyListValue...) -> PropertyListValue {
        var allValues: [PropertyListValue] = [.uid(UInt64(classSlot))]
        allValues.reserveCapacity(keys.count)
        allValues.append(contentsOf: values)
        return .dictionary(PropertyListDictionary(uniqueKeys: keys, values: allValues))
    }

    static let uuidKeys = ["$class", "NS.uuidbytes"]
    static let urlKeys = ["$class", "NS.base", "NS.relative"]
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

    // MARK: Identity

    /// The slot already given to a class instance, if any.
    func slot(of object: AnyObject) -> Int? {
        objectSlots.slot(for: Self.identity(of: object))
    }

    /// Gives a class instance a new slot.
    func assignSlot(to object: AnyObject, _ state: SlotState = .written) -> Int {
        let slot = reserveSlot(state)
        objectSlots.set(slot, for: Self.identity(of: object))
        retained.append(object)
        return slot
    }

    private static func identity(of object: AnyObject) -> Int64 {
        Int64(Int(bitPattern: ObjectIdentifier(object)))
    }

    /// The archiving facts of a model type, computed once per schema.
    func writeInfo(for schema: ModelSchema) -> ModelWriteInfo {
        if let known = modelInfo.info(for: schema) { return known }
        let info = ModelWriteInfo(schema: schema, registry: registry, state: self)
        modelInfo.insert(info)
        return info
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

    /// The finished archive's bytes: deferred objects written, conditional-only slots dropped and
    /// their references made `$null`.
    func finish(top: PropertyListDictionary) throws -> [UInt8] {
        try drainPending()
        return output.pointee.finish(topKeys: top.keys, topValues: top.values)
    }
}

/// What the archiver needs to know about a model type, computed once per schema and archive.
final class ModelWriteInfo: SchemaInfo {
    /// One archived property (its name apart, in `names`: copying a field per object would
    /// retain and release it).
    struct Field {
        let index: Int
        let conditional: Bool
    }

    let schema: ModelSchema
    let fields: [Field]
    /// The archived properties' names, parallel to `fields`.
    let names: [String]
    let archivedClass: ArchivedClass
    /// The objects of every object's keys: `$class`, the archived properties, the version.
    let keys: [Int32]
    /// The object of the inline model version.
    let version: Int32
    /// The object of the reference to the class description, once written (unchecked: see
    /// the encoding state's properties).
    // @exclusivity(unchecked): read by `writeModelBody` for every model object written, set once per model type;
    // one encoding state uses the info (its `modelInfo`).
    @exclusivity(unchecked) var classReference: Int32 = -1

    init(schema: ModelSchema, registry: ArchiveClassRegistry, state: ArchiveEncodingState) {
        self.schema = schema
        var fields: [Field] = []
        var names: [String] = []
        for (index, property) in schema.properties.enumerated()
        where !property.isTransient && property.archiveBehavior != .excluded {
            fields.append(Field(index: index, conditional: property.archiveBehavior == .conditional))
            names.append(property.name)
        }
        self.fields = fields
        self.names = names
        var chain: [String] = []
        var current: ModelSchema? = schema
        while let next = current {
            chain.append(registry.archivedName(for: next.modelType) ?? next.modelName)
            current = next.superschema
        }
        chain.append("NSObject")
        self.archivedClass = ArchivedClass(name: chain[0], chain: chain)
        self.keys = state.keyObjects(["$class"] + names + [KeyedArchiver.modelVersionKey])
        self.version = state.output.pointee.scalarObject(.integer(PropertyListInteger(schema.version)))
    }
}
