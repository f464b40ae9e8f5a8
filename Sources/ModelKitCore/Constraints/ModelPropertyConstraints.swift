/// The constraints `@Validate` declares on one property, checked by generated code after each
/// read and kept by the property's schema (``ModelProperty/constraints``).
///
/// An optional property's constraints apply to its value when it has one; nil satisfies them.
public struct ModelPropertyConstraints<Value>: Sendable {
    /// The rules, in declaration order.
    public let rules: [ModelConstraint<Value>]

    public init(_ rules: [ModelConstraint<Value>]) {
        self.rules = rules
    }

    /// The first rule `value` fails, as an error naming what the rule expects and the value.
    public func violation(by value: Value) -> ModelError? {
        for rule in rules where !rule.isSatisfied(by: value) {
            return ModelError(.violatedConstraint, expected: rule.expected, found: ModelError.describe(value))
        }
        return nil
    }
}

/// The constraints of one property, whatever its type: what the schema keeps.
public protocol AnyModelPropertyConstraints: Sendable {
    /// What the rules require, in declaration order.
    var requirements: [ModelRequirement] { get }
    /// The first rule a property's value fails, as an error; nil when it satisfies all, or is
    /// nil, or is of another type.
    func violation(byValue value: Any) -> ModelError?
}

extension ModelPropertyConstraints: AnyModelPropertyConstraints {
    public var requirements: [ModelRequirement] { rules.map(\.requirement) }

    public func violation(byValue value: Any) -> ModelError? {
        // A cast from `Any` unwraps an optional: nil fails it, and passes.
        guard let value = value as? Value else { return nil }
        return violation(by: value)
    }
}

/// The constraints of a property of type `V`, as `@Validate` declares them; `@Model` generates
/// calls to it (the type checker then reports a rule that does not apply to the property's type
/// on the property's line).
// Inlinable: called once per constrained property, in the initializer of a static constant.
@inlinable
public func modelConstraints<V>(for type: V.Type, _ rules: ModelConstraint<V>...) -> ModelPropertyConstraints<V> {
    ModelPropertyConstraints(rules)
}

/// The constraints of an optional property, applying to its value when it has one.
// Inlinable: as the overload above.
@inlinable
public func modelConstraints<V>(for type: V?.Type, _ rules: ModelConstraint<V>...) -> ModelPropertyConstraints<V> {
    ModelPropertyConstraints(rules)
}

/// What the generated code resolves to when a `@Validate` constraint applies to another type than
/// the property's, so that the compiler's error says so.
@available(*, unavailable, message: "a '@Validate' constraint applies to another type than the property's: '.length' and '.pattern' to strings, '.count' and '.nonEmpty' to collections and strings, '.range' to values of the property's own type")
@_disfavoredOverload
public func modelConstraints<V, W>(for type: V.Type, _ rules: ModelConstraint<W>...) -> ModelPropertyConstraints<W> {
    ModelPropertyConstraints(rules)
}

extension ModelReader {
    /// Checks a property's value against its `@Validate` constraints, unless the options turn
    /// validation off.
    // Inlinable: generated code calls it after reading each constrained property; specialised there, the rules of a
    // known value type are called directly.
    @inlinable
    public func checkConstraints<V>(_ value: V, _ constraints: ModelPropertyConstraints<V>) throws {
        guard flags.validates, let violation = constraints.violation(by: value) else { return }
        throw violation
    }

    /// Checks an optional property's value, when it has one.
    // Inlinable: as the overload above.
    @inlinable
    public func checkConstraints<V>(_ value: V?, _ constraints: ModelPropertyConstraints<V>) throws {
        guard let value else { return }
        try checkConstraints(value, constraints)
    }
}
