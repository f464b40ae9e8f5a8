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
@usableFromInline
struct ElementCollector<Element> {
    /// The stack buffer; elements `0..<count` are initialized until they move out.
    @usableFromInline let buffer: UnsafeMutableBufferPointer<Element>
    @usableFromInline var count = 0
    /// How many elements the buffer takes: its size, then 0 once it has filled and its elements
    /// have moved to ``overflow``.
    @usableFromInline var room: Int
    /// The elements once the buffer has filled.
    @usableFromInline var overflow: [Element] = []

    @inlinable
    init(buffer: UnsafeMutableBufferPointer<Element>) {
        self.buffer = buffer
        self.room = buffer.count
    }

    /// How many elements the stack buffer holds: up to 16, within 256 bytes (there is one buffer
    /// per array open in the document, up to `maxDepth` of them), at least one.
    @inlinable
    static var bufferCapacity: Int {
        let stride = MemoryLayout<Element>.stride
        return stride == 0 ? 16 : min(16, max(1, 256 / stride))
    }

    /// Collects the elements `body` appends, and returns them as an array of their exact count
    /// when they fit the buffer. Elements already collected are destroyed if `body` throws.
    @inlinable
    static func collect(_ body: (inout ElementCollector<Element>) throws -> Void) throws -> [Element] {
        try withUnsafeTemporaryAllocation(of: Element.self, capacity: bufferCapacity) { buffer in
            var collector = ElementCollector(buffer: buffer)
            defer { collector.destroyBuffered() }
            try body(&collector)
            return collector.finish()
        }
    }

    @inlinable
    mutating func append(_ element: __owned Element) {
        if _fastPath(count < room) {
            (buffer.baseAddress.unsafelyUnwrapped + count).initialize(to: element)
            count &+= 1
            return
        }
        appendPastBuffer(element)
    }

    /// The buffer is full: its elements move into an array with room for twice as many.
    @inlinable @inline(never)
    mutating func appendPastBuffer(_ element: __owned Element) {
        if room > 0 {
            room = 0
            overflow = moveBuffered(capacity: count &* 2)
        }
        overflow.append(element)
    }

    /// The elements collected, leaving the buffer empty.
    @inlinable
    mutating func finish() -> [Element] {
        if room == 0 { return overflow }
        return count > 0 ? moveBuffered(capacity: count) : []
    }

    /// A new array of room for `capacity` elements that the buffered ones move into.
    @inlinable
    mutating func moveBuffered(capacity: Int) -> [Element] {
        // Reserved and appended one by one: `Array(unsafeUninitializedCapacity:)` allocates
        // through an unspecialized path that looks up the storage's type metadata every time.
        var array: [Element] = []
        array.reserveCapacity(capacity)
        let base = buffer.baseAddress.unsafelyUnwrapped
        for index in 0..<count { array.append((base + index).move()) }
        count = 0
        return array
    }

    /// Destroys the elements still in the buffer (after an error).
    @inlinable
    mutating func destroyBuffered() {
        if count > 0 { buffer.baseAddress.unsafelyUnwrapped.deinitialize(count: count) }
        count = 0
    }
}
