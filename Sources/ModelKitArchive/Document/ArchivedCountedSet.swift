/// A counted set, as `NSCountedSet` archives one: distinct members, each with how many times it
/// was added.
///
/// Generic decoding (``KeyedUnarchiver/decodeObject(forKey:)``) returns one for every
/// `NSCountedSet`, and the archiver writes one back as an `NSCountedSet` that Apple's
/// unarchiver reads with its counts. It is a Swift value, not Foundation's class: building an
/// `NSCountedSet` from an archive's members hands them to Foundation's hashing, which on Linux
/// stops the process for members that are equal but hash differently (two `NSNull`s, the same
/// accented text in composed and decomposed form) and overflows the stack hashing an
/// `NSDecimalNumber`. Here members are Swift values compared as Swift compares them.
///
/// ```swift
/// let words = try unarchiver.decodeObject(forKey: "words") as? ArchivedCountedSet
/// words?.count(for: "baa")    // 2
/// words?.count                // distinct members
/// ```
public struct ArchivedCountedSet: Hashable, CustomStringConvertible {
    /// How many times each member was added; every count is at least 1.
    public private(set) var counts: [AnyHashable: Int]

    /// An empty counted set.
    public init() {
        counts = [:]
    }

    /// A counted set holding each element of `elements` as often as it occurs there.
    ///
    /// ```swift
    /// let bag = ArchivedCountedSet(["a", "b", "a"])   // "a" twice, "b" once
    /// ```
    public init<Elements: Sequence>(_ elements: Elements) where Elements.Element: Hashable {
        counts = [:]
        for element in elements { add(element) }
    }

    /// The number of distinct members, as `NSCountedSet.count` counts them.
    public var count: Int { counts.count }

    /// Whether there is no member.
    public var isEmpty: Bool { counts.isEmpty }

    /// The distinct members.
    public var members: Dictionary<AnyHashable, Int>.Keys { counts.keys }

    /// How many times `member` was added; 0 when it is not a member.
    public func count<Member: Hashable>(for member: Member) -> Int {
        counts[AnyHashable(member)] ?? 0
    }

    /// Adds `member` `times` times (once by default); a count of 0 or less adds nothing, and a
    /// count stops at `Int.max` rather than overflowing.
    public mutating func add<Member: Hashable>(_ member: Member, times: Int = 1) {
        guard times > 0 else { return }
        counts[AnyHashable(member), default: 0].addSaturating(times)
    }

    /// Removes `member` once, as `NSCountedSet.remove(_:)` does; it stays while its count is
    /// above zero.
    public mutating func remove<Member: Hashable>(_ member: Member) {
        let key = AnyHashable(member)
        guard let current = counts[key] else { return }
        counts[key] = current > 1 ? current - 1 : nil
    }

    /// `ArchivedCountedSet(["a" ×2, "b"])`, members in no particular order.
    public var description: String {
        let parts = counts.map { $0.value == 1 ? String(reflecting: $0.key.base) : "\(String(reflecting: $0.key.base)) ×\($0.value)" }
        return "ArchivedCountedSet([\(parts.joined(separator: ", "))])"
    }
}

extension Int {
    fileprivate mutating func addSaturating(_ other: Int) {
        let (sum, overflow) = addingReportingOverflow(other)
        self = overflow ? .max : sum
    }
}
