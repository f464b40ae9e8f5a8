import Foundation
import ModelKitCore

// Models: the class found in the archive is resolved against the declared type (and registered
// subtypes) before anything is created; a class instance is decoded once per object and shared;
// a reference back to an object still being decoded, through an optional property of a class,
// reads as nil and is set once the object exists (see `drainFixups`).

extension KeyedArchiveReader {
    public mutating func decodeModel<M: Model>(_ type: M.Type) throws -> M {
        let info = state.readInfo(for: M.modelSchema)
        guard case .uid(let reference) = position, reference > 0 else {
            throw mismatch("an object of class '\(info.acceptedNames[0])'")
        }
        let uid = Int(truncatingIfNeeded: reference)
        if let instance = state.instances[uid] {
            if let model = instance as? M { return model }
            throw KeyedArchiveError(
                .classNotAllowed(found: state.archivedClass(of: uid)?.name ?? "\(Swift.type(of: instance))", allowed: info.acceptedNames),
                objectID: uid)
        }
        guard uid < state.document.classIndexes.count, state.document.classIndexes[uid] >= 0 else {
            throw mismatch("an object of class '\(info.acceptedNames[0])'")
        }
        switch info.resolution(ofClass: state.document.classIndexes[uid], in: state) {
        case .declared:
            return try decodeResolvedModel(M.self)
        case .registered(let entry):
            guard let model = try entry.decode(&self) as? M else {
                throw KeyedArchiveError(.classNotAllowed(found: entry.name, allowed: info.acceptedNames), objectID: uid)
            }
            return model
        case .notAllowed(let found):
            throw KeyedArchiveError(.classNotAllowed(found: found, allowed: info.acceptedNames), objectID: uid)
        }
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
        guard case .uid(let reference) = position else { throw mismatch("an object") }
        let uid = Int(truncatingIfNeeded: reference)
        if let model = state.instances[uid] as? M { return model }
        let schema = M.modelSchema
        try enter(uid, what: "'\(schema.modelName)'")
        let savedField = field
        field = nil
        defer { field = savedField }
        var model: M
        do {
            model = try M(modelReader: &self)
            let info = state.readInfo(for: schema)
            if options.validates && info.validates { try validateModel(model) }
            if let kept = state.preserved.removeValue(forKey: uid), info.preserves,
               var preserving = model as? any ModelPreservingValues
            {
                preserving.preservedValues = ModelPreservedValues(kept)
                if let updated = preserving as? M { model = updated }
            }
            if let substituted: M = try substitute(model, uid: uid) { model = substituted }
        } catch {
            leave(uid)
            throw error
        }
        leave(uid, instance: M.self is AnyClass ? model as AnyObject : nil)
        return model
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

    public mutating func decodeFields<F: ModelFieldDecoder>(of schema: ModelSchema, into fields: inout F) throws {
        guard let (uid, keys) = object() else { throw mismatch("an object of class '\(schema.modelName)'") }
        let info = state.readInfo(for: schema)
        let saved = position
        let savedField = field
        defer {
            position = saved
            field = savedField
        }
        if let migrating = info.migrating {
            let found = try decodeMigratingFields(migrating, of: schema, info: info, uid: uid, keys: keys, into: &fields)
            if found.count < info.requiredCount {
                try applyTypeDefaults(of: schema, info: info, skipping: found, into: &fields)
            }
            return
        }
        var found = 0
        let indexes = info.fieldIndexes(forKeys: keys.keys)
        for position in indexes.indices {
            let index = indexes[position]
            guard index >= 0 else { continue }
            if info.required[index] { found += 1 }
            try decodeStoredField(index, value: keys.values[position], of: schema, info: info, uid: uid, into: &fields)
        }
        if found < info.requiredCount {
            let present = Set(keys.keys.compactMap { info.fieldIndexByKey[$0] })
            try applyTypeDefaults(of: schema, info: info, skipping: present, into: &fields)
        }
    }

    /// Decodes property `index` from its stored value, or keeps the value aside when the model
    /// preserves it.
    mutating func decodeStoredField<F: ModelFieldDecoder>(
        _ index: Int, value: PropertyListValue, of schema: ModelSchema, info: ModelReadInfo, uid: Int, into fields: inout F
    ) throws {
        if !info.preservedFields.isEmpty && info.preservedFields.contains(index) {
            position = value
            field = nil
            let kept = try decodeAnyValue()
            state.preserved[uid, default: [:]][schema.properties[index].name] = isNSNull(kept) ? nil : kept
            return
        }
        if case .uid(let reference) = value, reference > 0 {
            try checkAllowedClass(of: Int(truncatingIfNeeded: reference), field: index, of: schema, info: info)
        }
        position = value
        field = FieldContext(owner: uid, schema: info.schemaID, index: index, canDefer: info.canDefer[index])
        if options.collectsAllErrors {
            let result = try recover { reader in try reader.decodeNamedField(index, of: schema, uid: uid, into: &fields) }
            if case .failure(let error) = result { record(error) }
        } else {
            try decodeNamedField(index, of: schema, uid: uid, into: &fields)
        }
    }

    /// Checks the class of the object a property refers to against the classes the property allows.
    @inline(__always)
    func checkAllowedClass(of target: Int, field index: Int, of schema: ModelSchema, info: ModelReadInfo) throws {
        guard target < state.document.classIndexes.count, state.document.classIndexes[target] >= 0,
              let allowed = info.allowed[index], let archivedClass = state.archivedClass(of: target),
              !archivedClass.chain.contains(where: allowed.contains)
        else { return }
        throw KeyedArchiveError(
            .classNotAllowed(found: archivedClass.name, allowed: info.allowedLists[index]),
            objectID: target, key: schema.properties[index].name, modelName: schema.modelName)
    }

    /// Runs the generated field decoder, naming the model and property in what it throws.
    mutating func decodeNamedField<F: ModelFieldDecoder>(
        _ index: Int, of schema: ModelSchema, uid: Int, into fields: inout F
    ) throws {
        do {
            try fields.decodeField(index, from: &self)
        } catch let error as ModelError {
            let name = schema.properties[index].name
            throw error.naming(model: schema.modelName, property: name).prefixed(by: .key(name))
        } catch let error as KeyedArchiveError {
            throw error.inContext(model: schema.modelName, key: schema.properties[index].name, objectID: uid)
        }
    }

    /// Gives required properties the archive lacks their type's default (zero, false, empty),
    /// as Apple's unarchiver does for missing keys; properties of other types stay missing.
    mutating func applyTypeDefaults<F: ModelFieldDecoder>(
        of schema: ModelSchema, info: ModelReadInfo, skipping present: Set<Int>, into fields: inout F
    ) throws {
        for (index, property) in schema.properties.enumerated() where info.required[index] {
            guard !present.contains(index), let zero = typeDefault(for: property.valueType) else { continue }
            try setField(index, to: zero, of: schema, into: &fields)
        }
    }

    /// Sets property `index` from a Swift value (migration results, additional values, type
    /// defaults), checked against the property's type.
    mutating func setField<F: ModelFieldDecoder>(_ index: Int, to value: Any, of schema: ModelSchema, into fields: inout F)
        throws
    {
        let name = schema.properties[index].name
        var reader = JSONObjectReader(value: value, mapping: .propertyKeys, options: options)
        do {
            try fields.decodeField(index, from: &reader)
        } catch let error as ModelError {
            throw error.naming(model: schema.modelName, property: name).prefixed(by: .key(name))
        }
    }
}

/// The default a missing key of `type` decodes as, when the type has one.
func typeDefault(for type: Any.Type) -> Any? {
    guard let defaulted = type as? any KeyedArchiveDefaultValue.Type else { return nil }
    return defaultValue(of: defaulted)
}

private func defaultValue<T: KeyedArchiveDefaultValue>(of type: T.Type) -> Any {
    T.archiveDefaultValue
}
