/// Gathers the elements of an array whose length is unknown until its closing bracket, so that
/// the result is allocated once, at its exact size.
///
/// Appending to an empty array allocates at one element and again at two, four, ...: an array
/// of three strings cost three allocations and two copies, and most arrays in payloads are that
/// short. The first elements go to a small buffer on the stack instead; at the end they move into
/// an array of exactly their count. An array longer than the buffer moves into a growing array
/// once and goes on there, so long arrays cost what they did and short ones hold no spare room.
///
/// Inlinable, like the reader's `decodeArray`: compiled into each model's decoder for its element
/// type (a generic call per element would cost more than the allocations saved).
// @usableFromInline: used by the inlinable JSONBytesReader.decodeArray(_:), for the reason the
// documentation above gives.
@usableFromInline
struct ElementCollector<Element> {
    /// The stack buffer; elements `0..<count` are initialized until they move out.
    // @usableFromInline: stored into by the inlinable append(_:) and read back by
    // moveBuffered(capacity:).
    // Unsafe: the stack buffer of collect(_:)'s temporary allocation, which outlives every
    // collector made in it; elements are initialized and moved out by hand, `count` of them, to
    // save the allocations the type's documentation describes.
    @usableFromInline let buffer: UnsafeMutableBufferPointer<Element>
    // @usableFromInline: kept by the inlinable append(_:), moveBuffered(capacity:) and
    // destroyBuffered().
    @usableFromInline var count = 0
    /// How many elements the buffer takes: its size, then 0 once it has filled and its elements
    /// have moved to ``overflow``.
    // @usableFromInline: checked by the inlinable append(_:) for every element.
    @usableFromInline var room: Int
    /// The elements once the buffer has filled.
    // @usableFromInline: grown by the inlinable appendPastBuffer(_:) once the buffer is full.
    @usableFromInline var overflow: [Element] = []

    // @inlinable: called by the inlinable collect(_:), compiled with it into decodeArray(_:).
    // Unsafe: takes the temporary allocation collect(_:) makes, for the collector's lifetime.
    @inlinable
    init(buffer: UnsafeMutableBufferPointer<Element>) {
        self.buffer = buffer
        self.room = buffer.count
    }

    /// How many elements the stack buffer holds: up to 16, within 256 bytes (there is one buffer
    /// per array open in the document, up to `maxDepth` of them), at least one.
    // @inlinable: read by the inlinable collect(_:); folds to a constant for the element type.
    @inlinable
    static var bufferCapacity: Int {
        let stride = MemoryLayout<Element>.stride
        return stride == 0 ? 16 : min(16, max(1, 256 / stride))
    }

    /// Collects the elements `body` appends, and returns them as an array of their exact count
    /// when they fit the buffer. Elements already collected are destroyed if `body` throws.
    // @inlinable: called once per array by the inlinable JSONBytesReader.decodeArray(_:), for its
    // element type (see the type's documentation).
    @inlinable
    static func collect(_ body: (inout ElementCollector<Element>) throws -> Void) throws -> [Element] {
        try collect(body) { $0.finish() }
    }

    /// Collects the elements `body` appends into a collector whose first elements lie on the
    /// stack, and returns what `finish` makes of them.
    // @inlinable: the body of the inlinable collect(_:) and collectDictionary(_:).
    @inlinable
    static func collect<Result>(
        _ body: (inout ElementCollector<Element>) throws -> Void, finish: (inout ElementCollector<Element>) -> Result
    ) throws -> Result {
        // Unsafe: the first elements go to a buffer on the stack, not the heap (see the type's
        // documentation); the `defer` deinitializes what is left in it, even when `body` throws.
        try withUnsafeTemporaryAllocation(of: Element.self, capacity: bufferCapacity) { buffer in
            var collector = ElementCollector(buffer: buffer)
            defer { collector.destroyBuffered() }
            try body(&collector)
            return finish(&collector)
        }
    }

    // @inlinable: called per element by the inlinable decodeArray(_:); the fast path, a store into
    // the buffer, is compiled into its loop.
    @inlinable
    mutating func append(_ element: __owned Element) {
        if _fastPath(count < room) {
            // Unsafe: `count < room` (the buffer's capacity until it has filled, then 0) keeps the
            // store inside the buffer, whose base address is not nil, as bufferCapacity is at least
            // one.
            (buffer.baseAddress.unsafelyUnwrapped + count).initialize(to: element)
            count &+= 1
            return
        }
        appendPastBuffer(element)
    }

    /// The buffer is full: its elements move into an array with room for twice as many.
    // @inlinable: generic over the element, so specialised with decodeArray(_:) for it in the
    // decoding module, while @inline(never) keeps it out of append(_:)'s fast path.
    @inlinable @inline(never)
    mutating func appendPastBuffer(_ element: __owned Element) {
        if room > 0 {
            room = 0
            overflow = moveBuffered(capacity: count &* 2)
        }
        overflow.append(element)
    }

    /// The elements collected, leaving the buffer empty.
    // @inlinable: called by the inlinable collect(_:) at the end of each array.
    @inlinable
    mutating func finish() -> [Element] {
        if room == 0 { return overflow }
        return count > 0 ? moveBuffered(capacity: count) : []
    }

    /// A new array of room for `capacity` elements that the buffered ones move into.
    // @inlinable: called by the inlinable finish() and appendPastBuffer(_:), specialised with them
    // for the element type.
    @inlinable
    mutating func moveBuffered(capacity: Int) -> [Element] {
        // Reserved and appended one by one: `Array(unsafeUninitializedCapacity:)` allocates
        // through an unspecialized path that looks up the storage's type metadata every time.
        var array: [Element] = []
        array.reserveCapacity(capacity)
        // Unsafe: the buffer is never empty (bufferCapacity is at least one), so its base address
        // is not nil.
        let base = buffer.baseAddress.unsafelyUnwrapped
        // Unsafe: moves out the `count` elements append(_:) initialized; the buffer is then
        // uninitialized, as `count = 0` below records.
        for index in 0..<count { array.append((base + index).move()) }
        count = 0
        return array
    }

    /// Collects the key-value pairs `body` appends, and returns them as a dictionary made at
    /// their count: each key is hashed once, where a dictionary grown from empty hashes its keys
    /// again at every doubling. A key given twice keeps its last value. Pairs already collected
    /// are destroyed if `body` throws.
    // @inlinable: called once per object by the inlinable JSONBytesReader.decodeDictionary(_:),
    // for its value type (see the type's documentation).
    @inlinable
    static func collectDictionary<Value>(
        _ body: (inout ElementCollector<Element>) throws -> Void
    ) throws -> [String: Value] where Element == (String, Value) {
        try collect(body) { $0.finishDictionary() }
    }

    /// The pairs collected as a dictionary, leaving the buffer empty.
    // @inlinable: called by the inlinable collectDictionary(_:) at the end of each object.
    @inlinable
    mutating func finishDictionary<Value>() -> [String: Value] where Element == (String, Value) {
        if room == 0 {
            var dictionary = [String: Value](minimumCapacity: overflow.count)
            // Moved out, not copied (no retain and release of each key and value): reversed in
            // place, then taken from the end, in document order, so a key given twice keeps its
            // last value.
            overflow.reverse()
            while let (key, value) = overflow.popLast() { dictionary[key] = value }
            return dictionary
        }
        guard count > 0 else { return [:] }
        var dictionary = [String: Value](minimumCapacity: count)
        // Unsafe: moves out the `count` pairs append(_:) initialized (the base address is not nil,
        // see moveBuffered(capacity:)); the buffer is then uninitialized, as `count = 0` records.
        let base = buffer.baseAddress.unsafelyUnwrapped
        for index in 0..<count {
            let (key, value) = (base + index).move()
            dictionary[key] = value
        }
        count = 0
        return dictionary
    }

    /// Destroys the elements still in the buffer (after an error).
    // @inlinable: called in collect(_:)'s `defer`, for each array, specialised for the element
    // type.
    @inlinable
    mutating func destroyBuffered() {
        // Unsafe: destroys the `count` elements still initialized, so that a `body` that throws
        // leaks nothing; the base address is not nil (see moveBuffered(capacity:)).
        if count > 0 { buffer.baseAddress.unsafelyUnwrapped.deinitialize(count: count) }
        count = 0
    }
}
