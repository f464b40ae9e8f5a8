/// A reader whose positions are nodes of a tree already in memory: ``JSONValue``s, Foundation
/// objects, a stored row's columns. Containers, positions, the depth limit and recovery are
/// written once here, over three accessors each tree supplies.
///
/// ```swift
/// var reader = JSONValueReader(value: ["tags": ["a", "b"]])
/// let tags = try reader.decodeDictionary { try $0.decodeArray { try $0.decodeString() } }
/// ```
public protocol ModelTreeReader: ModelReader where Mark == TreePosition<Node> {
    /// A node of the tree.
    associatedtype Node

    /// The node the reader is at.
    var node: Node { get set }
    /// How many containers enclose the current node.
    var depth: Int { get set }

    /// The shape of `node`.
    func shape(of node: Node) throws -> ModelValueShape
    /// The elements of `node`, or nil when it is not an array.
    func elements(of node: Node) throws -> [Node]?
    /// Calls `body` with each member of `node` in order; false when `node` is not an object.
    func forEachMember(of node: Node, _ body: (String, Node) throws -> Void) throws -> Bool
    /// A short picture of `node` for error messages (`42`, `"text"`, `an array of 3 elements`).
    func describe(_ node: Node) -> String
}

/// A saved position of a ``ModelTreeReader``.
public struct TreePosition<Node> {
    // Usable from inline: read by the inlinable `reset(to:)` (with `depth` below).
    @usableFromInline let node: Node
    // Usable from inline: read by the inlinable `reset(to:)`.
    @usableFromInline let depth: Int

    // Inlinable: made by the public inlinable `mark()`, which must be able to call it; a copy of two fields.
    @inlinable init(node: Node, depth: Int) {
        self.node = node
        self.depth = depth
    }
}

extension ModelTreeReader {
    /// A type mismatch that pictures the current node.
    // Inlinable: builds the tree readers' type mismatch from their inlinable bodies (`decodeArray`, `readTreeMembers`),
    // where it specialises with them; only failure paths call it.
    @inlinable
    public func mismatch(_ expected: String) -> ModelError {
        ModelError.mismatch(expected: expected, found: describe(node))
    }

    /// Runs `body` one container down, within ``MappingOptions/maxDepth``, and comes back to the
    /// current node.
    // Inlinable: the tree readers' `decodeDictionary`, `readTreeMembers` and `readIndexedElements` run their body
    // through it, per container; specialised there, `body` is inlined.
    @inlinable
    public mutating func nested<T>(_ body: (inout Self) throws -> T) throws -> T {
        let saved = node
        try enterNested()
        defer { leaveNested(restoring: saved) }
        return try body(&self)
    }

    /// Goes one container down, within ``MappingOptions/maxDepth``; pair it with
    /// ``leaveNested(restoring:)``. The closure-free form of ``nested(_:)``, for the loops that
    /// run once per member or element.
    // Inlinable: the closure-free form for the loops that run per element or member (`decodeArray`, JSONObjectReader's
    // `lookUpMembers`); inlined, a depth check and an increment.
    @inlinable
    public mutating func enterNested() throws {
        try checkNesting(depth, options.maxDepth)
        depth += 1
    }

    /// Comes back up from ``enterNested()`` to the container `saved` (the node it was entered
    /// from).
    // Inlinable: the pair of `enterNested()`, per container; inlined, a decrement and a store.
    @inlinable
    public mutating func leaveNested(restoring saved: consuming Node) {
        depth -= 1
        node = saved
    }

    // Inlinable: per array value read through a tree reader (`Array.read`, `Set.read`), from generic code; specialised
    // for the reader and the element's `read`.
    @inlinable
    public mutating func decodeArray<T>(_ element: (inout Self) throws -> T) throws -> [T] {
        guard let elements = try elements(of: node) else { throw mismatch("an array") }
        let saved = node
        try enterNested()
        defer { leaveNested(restoring: saved) }
        var result: [T] = []
        result.reserveCapacity(elements.count)
        for index in elements.indices {
            node = elements[index]
            if let decoded = try decodeElement(at: index, element) { result.append(decoded) }
        }
        return result
    }

    // Inlinable: per dictionary value read through a tree reader (`Dictionary.read`); specialised like `decodeArray`.
    @inlinable
    public mutating func decodeDictionary<T>(_ body: (inout Self) throws -> T) throws -> [String: T] {
        let object = node
        return try nested { reader in
            var result: [String: T] = [:]
            let isObject = try reader.forEachMember(of: object) { key, value in
                reader.node = value
                if let decoded = try reader.decodeMember(key, body) { result[key] = decoded }
            }
            guard isObject else { throw reader.mismatch("an object") }
            return result
        }
    }

    // MARK: Access for the key-tree walk

    // Inlinable: the walk asks it per nested segment with index keys and per nested object (the default
    // `readMembersOrNull`); specialised, `shape(of:)` is a direct call.
    @inlinable
    public mutating func peekShape() throws -> ModelValueShape {
        try shape(of: node)
    }

    // Inlinable: the walk calls it per object read through JSONValueReader and the store's rows; specialised there with
    // the walk's member closure.
    @inlinable
    public mutating func readMembers(
        of keys: ModelKeyNode, expected: @autoclosure () -> String, reportingUnknownKeys: Bool,
        _ member: (inout Self, Int) throws -> Void, unknown: (inout Self, String) throws -> Void
    ) throws {
        try readTreeMembers(
            of: keys, expected: expected(), reportingUnknownKeys: reportingUnknownKeys, member, unknown: unknown)
    }

    /// The default of ``ModelReader/readMembers(of:expected:reportingUnknownKeys:_:unknown:)``:
    /// each member of the object, matched against `keys` (for readers that read some objects
    /// another way).
    // Inlinable: the body of `readMembers`, and JSONObjectReader's and the store reader's path for the objects they do
    // not look up, per object; specialised with them.
    @inlinable
    public mutating func readTreeMembers(
        of keys: ModelKeyNode, expected: @autoclosure () -> String, reportingUnknownKeys: Bool,
        _ member: (inout Self, Int) throws -> Void, unknown: (inout Self, String) throws -> Void
    ) throws {
        let object = node
        try nested { reader in
            let isObject = try reader.forEachMember(of: object) { key, value in
                reader.node = value
                guard let edge = keys.edgeIndex(forKey: key) else {
                    if reportingUnknownKeys { try unknown(&reader, key) }
                    return
                }
                try member(&reader, edge)
            }
            if !isObject {
                reader.node = object
                throw reader.mismatch(expected())
            }
        }
    }

    // Inlinable: per array the walk reads for index key paths (`urls.0`); specialised with the walk's element closure.
    @inlinable
    public mutating func readIndexedElements(of keys: ModelKeyNode, _ element: (inout Self, Int) throws -> Void) throws
        -> Int
    {
        guard let elements = try elements(of: node) else { throw mismatch("an array") }
        try nested { reader in
            for (index, item) in elements.enumerated() {
                guard let edge = keys.edgeByIndex[index] else { continue }
                reader.node = item
                try element(&reader, edge)
            }
        }
        return elements.count
    }

    // MARK: Positions

    // Inlinable: per `recover` and per edge read more than once (`walkEdge`, identity's read-ahead); a copy of two
    // fields.
    @inlinable
    public func mark() -> TreePosition<Node> {
        TreePosition(node: node, depth: depth)
    }

    // Inlinable: the pair of `mark()`, as often; two stores.
    @inlinable
    public mutating func reset(to mark: TreePosition<Node>) {
        node = mark.node
        depth = mark.depth
    }

    /// Nothing to skip: the next read starts from a node of its own.
    // Inlinable: the walk calls it for every value it does not decode; inlined, the empty body leaves nothing behind.
    @inlinable
    public mutating func skipValue() throws {}

    // Inlinable: per field in collect-all mode (`decodeLeaf`) and per element of a lossy array; specialised, `body` is
    // inlined.
    @inlinable
    public mutating func recover<T>(_ body: (inout Self) throws -> T) throws -> Result<T, ModelError> {
        let saved = mark()
        do {
            return .success(try body(&self))
        } catch let error as ModelError {
            reset(to: saved)
            return .failure(error)
        }
    }
}

/// Throws the error for nesting deeper than `limit` (``MappingOptions/maxDepth``) when `depth`
/// is already at it: the one depth check every reader and writer makes before opening a container.
// Inlinable: every reader and writer calls it before opening a container (`enterNested`, the writers' `child()`, the
// JSON bytes and store writers), per container; inlined, one comparison, the throw out of line.
@inlinable
package func checkNesting(_ depth: Int, _ limit: Int) throws {
    guard depth < limit else { throw ModelError.nestingLimit(limit) }
}

extension ModelError {
    /// The error for nesting deeper than `limit` allows.
    // Usable from inline: the error the inlinable `checkNesting` throws, left out of line.
    @usableFromInline
    package static func nestingLimit(_ limit: Int) -> ModelError {
        ModelError(.limitExceeded, expected: "nesting of at most \(limit) levels ('maxDepth')", found: "deeper nesting")
    }
}
