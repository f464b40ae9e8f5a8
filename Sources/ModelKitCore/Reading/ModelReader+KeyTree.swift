/// The one walk of a schema's key tree over any reader: remote key paths with fallbacks, array
/// index segments, `null` where a path goes on, paths past the end of an array, and the errors'
/// paths. Formats supply only the access: ``ModelReader/readMembers(of:expected:_:)``,
/// ``ModelReader/readIndexedElements(of:_:)`` and ``ModelReader/peekShape()``.
///
/// A walk visits each value of the payload at most once per field that wants it: an object's
/// members are matched against the tree's edges as the reader finds them, and the fields that
/// end at an edge are decoded through ``ModelReader/decodeLeaf(_:of:into:priorities:)``, which
/// applies the null policy, fallback priorities, collect-all mode and error naming.
extension ModelReader {
    // Inlinable: generated `__ModelKitFields.init(reading:)` calls it once per object, in the user's module; the
    // default for the JSON bytes, JSONValue and JSON object readers, it specialises there with the walk for the
    // concrete reader and fields struct.
    @inlinable
    public mutating func decodeFields<F: ModelFieldDecoder>(of schema: ModelSchema, into fields: inout F) throws {
        try decodeFieldsByKeyTree(of: schema, into: &fields)
    }

    /// Reads the object at the current position into `fields` by the schema's key tree for this
    /// reader's mapping: the walk every format shares, and the default of ``decodeFields(of:into:)``.
    // Inlinable: the walk every reader shares, per object (the default `decodeFields`, and the Codable, archive and
    // store readers' own); specialised with its caller.
    @inlinable
    public mutating func decodeFieldsByKeyTree<F: ModelFieldDecoder>(of schema: ModelSchema, into fields: inout F) throws {
        let keys = schema.readingKeys(mapping)
        var priorities = FieldPriorities(schema: schema, keys: keys)
        try walkObject(
            keys, schema: schema, fields: &fields, priorities: &priorities,
            keepsUnknownKeys: schema.keepsUnknownKeys(mapping), expected: "an object")
    }

    /// The default of ``readMembersOrNull(of:expected:reportingUnknownKeys:_:unknown:)``.
    // Inlinable: the default for every reader the walk runs over but JSONObjectReader, per nested object it opens;
    // specialised with the walk.
    @inlinable
    public mutating func readMembersOrNull(
        of node: ModelKeyNode, expected: @autoclosure () -> String, reportingUnknownKeys: Bool,
        _ member: (inout Self, Int) throws -> Void, unknown: (inout Self, String) throws -> Void
    ) throws {
        if try peekShape() == .null {
            _ = try decodeNil()
            return
        }
        try readMembers(
            of: node, expected: expected(), reportingUnknownKeys: reportingUnknownKeys, member, unknown: unknown)
    }

    /// Reads the members of the object at the current position that `node` names; with
    /// `orNull`, `null` there reads none.
    // Inlinable: the walk's body for one object, per object read; internal, so `@inlinable` also makes it usable from
    // the public inlinable walk above.
    @inlinable
    mutating func walkObject<F: ModelFieldDecoder>(
        _ node: ModelKeyNode, schema: ModelSchema, fields: inout F, priorities: inout FieldPriorities,
        orNull: Bool = false, keepsUnknownKeys: Bool = false, expected: @autoclosure () -> String
    ) throws {
        let plainLeaves = node.plainLeaves
        let direct = flags.readsPlainFieldsDirectly
        let strict = (flags.unknownKeys ?? schema.unknownKeys) == .reject && !keepsUnknownKeys
        let reportsUnknownKeys = strict || keepsUnknownKeys
        func member(_ reader: inout Self, _ position: Int) throws {
            // Plain properties: no closures, no edge object; the key joins an error's path here.
            if direct, let leaf = plainLeaves[position] {
                do {
                    if try !reader.decodeLeaf(leaf, of: schema, into: &fields, priorities: &priorities) {
                        try reader.skipValue()
                    }
                } catch let error as ModelError {
                    throw error.prefixed(by: .key(node.keys[position]))
                }
                return
            }
            let edge = node.edges[position]
            do {
                try reader.withPathComponent(.key(edge.key)) { reader in
                    try reader.walkEdge(edge, schema: schema, fields: &fields, priorities: &priorities)
                }
            } catch let error as ModelError where error.modelName == nil {
                // A key path's value that is not an object: no property claims it, the model does.
                throw error.naming(model: schema.modelName, property: nil)
            }
        }
        func unknown(_ reader: inout Self, _ key: String) throws {
            if keepsUnknownKeys {
                // Read from a mark and back: the reader moves past the value itself.
                let start = reader.mark()
                try reader.withPathComponent(.key(key)) { reader in try fields.decodeUnknownKey(key, from: &reader) }
                reader.reset(to: start)
                return
            }
            let error = ModelError(.unknownKey, model: schema.modelName, path: ModelPath([.key(key)]))
            guard reader.flags.collectsAllErrors else { throw error }
            reader.record(error)
        }
        if orNull {
            try readMembersOrNull(of: node, expected: expected(), reportingUnknownKeys: reportsUnknownKeys, member, unknown: unknown)
        } else {
            try readMembers(of: node, expected: expected(), reportingUnknownKeys: reportsUnknownKeys, member, unknown: unknown)
        }
    }

    /// Reads the value an edge leads to: the fields that end there, then the keys below it.
    // Inlinable: per key of a nested path the walk meets; internal and inlinable so the public inlinable walk can call
    // it.
    @inlinable
    mutating func walkEdge<F: ModelFieldDecoder>(
        _ edge: ModelKeyEdge, schema: ModelSchema, fields: inout F, priorities: inout FieldPriorities
    ) throws {
        if edge.node == nil && edge.leaves.count == 1 {
            if try !decodeLeaf(edge.leaves[0], of: schema, into: &fields, priorities: &priorities) { try skipValue() }
            return
        }
        // Several fields read the same value, or fields end here and others go deeper: read it
        // once for each, from the same place.
        let start = mark()
        for leaf in edge.leaves {
            reset(to: start)
            if try !decodeLeaf(leaf, of: schema, into: &fields, priorities: &priorities) { try skipValue() }
        }
        guard let node = edge.node else { return }
        reset(to: start)
        try walkNested(node, schema: schema, fields: &fields, priorities: &priorities)
    }

    /// Reads the keys or array indexes below a key path segment; `null` there means every field
    /// below is missing.
    // Inlinable: per nested key path segment the walk opens; internal and inlinable so the public inlinable walk can
    // call it.
    @inlinable
    mutating func walkNested<F: ModelFieldDecoder>(
        _ node: ModelKeyNode, schema: ModelSchema, fields: inout F, priorities: inout FieldPriorities
    ) throws {
        guard node.hasIndexEdges else {
            // The common case: an object or `null`, told apart by the reader as it opens it.
            return try walkObject(
                node, schema: schema, fields: &fields, priorities: &priorities, orNull: true, expected: "an object")
        }
        switch try peekShape() {
        case .array:
            let count = try readIndexedElements(of: node) { reader, position in
                let edge = node.edges[position]
                try reader.withPathComponent(.index(edge.index ?? 0)) { reader in
                    try reader.walkEdge(edge, schema: schema, fields: &fields, priorities: &priorities)
                }
            }
            for edge in node.edges where edge.leadsToRequiredField {
                if let wanted = edge.index, wanted >= count { throw outOfRange(wanted, count: count, edge, schema) }
            }
        case .null:
            _ = try decodeNil()
        default:
            try walkObject(node, schema: schema, fields: &fields, priorities: &priorities, expected: "an object or an array")
        }
    }
}

/// What a reader finds at its position, as far as the key-tree walk cares.
public enum ModelValueShape: Hashable, Sendable {
    /// An object (a JSON object, a dictionary, a keyed container).
    case object
    /// An array.
    case array
    /// `null` (or the format's nil).
    case null
    /// Anything else: a string, a number, a boolean, ...
    case scalar
}
