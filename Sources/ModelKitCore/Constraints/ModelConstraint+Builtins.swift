// The built-in rules. Each that applies to every string or collection is declared twice: once
// generic, once for `String` alone, because `@Validate`'s arguments are type-checked before the
// property's type is known, and a rule only generic there would leave its type undetermined; the
// check `@Model` generates uses the property's type, where the generic one applies.

extension ModelConstraint where Value: Comparable & Sendable & SendableMetatype {
    /// A value in the range: `.range(1...5)`.
    public static func range(_ range: ClosedRange<Value>) -> Self {
        bounded("a value in \(range)", lower: (range.lowerBound, true), upper: (range.upperBound, true)) { range.contains($0) }
    }

    /// A value in the half-open range: `.range(0..<1)`.
    public static func range(_ range: Range<Value>) -> Self {
        bounded("a value in \(range)", lower: (range.lowerBound, true), upper: (range.upperBound, false)) { range.contains($0) }
    }

    /// A value of at least the bound: `.range(18...)`.
    public static func range(_ range: PartialRangeFrom<Value>) -> Self {
        bounded("a value of at least \(range.lowerBound)", lower: (range.lowerBound, true), upper: nil) { range.contains($0) }
    }

    /// A value of at most the bound: `.range(...100)`.
    public static func range(_ range: PartialRangeThrough<Value>) -> Self {
        bounded("a value of at most \(range.upperBound)", lower: nil, upper: (range.upperBound, true)) { range.contains($0) }
    }

    /// A value below the bound: `.range(..<100)`.
    public static func range(_ range: PartialRangeUpTo<Value>) -> Self {
        bounded("a value below \(range.upperBound)", lower: nil, upper: (range.upperBound, false)) { range.contains($0) }
    }

    private static func bounded(
        _ expected: String, lower: (Value, Bool)?, upper: (Value, Bool)?, _ test: @escaping @Sendable (Value) -> Bool
    ) -> Self {
        func bound(_ end: (Value, Bool)?) -> ModelRequirement.Bound? {
            end.map { ModelRequirement.Bound(ModelRequirement.Number($0.0), isInclusive: $0.1) }
        }
        return Self(expected: expected, requirement: .range(lower: bound(lower), upper: bound(upper)), test)
    }
}

extension ModelConstraint where Value: StringProtocol & SendableMetatype {
    /// A string whose length, in Unicode scalars (what JSON counts as characters), is in the
    /// range: `.length(1...280)`, `.length(...280)`, `.length(3...3)`.
    public static func length(_ range: some RangeExpression<Int> & Sendable) -> Self {
        measured(range)
    }

    /// A string in which the regular expression finds a match: `.pattern(#"^[a-z0-9_]+$"#)`.
    /// Anchor it to match the whole string. A pattern that does not compile fails every value,
    /// with an error that says so.
    public static func pattern(_ pattern: String) -> Self {
        matching(pattern)
    }

    fileprivate static func measured(_ range: some RangeExpression<Int> & Sendable) -> Self {
        let (min, max) = bounds(of: range)
        let expected = "a string of " + amount(min: min, max: max, noun: "character")
        return Self(expected: expected, requirement: .length(min: min, max: max)) { value in
            within(value.unicodeScalars.count, min: min, max: max)
        }
    }

    fileprivate static func matching(_ pattern: String) -> Self {
        let matcher = PatternMatcher(pattern)
        let expected = matcher.problem.map { "a string matching '\(pattern)', which is no valid pattern (\($0))" }
            ?? "a string matching '\(pattern)'"
        return Self(expected: expected, requirement: .pattern(pattern)) { matcher.matches(String($0)) }
    }
}

extension ModelConstraint where Value == String {
    /// A string whose length, in Unicode scalars, is in the range (see the generic `length`).
    public static func length(_ range: some RangeExpression<Int> & Sendable) -> Self {
        measured(range)
    }

    /// A string in which the regular expression finds a match (see the generic `pattern`).
    public static func pattern(_ pattern: String) -> Self {
        matching(pattern)
    }

    /// A string that is not empty.
    public static var nonEmpty: Self {
        Self(expected: "a non-empty string", requirement: .nonEmpty) { !$0.isEmpty }
    }

    /// A string with a number of characters (grapheme clusters, as `count` counts) in the range.
    public static func count(_ range: some RangeExpression<Int> & Sendable) -> Self {
        counted(range, noun: "character")
    }
}

extension ModelConstraint where Value: Collection & SendableMetatype {
    /// A string or collection that is not empty.
    public static var nonEmpty: Self {
        Self(expected: "a non-empty value", requirement: .nonEmpty) { !$0.isEmpty }
    }

    /// A collection with a number of elements in the range: `.count(1...10)`, `.count(...10)`.
    public static func count(_ range: some RangeExpression<Int> & Sendable) -> Self {
        counted(range, noun: "element")
    }

    fileprivate static func counted(_ range: some RangeExpression<Int> & Sendable, noun: String) -> Self {
        let (min, max) = bounds(of: range)
        return Self(expected: amount(min: min, max: max, noun: noun), requirement: .count(min: min, max: max)) { value in
            within(value.count, min: min, max: max)
        }
    }
}

/// The least and greatest count `range` allows, nil where it has no bound (counts start at 0).
private func bounds(of range: some RangeExpression<Int>) -> (min: Int?, max: Int?) {
    let relative = range.relative(to: 0..<Int.max)
    let lower = relative.lowerBound
    return (lower > 0 ? lower : nil, relative.upperBound == Int.max ? nil : relative.upperBound - 1)
}

private func within(_ count: Int, min: Int?, max: Int?) -> Bool {
    count >= (min ?? 0) && count <= (max ?? Int.max)
}

/// `1 to 280 characters`, `at least 1 element`, `at most 280 characters`, `3 characters`.
private func amount(min: Int?, max: Int?, noun: String) -> String {
    func counted(_ count: Int) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }
    switch (min, max) {
    case let (min?, max?) where min == max: return counted(max)
    case let (min?, max?): return "\(min) to \(counted(max))"
    case let (min?, nil): return "at least \(counted(min))"
    case let (nil, max?): return "at most \(counted(max))"
    case (nil, nil): return "any number of \(noun)s"
    }
}
