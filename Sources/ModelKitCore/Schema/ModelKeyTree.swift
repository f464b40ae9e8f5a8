/// The remote key paths (or property keys) of a schema as a tree, built once per type.
///
/// Readers walk it instead of the property list: at each object they match a key to an edge,
/// decode the fields that end there and descend into the node that continues there. Writers walk
/// it to produce nested objects. The tree is what makes `entities.url.urls` cost one key match per
/// level rather than a string split per value.
public final class ModelKeyNode: Sendable {
    /// The edges leaving this node, in declaration order.
    public let edges: [ModelKeyEdge]
    /// Matches key bytes to an edge index.
    // Usable from inline: the inlinable `edgeIndex(forKeyBytes:)` below matches through it.
    @usableFromInline
    package let matcher: KeyMatcher
    /// Whether some edge's key is an array index, so an array here is walked element by element.
    public let hasIndexEdges: Bool
    /// Whether two edges decode the same field from different paths (fallback keys).
    public let hasFallbacks: Bool
    /// For each array index an edge names, the edge's position in ``edges``.
    public let edgeByIndex: [Int: Int]
    /// The edges' keys, in order (readers loop over them without touching the edges).
    public let keys: [String]
    /// For each edge that ends in exactly one field and goes no deeper, that field; nil for the
    /// others. Readers take this fast path for plain properties.
    public let plainLeaves: [ModelKeyLeaf?]
    /// The edges as plain members when every one writes one field and goes no deeper (nil base
    /// otherwise): writers loop over them without retaining anything.
    // Usable from inline: the inlinable key-tree walk of ModelWriter reads it per object written.
    @usableFromInline let plainMembers: ModelPlainMembers

    package init(edges: [ModelKeyEdge]) {
        self.edges = edges
        self.plainMembers = ModelPlainMembers.make(edges)
        self.keys = edges.map(\.key)
        self.plainLeaves = edges.map { $0.node == nil && $0.leaves.count == 1 ? $0.leaves[0] : nil }
        self.matcher = KeyMatcher(keys: edges.map(\.key))
        self.hasIndexEdges = edges.contains { $0.index != nil }
        var edgeByIndex: [Int: Int] = [:]
        for (position, edge) in edges.enumerated() {
            if let index = edge.index, edgeByIndex[index] == nil { edgeByIndex[index] = position }
        }
        self.edgeByIndex = edgeByIndex
        self.hasFallbacks = edges.contains { edge in
            edge.leaves.contains { $0.priority > 0 } || (edge.node?.hasFallbacks ?? false)
        }
    }

    deinit {
        plainMembers.free()
    }

    /// The edge for a key, if any.
    public func edge(forKey key: String) -> ModelKeyEdge? {
        edgeIndex(forKey: key).map { edges[$0] }
    }

    /// The position in ``edges`` of the edge for a key, if any.
    public func edgeIndex(forKey key: String) -> Int? {
        var key = key
        // The key's own UTF-8, borrowed for the lookup: the matcher reads raw bytes, and a String key is not copied.
        return key.withUTF8 { matcher.index(of: UnsafeRawBufferPointer($0)) }
    }

    /// The edge index for raw UTF-8 key bytes, if any.
    // Inlinable for byte readers of other modules, as the `expected:` form below (no reader in this package calls this
    // one). Raw bytes, so a reader passes a key where it lies in its input, with no String made.
    @inlinable
    public func edgeIndex(forKeyBytes bytes: UnsafeRawBufferPointer) -> Int? {
        matcher.index(of: bytes)
    }

    /// The edge index for raw UTF-8 key bytes, trying position `expected` first: readers pass
    /// the position after the last key matched, since payloads mostly keep a model's order.
    // Inlinable: the JSON bytes reader's inlinable `readMembers` (ModelKitJSON) matches every key through it in strict
    // mode, per key; inlined there, one call into the matcher. Raw bytes, so the key is matched where it lies in the
    // document.
    @inlinable
    public func edgeIndex(forKeyBytes bytes: UnsafeRawBufferPointer, expected: Int) -> Int? {
        matcher.index(of: bytes, expected: expected)
    }
}

/// One key leaving a ``ModelKeyNode``: the fields whose path ends here and the node that goes on.
///
/// A class, so readers walking a tree per object pass one reference around instead of copying
/// (and retaining) every array an edge holds.
public final class ModelKeyEdge: Sendable {
    /// The key.
    public let key: String
    /// The key as an array index, when it is all digits.
    public let index: Int?
    /// The fields whose path ends at this key.
    public let leaves: [ModelKeyLeaf]
    /// Keys below this one, for longer paths.
    public let node: ModelKeyNode?
    /// Whether a field that must have a value (no default, no fallback) ends at or below this key.
    public let leadsToRequiredField: Bool
    /// The key as a quoted JSON string, `"key"`, when it needs no escaping (nil otherwise), so
    /// JSON writers copy it instead of escaping it on every write.
    public let quotedKey: ModelQuotedKey?

    /// The edge of a key no property names (one an `@UnknownKeys` property kept), to write it.
    package convenience init(unknownKey key: String, index: Int? = nil) {
        self.init(key: key, index: index, leaves: [], node: nil, leadsToRequiredField: false)
    }

    init(key: String, index: Int?, leaves: [ModelKeyLeaf], node: ModelKeyNode?, leadsToRequiredField: Bool) {
        self.key = key
        self.index = index
        self.leaves = leaves
        self.node = node
        self.leadsToRequiredField = leadsToRequiredField
        self.quotedKey = ModelQuotedKey.make(key)
    }

    deinit {
        quotedKey?.free()
    }
}

/// Whether JSON writes `key` between quotes as it is: printable ASCII, no quote or backslash.
func isJSONVerbatim(_ key: String) -> Bool {
    key.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }
}

/// A field reached at the end of a key path.
public struct ModelKeyLeaf: Sendable {
    /// The property's index in the schema.
    public let field: Int
    /// 0 for a property's first path, 1 for its first fallback, and so on.
    public let priority: Int
    /// `null` here counts as missing, so the property's default applies.
    public let nullUsesDefault: Bool
    /// The property has no default, is not optional and has no other path.
    public let isRequired: Bool

    package init(field: Int, priority: Int, nullUsesDefault: Bool = false, isRequired: Bool = false) {
        self.field = field
        self.priority = priority
        self.nullUsesDefault = nullUsesDefault
        self.isRequired = isRequired
    }
}

extension ModelKeyNode {
    /// Builds a tree from (path, leaf) pairs; leaves keep the order given.
    package static func build(_ paths: [(segments: [String], leaf: ModelKeyLeaf)]) -> ModelKeyNode {
        var order: [String] = []
        var leavesByKey: [String: [ModelKeyLeaf]] = [:]
        var deeperByKey: [String: [(segments: [String], leaf: ModelKeyLeaf)]] = [:]
        for (segments, leaf) in paths {
            guard let first = segments.first else { continue }
            if leavesByKey[first] == nil && deeperByKey[first] == nil { order.append(first) }
            if segments.count == 1 {
                leavesByKey[first, default: []].append(leaf)
            } else {
                deeperByKey[first, default: []].append((Array(segments.dropFirst()), leaf))
            }
        }
        let edges = order.map { key in
            let leaves = leavesByKey[key] ?? []
            let node = deeperByKey[key].map(build)
            return ModelKeyEdge(
                key: key,
                index: arrayIndex(of: key),
                leaves: leaves,
                node: node,
                leadsToRequiredField: leaves.contains(where: \.isRequired)
                    || (node?.edges.contains(where: \.leadsToRequiredField) ?? false))
        }
        return ModelKeyNode(edges: edges)
    }

    /// The same tree with every node's edges sorted by key (for sorted-keys output).
    package func sorted() -> ModelKeyNode {
        ModelKeyNode(
            edges: edges.sorted { $0.key < $1.key }.map { edge in
                ModelKeyEdge(
                    key: edge.key, index: edge.index, leaves: edge.leaves, node: edge.node?.sorted(),
                    leadsToRequiredField: edge.leadsToRequiredField)
            })
    }
}

/// Finds which of a fixed set of keys some UTF-8 bytes spell, without allocating.
///
/// An open-addressing table of FNV-1a hashes over the key bytes, stored contiguously in memory
/// of its own (a lookup touches no array, so it retains nothing). Payloads mostly list keys in
/// the order a model declares them, so a reader passes the position it expects next and a
/// match there skips the hash.
// Usable from inline: the inlinable `edgeIndex(forKeyBytes:)` calls into it, and its inlinable lookups below read its
// tables.
@usableFromInline
package final class KeyMatcher: @unchecked Sendable {
    // @unchecked: the memory is written once, in `init`, and only read afterwards.
    // Usable from inline: read by the inlinable `isKey`. Memory of its own, as all four tables (see above): written
    // once in `init`, a lookup then reads them with no array to retain or bounds to check.
    @usableFromInline let bytes: UnsafeMutablePointer<UInt8>
    /// Where each key starts in `bytes`, and one more: where the last one ends.
    // Usable from inline: read by the inlinable `isKey` and `keyStart(at:)`; memory of its own like `bytes`.
    @usableFromInline let starts: UnsafeMutablePointer<Int>
    // Usable from inline: probed by the inlinable `index(of:)`; memory of its own like `bytes`.
    @usableFromInline let table: UnsafeMutablePointer<Int32>
    /// Each key's length when JSON writes it between quotes as it is (printable ASCII, no quote
    /// or backslash), else -1: a JSON reader that finds those bytes, quoted, has found the key.
    // Usable from inline: read by the inlinable `verbatimLength(at:)`; memory of its own like `bytes`.
    @usableFromInline let verbatimLengths: UnsafeMutablePointer<Int>
    // Usable from inline: read by the inlinable `index(of:)`.
    @usableFromInline let mask: Int
    /// How many keys.
    // Usable from inline: read by the inlinable `index(of:expected:)` and `keyCount`.
    @usableFromInline let count: Int

    init(keys: [String]) {
        var allBytes: [UInt8] = []
        var allStarts: [Int] = [0]
        for key in keys {
            allBytes.append(contentsOf: key.utf8)
            allStarts.append(allBytes.count)
        }
        var size = 4
        while size < keys.count * 2 { size *= 2 }
        var slots = [Int32](repeating: -1, count: size)
        for index in keys.indices {
            // Each key hashed where it lies in `allBytes`, through the raw-bytes hash every lookup uses.
            let hash = allBytes.withUnsafeBytes { raw in
                KeyMatcher.hash(UnsafeRawBufferPointer(rebasing: raw[allStarts[index]..<allStarts[index + 1]]))
            }
            var slot = hash & (size - 1)
            while slots[slot] >= 0 {
                // A duplicate key keeps its first position.
                if allBytes[allStarts[Int(slots[slot])]..<allStarts[Int(slots[slot]) + 1]].elementsEqual(keys[index].utf8) {
                    break
                }
                slot = (slot + 1) & (size - 1)
            }
            if slots[slot] < 0 { slots[slot] = Int32(index) }
        }
        // The four tables are copied once into memory of their own, freed in `deinit` (see the stored properties).
        bytes = .allocate(capacity: max(allBytes.count, 1))
        bytes.initialize(from: allBytes, count: allBytes.count)
        starts = .allocate(capacity: allStarts.count)
        starts.initialize(from: allStarts, count: allStarts.count)
        table = .allocate(capacity: size)
        table.initialize(from: slots, count: size)
        verbatimLengths = .allocate(capacity: max(keys.count, 1))
        for (index, key) in keys.enumerated() {
            (verbatimLengths + index).initialize(to: isJSONVerbatim(key) ? key.utf8.count : -1)
        }
        mask = size - 1
        count = keys.count
    }

    deinit {
        bytes.deallocate()
        starts.deallocate()
        table.deallocate()
        verbatimLengths.deallocate()
    }

    // Inlinable: `index(of:)` hashes every key it looks up with it, per key; inlined there, the loop runs over the
    // key's bytes where they lie.
    @inlinable
    package static func hash(_ key: UnsafeRawBufferPointer) -> Int {
        var hash: UInt32 = 2_166_136_261
        for byte in key {
            hash = (hash ^ UInt32(byte)) &* 16_777_619
        }
        return Int(hash ^ (hash >> 15))
    }

    /// Whether key number `index` is spelled by `key`.
    // Inlinable: the lookups below compare every candidate key through it; internal, and inlinable so that they can
    // call it where they are inlined (ModelKitJSON).
    @inlinable @inline(__always)
    func isKey(_ index: Int, spelledBy key: UnsafeRawBufferPointer) -> Bool {
        let start = starts[index]
        let length = starts[index &+ 1] &- start
        return length == key.count && (length == 0 || memcmpBytes(bytes + start, key.baseAddress!, length))
    }

    /// The index of the key spelled by `key`, if it is one of the keys.
    // Inlinable: `index(of:expected:)` falls back to it for each key that is not the one expected, in the JSON
    // scanner's key matching (ModelKitJSON, another module) and `edgeIndex(forKeyBytes:)`; inlined there, the probe
    // loop makes no call into this module.
    @inlinable
    package func index(of key: UnsafeRawBufferPointer) -> Int? {
        var slot = KeyMatcher.hash(key) & mask
        while true {
            let candidate = Int(table[slot])
            if candidate < 0 { return nil }
            if isKey(candidate, spelledBy: key) { return candidate }
            slot = (slot &+ 1) & mask
        }
    }

    /// The index of the key spelled by `key`, trying `expected` first (the key after the last
    /// one matched, in a payload that follows the declaration's order).
    // Inlinable: the JSON scanner's key matching (`nextKeyIndexByScanning`, `nextKeyIndexGenerally`: ModelKitJSON,
    // another module) and the strict-mode `readMembers` call it per key; inlined there, the expected key is tried
    // with no call into this module.
    @inlinable
    package func index(of key: UnsafeRawBufferPointer, expected: Int) -> Int? {
        if expected < count && isKey(expected, spelledBy: key) { return expected }
        return index(of: key)
    }
}

// Inlinable: `isKey` compares every candidate key with it; internal, and inlinable so that `isKey` can call it where
// it is inlined. Raw pointers: the matcher's memory and the reader's input, both in place; `isKey` checked the length.
@inlinable
func memcmpBytes(_ lhs: UnsafeRawPointer, _ rhs: UnsafeRawPointer, _ count: Int) -> Bool {
    var index = 0
    while index < count {
        if lhs.load(fromByteOffset: index, as: UInt8.self) != rhs.load(fromByteOffset: index, as: UInt8.self) {
            return false
        }
        index += 1
    }
    return true
}
