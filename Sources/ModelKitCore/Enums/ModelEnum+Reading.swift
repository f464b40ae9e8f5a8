// Reading an enum's representation over any reader. The tag decides the case; the payload is
// read by the case's own generated code, where the representation puts it.

extension ModelEnum {
    // Inlinable, as the helpers below: every enum value a payload holds is read through here; specialised in the
    // enum's module for the concrete reader, the reader's calls and the generated `decodeModelCase` are direct
    // (unspecialised, json.decode.feed read 72 MB/s, 2.65x JSONDecoder).
    @inlinable
    public static func read<R: ModelReader>(from reader: inout R) throws -> Self {
        let schema = modelEnumSchema
        switch schema.representation {
        case .external: return try readExternal(schema, from: &reader)
        case .internal(let tagKey): return try readInternallyTagged(schema, tagKey: tagKey, from: &reader)
        case .adjacent(let tagKey, let contentKey):
            return try readAdjacentlyTagged(schema, tagKey: tagKey, contentKey: contentKey, from: &reader)
        case .untagged: return try readUntagged(schema, from: &reader)
        }
    }

    /// `"divider"` or `{"image": {...}}`.
    @inlinable
    static func readExternal<R: ModelReader>(_ schema: ModelEnumSchema, from reader: inout R) throws -> Self {
        let start = reader.mark()
        if try reader.peekShape() == .scalar {
            let tag = try reader.decodeString()
            if let index = schema.tagKeys.edgeIndex(forKey: tag), !schema.cases[index].hasPayload {
                return try decodeModelCase(index, from: &reader)
            }
            if let fallback = modelFallback(.string(tag)) { return fallback }
            throw ModelError(.invalidValue, expected: schema.expectedTags, found: ModelError.describe(.string(tag)))
        }
        var value: Self?
        var other: String?
        try reader.readMembers(
            of: schema.tagKeys, expected: "an object with \(schema.expectedTags) as its key", reportingUnknownKeys: true,
            { reader, index in
                let tag = schema.cases[index].tag
                guard value == nil else {
                    throw ModelError(.invalidValue, expected: "one key, \(schema.expectedTags)", found: "a second one, '\(tag)'")
                }
                value = try reader.withPathComponent(.key(tag)) { try decodeModelCase(index, from: &$0) }
            },
            unknown: { _, key in if other == nil { other = key } })
        if let value { return value }
        return try fallback(schema, from: &reader, start: start, found: other.map { "'\($0)'" } ?? "an object without one")
    }

    /// `{"type": "image", ...}`: the tag is found first, wherever it is in the object, then the
    /// payload, the object's own members, is read from the object's start.
    @inlinable
    static func readInternallyTagged<R: ModelReader>(_ schema: ModelEnumSchema, tagKey: String, from reader: inout R) throws -> Self {
        let start = reader.mark()
        // The search stops at the tag: the rest of the object is read once, by the payload.
        let match = try reader.findTag(schema.tagAndContentKeys, among: schema.tagKeys, expected: "an object with a '\(tagKey)' tag")
        reader.reset(to: start)
        switch match {
        case .found(let index):
            // A case without a payload reads nothing, so the object is skipped.
            if !schema.cases[index].hasPayload { try reader.skipValue() }
            return try decodeModelCase(index, from: &reader)
        case .unknown(let tag):
            return try readUnknownTag(tag, schema, tagKey: tagKey, from: &reader)
        case .missing:
            try reader.skipValue()
            return try fallback(schema, from: &reader, start: start, found: "no '\(tagKey)'", missingTag: tagKey)
        }
    }

    /// `{"type": "image", "data": {...}}`: the tag, then the payload under the content key.
    @inlinable
    static func readAdjacentlyTagged<R: ModelReader>(
        _ schema: ModelEnumSchema, tagKey: String, contentKey: String, from reader: inout R
    ) throws -> Self {
        let start = reader.mark()
        var tag: ModelTagMatch?
        var content: R.Mark?
        try reader.readMembers(
            of: schema.tagAndContentKeys, expected: "an object with a '\(tagKey)' tag", reportingUnknownKeys: false,
            { reader, edge in
                if edge == 0 {
                    tag = try reader.withPathComponent(.key(tagKey)) { try $0.decodeTag(among: schema.tagKeys) }
                } else {
                    content = reader.mark()
                    try reader.skipValue()
                }
            },
            unknown: { _, _ in })
        guard let tag else {
            return try fallback(schema, from: &reader, start: start, found: "no '\(tagKey)'", missingTag: tagKey)
        }
        guard case .found(let index) = tag else {
            reader.reset(to: start)
            // `decodeTag` finds a case or names the tag it found: nothing else comes here.
            guard case .unknown(let value) = tag else { throw ModelError(.missingValue).prefixed(by: [.key(tagKey)]) }
            return try readUnknownTag(value, schema, tagKey: tagKey, from: &reader)
        }
        let end = reader.mark()
        guard schema.cases[index].hasPayload else { return try decodeModelCase(index, from: &reader) }
        guard let content else { throw ModelError(.missingValue).prefixed(by: [.key(contentKey)]) }
        reader.reset(to: content)
        let value = try reader.withPathComponent(.key(contentKey)) { try decodeModelCase(index, from: &$0) }
        reader.reset(to: end)
        return value
    }

    /// The fallback case holding the whole value at the reader's position, or the error of the
    /// unknown `tag`.
    @inlinable
    static func readUnknownTag<R: ModelReader>(
        _ tag: JSONValue, _ schema: ModelEnumSchema, tagKey: String, from reader: inout R
    ) throws -> Self {
        if let fallback = modelFallback(try reader.decodeJSONValue()) { return fallback }
        throw ModelError(.invalidValue, expected: schema.expectedTags, found: ModelError.describe(tag))
            .prefixed(by: [.key(tagKey)])
    }

    /// The first case whose payload maps; `null` for a case without one.
    @inlinable
    static func readUntagged<R: ModelReader>(_ schema: ModelEnumSchema, from reader: inout R) throws -> Self {
        let start = reader.mark()
        let problems = reader.collectedProblems.count
        for (index, enumCase) in schema.cases.enumerated() {
            reader.reset(to: start)
            if !enumCase.hasPayload {
                if try reader.peekShape() == .null, try reader.decodeNil() { return try decodeModelCase(index, from: &reader) }
                continue
            }
            if case .success(let value) = try reader.recover({ try decodeModelCase(index, from: &$0) }),
                reader.collectedProblems.count == problems
            {
                return value
            }
            // A case that did not map leaves no problem behind (collect-all mode records them).
            reader.collectedProblems.removeSubrange(problems...)
        }
        reader.reset(to: start)
        let payload = try reader.decodeJSONValue()
        if let fallback = modelFallback(payload) { return fallback }
        throw ModelError.mismatch(expected: "a value one of the cases of '\(schema.name)' maps", found: ModelError.describe(payload))
    }

    /// The fallback case holding the whole value at `start`, or the error of an unknown tag.
    @inlinable
    static func fallback<R: ModelReader>(
        _ schema: ModelEnumSchema, from reader: inout R, start: R.Mark, found: String, missingTag: String? = nil
    ) throws -> Self {
        let end = reader.mark()
        reader.reset(to: start)
        let payload = try reader.decodeJSONValue()
        if let fallback = modelFallback(payload) { return fallback }
        reader.reset(to: end)
        if let missingTag { throw ModelError(.missingValue).prefixed(by: [.key(missingTag)]) }
        throw ModelError(.invalidValue, expected: "an object with \(schema.expectedTags) as its key", found: found)
    }
}
