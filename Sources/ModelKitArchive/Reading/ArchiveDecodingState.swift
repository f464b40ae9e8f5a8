import Foundation
import ModelKitCore
import ModelKitPropertyList
import ModelKitShared

/// The state of one unarchiver, shared by its readers: the checked document, which objects are
/// being decoded, the class instances decoded so far (so shared references decode as one
/// instance), the references left to set once their objects exist (cycles and deep chains), and
/// per-type facts.
final class ArchiveDecodingState {
    /// Where an object is in decoding.
    enum Status: UInt8 {
        case idle
        case inProgress
        /// Decoded to a class instance, kept in `instances`.
        case done
    }

    /// A property (or generic object key) to set once the object it refers to exists.
    enum Fixup {
        /// Set property `field` of the model object `owner` (of the schema `schema`) from object
        /// `target`.
        case model(owner: Int, schema: ObjectIdentifier, field: Int, target: Int)
        /// Set `key` of a generic object from object `target`.
        case generic(ArchivedObject, key: String, target: Int)
    }

    let document: KeyedArchiveDocument
    /// The archive's binary property list, which readers read in place, and what they look up
    /// for every value, out of the document: `$objects`, the numbers of Foundation's keys, and
    /// each entry's class (in memory of its own, where the document's arrays would be retained
    /// and released on every read through it).
    let table: BinaryPropertyListTable
    let objects: BinaryPropertyListTable.Container
    let keys: ArchiveKeys
    let objectCount: Int
    // Unsafe: this pair is copied from the document in `init` and freed in `deinit`; readers index them with an
    // entry checked against `objectCount` (`foundationKind(of:)`, `decodeModel(_:)`), and a class index the
    // document recorded, which lies below `classKinds.count`.
    let classIndexes: UnsafeMutableBufferPointer<Int32>
    let classKinds: UnsafeMutableBufferPointer<FoundationClass?>
    /// Per class description: whether its objects are `NSNull`s (see ``isNull(_:)``), read for
    /// every optional value.
    // Unsafe: a flag per class description, in memory of its own like `classIndexes`, filled in `init`; `isNull(_:)`
    // indexes it with the class index of an entry it checked against `objectCount`.
    let nullClasses: UnsafeMutableBufferPointer<Bool>
    let limits: KeyedArchiveLimits
    let options: MappingOptions
    /// The options' switches, read per field without copying the options.
    let flags: MappingFlags
    var registry: ArchiveClassRegistry
    weak var unarchiver: KeyedUnarchiver?

    /// Where each object is in decoding, the class instance decoded for it, and how many
    /// decodings ran: in memory of their own, read and written for every object (a class's
    /// properties would pay a dynamic exclusivity check on each access, arrays a uniqueness
    /// check on each write).
    // Unsafe: this pair has a slot per entry, initialized in `init` (`instances` is deinitialized in `deinit`, as it
    // holds references); indexed by entries the document checked to be in range, or checked against `objectCount`.
    let status: UnsafeMutableBufferPointer<Status>
    let instances: UnsafeMutableBufferPointer<AnyObject?>
    /// The strings of plain string entries read so far, when longer than the small form: an
    /// archive stores each distinct string once, and every reference to it reads it (a shared
    /// string is retained, where a string made again is allocated, copied and checked). Per
    /// entry, 1 + the string's index in `sharedStrings` (0: none), numbers that need no
    /// deinitializing.
    // Unsafe: a slot per entry like `status`, zeroed in `init`; `string(_:)` checks the entry against `objectCount`
    // first.
    private let stringNumbers: UnsafeMutableBufferPointer<Int32>
    // @exclusivity(unchecked): read by `string(_:)` for every reference to a long string read before, appended to
    // there once per such string; nothing is called inside an access (see `fixups` for why none overlap).
    @exclusivity(unchecked) private var sharedStrings: [String] = []
    // Unsafe: one counter in memory of its own, allocated in `init`, freed in `deinit`: `countDecoding()` bumps it
    // for every object entered, without the dynamic exclusivity check of a class's stored property.
    private let decodings: UnsafeMutablePointer<Int>
    /// Unchecked, like the other mutable properties read per object: one unarchiving run uses
    /// them, from one thread, and no access to one of them overlaps another (a dynamic
    /// exclusivity check costs tens of instructions an access).
    // @exclusivity(unchecked): appended to by `decodeNil()` for every reference it defers (and by generic objects'
    // deep references), emptied by `drainFixups()`, which works on a copy, so its own appends overlap nothing.
    @exclusivity(unchecked) var fixups: [Fixup] = []
    // @exclusivity(unchecked): looked up for every model object decoded (`readInfo(for:)`, from `decodeModel(_:)`
    // and `decodeFields(of:into:)`); a lookup and an insert are separate accesses, the info computed between them.
    @exclusivity(unchecked) var readInfo = SchemaInfoCache<ModelReadInfo>()
    var genericCache: [Int: Any] = [:]
    /// Objects' dictionaries read whole (for hand-written types, migration and generic objects).
    private var dictionaries: [Int: PropertyListDictionary] = [:]
    /// Whether the unarchiver has a delegate (kept by the unarchiver, read per object).
    // @exclusivity(unchecked): read for every model decoded (`decodeNewModel`); written only by the unarchiver's
    // `delegate` observer, never inside a read of it.
    @exclusivity(unchecked) var hasDelegate = false
    /// Generic objects created or referred to so far: a collection whose decoding changed it
    /// holds some, and is not cached.
    var genericObjectsReturned = 0
    /// Values kept aside for models that preserve values, by object.
    var preserved: [Int: [String: Any]] = [:]

    /// References through optional properties of class models deeper than this are set later,
    /// from the top, so that a long chain never deepens the stack.
    static let deferralDepth = 32

    init(
        document: KeyedArchiveDocument, registry: ArchiveClassRegistry, options: MappingOptions,
        limits: KeyedArchiveLimits = .default
    ) {
        self.document = document
        self.table = document.table
        self.objects = document.objectsArray
        self.keys = document.keys
        self.objectCount = document.objectCount
        // Unsafe: the tables above, each allocated here for the document's counts and initialized whole; freed in
        // `deinit`.
        self.classIndexes = .allocate(capacity: document.classIndexes.count)
        _ = self.classIndexes.initialize(from: document.classIndexes)
        self.classKinds = .allocate(capacity: document.classKinds.count)
        _ = self.classKinds.initialize(from: document.classKinds)
        self.nullClasses = .allocate(capacity: document.classList.count)
        _ = self.nullClasses.initialize(from: document.classList.lazy.map { $0.name == "NSNull" || $0.chain.first == "NSNull" })
        self.limits = limits
        self.options = options
        self.flags = MappingFlags(options)
        self.registry = registry
        self.status = .allocate(capacity: document.objectCount)
        self.status.initialize(repeating: .idle)
        self.instances = .allocate(capacity: document.objectCount)
        self.instances.initialize(repeating: nil)
        self.stringNumbers = .allocate(capacity: document.objectCount)
        self.stringNumbers.initialize(repeating: 0)
        self.decodings = .allocate(capacity: 1)
        self.decodings.initialize(to: 0)
    }

    deinit {
        // Unsafe: the memory `init` allocated; only `instances` holds references and is deinitialized first, the
        // other tables hold trivial values.
        classIndexes.deallocate()
        classKinds.deallocate()
        nullClasses.deallocate()
        status.deallocate()
        _ = instances.deinitialize()
        instances.deallocate()
        stringNumbers.deallocate()
        decodings.deallocate()
    }

    /// The class of object `uid`, when it is an object entry.
    @inline(__always)
    func archivedClass(of uid: Int) -> ArchivedClass? {
        document.archivedClass(of: uid)
    }

    /// The property-list object of entry `uid` (in range).
    @inline(__always)
    func entryObject(_ uid: Int) -> Int {
        table.reference(objects, uid)
    }

    /// The dictionary of object `uid`, when it is an object.
    @inline(__always)
    func objectDictionary(_ uid: Int) -> BinaryPropertyListTable.Container? {
        guard uid > 0, uid < objectCount, classIndexes[uid] >= 0 else { return nil }
        return table.container(entryObject(uid))
    }

    /// The Foundation class object `uid` reads as, when it is an object of one.
    @inline(__always)
    func foundationKind(of uid: Int) -> FoundationClass? {
        guard uid > 0, uid < objectCount else { return nil }
        let index = classIndexes[uid]
        return index >= 0 ? classKinds[Int(index)] : nil
    }

    /// The string entry `uid` is, when it is a plain string (read once when longer than the small
    /// form, then shared).
    @inline(__always)
    func string(_ uid: Int) -> String? {
        guard uid > 0, uid < objectCount else { return nil }
        let number = Int(stringNumbers[uid])
        if number > 0 { return sharedStrings[number - 1] }
        guard let string = table.string(entryObject(uid)) else { return nil }
        // A string that fits the small form is made again from its words, cheaper than keeping it.
        if string.utf8.count > SmallASCIIString.maxCount && sharedStrings.count < Int(Int32.max) {
            sharedStrings.append(string)
            stringNumbers[uid] = Int32(truncatingIfNeeded: sharedStrings.count)
        }
        return string
    }

    /// The value object `uid` holds under `key` (one of ``keys``).
    func memberValue(_ key: Int32?, ofObject uid: Int) -> PropertyListValue? {
        guard let key, let dictionary = objectDictionary(uid), let object = table.object(forKey: key, in: dictionary) else {
            return nil
        }
        return table.value(of: object)
    }

    /// The keys and values of object `uid`, read whole once (empty for an entry that is not an
    /// object).
    func dictionary(of uid: Int) -> PropertyListDictionary {
        if let known = dictionaries[uid] { return known }
        let dictionary = document.entryValue(uid).dictionaryValue ?? PropertyListDictionary()
        dictionaries[uid] = dictionary
        return dictionary
    }

    /// Whether object `uid` is an `NSNull`.
    func isNull(_ uid: Int) -> Bool {
        guard uid > 0, uid < objectCount, classIndexes[uid] >= 0 else { return false }
        return nullClasses[Int(classIndexes[uid])]
    }

    /// The facts about a model type that decoding needs, computed once per schema.
    func readInfo(for schema: ModelSchema) -> ModelReadInfo {
        if let known = readInfo.info(for: schema) { return known }
        let info = ModelReadInfo(schema: schema, registry: registry, classCount: document.classList.count)
        readInfo.insert(info)
        return info
    }

    /// Counts one more object decoding against ``KeyedArchiveLimits/maxDecodedObjects``.
    func countDecoding() throws {
        decodings.pointee += 1
        guard decodings.pointee <= limits.maxDecodedObjects else {
            throw KeyedArchiveError(.limitExceeded(.maxDecodedObjects, limit: limits.maxDecodedObjects))
        }
    }

    /// Sets every recorded reference whose object now exists, decoding deferred objects from the
    /// top, until none is left. Runs after each top-level decoding.
    func drainFixups() throws {
        while !fixups.isEmpty {
            let batch = fixups
            fixups = []
            for fixup in batch {
                switch fixup {
                case let .model(owner, schema, field, target):
                    guard let instance = instances[owner], let model = instance as? any Model else {
                        throw KeyedArchiveError(
                            .unresolvableCycle(detail: "to object \(target) cannot be closed: object \(owner) is not a model instance"),
                            objectID: owner)
                    }
                    // A delegate replaced the owner with an object of another type: nothing to set.
                    guard ObjectIdentifier(model.dynamicModelSchema) == schema else { continue }
                    var reader = KeyedArchiveReader(state: self, position: .uid(UInt64(target)), depth: 0)
                    try Self.setField(field, of: model, from: &reader, owner: owner)
                case let .generic(object, key, target):
                    var reader = KeyedArchiveReader(state: self, position: .uid(UInt64(target)), depth: 0)
                    object.set(try reader.decodeAnyValue(), forKey: key)
                }
            }
        }
    }

    private static func setField<M: Model>(_ field: Int, of model: M, from reader: inout KeyedArchiveReader, owner: Int)
        throws
    {
        var model = model
        let schema = model.dynamicModelSchema
        let name = schema.properties.indices.contains(field) ? schema.properties[field].name : "\(field)"
        reader.field = KeyedArchiveReader.FieldContext(
            owner: owner, schema: ObjectIdentifier(schema), index: field, canDefer: false)
        do {
            try reader.namingFieldErrors(field, of: schema) { try model.decodeModelField(field, from: &$0) }
        } catch let error as ModelError {
            throw error.prefixed(by: .key(name))
        }
    }

    /// Forgets progress marks left by a decoding that failed, so later decodings start clean.
    func resetAfterFailure() {
        for index in status.indices where status[index] == .inProgress {
            status[index] = .idle
        }
        fixups.removeAll()
    }
}

/// What the unarchiver needs to know about a model type, computed once per schema.
final class ModelReadInfo: SchemaInfo {
    let schema: ModelSchema
    let schemaID: ObjectIdentifier
    /// Property index by archived key, for the properties decoding sets.
    let fieldIndexByKey: [String: Int]
    /// Per property: an optional (or weak) settable property of a class, which can be set later.
    let canDefer: [Bool]
    /// Per property: the archived class names allowed, when the declared type says.
    let allowed: [Set<String>?]
    let allowedLists: [[String]]
    /// Per property: required (no default, not optional) and read.
    let required: [Bool]
    let requiredCount: Int
    let preservedFields: Set<Int>
    let migrating: (any ModelMigrating.Type)?
    let preserves: Bool
    let validates: Bool
    /// The names objects of this type are accepted under.
    let acceptedNames: [String]
    /// Per property: its edge in the schema's property-key reading tree (-1 for none).
    let edgeByField: [Int]
    /// The schema's property-key reading tree.
    let readingKeys: ModelKeyNode
    /// Whether every edge of ``readingKeys`` ends in exactly one field and no fallback key exists,
    /// so that fields are read without the key-tree walk (see `decodePlainFields`).
    let readsPlainKeys: Bool
    /// The key shape of the last object read (see ``BinaryPropertyListTable/Container/keyShape``)
    /// and its keys' property indexes (-1: no property): objects of one type have the same keys,
    /// which the table numbers once, so comparing shapes is cheaper than reading each key. (The
    /// info belongs to one decoding state, and so to one table.)
    /// (Unchecked, as the decoding state's per-object properties are.)
    // @exclusivity(unchecked): this pair is read by `fieldIndexes(of:in:)` for every model object read, and written
    // there when the shape changes.
    @exclusivity(unchecked) private var lastShape: Int32 = -1
    @exclusivity(unchecked) private var lastIndexes: [Int] = []
    /// Per property and class description: whether the property allows the class (1), not (0),
    /// or not known yet (-1); empty for archives of very many classes. In memory of its own:
    /// read for every reference to an object.
    // Unsafe: allocated in `init` with a slot per property and class description (or none, which `allows` checks),
    // set to -1, freed in `deinit`; `allows` indexes it with a property's index and a class index the document
    // recorded, below `classCount`.
    private let allowedByClass: UnsafeMutableBufferPointer<Int8>
    private let classCount: Int
    /// The field decoder type read for this schema, and the function that decodes a field into
    /// one behind a pointer (see ``erasedDecoder(for:)``).
    // @exclusivity(unchecked): read by `erasedDecoder(for:)` for every model object read through the key-tree walk
    // (`decodeFields(of:into:)`), written once per schema and decoder type; one decoding state uses the info (see
    // `lastShape`).
    @exclusivity(unchecked) private var erasedDecoder: (type: ObjectIdentifier, decode: ErasedFieldDecoder.Decode)?

    /// The function that decodes a field into an `F` behind a pointer: made once per schema (and
    /// decoder type), not a closure context per object.
    func erasedDecoder<F: ModelFieldDecoder>(for type: F.Type) -> ErasedFieldDecoder.Decode {
        if let known = erasedDecoder, known.type == ObjectIdentifier(F.self) { return known.decode }
        let decode: ErasedFieldDecoder.Decode = { fields, index, reader in
            // Unsafe: `fields` points at an `F`: `decodeFields(of:into:)` passes the address of its `inout F`, with
            // the function made for that same `F` (cached by its identity).
            try fields.assumingMemoryBound(to: F.self).pointee.decodeField(index, from: &reader)
        }
        erasedDecoder = (ObjectIdentifier(F.self), decode)
        return decode
    }

    /// How an archived class reads as this type.
    enum Resolution {
        /// The declared type itself.
        case declared
        /// A registered subtype.
        case registered(ArchiveClassRegistry.Entry)
        /// A subclass of the declared type (or of a registered subtype) that is not registered:
        /// only the delegate can say what to decode it as.
        case unknownSubclass(ArchivedClass)
        /// Not allowed; the class name found.
        case notAllowed(String)
    }

    // @exclusivity(unchecked): looked up by `resolution(ofClass:in:)` for every model object decoded whose class is
    // not `declaredClass`, and written there once the chain is resolved, after the lookup ended; one decoding state
    // uses the info (see `lastShape`).
    @exclusivity(unchecked) private var resolutions: [Int32: Resolution] = [:]
    /// The last class description found to read as the declared type (`Int32.min`, no class
    /// index: none yet): the common case, answered without hashing.
    // @exclusivity(unchecked): compared by `resolution(ofClass:in:)` for every model object decoded
    // (`decodeModel(_:)`), as `resolutions`.
    @exclusivity(unchecked) private var declaredClass = Int32.min

    /// How objects of the class description `classIndex` read as this type: the first name of
    /// the class chain that is this type's or a registered subtype's.
    func resolution(ofClass classIndex: Int32, in state: ArchiveDecodingState) -> Resolution {
        if classIndex == declaredClass { return .declared }
        if let known = resolutions[classIndex] { return known }
        let archivedClass = state.document.classList[Int(classIndex)]
        var result = Resolution.notAllowed(archivedClass.name)
        for (position, name) in archivedClass.chain.enumerated() {
            var found: Resolution?
            if name == acceptedNames[0] || name == schema.modelName {
                found = .declared
            } else if let entry = state.registry.entry(named: name), let subschema = entry.schema,
                KeyedArchiveReader.schema(subschema, inherits: schema)
            {
                found = .registered(entry)
            }
            guard let found else { continue }
            // The object's own class must be known: a known class further up its chain is only
            // its base, which would drop what the subclass stores.
            result = position == 0 ? found : .unknownSubclass(archivedClass)
            break
        }
        resolutions[classIndex] = result
        if case .declared = result { declaredClass = classIndex }
        return result
    }

    /// The property index of each key of an object's dictionary, -1 for keys that set no
    /// property.
    func fieldIndexes(of dictionary: BinaryPropertyListTable.Container, in table: BinaryPropertyListTable) -> [Int] {
        if dictionary.keyShape >= 0 && dictionary.keyShape == lastShape { return lastIndexes }
        let indexes = (0..<dictionary.count).map { position in
            table.string(table.reference(dictionary, position)).flatMap { fieldIndexByKey[$0] } ?? -1
        }
        lastShape = dictionary.keyShape
        lastIndexes = indexes
        return indexes
    }

    /// Whether property `index` allows objects of the class description `classIndex`: it names
    /// no classes, or one of the names in the class's chain is allowed. Cached first: read for
    /// every reference to an object.
    func allows(field index: Int, classIndex: Int32, in state: ArchiveDecodingState) -> Bool {
        let slot = index * classCount + Int(classIndex)
        let cached = !allowedByClass.isEmpty
        if cached && allowedByClass[slot] >= 0 { return allowedByClass[slot] == 1 }
        let result = allowed[index].map { allowed in
            state.document.classList[Int(classIndex)].chain.contains(where: allowed.contains)
        } ?? true
        if cached { allowedByClass[slot] = result ? 1 : 0 }
        return result
    }

    deinit {
        allowedByClass.deallocate()
    }

    init(schema: ModelSchema, registry: ArchiveClassRegistry, classCount: Int) {
        self.schema = schema
        self.classCount = classCount
        let cacheable = classCount <= 4_096
        allowedByClass = .allocate(capacity: cacheable ? schema.properties.count * classCount : 0)
        allowedByClass.initialize(repeating: -1)
        self.schemaID = ObjectIdentifier(schema)
        let isClass = schema.modelType is AnyClass
        var byKey: [String: Int] = [:]
        var canDefer: [Bool] = []
        var allowed: [Set<String>?] = []
        var allowedLists: [[String]] = []
        var required: [Bool] = []
        let overrides = (schema.modelType as? any KeyedArchiveSecureCoding.Type)?.allowedArchiveClassNames ?? [:]
        for (index, property) in schema.properties.enumerated() {
            let read = !property.isTransient && !property.isReadOnly && property.archiveBehavior != .excluded
            if read && byKey[property.name] == nil { byKey[property.name] = index }
            canDefer.append(read && isClass && property.isMutable && (property.isOptional || property.isWeak))
            let names =
                read ? (overrides[property.name] ?? property.valueKind.archiveClassNames(registry: registry)) : nil
            allowed.append(names.map(Set.init))
            allowedLists.append(names ?? [])
            required.append(read && !property.hasDefault)
        }
        self.fieldIndexByKey = byKey
        self.canDefer = canDefer
        self.allowed = allowed
        self.allowedLists = allowedLists
        self.required = required
        self.requiredCount = required.filter { $0 }.count
        self.migrating = schema.modelType as? any ModelMigrating.Type
        let preserving = schema.modelType as? any ModelPreservingValues.Type
        self.preserves = preserving != nil
        self.preservedFields = Set(
            (preserving?.propertyKeysToPreserveWhenDecoding ?? []).compactMap { byKey[$0] })
        self.validates = schema.hooks.contains(.validates)
        self.acceptedNames = registry.modelNames(acceptedAs: schema)
        let readingKeys = schema.propertyReadingKeys
        self.edgeByField = schema.properties.map { readingKeys.edgeIndex(forKey: $0.name) ?? -1 }
        self.readingKeys = readingKeys
        self.readsPlainKeys = !readingKeys.hasFallbacks && readingKeys.plainLeaves.allSatisfy { $0 != nil }
    }
}
