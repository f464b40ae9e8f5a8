import Foundation

extension JSONObjectReader {
    /// Reads an object by looking up each key of the schema's key tree in the dictionary.
    @inlinable
    public mutating func decodeFields<F: ModelFieldDecoder>(of schema: ModelSchema, into fields: inout F) throws {
        guard let object = value as? [String: Any] else { throw mismatch("an object") }
        try enter()
        defer {
            depth -= 1
            value = object
        }
        let keys = schema.readingKeys(mapping)
        var priorities = FieldPriorities(schema: schema, keys: keys)
        try readObject(object, node: keys, schema: schema, fields: &fields, priorities: &priorities)
    }

    @inlinable
    mutating func readObject<F: ModelFieldDecoder>(
        _ object: [String: Any], node: ModelKeyNode, schema: ModelSchema, fields: inout F,
        priorities: inout FieldPriorities
    ) throws {
        let keys = node.keys
        let plainLeaves = node.plainLeaves
        for position in keys.indices {
            guard let child = object[keys[position]] else { continue }
            // Plain properties: no closures, no edge object; the key joins an error's path here.
            if let leaf = plainLeaves[position], options.readsPlainFieldsDirectly {
                value = consume child
                do {
                    _ = try decodeLeaf(leaf, of: schema, into: &fields, priorities: &priorities)
                } catch let error as ModelError {
                    throw error.prefixed(by: .key(keys[position]))
                }
                continue
            }
            let edge = node.edges[position]
            try withPathComponent(.key(edge.key)) { reader in
                try reader.readEdge(edge, value: child, schema: schema, fields: &fields, priorities: &priorities)
            }
        }
    }

    @inlinable
    mutating func readEdge<F: ModelFieldDecoder>(
        _ edge: ModelKeyEdge, value child: Any, schema: ModelSchema, fields: inout F,
        priorities: inout FieldPriorities
    ) throws {
        for leaf in edge.leaves {
            value = child
            _ = try decodeLeaf(leaf, of: schema, into: &fields, priorities: &priorities)
        }
        guard let node = edge.node else { return }
        value = child
        if let object = child as? [String: Any] {
            try enter()
            defer { depth -= 1 }
            try readObject(object, node: node, schema: schema, fields: &fields, priorities: &priorities)
        } else if node.hasIndexEdges, let array = child as? [Any] {
            try enter()
            defer { depth -= 1 }
            for next in node.edges {
                guard let index = next.index else { continue }
                guard index < array.count else {
                    if next.leadsToRequiredField { throw outOfRange(index, count: array.count, next, schema) }
                    continue
                }
                try withPathComponent(.index(index)) { reader in
                    try reader.readEdge(next, value: array[index], schema: schema, fields: &fields, priorities: &priorities)
                }
            }
        } else if !isNullValue(child) {
            throw mismatch(node.hasIndexEdges ? "an object or an array" : "an object")
        }
    }
}
