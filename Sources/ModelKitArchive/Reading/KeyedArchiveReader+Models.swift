import Foundation
import ModelKitCore
import ModelKitPropertyList

// Models: the class found in the archive is resolved against the declared type (and registered
// subtypes) before anything is created; a class instance is decoded once per object and shared;
// a reference back to an object still being decoded, through an optional property of a class,
// reads as nil and is set once the object exists (see `drainFixups`).

extension KeyedArchiveReader {
    public mutating func decodeModel<M: Model>(_ type: M.Type) throws -> M {
        // A reference to an instance of exactly `M` decoded already (a shared or back reference)
        // needs no facts about `M`, and no cast from `AnyObject` through the runtime, which looks
        // for bridging conformances first (a thousand instructions a time). (References were
        // checked to be in range when the document was made.)
        if case .uid(let reference) = position, reference > 0, let instance = state.instances[Int(truncatingIfNeeded: reference)],
           ObjectIdentifier(Swift.type(of: instance)) == ObjectIdentifier(M.self)
        {
            // Unsafe: the instance's dynamic type is exactly `M`, a class, so its reference is an `M` as it is.
            return unsafeBitCast(instance, to: M.self)
        }
        let info = state.readInfo(for: M.modelSchema)
        guard case .uid(let reference) = position, reference > 0 else {
            throw mismatch("an object of class '\(info.acceptedNames[0])'")
        }
        let uid = Int(truncatingIfNeeded: reference)
        if let instance = state.instances[uid] {
            return try sharedInstance(instance, as: M.self, uid: uid, info: info)
        }
        guard uid < state.classIndexes.count, state.classIndexes[uid] >= 0 else {
            throw mismatch("an object of class '\(info.acceptedNames[0])'")
        }
        switch info.resolution(ofClass: state.classIndexes[uid], in: state) {
        case .declared:
            return try decodeResolvedModel(M.self)
        case .registered(let entry):
            return try decodeRegistered(entry, as: M.self, uid: uid, info: info)
        case .unknownSubclass(let archivedClass):
            return try decodeUnknownSubclass(archivedClass, as: M.self, uid: uid)
        case .notAllowed(let found) where [.dictionary, .mutableDictionary].contains(FoundationClass(rawValue: found)):
            // A model archived as a plain dictionary of its members: an internally tagged enum's
            // payload, which is written beside its tag as one object.
            return try decodeModelFromJSONValue(M.self)
        case .notAllowed(let found):
            throw KeyedArchiveError(.classNotAllowed(found: found, allowed: info.acceptedNames), objectID: uid)
        }
    }

    /// Decodes an object of a registered subtype of `M`. Apart, like the other rare paths: its
    /// cast to `M` looks up the metadata of `M?`, which an unspecialised `decodeModel` would do on
    /// every call.
    @inline(never)
    mutating func decodeRegistered<M: Model>(
        _ entry: ArchiveClassRegistry.Entry, as type: M.Type, uid: Int, info: ModelReadInfo
    ) throws -> M {
        guard let model = try entry.decode(&self) as? M else {
            throw KeyedArchiveError(.classNotAllowed(found: entry.name, allowed: info.acceptedNames), objectID: uid)
        }
        return model
    }

    /// Decodes an object of an unregistered subclass as the type the delegate names for it, which
    /// must be `M` or a subtype; without one, it is an error.
    mutating func decodeUnknownSubclass<M: Model>(_ archivedClass: ArchivedClass, as type: M.Type, uid: Int) throws -> M {
        let unknown = KeyedArchiveError(
            .unknownSubclass(name: archivedClass.name, classes: archivedClass.chain), objectID: uid,
            modelName: M.modelSchema.modelName)
        guard let unarchiver = state.unarchiver,
              let named = unarchiver.delegate?.unarchiver(
                  unarchiver, cannotDecodeObjectOfClassName: archivedClass.name, originalClasses: archivedClass.chain),
              Self.schema(named.modelSchema, inherits: M.modelSchema)
        else { throw unknown }
        guard let model = try decodeResolved(named) as? M else { throw unknown }
        return model
    }

    /// `decodeResolvedModel` for a type known at run time.
    private mutating func decodeResolved<S: Model>(_ type: S.Type) throws -> Any {
        try decodeResolvedModel(S.self)
    }

    static func schema(_ schema: ModelSchema, inherits ancestor: ModelSchema) -> Bool {
        var current: ModelSchema? = schema
        while let candidate = current {
            if candidate === ancestor { return true }
            current = candidate.superschema
        }
        return false
    }

    /// Decodes the object at the reader's position as `M`, its class already resolved: runs the
    /// generated initializer, validation, preserved values and the delegate, and registers a class
    /// instance so that other references share it.
    mutating func decodeResolvedModel<M: Model>(_ type: M.Type) throws -> M {
        guard let uid = referencedEntry else { throw mismatch("an object") }
        if let instance = state.instances[uid] {
            if ObjectIdentifier(Swift.type(of: instance)) == ObjectIdentifier(M.self) {
                // Unsafe: as in `decodeModel(_:)`: the instance's dynamic type is exactly `M`; no cast through the
                // runtime.
                return unsafeBitCast(instance, to: M.self)
            }
            return try decodeUnlessShared(instance, as: M.self, uid: uid)
        }
        return try decodeNewModel(M.self, uid: uid)
    }

    /// Decodes object `uid` as `M` (nothing decoded it yet).
    private mutating func decodeNewModel<M: Model>(_ type: M.Type, uid: Int) throws -> M {
        let schema = M.modelSchema
        try enter(uid, what: "'\(schema.modelName)'")
        let savedField = field
        field = nil
        defer { field = savedField }
        var model: M
        do {
            model = try M(modelReader: &self)
            let info = state.readInfo(for: schema)
            if flags.validates && info.validates { try validateModel(model) }
            if info.preserves { restorePreservedValues(of: &model, uid: uid) }
            if state.hasDelegate { try substituteModel(&model, uid: uid) }
        } catch {
            leave(uid)
            throw error
        }
        // A class's value is its reference, which `as AnyObject` would look up through the
        // runtime's bridging cast.
        // Unsafe: only when `M` is a class, whose value is one reference, the same as an `AnyObject`'s.
        leave(uid, instance: M.self is AnyClass ? unsafeBitCast(model, to: AnyObject.self) : nil)
        return model
    }

    // The rare paths of `decodeModel` and `decodeResolvedModel`, apart: unspecialised, a function
    // that uses `M?` anywhere looks its type metadata up on every call.

    /// An instance decoded already, of a subclass of `M` (or of another type: an error).
    @inline(never)
    func sharedInstance<M: Model>(_ instance: AnyObject, as type: M.Type, uid: Int, info: ModelReadInfo) throws -> M {
        if let model = instance as? M { return model }
        throw KeyedArchiveError(
            .classNotAllowed(found: state.archivedClass(of: uid)?.name ?? "\(Swift.type(of: instance))", allowed: info.acceptedNames),
            objectID: uid)
    }

    /// The instance decoded already for object `uid` when it is an `M` (a subclass's), or the
    /// object decoded anew as `M`.
    @inline(never)
    private mutating func decodeUnlessShared<M: Model>(_ instance: AnyObject, as type: M.Type, uid: Int) throws -> M {
        if let model = instance as? M { return model }
        return try decodeNewModel(M.self, uid: uid)
    }

    /// Gives a model that preserves values the values kept aside for object `uid`.
    @inline(never)
    func restorePreservedValues<M: Model>(of model: inout M, uid: Int) {
        guard let kept = state.preserved.removeValue(forKey: uid), var preserving = model as? any ModelPreservingValues else {
            return
        }
        preserving.preservedValues = ModelPreservedValues(kept)
        if let updated = preserving as? M { model = updated }
    }

    /// Replaces a decoded model with the delegate's replacement, if it chose one.
    @inline(never)
    mutating func substituteModel<M: Model>(_ model: inout M, uid: Int) throws {
        if let substituted: M = try substitute(model, uid: uid) { model = substituted }
    }

    /// Asks the delegate for a replacement of a decoded object; nil keeps it.
    mutating func substitute<T>(_ value: T, uid: Int) throws -> T? {
        guard let unarchiver = state.unarchiver, let delegate = unarchiver.delegate else { return nil }
        let replacement = try delegate.unarchiver(unarchiver, didDecode: value)
        if T.self is AnyClass, let replacement, type(of: replacement) is AnyClass,
           replacement as AnyObject === value as AnyObject
        {
            return nil
        }
        guard let typed = replacement as? T else {
            throw KeyedArchiveError(
                .unencodable(
                    detail: "the delegate replaced it with \(replacement.map { "a '\(type(of: $0))'" } ?? "nil"), not a '\(T.self)'"),
                objectID: uid)
        }
        return typed
    }

    // MARK: Fields

    /// Reads a model's object through the key-tree walk every format shares (null policy,
    /// collect-all mode, error naming); a versioned model reads each key through its migration
    /// hooks first.
    public mutating func decodeFields<F: ModelFieldDecoder>(of schema: ModelSchema, into fields: inout F) throws {
        // The object's dictionary once (what `object()` looks up), for the plain-field loop too.
        guard let uid = referencedEntry, let dictionary = state.objectDictionary(uid) else {
            throw mismatch("an object of class '\(schema.modelName)'")
        }
        let info = state.readInfo(for: schema)
        let saved = position
        let savedField = field
        let savedFields = fieldsOf
        defer {
            position = saved
            field = savedField
            fieldsOf = savedFields
        }
        if let migrating = info.migrating {
            try decodeMigratingFields(migrating, of: schema, info: info, uid: uid, keys: state.dictionary(of: uid), into: &fields)
        } else if info.readsPlainKeys && flags.readsPlainFieldsDirectly {
            try decodePlainFields(of: schema, uid: uid, dictionary: dictionary, info: info, into: &fields)
        } else {
            fieldsOf = (uid, info)
            // The walk is compiled for this reader only when its decoder type is known here:
            // `fields` arrives unspecialised (through `unarchive`), so it goes behind one
            // concrete type that calls the model's own decoder on `fields` in place (no copy in
            // and out of an existential, no cast back), through a function the schema's info
            // makes once (a closure over `fields` allocated its context for every object).
            let decode = info.erasedDecoder(for: F.self)
            // Unsafe: the pointer to `fields` is used only inside this call, and the walk finishes inside it
            // (references deferred past it are set later through the model, not through the pointer).
            try withUnsafeMutablePointer(to: &fields) { fields in
                var erased = ErasedFieldDecoder(fields: UnsafeMutableRawPointer(fields), decode: decode)
                try decodeFieldsByKeyTree(of: schema, into: &erased)
            }
        }
    }

    /// Reads a model's object whose every property key is a plain field (no key paths, no
    /// fallbacks), outside collect-all mode: what the shared key-tree walk and its
    /// ``ModelReader/decodeLeaf(_:of:into:priorities:)`` do for such a tree (null as missing where
    /// the property says, the model and property named in errors and collected problems, the key
    /// in front of a model error's path), in one loop over the object's keys. Unspecialised (the
    /// field decoder's type is not known here), the walk went through the reader's witnesses for
    /// every field.
    private mutating func decodePlainFields<F: ModelFieldDecoder>(
        of schema: ModelSchema, uid: Int, dictionary: BinaryPropertyListTable.Container, info: ModelReadInfo,
        into fields: inout F
    ) throws {
        let table = state.table
        let node = info.readingKeys
        let indexes = info.fieldIndexes(of: dictionary, in: table)
        for position in indexes.indices where indexes[position] >= 0 {
            let index = indexes[position]
            let value = table.value(ofEntry: position, in: dictionary)
            guard try prepareField(index, value: value, info: info, uid: uid) else { continue }
            let edge = info.edgeByField[index]
            guard let leaf = node.plainLeaves[edge] else { continue }
            do {
                if leaf.nullUsesDefault, try decodeNil() { continue }
                let mark = collectedProblems.count
                defer { if collectedProblems.count > mark { nameProblems(since: mark, field: index, of: schema) } }
                try decodeNamedField(index, of: schema, into: &fields)
            } catch let error as ModelError {
                throw error.prefixed(by: .key(node.keys[edge]))
            }
        }
    }

    /// The members of a model's object (the walk's access): each archived key of a property the
    /// archive reads, with the reader at its value and the property's context set (for cycles).
    /// Preserved values are kept aside, and an object a property refers to must be of a class
    /// the property allows.
    mutating func readModelMembers(uid: Int, info: ModelReadInfo, _ member: (inout KeyedArchiveReader, Int) throws -> Void)
        throws
    {
        // In place: the object's keys are matched by their references, its values read as they
        // come.
        let table = state.table
        guard let dictionary = state.objectDictionary(uid) else { return }
        let indexes = info.fieldIndexes(of: dictionary, in: table)
        for position in indexes.indices where indexes[position] >= 0 {
            let index = indexes[position]
            let value = table.value(ofEntry: position, in: dictionary)
            guard try prepareField(index, value: value, info: info, uid: uid) else { continue }
            try member(&self, info.edgeByField[index])
        }
    }

    /// Moves to the archived value of property `index`; false when the model preserves the
    /// value instead (it is kept aside for the model, not decoded).
    @inline(__always)
    mutating func prepareField(_ index: Int, value: PropertyListValue, info: ModelReadInfo, uid: Int) throws -> Bool {
        if !info.preservedFields.isEmpty && info.preservedFields.contains(index) {
            position = value
            field = nil
            let kept = try decodeAnyValue()
            state.preserved[uid, default: [:]][info.schema.properties[index].name] = isNSNull(kept) ? nil : kept
            return false
        }
        if case .uid(let reference) = value, reference > 0 {
            try checkAllowedClass(of: Int(truncatingIfNeeded: reference), field: index, of: info.schema, info: info)
        }
        position = value
        field = FieldContext(owner: uid, schema: info.schemaID, index: index, canDefer: info.canDefer[index])
        return true
    }

    /// Checks the class of the object a property refers to against the classes the property allows.
    @inline(__always)
    func checkAllowedClass(of target: Int, field index: Int, of schema: ModelSchema, info: ModelReadInfo) throws {
        guard target < state.objectCount, state.classIndexes[target] >= 0,
              !info.allows(field: index, classIndex: state.classIndexes[target], in: state),
              let archivedClass = state.archivedClass(of: target)
        else { return }
        throw KeyedArchiveError(
            .classNotAllowed(found: archivedClass.name, allowed: info.allowedLists[index]),
            objectID: target, key: schema.properties[index].name, modelName: schema.modelName)
    }

    /// The archive's own errors keep their kind, with the model, key and object named.
    public func fieldError(_ error: any Error, field index: Int, of schema: ModelSchema) -> any Error {
        KeyedArchiveError.field(error, index, of: schema, objectID: field?.owner)
    }

    /// Sets property `index` from a Swift value (migration results, additional values), checked
    /// against the property's type.
    mutating func setField<F: ModelFieldDecoder>(_ index: Int, to value: Any, of schema: ModelSchema, into fields: inout F)
        throws
    {
        var reader = JSONObjectReader(value: value, mapping: .propertyKeys, options: options)
        try reader.withPathComponent(.key(schema.properties[index].name)) { reader in
            try reader.decodeNamedField(index, of: schema, into: &fields)
        }
    }
}

/// A model's field decoder behind one concrete type, so the shared key-tree walk is specialised
/// for ``KeyedArchiveReader`` (a walk generic over an unknown decoder ran unspecialised, a third
/// slower on archives).
struct ErasedFieldDecoder: ModelFieldDecoder {
    /// Decodes field `index` into the model's own decoder behind the pointer.
    // Unsafe: the decoder as a raw pointer, so one function type serves every decoder type (`ModelReadInfo` makes the
    // function for the one type it is called with).
    typealias Decode = (UnsafeMutableRawPointer, Int, inout KeyedArchiveReader) throws -> Void

    /// The model's field decoder, of the type `decode` was made for.
    // Unsafe: points at the `inout` field decoder of `decodeFields(of:into:)`, valid while its
    // `withUnsafeMutablePointer` runs, which this value does not outlive.
    let fields: UnsafeMutableRawPointer
    let decode: Decode

    mutating func decodeField<R: ModelReader>(_ index: Int, from reader: inout R) throws {
        // The walk runs only over the archive's reader.
        guard R.self == KeyedArchiveReader.self else { return }
        // Unsafe: `R` is `KeyedArchiveReader` (checked above), so the rebinding changes no type: the reader is
        // passed on in place, where a cast would copy it out and back.
        try withUnsafeMutablePointer(to: &reader) { reader in
            try reader.withMemoryRebound(to: KeyedArchiveReader.self, capacity: 1) { try decode(fields, index, &$0.pointee) }
        }
    }
}
