/// Skipping whole values with ``JSONScanner``: the engine of ``skipValue()`` and ``JSONValidator``.
///
/// Skipping validates everything it passes over (the full RFC 8259 grammar, escapes, UTF-8)
/// but builds nothing. It never recurses: the kinds of the open containers are kept one bit per
/// level in a stack-allocated bit array sized by the remaining depth allowance.
extension JSONScanner {
    /// Skips the next value, whatever its kind, validating its syntax.
    ///
    /// Honours ``JSONLimits/maxDepth`` counting the containers already open. Throws
    /// ``JSONSyntaxError`` on malformed input.
    ///
    /// ```swift
    /// while let key = try scanner.nextKey({ Key(utf8: $0) }) {
    ///     guard let key else { try scanner.skipValue(); continue } // unknown member
    ///     ...
    /// }
    /// ```
    public mutating func skipValue() throws {
        skipWhitespace()
        guard position < end else { throw unexpectedEnd(expected: .value) }
        let first = input[position]
        guard first == UInt8(ascii: "{") || first == UInt8(ascii: "[") else {
            position = try scalarEnd(at: position)
            return
        }
        // A container cannot nest deeper than the bytes left, which bounds the bit stack.
        let room = remainingDepth
        let levels = min(room, end - position)
        // Unsafe: the bit stack is a temporary allocation, on the call stack for any sensible
        // maxDepth, so that skipping allocates nothing; `levels` sizes it as the comment above
        // says.
        try withUnsafeTemporaryAllocation(of: UInt64.self, capacity: levels / 64 + 1) { kinds in
            // Unsafe: the allocation starts uninitialized; containerEnd reads words it has not
            // written.
            kinds.initialize(repeating: 0)
            position = try containerEnd(at: position, room: room, kinds: kinds)
        }
    }

    /// How many more containers may be opened before `maxDepth` is exceeded.
    // @usableFromInline: no inlinable body reads this (only skipValue(), out of line, does): a
    // candidate for removal.
    @usableFromInline
    var remainingDepth: Int {
        let (room, overflow) = limits.maxDepth.subtractingReportingOverflow(openContainers)
        if overflow { return openContainers < 0 ? Int.max : 0 }
        return max(0, room)
    }

    /// The offset after the string, number or literal at `index`.
    // @usableFromInline: no inlinable body calls this (only skipValue() and containerEnd, out of
    // line, do): a candidate for removal.
    @usableFromInline
    func scalarEnd(at index: Int) throws -> Int {
        switch input[index] {
        case UInt8(ascii: "\""):
            return try scanStringBody(from: index &+ 1).close &+ 1
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return try scanNumber(at: index).end
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            if let literalEnd = literalEnd(at: index) { return literalEnd }
            let expected = input[index] == UInt8(ascii: "t") ? "true" : input[index] == UInt8(ascii: "f") ? "false" : "null"
            throw syntaxError(.invalidLiteral(expected: expected), at: index)
        default:
            throw unexpectedByte(at: index, expected: .value)
        }
    }

    /// The first non-whitespace offset at or after `index`, with the no-whitespace case inline.
    @inline(__always)
    private func skippingSpace(_ index: Int) -> Int {
        index < end && input[index] > 0x20 ? index : whitespaceEnd(from: index)
    }

    /// Given the opening quote of a key at `index`, checks the key and the `:` after it and
    /// returns the offset of the member's value.
    @inline(__always)
    private func memberValueStart(keyAt index: Int) throws -> Int {
        var next = try scanStringBody(from: index &+ 1).close &+ 1
        next = skippingSpace(next)
        guard next < end, input[next] == UInt8(ascii: ":") else { throw unexpectedByte(at: next, expected: .colon) }
        next = skippingSpace(next &+ 1)
        guard next < end else { throw unexpectedEnd(expected: .value) }
        return next
    }

    /// Skips the object or array opening at `index` and returns the offset after it.
    ///
    /// `room` is how many containers may be opened; bit `n` of `kinds` says whether the
    /// container at nesting level `n` (counted from this one) is an object.
    // Unsafe: the bit stack of skipValue()'s temporary allocation, borrowed for the walk without
    // bounds checks in release builds; each opening byte consumed adds one level, so `level` stays
    // within the bits skipValue() allocated for the bytes left.
    private func containerEnd(at start: Int, room: Int, kinds: UnsafeMutableBufferPointer<UInt64>) throws -> Int {
        var index = start
        var level = 0

        func isObject(_ level: Int) -> Bool {
            kinds[level &>> 6] &>> UInt64(level & 63) & 1 == 1
        }

        nextValue: while true {
            // Here `index < end` and the byte at `index` starts a value.
            let byte = input[index]
            if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                guard level < room else { throw depthExceeded(at: index) }
                let opensObject = byte == UInt8(ascii: "{")
                let word = level &>> 6
                let bit = UInt64(1) &<< UInt64(level & 63)
                kinds[word] = opensObject ? kinds[word] | bit : kinds[word] & ~bit
                level &+= 1
                index = skippingSpace(index &+ 1)
                guard index < end else { throw unexpectedEnd(expected: opensObject ? .keyOrObjectEnd : .valueOrArrayEnd) }
                let next = input[index]
                if opensObject {
                    if next == UInt8(ascii: "\"") {
                        index = try memberValueStart(keyAt: index)
                        continue nextValue
                    }
                    guard next == UInt8(ascii: "}") else { throw unexpectedByte(at: index, expected: .keyOrObjectEnd) }
                } else if next != UInt8(ascii: "]") {
                    continue nextValue
                }
                index &+= 1
                level &-= 1
            } else {
                index = try scalarEnd(at: index)
            }

            // After a value: a comma and the next member or element, or closing bytes.
            while level > 0 {
                index = skippingSpace(index)
                let inObject = isObject(level &- 1)
                guard index < end else { throw unexpectedEnd(expected: inObject ? .commaOrObjectEnd : .commaOrArrayEnd) }
                let next = input[index]
                if next == UInt8(ascii: ",") {
                    index = skippingSpace(index &+ 1)
                    guard index < end else { throw unexpectedEnd(expected: inObject ? .key : .value) }
                    if inObject {
                        guard input[index] == UInt8(ascii: "\"") else { throw unexpectedByte(at: index, expected: .key) }
                        index = try memberValueStart(keyAt: index)
                    }
                    continue nextValue
                }
                guard next == (inObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) else {
                    throw unexpectedByte(at: index, expected: inObject ? .commaOrObjectEnd : .commaOrArrayEnd)
                }
                index &+= 1
                level &-= 1
            }
            return index
        }
    }
}
