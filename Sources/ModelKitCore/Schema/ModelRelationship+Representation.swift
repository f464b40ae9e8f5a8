// A relationship written as its models' identifiers (`@Relationship(representation:
// .identifiers)`): payload formats write `"author": 1` and `"tags": ["swift"]`, and every reader
// with a context takes an identifier where it expects an identified class model, as the model
// the context holds or loads for it. The generated `encodeModelField` calls `encodeIdentifiers`
// for such a property; overloads chosen at compile time accept only relationships.

extension ModelWriter {
    /// Writes an optional to-one as its model's identifier (`null` for nil) where the writer
    /// maps payloads (``ModelSchema/Mapping/remote``); elsewhere as any value (a store writes
    /// identifiers anyway, an archive keeps the graph).
    // Inlinable: a generated encodeModelField calls it per such property written; specialised there for the writer
    // and model type, the mapping test and the identifier's write are direct.
    @inlinable
    public mutating func encodeIdentifiers<Other: Model & AnyObject>(_ value: Other?) throws {
        guard mapping == .remote else { return try encodeValue(value) }
        guard let value else { return try encodeNil() }
        try encodeIdentifier(of: value)
    }

    /// Writes a non-optional to-one as its model's identifier.
    // Inlinable: as the optional overload.
    @inlinable
    public mutating func encodeIdentifiers<Other: Model & AnyObject>(_ value: Other) throws {
        guard mapping == .remote else { return try encodeValue(value) }
        try encodeIdentifier(of: value)
    }

    /// Writes a to-many as an array of its models' identifiers, in order.
    // Inlinable: as the optional overload.
    @inlinable
    public mutating func encodeIdentifiers<Other: Model & AnyObject>(_ value: [Other]) throws {
        guard mapping == .remote else { return try encodeValue(value) }
        try encodeArray(value) { writer, element in try writer.encodeIdentifier(of: element) }
    }

    /// Writes the value of `model`'s `@Identifier` property, as that property writes it.
    // Inlinable: called per related model by the overloads above; specialised with them.
    @inlinable
    mutating func encodeIdentifier<Other: Model & AnyObject>(of model: Other) throws {
        let schema = model.dynamicModelSchema
        guard let index = schema.identifierIndex else {
            throw ModelError(.invalidValue, expected: "a model with an '@Identifier' property", found: "'\(schema.modelName)'")
        }
        try model.encodeModelField(index, to: &self)
    }
}

extension ModelReader {
    /// The model of type `M` the identifier at the reader's position names: the one `context`
    /// holds, or the one its store loads; an error naming the identifier when neither has it.
    package mutating func decodeReference<M: Model>(_ type: M.Type, identifierIndex: Int, in context: ModelContext) throws -> M {
        let schema = M.modelSchema
        func read<Identifier: ModelValue>(_: Identifier.Type) throws -> AnyHashable? {
            try Identifier.read(from: &self) as? AnyHashable
        }
        guard let identifierType = schema.properties[identifierIndex].valueType as? any ModelValue.Type,
            let identifier = try read(identifierType)
        else {
            throw ModelError(.invalidValue, expected: "a '\(schema.modelName)' as an object", found: "an identifier of another type")
        }
        if let model = try context.liveOrLoadedModel(M.self, identifier: identifier) { return model }
        throw ModelError(
            .invalidValue,
            expected: "a '\(schema.modelName)' as an object, or the identifier of one the context holds or loads",
            found: "\(identifier.base)")
    }
}
