/// One rule a property's value must satisfy after mapping: a range, a length, a pattern, or your
/// own. `@Validate` declares them on a property:
///
/// ```swift
/// @Model struct Review {
///     @Validate(.range(1...5)) var rating: Int
///     @Validate(.nonEmpty, .length(...280)) var text: String
///     @Validate(ModelConstraint<Int>(expected: "an even number") { $0.isMultiple(of: 2) }) var seats = 2
/// }
/// ```
///
/// Every reader checks them after it maps the value (JSON bytes and objects, `JSONValue`,
/// Codable, archives, stores), and reports a value that fails one as a ``ModelError`` of kind
/// ``ModelError/Kind-swift.struct/violatedConstraint``, with the model, the property, the path
/// and the value, collected with the others under ``MappingOptions/collectsAllErrors``. The
/// schema keeps what each requires (``ModelProperty/requirements``), so that formats can describe
/// it (the JSON Schema export does).
///
/// A constraint of your own is a value of this type: made in place with
/// ``init(expected:_:)``, or named in an extension, as the built-in ones are:
///
/// ```swift
/// extension ModelConstraint where Value == Int {
///     static var even: Self { ModelConstraint(expected: "an even number") { $0.isMultiple(of: 2) } }
/// }
/// ```
public struct ModelConstraint<Value>: Sendable {
    /// What the rule requires, as errors say it after "expected": `a value in 1...5`.
    public let expected: String
    /// What the rule requires, for formats that describe it.
    public let requirement: ModelRequirement
    /// Whether a value satisfies the rule.
    private let test: @Sendable (Value) -> Bool

    /// A rule of your own: `expected` says what it requires (`"an even number"`), `test` whether
    /// a value satisfies it.
    public init(expected: String, _ test: @escaping @Sendable (Value) -> Bool) {
        self.init(expected: expected, requirement: .custom(expected: expected), test)
    }

    /// A rule with a requirement formats can describe.
    package init(expected: String, requirement: ModelRequirement, _ test: @escaping @Sendable (Value) -> Bool) {
        self.expected = expected
        self.requirement = requirement
        self.test = test
    }

    /// Whether `value` satisfies the rule.
    public func isSatisfied(by value: Value) -> Bool {
        test(value)
    }
}

/// What a ``ModelConstraint`` requires, in terms formats can describe (the JSON Schema export
/// writes `minimum`, `maxLength`, `pattern` and the like from it).
public enum ModelRequirement: Hashable, Sendable {
    /// A value between bounds (`.range(1...5)`, `.range(0..<1)`, `.range(18...)`); a bound is nil
    /// when the range has none.
    case range(lower: Bound?, upper: Bound?)
    /// A string with a number of Unicode scalars (JSON's characters) between bounds.
    case length(min: Int?, max: Int?)
    /// A collection with a number of elements between bounds.
    case count(min: Int?, max: Int?)
    /// A non-empty string or collection.
    case nonEmpty
    /// A string in which the regular expression finds a match (anchor it with `^...$` to match
    /// the whole string, as JSON Schema's `pattern` does).
    case pattern(String)
    /// A rule of your own, described by what it expects.
    case custom(expected: String)

    /// One end of a range.
    public struct Bound: Hashable, Sendable {
        /// The bound's value, when it is a number.
        public let number: Number?
        /// Whether the bound itself is in the range.
        public let isInclusive: Bool

        public init(_ number: Number?, isInclusive: Bool) {
            self.number = number
            self.isInclusive = isInclusive
        }
    }

    /// A bound's number, exactly as declared.
    public enum Number: Hashable, Sendable {
        case integer(Int64)
        case unsignedInteger(UInt64)
        case floatingPoint(Double)

        /// The number `value` is, if it is one a format can write exactly.
        init?(_ value: Any) {
            if let integer = value as? any BinaryInteger {
                if let signed = Int64(exactly: integer) {
                    self = .integer(signed)
                } else if let unsigned = UInt64(exactly: integer) {
                    self = .unsignedInteger(unsigned)
                } else {
                    return nil
                }
            } else if let float = value as? any BinaryFloatingPoint {
                self = .floatingPoint(Double(float))
            } else {
                return nil
            }
        }
    }
}
