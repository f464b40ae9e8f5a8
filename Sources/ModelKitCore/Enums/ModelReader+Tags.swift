/// What the search for an internally tagged enum's tag found.
public enum ModelTagMatch: Equatable, Sendable {
    /// The tag spells the case at this position of the tags searched among.
    case found(Int)
    /// The tag is a string no case has.
    case unknown(String)
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
                    let tag = try reader.withPathComponent(.key(key.keys[0])) { try $0.decodeString() }
                    match = tags.edgeIndex(forKey: tag).map { .found($0) } ?? .unknown(tag)
                    throw TagFound()
                },
                unknown: { _, _ in })
        } catch is TagFound {}
        return match
    }
}

/// Ends the default search for an internal tag once it is found.
// Usable from inline: thrown and caught by the inlinable default `findTag`.
@usableFromInline
struct TagFound: Error {
    @usableFromInline init() {}
}
