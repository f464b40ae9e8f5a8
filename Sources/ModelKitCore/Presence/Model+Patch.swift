import Foundation

// PATCH: a partial payload applied to an existing model, changing only the properties it gives.
// The reading is the in-place reading a context does for live instances (the generated
// `decodeModelField`, with its transformers, checks and constraints), without the context.

extension Model {
    /// Applies a partial payload: each property it gives takes the value it gives (`null` empties
    /// an optional), every other keeps its value; returns what the payload gave.
    ///
    /// ```swift
    /// var profile = try Profile(jsonString: #"{"name": "Ada", "bio": "Mathematician"}"#)
    /// let given = try profile.applyPatch(JSONValue(parsing: #"{"bio": null}"#))
    /// profile.bio          // nil
    /// given["name"]        // .absent
    /// ```
    ///
    /// All or nothing: a value that does not map, fails its checks or constraints, or a key the
    /// model rejects (`unknownKeys: .reject`) throws and leaves the model as it was. An
    /// identifier in the payload is not applied: a PATCH names its model elsewhere (its URL).
    public mutating func applyPatch(_ payload: JSONValue, options: MappingOptions = .default) throws -> ModelPresence {
        var reader = JSONValueReader(value: payload, options: options)
        return try patch(reading: &reader)
    }

    /// Applies a partial payload held as a JSON object (`JSONSerialization`'s dictionaries,
    /// arrays and numbers); see ``applyPatch(_:options:)-7zst0``.
    public mutating func applyPatch(json: Any, options: MappingOptions = .default) throws -> ModelPresence {
        var reader = JSONObjectReader(value: json, options: options)
        return try patch(reading: &reader)
    }

    /// Applies the partial payload `reader` is at; see ``applyPatch(_:options:)-7zst0``.
    public mutating func applyPatch<R: ModelReader>(reading reader: inout R) throws -> ModelPresence {
        try patch(reading: &reader)
    }

    // The one implementation, under another name than the class instances' non-mutating
    // `applyPatch`, which calls it on a `var` copy of the reference.
    mutating func patch<R: ModelReader>(reading reader: inout R) throws -> ModelPresence {
        let schema = dynamicModelSchema
        var fields = InPlaceFields(model: self, identifierIndex: schema.identifierIndex ?? -1)
        do {
            try reader.decodeFields(of: schema, into: &fields)
            try reader.throwCollectedProblems(model: schema.modelName)
            if reader.flags.validates && schema.hooks.contains(.validates) { try reader.validateModel(fields.model) }
        } catch {
            // A class instance was changed in place: give it its values back. A value was changed
            // in a copy, dropped here.
            if isClassType(Self.self) { fields.restore() }
            throw error
        }
        var presence = ModelPresence()
        for (field, _) in fields.previous {
            presence.record(schema.properties[field].name, isNull: fields.model.fieldValue(at: field) == nil)
        }
        self = fields.model
        return presence
    }
}

extension Model where Self: AnyObject {
    /// Applies a partial payload to this instance; see ``Model/applyPatch(_:options:)-7zst0``.
    public func applyPatch(_ payload: JSONValue, options: MappingOptions = .default) throws -> ModelPresence {
        var instance = self
        var reader = JSONValueReader(value: payload, options: options)
        return try instance.patch(reading: &reader)
    }

    /// Applies a partial payload held as a JSON object to this instance.
    public func applyPatch(json: Any, options: MappingOptions = .default) throws -> ModelPresence {
        var instance = self
        var reader = JSONObjectReader(value: json, options: options)
        return try instance.patch(reading: &reader)
    }
}
