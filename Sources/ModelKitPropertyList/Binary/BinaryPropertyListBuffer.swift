/// A growing list of plain numbers in memory of its own, for what the binary writer keeps per
/// object or reference (its containers' references, its objects' offsets): adding one or a run
/// is one capacity check and a store or a copy (an array's `append` and `append(contentsOf:)`
/// checked uniqueness and went through generic paths, tens to a hundred instructions a call,
/// several times per archived object).
///
/// ```swift
/// var references = BinaryPropertyListBuffer<Int32>()
/// [Int32(1), 2].withUnsafeBufferPointer { references.append($0) }
/// references[1] = 3
/// ```
struct BinaryPropertyListBuffer<Element: BitwiseCopyable>: ~Copyable {
    // Memory of its own (see the type): an append is one capacity check and a store, with no array uniqueness check;
    // freed in `deinit`.
    private var base: UnsafeMutablePointer<Element>
    private var capacity: Int
    /// The number of elements so far.
    private(set) var count = 0

    init() {
        capacity = 1_024
        // The first block, grown by `reserve`.
        base = .allocate(capacity: capacity)
    }

    deinit {
        // Plain numbers: nothing to deinitialize.
        base.deallocate()
    }

    /// Adds `element` after those so far.
    @inline(__always)
    mutating func append(_ element: Element) {
        if count == capacity { reserve(1) }
        // Within capacity: checked on the line above.
        (base + count).initialize(to: element)
        count += 1
    }

    /// Adds `elements` after those so far.
    // A run copied in one go from the caller's memory in place (an array's storage, another buffer), after one capacity
    // check.
    mutating func append(_ elements: UnsafeBufferPointer<Element>) {
        guard let source = elements.baseAddress, !elements.isEmpty else { return }
        reserve(elements.count)
        // `reserve` made room for all of them.
        (base + count).initialize(from: source, count: elements.count)
        count += elements.count
    }

    /// Adds `extra` copies of `element`, to be set later.
    mutating func append(repeating element: Element, count extra: Int) {
        guard extra > 0 else { return }
        reserve(extra)
        // `reserve` made room for all of them.
        (base + count).initialize(repeating: element, count: extra)
        count += extra
    }

    /// Element `position` (below ``count``).
    subscript(position: Int) -> Element {
        get {
            precondition(position >= 0 && position < count, "buffer position out of range")
            return base[position]
        }
        set {
            precondition(position >= 0 && position < count, "buffer position out of range")
            base[position] = newValue
        }
    }

    /// Calls `body` with every element so far.
    // Lends the elements in place (`finish` writes the containers and the offset table from them), without copying them
    // out.
    func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<Element>) throws -> R) rethrows -> R {
        try body(UnsafeBufferPointer(start: base, count: count))
    }

    /// Makes room for `extra` more elements, growing geometrically.
    private mutating func reserve(_ extra: Int) {
        guard count + extra > capacity else { return }
        let newCapacity = max(count + extra, capacity * 2)
        // Grown by hand: the plain numbers are copied into a larger block before the old one is freed.
        let newBase = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        newBase.initialize(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }
}
