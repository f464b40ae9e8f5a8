/// The references of a binary property list's containers, one container's after another's, in
/// memory of their own: adding a container's references is one capacity check and one copy
/// (an array's `append(contentsOf:)` took about a hundred instructions a call, and a keyed
/// archive adds several containers per object).
///
/// ```swift
/// var references = BinaryPropertyListReferences()
/// [Int32(1), 2].withUnsafeBufferPointer { references.append($0) }
/// references[1] = 3
/// ```
struct BinaryPropertyListReferences: ~Copyable {
    private var base: UnsafeMutablePointer<Int32>
    private var capacity: Int
    /// The number of references so far.
    private(set) var count = 0

    init() {
        capacity = 1_024
        base = .allocate(capacity: capacity)
    }

    deinit {
        base.deallocate()
    }

    /// Adds `references` after those so far.
    mutating func append(_ references: UnsafeBufferPointer<Int32>) {
        guard let source = references.baseAddress, !references.isEmpty else { return }
        reserve(references.count)
        (base + count).initialize(from: source, count: references.count)
        count += references.count
    }

    /// Adds `extra` references of 0, to be set later.
    mutating func appendZeros(_ extra: Int) {
        guard extra > 0 else { return }
        reserve(extra)
        (base + count).initialize(repeating: 0, count: extra)
        count += extra
    }

    /// Reference `position` (below ``count``).
    subscript(position: Int) -> Int32 {
        get {
            precondition(position >= 0 && position < count, "reference position out of range")
            return base[position]
        }
        set {
            precondition(position >= 0 && position < count, "reference position out of range")
            base[position] = newValue
        }
    }

    /// Calls `body` with every reference so far.
    func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<Int32>) throws -> R) rethrows -> R {
        try body(UnsafeBufferPointer(start: base, count: count))
    }

    /// Makes room for `extra` more references, growing geometrically.
    private mutating func reserve(_ extra: Int) {
        guard count + extra > capacity else { return }
        let newCapacity = max(count + extra, capacity * 2)
        let newBase = UnsafeMutablePointer<Int32>.allocate(capacity: newCapacity)
        newBase.initialize(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }
}
