import Foundation
import ModelKitCore
import ModelKitPropertyList

// Objects with identity: models (from their schema) and hand-written `KeyedArchivable` types.
// A class instance gets one slot however often it is referenced; a conditional reference only
// reserves one; an object nested deeper than `deferralDepth` is written later from the top.

extension KeyedArchiveWriter {
    public mutating func encodeModel<M: Model>(_ model: M) throws {
        if state.archiver?.delegate != nil, try substitute(model, isObject: M.self is AnyClass) { return }
        try writeIdentified(model, isClass: M.self is AnyClass) { state, model, slot, depth in
            try KeyedArchiveWriter.writeModelBody(model, slot: slot, state: state, depth: depth)
        }
    }

    /// Writes a hand-written archivable value as an object of its class.
    mutating func encodeArchivable<T: KeyedArchivable>(_ value: T) throws {
        if state.archiver?.delegate != nil, try substitute(value, isObject: T.self is AnyClass) { return }
        try writeIdentified(value, isClass: T.self is AnyClass) { state, value, slot, depth in
            try KeyedArchiveWriter.writeArchivableBody(value, slot: slot, state: state, depth: depth)
        }
    }

    /// Gives `value` its slot (once per class instance), honouring conditional references and
    /// deferring deep objects, and writes its body with `body`.
    private mutating func writeIdentified<T>(
        _ value: T, isClass: Bool, body: @escaping (ArchiveEncodingState, T, Int, Int) throws -> Void
    ) throws {
        let slot: Int
        if isClass {
            let object = value as AnyObject
            if let existing = state.slot(of: object) {
                if !isConditional && state.slotStates[existing] == .conditional {
                    state.promote(existing)
                    try writeBody(value, slot: existing, body: body)
                }
                result = .uid(UInt64(existing))
                return
            }
            if isConditional {
                result = .uid(UInt64(state.assignSlot(to: object, .conditional)))
                return
            }
            slot = state.assignSlot(to: object)
        } else {
            slot = state.reserveSlot()
        }
        try writeBody(value, slot: slot, body: body)
        result = .uid(UInt64(slot))
    }

    private func writeBody<T>(
        _ value: T, slot: Int, body: @escaping (ArchiveEncodingState, T, Int, Int) throws -> Void
    ) throws {
        if depth >= ArchiveEncodingState.deferralDepth {
            state.pending.append(ArchiveEncodingState.Pending(slot: slot) { state in try body(state, value, slot, 0) })
        } else {
            try body(state, value, slot, depth)
        }
    }

    /// Writes a model's object: its archived properties by property key, its model version and
    /// its class (numbered after the values, as Apple's archiver does).
    static func writeModelBody<M: Model>(_ model: M, slot: Int, state: ArchiveEncodingState, depth: Int) throws {
        let schema = model.dynamicModelSchema
        let info = state.writeInfo(for: schema)
        // `$class`, the properties, then the model version; every object of the type shares the
        // keys array.
        var values: [PropertyListValue] = []
        values.reserveCapacity(info.keys.count)
        values.append(.uid(0))
        for field in info.fields {
            var writer = KeyedArchiveWriter(state: state, inline: true, conditional: field.conditional, depth: depth + 1)
            do {
                try model.encodeModelField(field.index, to: &writer)
            } catch let error as ModelError {
                throw error.naming(model: schema.modelName, property: field.name).prefixed(by: .key(field.name))
            } catch let error as KeyedArchiveError {
                throw error.inContext(model: schema.modelName, key: field.name, objectID: nil)
            }
            values.append(writer.result)
        }
        values.append(info.versionValue)
        if info.classSlot == 0 { info.classSlot = state.classSlot(info.archivedClass) }
        values[0] = .uid(UInt64(info.classSlot))
        state.entries[slot] = .dictionary(PropertyListDictionary(uniqueKeys: info.keys, values: values))
    }

    /// Writes a hand-written type's object through its `encode(with:)`.
    static func writeArchivableBody<T: KeyedArchivable>(_ value: T, slot: Int, state: ArchiveEncodingState, depth: Int)
        throws
    {
        var encoder = KeyedArchiveObjectEncoder(state: state, depth: depth + 1)
        do {
            try value.encode(with: &encoder)
        } catch let error as KeyedArchiveError {
            throw error.inContext(model: T.archiveClassName, key: nil, objectID: nil)
        }
        let name = state.registry.archivedName(for: T.self) ?? T.archiveClassName
        let archivedClass = ArchivedClass(name: name, chain: [name] + T.archiveSuperclassNames)
        state.entries[slot] = state.objectEntry(
            keys: encoder.keys, values: encoder.values, classSlot: state.classSlot(archivedClass))
    }

    /// Asks the delegate for a replacement of `value`; returns true when a replacement (or nil)
    /// was written in its place.
    mutating func substitute(_ value: Any, isObject: Bool) throws -> Bool {
        guard !skipsDelegate, let archiver = state.archiver, let delegate = archiver.delegate else { return false }
        let identity = isObject ? ObjectIdentifier(value as AnyObject) : nil
        let replacement: Any?
        if let identity, let cached = state.replacements[identity] {
            replacement = unwrappedOptional(cached)
        } else {
            replacement = delegate.archiver(archiver, willEncode: value)
            if let identity { state.replacements[identity] = replacement as Any }
        }
        guard let replacement else {
            try encodeNil()
            return true
        }
        if isObject, type(of: replacement) is AnyClass, replacement as AnyObject === value as AnyObject { return false }
        var writer = self
        writer.skipsDelegate = true
        try writer.encodeAny(replacement)
        result = writer.result
        return true
    }
}

extension ArchiveEncodingState {
    /// The archiving facts of a model type, computed once per schema.
    func writeInfo(for schema: ModelSchema) -> ModelWriteInfo {
        let key = ObjectIdentifier(schema)
        if let info = modelInfo[key] { return info }
        let info = ModelWriteInfo(schema: schema, registry: registry)
        modelInfo[key] = info
        return info
    }
}
