import ModelKitCore

extension JSONBytesWriter {
    /// Writes a model as an object, walking its schema's remote key tree (sorted when the
    /// output sorts keys).
    @inlinable
    public mutating func encodeModel<M: Model>(_ model: M) throws {
        let schema = model.dynamicModelSchema
        try enter()
        flush()
        writer.beginObject()
        try writeMembers(of: schema.writingKeys(.remote, sorted: writer.options.contains(.sortedKeys)), model, schema)
        writer.endObject()
        depth &-= 1
    }

    /// Writes the members of an object already opened.
    @inlinable
    mutating func writeMembers<M: Model>(of node: ModelKeyNode, _ model: M, _ schema: ModelSchema) throws {
        for edge in node.edges {
            do {
                if let leaf = edge.leaves.first {
                    if omitsNils { pending.append(.key(edge)) } else { writeKey(edge) }
                    try encodeField(leaf.field, of: model, schema: schema)
                } else if let next = edge.node {
                    try writeNested(next, at: edge, model, schema)
                }
            } catch let error as ModelError {
                throw error.prefixed(by: .key(edge.key))
            }
        }
    }

    /// Writes the object (or, for index segments, the array) a key path segment opens.
    @usableFromInline
    mutating func writeNested<M: Model>(_ node: ModelKeyNode, at edge: ModelKeyEdge, _ model: M, _ schema: ModelSchema)
        throws
    {
        if !node.edges.isEmpty && node.edges.allSatisfy({ $0.index != nil }) {
            try writeElements(of: node, at: edge, model, schema)
            return
        }
        guard omitsNils else {
            writeKey(edge)
            writer.beginObject()
            try writeMembers(of: node, model, schema)
            writer.endObject()
            return
        }
        // Hold the key and the brace back: if nothing below is written, neither is.
        let mark = pending.count
        pending.append(.key(edge))
        pending.append(.object)
        try writeMembers(of: node, model, schema)
        if pending.count > mark {
            pending.removeSubrange(mark...)
        } else {
            writer.endObject()
        }
    }

    /// Writes `media.0.url`-style paths as an array, `null` where no path names an element.
    @usableFromInline
    mutating func writeElements<M: Model>(of node: ModelKeyNode, at edge: ModelKeyEdge, _ model: M, _ schema: ModelSchema)
        throws
    {
        if omitsNils && !node.edges.contains(where: { model.hasValues(below: $0) }) { return }
        flush()
        writeKey(edge)
        writer.beginArray()
        let last = node.edges.compactMap(\.index).max() ?? -1
        for index in 0...max(last, 0) where last >= 0 {
            guard let position = node.edgeByIndex[index] else {
                writer.writeNull()
                continue
            }
            let element = node.edges[position]
            do {
                if let leaf = element.leaves.first {
                    let before = writer.bytes.count
                    try encodeField(leaf.field, of: model, schema: schema)
                    if writer.bytes.count == before { writer.writeNull() }
                } else if let next = element.node {
                    writer.beginObject()
                    let saved = pending
                    pending = []
                    try writeMembers(of: next, model, schema)
                    pending = saved
                    writer.endObject()
                }
            } catch let error as ModelError {
                throw error.prefixed(by: .index(index))
            }
        }
        writer.endArray()
    }
}
