import ModelKitCore
import ModelKitPropertyList

// Versioned models (`ModelMigrating`): each property is read through the model's per-key hook
// with the version archived in the object, then the additional values the model computes are
// merged in. Hand-written `KeyedArchivable` types are read through their `init(from:)`.

extension KeyedArchiveReader {
    /// Decodes the properties of a migrating model: each archived key through the model's hook
    /// for the archived version, then the additional values it computes.
    mutating func decodeMigratingFields<F: ModelFieldDecoder>(
        _ migrating: any ModelMigrating.Type, of schema: ModelSchema, info: ModelReadInfo, uid: Int,
        keys: PropertyListDictionary, into fields: inout F
    ) throws {
        var stored = KeyedArchiveObjectDecoder(state: state, objectID: uid, keys: keys, depth: depth)
        let version = stored.modelVersion
        var priorities = FieldPriorities(schema: schema, keys: schema.propertyReadingKeys)
        for (index, property) in schema.properties.enumerated() where info.fieldIndexByKey[property.name] == index {
            let source: ModelStoredValue
            do {
                source = try migrating.decodeValue(forKey: property.name, from: &stored, modelVersion: version)
            } catch let error as ModelError {
                throw error.naming(model: schema.modelName, property: property.name).prefixed(by: .key(property.name))
            }
            switch source {
            case .stored:
                guard let value = keys[property.name], try prepareField(index, value: value, info: info, uid: uid) else {
                    continue
                }
                let leaf = ModelKeyLeaf(field: index, priority: 0)
                try withPathComponent(.key(property.name)) { reader in
                    _ = try reader.decodeLeaf(leaf, of: schema, into: &fields, priorities: &priorities)
                }
            case .value(let value):
                try setField(index, to: value, of: schema, into: &fields)
            case .missing:
                continue
            }
        }
        let additional: [String: Any]
        do {
            additional = try migrating.decodeAdditionalValues(from: &stored, modelVersion: version)
        } catch let error as ModelError {
            throw error.naming(model: schema.modelName, property: nil)
        }
        for key in additional.keys.sorted() {
            guard let index = info.fieldIndexByKey[key], let value = additional[key] else {
                throw ModelError(.unknownKey, model: schema.modelName, property: key)
            }
            try setField(index, to: value, of: schema, into: &fields)
        }
    }

    /// Decodes the object at the reader's position as the hand-written type `T`, its class
    /// already resolved.
    mutating func decodeResolvedArchivable<T: KeyedArchivable>(_ type: T.Type) throws -> T {
        guard let uid = object() else { throw mismatch("an object of class '\(T.archiveClassName)'") }
        if let value = state.instances[uid] as? T { return value }
        try enter(uid, what: "'\(T.archiveClassName)'")
        let savedField = field
        field = nil
        defer { field = savedField }
        var value: T
        do {
            var decoder = KeyedArchiveObjectDecoder(state: state, objectID: uid, keys: state.dictionary(of: uid), depth: depth)
            value = try T(from: &decoder)
            if let substituted: T = try substitute(value, uid: uid) { value = substituted }
        } catch let error as KeyedArchiveError {
            leave(uid)
            throw error.inContext(model: T.archiveClassName, key: nil, objectID: uid)
        } catch {
            leave(uid)
            throw error
        }
        leave(uid, instance: T.self is AnyClass ? value as AnyObject : nil)
        return value
    }

    /// Decodes the object at the reader's position as `T`, checking its class chain against the
    /// type's archived name and the registry.
    mutating func decodeArchivable<T: KeyedArchivable>(_ type: T.Type) throws -> T {
        let name = state.registry.archivedName(for: T.self) ?? T.archiveClassName
        guard case .uid(let reference) = position, reference > 0 else { throw mismatch("an object of class '\(name)'") }
        let uid = Int(truncatingIfNeeded: reference)
        if let instance = state.instances[uid] {
            if let value = instance as? T { return value }
            throw KeyedArchiveError(
                .classNotAllowed(found: state.archivedClass(of: uid)?.name ?? "\(Swift.type(of: instance))", allowed: [name]),
                objectID: uid)
        }
        guard case .object(let archivedClass, _) = state.document.entry(uid) else {
            throw mismatch("an object of class '\(name)'")
        }
        guard archivedClass.chain.contains(name) || archivedClass.chain.contains(T.archiveClassName) else {
            throw KeyedArchiveError(.classNotAllowed(found: archivedClass.name, allowed: [name]), objectID: uid)
        }
        return try decodeResolvedArchivable(T.self)
    }
}
