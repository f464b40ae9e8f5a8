/// What writers read of a key tree per object, laid out so that reading it retains nothing:
/// the members of a node that writes only plain fields, and each key's JSON form.
///
/// A writer's walk runs once per object and touches every member, so what it costs per member
/// counts: iterating `edges` retains and releases each edge and its arrays, where these buffers
/// hold plain values and unretained references that the tree keeps alive.

/// One member of a node whose every edge ends in a field: the field to write and its edge.
public struct ModelPlainMember {
    /// The property's index in the schema (the edge's first leaf).
    public let field: Int
    /// The edge, unretained: the node's `edges` holds it for as long as the node lives.
    public let edge: Unmanaged<ModelKeyEdge>
    /// The edge's key as JSON writes it (``ModelKeyEdge/quotedKey``), read without touching the
    /// edge.
    public let quotedKey: ModelQuotedKey?

    init(field: Int, edge: ModelKeyEdge) {
        self.field = field
        self.edge = Unmanaged.passUnretained(edge)
        self.quotedKey = edge.quotedKey
    }
}

/// The members of a node whose every edge writes one field and goes no deeper, in the edges'
/// order, in memory of their own; nil base when the node has other edges (nested paths, edges
/// without a field), which the walk writes one by one.
public struct ModelPlainMembers: @unchecked Sendable {
    // @unchecked: the memory is written once, when the node is built, and only read afterwards;
    // the node frees it in its deinit.

    /// The members, or nil when the node is not plain.
    // Usable from inline: the inlinable key-tree walk loops over it per object written.
    // Unsafe: memory the node owns (allocated in `make`, freed by `free()` from its deinit).
    @usableFromInline let base: UnsafeMutablePointer<ModelPlainMember>?
    /// How many members.
    // Usable from inline: the bound of the inlinable walk's loop.
    @usableFromInline let count: Int

    /// The members of `edges`, or none (nil base) when some edge is not a plain field.
    static func make(_ edges: [ModelKeyEdge]) -> ModelPlainMembers {
        guard edges.allSatisfy({ $0.node == nil && !$0.leaves.isEmpty }) else { return ModelPlainMembers(base: nil, count: 0) }
        // Unsafe: filled here, read by the walk, freed with the node.
        let base = UnsafeMutablePointer<ModelPlainMember>.allocate(capacity: max(edges.count, 1))
        for (position, edge) in edges.enumerated() {
            (base + position).initialize(to: ModelPlainMember(field: edge.leaves[0].field, edge: edge))
        }
        return ModelPlainMembers(base: base, count: edges.count)
    }

    private init(base: UnsafeMutablePointer<ModelPlainMember>?, count: Int) {
        self.base = base
        self.count = count
    }

    /// Frees the memory; called once, by the node's deinit.
    func free() {
        base?.deallocate()
    }
}

/// A key as JSON writes it, with its quotes, in memory of its own: what writers copy for every
/// member instead of escaping the key again.
public struct ModelQuotedKey: @unchecked Sendable {
    // @unchecked: the bytes are written once, when the edge is made, and only read afterwards;
    // the edge frees them in its deinit.

    /// The bytes, `"key"`, alive as long as the edge that holds them; the memory goes on with
    /// zero bytes to a whole number of eight-byte words, aligned to eight, so a writer may copy
    /// it a word at a time.
    // Unsafe: memory the edge owns; a writer reads it while it holds the edge.
    public let bytes: UnsafeRawBufferPointer

    /// The quoted form of `key`, or nil when JSON must escape some of its characters.
    static func make(_ key: String) -> ModelQuotedKey? {
        guard isJSONVerbatim(key) else { return nil }
        let utf8 = Array(key.utf8)
        let count = utf8.count + 2
        // Unsafe: the quote, the key and the quote, then zeros to the end of the last word; written
        // once here and freed with the edge.
        let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: (count + 7) / 8 * 8, alignment: 8)
        memory.initializeMemory(as: UInt8.self, repeating: 0)
        memory[0] = UInt8(ascii: "\"")
        for (offset, byte) in utf8.enumerated() { memory[offset + 1] = byte }
        memory[count - 1] = UInt8(ascii: "\"")
        return ModelQuotedKey(bytes: UnsafeRawBufferPointer(rebasing: memory[0..<count]))
    }

    private init(bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// Frees the bytes; called once, by the edge's deinit.
    func free() {
        bytes.deallocate()
    }
}
