// Checking a live model against its constraints: what a store does before it saves one, so
// that what saves loads back (reading checks the same constraints).

extension Model {
    /// Checks the model's values, and those of the models it holds as values, against the
    /// constraints `@Validate` declares, throwing every violation: one ``ModelError`` of kind
    /// ``ModelError/Kind-swift.struct/violatedConstraint``, or one of kind `multiple` listing them.
    ///
    /// ```swift
    /// review.rating = 9
    /// try review.checkConstraints()   // invalid 'Review.rating' at 'rating': expected a value in 1...5, found 9
    /// ```
    ///
    /// Stores check the models they save. Models referred to through relationships are checked
    /// when they are saved themselves.
    public func checkConstraints() throws {
        let schema = dynamicModelSchema
        // Most models have nothing to check, nor do the models they hold: no key path read, no
        // set of visited instances, no list of violations (a store checks every model it saves).
        guard schema.checksConstraints else { return }
        var violations: [ModelError] = []
        var visited: Set<ObjectIdentifier> = []
        collectViolations(into: &violations, at: [], visited: &visited)
        if violations.count == 1 { throw violations[0] }
        if violations.count > 1 {
            throw ModelError(.multiple, model: schema.modelName, problems: violations)
        }
    }

    /// Appends the violations of this model's values to `violations`, their paths under `path`;
    /// a class instance already `visited` (a cycle, or a value held twice) is checked once.
    func collectViolations(
        into violations: inout [ModelError], at path: [ModelPath.Component], visited: inout Set<ObjectIdentifier>
    ) {
        if isClassType(Self.self), !visited.insert(ObjectIdentifier(self as AnyObject)).inserted { return }
        let schema = dynamicModelSchema
        for property in schema.constrainedProperties {
            guard let constraints = property.constraints, let value = propertyValue(property),
                let violation = constraints.violation(byValue: value)
            else { continue }
            var error = violation.naming(model: schema.modelName, property: property.name)
            error.path = ModelPath(path + [.key(property.name)])
            violations.append(error)
        }
        for property in schema.modelHoldingProperties {
            guard let value = propertyValue(property) else { continue }
            collectHeldViolations(value, into: &violations, at: path + [.key(property.name)], visited: &visited)
        }
    }
}

/// The violations of the models `value` holds as values: itself, or the elements of an array
/// or a set (by position), or the values of a dictionary (by key).
private func collectHeldViolations(
    _ value: Any, into violations: inout [ModelError], at path: [ModelPath.Component], visited: inout Set<ObjectIdentifier>
) {
    if let model = value as? any Model {
        // An identified model is saved, and checked, on its own.
        guard model.dynamicModelSchema.identifierIndex == nil else { return }
        model.collectViolations(into: &violations, at: path, visited: &visited)
    } else if let dictionary = value as? [String: Any] {
        for (key, element) in dictionary.sorted(by: { $0.key < $1.key }) {
            guard let element = unwrappedOptional(element) else { continue }
            collectHeldViolations(element, into: &violations, at: path + [.key(key)], visited: &visited)
        }
    } else if let sequence = value as? any Sequence {
        func elements<S: Sequence>(of sequence: S) -> [Any] { sequence.map { $0 } }
        for (index, element) in elements(of: sequence).enumerated() {
            guard let element = unwrappedOptional(element) else { continue }
            collectHeldViolations(element, into: &violations, at: path + [.index(index)], visited: &visited)
        }
    }
}

extension ModelValueKind {
    /// Whether values of this kind may be models or hold them.
    var holdsModels: Bool {
        switch self {
        case .model: true
        case .optional(let wrapped), .array(let wrapped), .set(let wrapped), .dictionary(let wrapped): wrapped.holdsModels
        default: false
        }
    }

    /// The schemas of the models values of this kind may be or hold.
    var heldModels: [ModelSchema] {
        switch self {
        case .model(let model): [model.schema]
        case .optional(let wrapped), .array(let wrapped), .set(let wrapped), .dictionary(let wrapped): wrapped.heldModels
        default: []
        }
    }
}

extension ModelSchema {
    /// Whether a check of this model's constraints has anything to check: constraints of its
    /// own, or of the models its properties may hold as values, as declared. Worked out once,
    /// after every schema exists (a schema cannot ask others while they are being made).
    package var checksConstraints: Bool {
        if let known = checksConstraintsCache.withLock({ $0 }) { return known }
        var visited: Set<ObjectIdentifier> = [ObjectIdentifier(self)]
        let result = holdsConstraints(visited: &visited)
        checksConstraintsCache.withLock { $0 = result }
        return result
    }

    private func holdsConstraints(visited: inout Set<ObjectIdentifier>) -> Bool {
        if !constrainedProperties.isEmpty { return true }
        for property in modelHoldingProperties {
            for held in property.valueKind.heldModels where visited.insert(ObjectIdentifier(held)).inserted {
                if held.holdsConstraints(visited: &visited) { return true }
            }
        }
        return false
    }
}
