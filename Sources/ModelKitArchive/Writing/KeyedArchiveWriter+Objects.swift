import Foundation
import ModelKitCore
import ModelKitPropertyList

// Objects with identity: models (from their schema) and hand-written `KeyedArchivable` types.
// A class instance gets one slot however often it is referenced; a conditional reference only
// reserves one; an object nested deeper than `deferralDepth` is written later from the top.

extension KeyedArchiveWriter {
    public mutating func encodeModel<M: Model>(_ model: M) throws {
        guard let slot = try slotToWrite(model, isClass: M.self is AnyClass) else { return }
        // The graph includes what the store left for later.
        try model.loadPendingRelationships()
        guard depth >= ArchiveEncodingState.deferralDepth else {
            return try KeyedArchiveWriter.writeModelBody(model, slot: slot, state: state, depth: depth)
        }
        state.pending.append(.init(slot: slot) { try KeyedArchiveWriter.writeModelBody(model, slot: slot, state: $0, depth: 0) })
    }

    /// Writes a hand-written archivable value as an object of its class.
    mutating func encodeArchivable<T: KeyedArchivable>(_ value: T) throws {
        guard let slot = try slotToWrite(value, isClass: T.self is AnyClass) else { return }
        guard depth >= ArchiveEncodingState.deferralDepth else {
            return try KeyedArchiveWriter.writeArchivableBody(value, slot: slot, state: state, depth: depth)
        }
        state.pending.append(.init(slot: slot) { try KeyedArchiveWriter.writeArchivableBody(value, slot: slot, state: $0, depth: 0) })
    }

    /// The slot whose body `value` is to be written in (now, or later from the top when nested
    /// deeper than `deferralDepth`); nil when its delegate's replacement was written in its
    /// place, or it is a reference to a slot written already (or only conditionally so far).
    @inline(__always)
    private mutating func slotToWrite<T>(_ value: T, isClass: Bool) throws -> Int? {
        if state.hasDelegate, try substitute(value, isObject: isClass) { return nil }
        return try identifiedSlot(value, isClass: isClass)
    }

    /// Gives `value` its slot (once per class instance) and makes it the result; returns the slot
    /// when its body is to be written now (nil when it is written already, or only referenced
    /// conditionally so far).
    private mutating func identifiedSlot<T>(_ value: T, isClass: Bool) throws -> Int? {
        guard isClass else {
            let slot = state.reserveSlot()
            result = .reference(slot)
            return slot
        }
        // `T` is a class: its value is the reference, which `as AnyObject` would look up through
        // the runtime's bridging cast (a fifth of an archive's writing time).
        // Unsafe: `isClass` is the caller's `T.self is AnyClass`, so `T` is a class and its value one reference, as
        // an `AnyObject` is.
        let object = unsafeBitCast(value, to: AnyObject.self)
        if let existing = state.slot(of: object) {
            result = .reference(existing)
            guard !isConditional && state.slotState(existing) == .conditional else { return nil }
            state.promote(existing)
            return existing
        }
        let slot = state.assignSlot(to: object, isConditional ? .conditional : .written)
        result = .reference(slot)
        return isConditional ? nil : slot
    }

    /// Writes a model's object: its archived properties by property key, its model version and
    /// its class (numbered after the values, as Apple's archiver does).
    static func writeModelBody<M: Model>(_ model: M, slot: Int, state: ArchiveEncodingState, depth: Int) throws {
        // A final class or a struct is its own dynamic type: no existential cast to find the schema.
        let schema = type(of: model) == M.self ? M.modelSchema : model.dynamicModelSchema
        let info = state.writeInfo(for: schema)
        // `$class`, the properties, then the model version; every object of the type shares the
        // keys.
        let count = info.keys.count
        // Unsafe: the object's values on the stack where they fit, not an array per object; `Int32` needs no
        // deinitializing, and every slot is written before `dictionary` reads them (`$class` at 0, field `position`
        // at `position + 1`, the version last: `keys` is `$class`, the fields, the version).
        try withUnsafeTemporaryAllocation(of: Int32.self, capacity: count) { values in
            // One writer for every property, reset for each (a writer per property retained and
            // released the state, and destroyed its optional members, every time).
            var writer = KeyedArchiveWriter(state: state, inline: true, depth: depth + 1)
            for (position, field) in info.fields.enumerated() {
                writer.result = .reference(0)
                writer.isConditional = field.conditional
                do {
                    try writer.encodeField(field.index, of: model, schema: schema)
                } catch let error as ModelError {
                    throw error.prefixed(by: .key(info.names[position]))
                }
                values[position + 1] = state.output.pointee.object(for: writer.result)
            }
            if info.classReference < 0 {
                info.classReference = state.output.pointee.uidObject(state.classSlot(info.archivedClass))
            }
            values[0] = info.classReference
            values[count - 1] = info.version
            // Unsafe: the type's shared keys in place and the values' buffer, both `count` long; `dictionary`
            // copies them during the call.
            let object = info.keys.withUnsafeBufferPointer { keys in
                state.output.pointee.dictionary(keys: keys, values: UnsafeBufferPointer(values))
            }
            state.output.pointee.setEntry(slot, object: object)
        }
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
        state.setEntry(
            state.objectEntry(keys: encoder.keys, values: encoder.values, classSlot: state.classSlot(archivedClass)), at: slot)
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
