/// The one walk of a schema's key tree over any writer: nested objects for remote key paths,
/// arrays for index segments (`null` where no path names an element), and nested paths whose
/// values are all nil left out when nils are omitted. Formats supply only the sink:
/// ``ModelWriter/encodeObject(_:)``, ``ModelWriter/encodeMember(_:_:)`` and
/// ``ModelWriter/encodeArray(_:_:)``, and may write the members of objects that hold only plain
/// fields faster through ``ModelWriter/encodePlainMember(_:_:)``.
extension ModelWriter {
    // Inlinable: the default for the JSON bytes, JSON object, JSONValue and Codable writers, called per model written
    // (`Model.write`, generated `encode(to:)`); specialised there for the writer and model type.
    @inlinable
    public mutating func encodeModel<M: Model>(_ model: M) throws {
        try encodeModelObject(model)
    }

    /// Writes a model as an object by its schema's key tree for this writer's mapping (sorted
    /// when ``MappingOptions/sortsKeys`` is set).
    ///
    /// A class instance that contains itself (a cycle) is an error naming it, where the walk
    /// would go on without end.
    // Inlinable: the body of the default `encodeModel`, per model written; specialised with it, the schema and the
    // cycle check's class test are the model type's.
    @inlinable
    public mutating func encodeModelObject<M: Model>(_ model: M) throws {
        // Only class instances have relationships (a value type has nothing left for later) or
        // subclasses (a value type's schema is its type's, with no lookup through its metatype).
        guard isClassType(M.self) else {
            return try encodeModelObject(model, schema: M.modelSchema, instance: nil)
        }
        // What the store left for later is written too, not as the empty value it holds meanwhile.
        try model.loadPendingRelationships()
        try encodeModelObject(model, schema: model.dynamicModelSchema, instance: model.instanceForCycleCheck)
    }

    /// Writes the fields of a model of `schema` as an object; `instance` is the model when it is
    /// a class instance, for the cycle check. A writer whose callers are generic passes
    /// ``ErasedModelFields`` so the walk is compiled for the writer.
    // Inlinable: the walk every writer shares, per object written (the store's through `ErasedModelFields`);
    // specialised for the writer and the fields' type, each field's write is a direct call.
    @inlinable
    public mutating func encodeModelObject<M: ModelFieldEncoder>(_ model: M, schema: ModelSchema, instance: AnyObject?)
        throws
    {
        // Only the members' buffer is read on the common path: a plain value, where holding the
        // node itself for the walk cost a retain and a release per object written.
        let plain = schema.writingKeys(mapping, sorted: options.sortsKeys).plainMembers
        // A value type cannot contain itself: no call into the cycle check for it.
        var writes: WritesInProgress?
        if let instance {
            // Nil: the reference back to a model being written through an inverse, which nesting implies.
            guard let entered = try WritesInProgress.enter(instance, schema: schema) else { return try encodeNil() }
            writes = entered
        }
        defer { writes?.leave() }
        try encodeObject { writer in
            if plain.base != nil {
                try writer.walkPlainMembers(plain, of: model, schema: schema)
            } else {
                // A model with nested keys (or none): its node, looked up again, as it is not plain.
                let node = schema.writingKeys(writer.mapping, sorted: writer.options.sortsKeys)
                try writer.walkEdges(node, of: model, schema: schema)
            }
            if schema.keepsUnknownKeys(writer.mapping) { try model.encodeUnknownMembers(to: &writer) }
        }
    }

    /// Writes `members`, the payload keys a model keeps without modelling them (its
    /// `@UnknownKeys` property), in key order, but those its own properties write.
    public mutating func encodeUnknownMembers(_ members: [String: JSONValue], of schema: ModelSchema) throws {
        let own = schema.writingKeys(mapping)
        for key in members.keys.sorted() where own.edgeIndex(forKey: key) == nil {
            guard let value = members[key] else { continue }
            try encodeMember(ModelKeyEdge(unknownKey: key)) { writer in try value.write(to: &writer) }
        }
    }

    /// Writes the members `node` names.
    // Inlinable: the walk's loop over one object's keys, per object; internal, and inlinable so that the public walk
    // can call it.
    @inlinable
    mutating func walkMembers<M: ModelFieldEncoder>(_ node: ModelKeyNode, of model: M, schema: ModelSchema) throws {
        if node.plainMembers.base != nil { return try walkPlainMembers(node.plainMembers, of: model, schema: schema) }
        try walkEdges(node, of: model, schema: schema)
    }

    /// Writes the members `node` names, edge by edge (a node that is not plain: nested keys).
    // Inlinable: as walkMembers(_:of:schema:), which it ends.
    @inlinable
    mutating func walkEdges<M: ModelFieldEncoder>(_ node: ModelKeyNode, of model: M, schema: ModelSchema) throws {
        // Payloads only: stores and archives keep every property.
        let remote = mapping == .remote
        let omitsNils = options.nilEncoding == .omit
        for edge in node.edges {
            do {
                if let leaf = edge.leaves.first {
                    if remote && model.omitsModelField(leaf.field) { continue }
                    try encodeMember(edge) { writer in try writer.encodeField(leaf.field, of: model, schema: schema) }
                } else if let next = edge.node {
                    if omitsNils && !model.hasValues(below: edge) { continue }
                    try encodeMember(edge) { writer in try writer.walkNested(next, of: model, schema: schema) }
                }
            } catch let error as ModelError {
                throw error.prefixed(by: .key(edge.key))
            }
        }
    }

    /// Writes the members of a node whose every edge is one plain field: a loop over plain values
    /// that retains nothing.
    // Inlinable: the walk's loop for most objects, per object; internal, and inlinable so that the public walk can
    // call it.
    @inlinable
    mutating func walkPlainMembers<M: ModelFieldEncoder>(_ members: ModelPlainMembers, of model: M, schema: ModelSchema) throws {
        guard let base = members.base else { return }
        // Payloads only: stores and archives keep every property.
        let remote = mapping == .remote
        for position in 0..<members.count {
            // Unsafe: within the node's `count` members; the node (the schema's) outlives the walk.
            let member = base[position]
            if remote && model.omitsModelField(member.field) { continue }
            do {
                try encodePlainMember(member) { writer in try writer.encodeField(member.field, of: model, schema: schema) }
            } catch let error as ModelError {
                // The node's `edges` holds the edge while the walk runs.
                throw error.prefixed(by: .key(member.edge.takeUnretainedValue().key))
            }
        }
    }

    /// Writes what a key path segment opens: an array when every key below is an array index,
    /// an object otherwise.
    // Inlinable: per nested key path segment the walk writes; internal, and inlinable so that the walk can call it.
    @inlinable
    mutating func walkNested<M: ModelFieldEncoder>(_ node: ModelKeyNode, of model: M, schema: ModelSchema) throws {
        guard !node.edges.isEmpty, node.edges.allSatisfy({ $0.index != nil }) else {
            try encodeObject { writer in try writer.walkMembers(node, of: model, schema: schema) }
            return
        }
        let last = node.edges.reduce(0) { max($0, $1.index ?? 0) }
        try encodeArray(0...last) { writer, index in
            guard let position = node.edgeByIndex[index] else { return try writer.encodeNil() }
            let element = node.edges[position]
            if let leaf = element.leaves.first {
                try writer.encodeField(leaf.field, of: model, schema: schema)
            } else if let next = element.node {
                try writer.walkNested(next, of: model, schema: schema)
            } else {
                try writer.encodeNil()
            }
        }
    }
}

extension Model {
    /// The model as an object when it is a class instance (the identity the cycle check of
    /// ``ModelWriter/encodeModelObject(_:)`` tracks), nil for a value type: the reference
    /// `classInstance` gives, without `as AnyObject`, which on a generic value goes through the
    /// runtime's bridging cast and its conformance lookups on every model written.
    // Inlinable: the public inlinable `encodeModelObject` reads it per model written; specialised for the model type,
    // the class test folds to a constant.
    @inlinable
    package var instanceForCycleCheck: AnyObject? {
        // A class's value is its reference, so the bits are the same.
        isClassType(Self.self) ? unsafeBitCast(self, to: AnyObject.self) : nil
    }
}
