/// Walking objects and arrays with ``JSONScanner``.
///
/// The scanner keeps no stack of open containers: each method knows which closing byte it
/// expects, and a single flag tells whether the container was just opened (no comma due yet).
/// Nesting is counted against ``JSONLimits/maxDepth``.
extension JSONScanner {
    /// Consumes the `{` that opens an object.
    ///
    /// Throws ``JSONValueError`` (consuming nothing) when the next value is not an object, and a
    /// ``JSONSyntaxError`` naming `maxDepth` when opening it would nest too deep.
    ///
    /// ```swift
    /// try scanner.beginObject()
    /// while let key = try scanner.nextKey({ String(decoding: $0, as: UTF8.self) }) { ... }
    /// ```
    // @inlinable: called for every object a decoder reads (JSONBytesReader.readMembers(of:...),
    // decodeDictionary(_:), hand-written decoders); the common case is a byte compare and three
    // stores compiled into the caller.
    @inlinable
    public mutating func beginObject() throws {
        skipWhitespace()
        guard position < end, input[position] == UInt8(ascii: "{") else { throw kindMismatch(expected: .object) }
        guard openContainers < limits.maxDepth else { throw depthExceeded(at: position) }
        position &+= 1
        openContainers &+= 1
        atContainerStart = true
    }

    /// Moves to the next member of the object opened by ``beginObject()``.
    ///
    /// Returns nil after consuming the closing `}`. Otherwise it consumes the separating comma,
    /// the key and the `:` (all before `body` runs), and returns what `body` makes of the key's
    /// unescaped UTF-8 bytes (valid only during the call: they point into the document, or into
    /// a temporary buffer when the key has escapes). The member's value must be read or skipped
    /// next.
    ///
    /// ```swift
    /// while let field = try scanner.nextKey({ Field(utf8: $0) }) {
    ///     switch field {
    ///     case .id: id = try scanner.readInt64()
    ///     case .unknown: try scanner.skipValue()
    ///     }
    /// }
    /// ```
    // @inlinable: called once per member (JSONBytesReader.decodeDictionary(_:), readMembers(of:...)
    // in strict mode, JSONValue's parser); generic over what `body` returns, so compiled where `T`
    // is known, with `body` inlined into it.
    // Unsafe: hands `body` the key's bytes where they lie in the document (or in a temporary buffer
    // when the key has escapes): no String is made for a key that is only matched.
    @inlinable
    public mutating func nextKey<T>(_ body: (UnsafeRawBufferPointer) throws -> T) throws -> T? {
        guard try moveToNextKey() else { return nil }
        return try readKeyAndColon(body)
    }

    /// Moves past the comma before the next member, to its key's opening quote, and returns
    /// true; or consumes the closing `}` and returns false.
    // @inlinable: the separator step of the inlinable nextKey(_:), compiled with it into its
    // caller.
    @inlinable @inline(__always)
    mutating func moveToNextKey() throws -> Bool {
        skipWhitespace()
        guard position < end else {
            throw unexpectedEnd(expected: atContainerStart ? .keyOrObjectEnd : .commaOrObjectEnd)
        }
        var byte = input[position]
        let expectation: JSONSyntaxError.Expectation
        if atContainerStart {
            atContainerStart = false
            expectation = .keyOrObjectEnd
            if byte == UInt8(ascii: "}") {
                position &+= 1
                openContainers &-= 1
                return false
            }
        } else if byte == UInt8(ascii: ",") {
            position &+= 1
            skipWhitespace()
            guard position < end else { throw unexpectedEnd(expected: .key) }
            byte = input[position]
            expectation = .key
        } else if byte == UInt8(ascii: "}") {
            position &+= 1
            openContainers &-= 1
            return false
        } else {
            throw unexpectedByte(at: position, expected: .commaOrObjectEnd)
        }
        guard byte == UInt8(ascii: "\"") else { throw unexpectedByte(at: position, expected: expectation) }
        return true
    }

    /// Reads the key whose opening quote is at `position`, then the `:` after it, and calls
    /// `body` with the key's unescaped bytes.
    // @inlinable: the key step of the inlinable nextKey(_:); generic over what `body` returns, so
    // compiled with it where `T` is known.
    // Unsafe: `body` gets the key's bytes without a copy, as in nextKey(_:).
    @inlinable
    mutating func readKeyAndColon<T>(_ body: (UnsafeRawBufferPointer) throws -> T) throws -> T {
        let start = position &+ 1
        let extent = try scanStringBody(from: start)
        position = try colonEnd(after: extent.close &+ 1)
        if !extent.escaped {
            // Unsafe: the key as a slice of the document, no copy; scanStringBody(from:) has just
            // found `extent.close` inside it.
            return try body(UnsafeRawBufferPointer(rebasing: input[start..<extent.close]))
        }
        return try withUnescapedBytes(from: start, to: extent.close, body)
    }

    /// The offset after the `:` that follows a key, looked for from `index` (right after the
    /// key's closing quote).
    // @inlinable: the colon step of the inlinable readKeyAndColon(_:), compiled with it: a key
    // followed directly by `:` costs one compare.
    @inlinable @inline(__always)
    func colonEnd(after index: Int) throws -> Int {
        if index < end && input[index] == UInt8(ascii: ":") { return index &+ 1 }
        let colon = whitespaceEnd(from: index)
        guard colon < end, input[colon] == UInt8(ascii: ":") else { throw unexpectedByte(at: colon, expected: .colon) }
        return colon &+ 1
    }

    /// Skips the remaining members of the current object, including its closing `}`.
    ///
    /// For decoders that stop early: call it where ``nextKey(_:)`` would be called next.
    public mutating func skipRemainingMembers() throws {
        while try nextKey({ _ in () }) != nil {
            try skipValue()
        }
    }

    /// Consumes the `[` that opens an array.
    ///
    /// Throws ``JSONValueError`` (consuming nothing) when the next value is not an array, and a
    /// ``JSONSyntaxError`` naming `maxDepth` when opening it would nest too deep.
    ///
    /// ```swift
    /// try scanner.beginArray()
    /// while try scanner.nextElement() { tags.append(try scanner.readString()) }
    /// ```
    // @inlinable: called for every array a decoder reads (JSONBytesReader.decodeArray(_:),
    // readIndexedElements(of:_:), hand-written decoders); the common case is a byte compare
    // compiled into the caller.
    @inlinable
    public mutating func beginArray() throws {
        skipWhitespace()
        guard position < end, input[position] == UInt8(ascii: "[") else { throw kindMismatch(expected: .array) }
        guard openContainers < limits.maxDepth else { throw depthExceeded(at: position) }
        position &+= 1
        openContainers &+= 1
        atContainerStart = true
    }

    /// Moves to the next element of the array opened by ``beginArray()``.
    ///
    /// Returns false after consuming the closing `]`; otherwise consumes the separating comma
    /// (if any) and returns true, and the element must be read or skipped next.
    ///
    /// ```swift
    /// var ids: [Int64] = []
    /// try scanner.beginArray()
    /// while try scanner.nextElement() { ids.append(try scanner.readInt64()) }
    /// ```
    // @inlinable: called once per element by the loops of JSONBytesReader.decodeArray(_:) and
    // readIndexedElements(of:_:); the comma check is compiled into those loops.
    @inlinable
    public mutating func nextElement() throws -> Bool {
        skipWhitespace()
        guard position < end else {
            throw unexpectedEnd(expected: atContainerStart ? .valueOrArrayEnd : .commaOrArrayEnd)
        }
        let byte = input[position]
        if atContainerStart {
            atContainerStart = false
            if byte == UInt8(ascii: "]") {
                position &+= 1
                openContainers &-= 1
                return false
            }
            return true
        }
        if byte == UInt8(ascii: ",") {
            position &+= 1
            return true
        }
        if byte == UInt8(ascii: "]") {
            position &+= 1
            openContainers &-= 1
            return false
        }
        throw unexpectedByte(at: position, expected: .commaOrArrayEnd)
    }

    /// Skips the remaining elements of the current array, including its closing `]`.
    public mutating func skipRemainingElements() throws {
        while try nextElement() {
            try skipValue()
        }
    }
}
