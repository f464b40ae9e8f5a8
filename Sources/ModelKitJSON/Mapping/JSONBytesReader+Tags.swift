import ModelKitCore

extension JSONBytesReader {
    /// Looks for the tag with the scanner's structural look, which
    /// skips the members before it without validating them (the payload's read validates the
    /// whole object after), and matches the tag's bytes where they lie against the cases' tags:
    /// no String is made for a known tag, and no error is thrown to stop the search. Where the
    /// quick look cannot tell, the members are scanned and skipped the validating way.
    // @inlinable: the ModelReader witness every internally tagged enum value read from JSON bytes calls first;
    // compiled into the enum's read in its module, with the tag match inlined.
    @inlinable
    public mutating func findTag(
        _ key: ModelKeyNode, among tags: ModelKeyNode, expected: @autoclosure () -> String
    ) throws -> ModelTagMatch {
        let start = scanner.checkpoint()
        if let found = scanner.seekKey(of: key) {
            let match = found ? try tagMatch(under: key, among: tags) : .missing
            if case .found = match { return match }
            // No case to read the object validates it: a malformed one is reported as such, not
            // as a missing or unknown tag.
            scanner.restore(start)
            try scanner.skipValue()
            return match
        }
        do {
            try scanner.beginObject()
        } catch {
            throw mappingError(error, expected: expected(), at: start)
        }
        while let position = try scanner.nextKeyIndex(in: key, expected: 0) {
            guard position == 0 else {
                try scanner.skipValue()
                continue
            }
            return try tagMatch(under: key, among: tags)
        }
        return .missing
    }

    /// The case whose tag the string at the current position spells; where the string starts
    /// and ends is kept for the payload's read.
    // @inlinable: the tag read of the inlinable findTag above, inlined with it.
    @inlinable
    mutating func tagMatch(under key: ModelKeyNode, among tags: ModelKeyNode) throws -> ModelTagMatch {
        let start = scanner.position
        let match = try withPathComponent(.key(key.keys[0])) { reader in
            // Integer tags are rare: read the shared way.
            guard !tags.hasIndexEdges else { return try reader.decodeTag(among: tags) }
            return try reader.decodeStringBytes { bytes -> ModelTagMatch in
                if let index = tags.edgeIndex(forKeyBytes: bytes) { return .found(index) }
                return .unknown(.string(String(decoding: bytes, as: UTF8.self)))
            }
        }
        lastTagValue = (start, scanner.position)
        return match
    }
}
