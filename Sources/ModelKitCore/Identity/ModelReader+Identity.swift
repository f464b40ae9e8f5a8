/// Identity during mapping: when a payload's identifier is already live in the options'
/// context, the reader updates that instance in place instead of creating another.
extension ModelReader {
    /// Reads an identified class model through `context`: the live instance updated in place,
    /// or the stored one loaded and updated, or a new one registered.
    public mutating func decodeIdentified<M: Model>(_ type: M.Type, in context: ModelContext) throws -> M {
        let schema = M.modelSchema
        guard let identifierIndex = schema.identifierIndex else { return try decodeUnidentified(M.self) }
        // An identifier where the model's object could be (a relationship written as identifiers).
        if try peekShape() == .scalar { return try decodeReference(M.self, identifierIndex: identifierIndex, in: context) }
        // Read the identifier ahead, then come back to map the object.
        let start = mark()
        var probe = IdentifierProbe<M>(identifierIndex: identifierIndex)
        try decodeFields(of: schema, into: &probe)
        reset(to: start)
        guard let identifier = probe.identifier else { return try decodeUnidentified(M.self) }
        return try context.performMapping {
            let existing = try context.liveOrLoadedModel(M.self, identifier: identifier)
            if let existing {
                // All or nothing: a field or validation that fails gives the instance back the
                // values it had, and so does a failure later in the run.
                var fields = InPlaceFields(model: existing, identifierIndex: identifierIndex)
                do {
                    try decodeFields(of: existing.dynamicModelSchema, into: &fields)
                    if flags.validates { try validateModel(existing) }
                } catch {
                    fields.restore()
                    throw error
                }
                if !fields.previous.isEmpty { context.recordUndo { fields.restore() } }
                return existing
            }
            let model = try decodeUnidentified(M.self)
            let live = context.register(model, identifier: identifier)
            if let tracker = context.tracker, (live as AnyObject) === (model as AnyObject) {
                tracker.contextDidCreate(live, in: context)
            }
            return live
        }
    }

    /// Reads a model without identity: its initializer, then validation.
    // Inlinable: every model without identity is read through it (the default `decodeModel`, the store's readers), per
    // model; specialised for the reader and model type, the generated initializer is a direct call.
    @inlinable
    public mutating func decodeUnidentified<M: Model>(_ type: M.Type) throws -> M {
        let model = try M(modelReader: &self)
        if flags.validates && M.modelSchema.hooks.contains(.validates) { try validateModel(model) }
        return model
    }
}

/// Reads only a model's identifier from an object, skipping every other value.
struct IdentifierProbe<M: Model>: ModelFieldDecoder {
    let identifierIndex: Int
    var identifier: AnyHashable?

    init(identifierIndex: Int) {
        self.identifierIndex = identifierIndex
    }

    mutating func decodeField<R: ModelReader>(_ index: Int, from reader: inout R) throws {
        if index == identifierIndex {
            identifier = try M.decodeModelIdentifier(from: &reader)
        } else {
            try reader.skipValue()
        }
    }
}

/// Applies an object's values to a live instance, property by property (missing keys keep
/// their values), remembering each property's value before, so the update can be undone; the
/// identifier is already equal.
package struct InPlaceFields<M: Model>: ModelFieldDecoder {
    var model: M
    let identifierIndex: Int
    /// The properties set so far and their values before, in order.
    var previous: [(field: Int, value: Any?)] = []

    package init(model: M, identifierIndex: Int) {
        self.model = model
        self.identifierIndex = identifierIndex
    }

    package mutating func decodeField<R: ModelReader>(_ index: Int, from reader: inout R) throws {
        if index == identifierIndex {
            try reader.skipValue()
            return
        }
        let before = model.fieldValue(at: index)
        try model.decodeModelField(index, from: &reader)
        previous.append((index, before))
    }

    /// Gives the instance back the values it had before.
    package func restore() {
        var model = model
        for (field, value) in previous.reversed() { model.restoreField(field, to: value) }
    }
}
