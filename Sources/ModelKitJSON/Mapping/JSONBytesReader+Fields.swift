import ModelKitCore

extension JSONBytesReader {
    /// Reads an object in one pass: each key is matched against the schema's key tree as it
    /// comes; keys no property wants are skipped without being decoded.
    @inlinable
    public mutating func decodeFields<F: ModelFieldDecoder>(of schema: ModelSchema, into fields: inout F) throws {
        try read("an object") { try $0.beginObject() }
        let keys = schema.remoteReadingKeys
        var priorities = FieldPriorities(schema: schema, keys: keys)
        try readMembers(of: keys, schema: schema, fields: &fields, priorities: &priorities)
    }

    /// Reads the members of an object already opened, up to and including its `}`.
    @inlinable
    mutating func readMembers<F: ModelFieldDecoder>(
        of node: ModelKeyNode, schema: ModelSchema, fields: inout F, priorities: inout FieldPriorities
    ) throws {
        let plainLeaves = node.plainLeaves
        while let match = try scanner.nextKey({ node.edgeIndex(forKeyBytes: $0) }) {
            guard let position = match else {
                try scanner.skipValue()
                continue
            }
            // Plain properties: no closures, no edge object; the key joins an error's path here.
            if let leaf = plainLeaves[position], options.readsPlainFieldsDirectly {
                do {
                    if try !decodeLeaf(leaf, of: schema, into: &fields, priorities: &priorities) {
                        try scanner.skipValue()
                    }
                } catch let error as ModelError {
                    throw error.prefixed(by: .key(node.keys[position]))
                }
                continue
            }
            let edge = node.edges[position]
            try withPathComponent(.key(edge.key)) { reader in
                try reader.readValue(at: edge, schema: schema, fields: &fields, priorities: &priorities)
            }
        }
    }

    /// Reads the value a key tree edge leads to: the fields that end there, then the keys below.
    @inlinable
    mutating func readValue<F: ModelFieldDecoder>(
        at edge: ModelKeyEdge, schema: ModelSchema, fields: inout F, priorities: inout FieldPriorities
    ) throws {
        if edge.node == nil && edge.leaves.count == 1 {
            if try !decodeLeaf(edge.leaves[0], of: schema, into: &fields, priorities: &priorities) {
                try scanner.skipValue()
            }
            return
        }
        // Several fields read the same value, or fields end here and others go deeper: read it
        // once for each, from the same place.
        let start = scanner.checkpoint()
        for leaf in edge.leaves {
            scanner.restore(start)
            if try !decodeLeaf(leaf, of: schema, into: &fields, priorities: &priorities) { try scanner.skipValue() }
        }
        guard let node = edge.node else { return }
        scanner.restore(start)
        try readNested(node, schema: schema, fields: &fields, priorities: &priorities)
    }

    /// Reads the keys or array indexes below a key path segment.
    @inlinable
    mutating func readNested<F: ModelFieldDecoder>(
        _ node: ModelKeyNode, schema: ModelSchema, fields: inout F, priorities: inout FieldPriorities
    ) throws {
        switch try scanner.peek() {
        case .object:
            try scanner.beginObject()
            try readMembers(of: node, schema: schema, fields: &fields, priorities: &priorities)
        case .array where node.hasIndexEdges:
            try scanner.beginArray()
            var index = 0
            while try scanner.nextElement() {
                if let position = node.edgeByIndex[index] {
                    let edge = node.edges[position]
                    try withPathComponent(.index(index)) { reader in
                        try reader.readValue(at: edge, schema: schema, fields: &fields, priorities: &priorities)
                    }
                } else {
                    try scanner.skipValue()
                }
                index &+= 1
            }
            for edge in node.edges where edge.leadsToRequiredField {
                if let wanted = edge.index, wanted >= index { throw outOfRange(wanted, count: index, edge, schema) }
            }
        case .null:
            _ = try scanner.consumeNull()
        default:
            throw ModelError.mismatch(
                expected: node.hasIndexEdges ? "an object or an array" : "an object",
                found: describeValue(at: scanner.checkpoint()))
        }
    }
}
