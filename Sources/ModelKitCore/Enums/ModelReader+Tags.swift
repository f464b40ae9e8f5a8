/// What the search for an internally tagged enum's tag found.
public enum ModelTagMatch: Equatable, Sendable {
    /// The tag spells the case at this position of the tags searched among.
    case found(Int)
    /// The tag is a string or an integer no case has.
    case unknown(JSONValue)
    /// The object has no member under the tag key.
    case missing
}

extension ModelReader {
    /// The default of ``findTag(_:among:expected:)``: reads the object's members until the tag,
    /// then stops by throwing (a reader that can stop inside an object does without the throw).
    // Inlinable: the tag search of every internally tagged enum value a reader without its own search (Codable,
    // archives, stores, JSON objects) reads; specialised in the enum's module with the concrete reader.
    @inlinable
    public mutating func findTag(
        _ key: ModelKeyNode, among tags: ModelKeyNode, expected: @autoclosure () -> String
    ) throws -> ModelTagMatch {
        var match = ModelTagMatch.missing
        do {
            try readMembers(
                of: key, expected: expected(), reportingUnknownKeys: false,
                { reader, _ in
                    match = try reader.withPathComponent(.key(key.keys[0])) { try $0.decodeTag(among: tags) }
                    throw TagFound()
                },
                unknown: { _, _ in })
        } catch is TagFound {}
        return match
    }
}

extension ModelReader {
    /// Reads a tag at the current position and finds its case among `tags`' edges: a string
    /// matches the edges without an index, an integer those whose ``ModelKeyEdge/index`` it is
    /// (integer tags). An enum without integer tags reads only strings.
    // Inlinable: the tag read of every tagged enum value, by the default search and the adjacent representation;
    // specialised with the reader in the enum's module.
    @inlinable
    public mutating func decodeTag(among tags: ModelKeyNode) throws -> ModelTagMatch {
        /// The edge spelled `text` whose kind (integer or not) is `integer`.
        func edge(_ text: String, integer: Bool) -> Int? {
            tags.edgeIndex(forKey: text).flatMap { (tags.edges[$0].index != nil) == integer ? $0 : nil }
        }
        guard tags.hasIndexEdges else {
            let tag = try decodeString()
            return edge(tag, integer: false).map { .found($0) } ?? .unknown(.string(tag))
        }
        let value = try decodeJSONValue()
        switch value {
        case .string(let tag):
            if let index = edge(tag, integer: false) { return .found(index) }
        case .int(let number):
            if let index = edge(String(number), integer: true) { return .found(index) }
        case .uint, .double, .decimal:
            break
        default:
            throw ModelError.mismatch(expected: "a string or an integer", found: ModelError.describe(value))
        }
        return .unknown(value)
    }
}

/// Ends the default search for an internal tag once it is found.
// Usable from inline: thrown and caught by the inlinable default `findTag`.
@usableFromInline
struct TagFound: Error {
    @usableFromInline init() {}
}
