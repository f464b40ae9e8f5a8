import Foundation

/// An error a format reports for input that is not well-formed (JSON syntax, a broken property
/// list); mapping names the model and property where it happened and reports it as
/// ``ModelError/Kind/malformedInput``.
public protocol MalformedInputError: Error {}

/// The one error ModelKit's mapping throws: what went wrong, where, and with which value.
///
/// Every error names the model and property, the full path in the payload (with array
/// indexes), what was expected and a shortened picture of what was found, in one sentence:
///
/// ```text
/// cannot map 'User.createdAt' at 'statuses[3].user.created_at': expected a date like "EEE MMM dd HH:mm:ss Z yyyy", found "yesterday"
/// ```
///
/// In collect-all mode (``MappingOptions/collectsAllErrors``) one error of kind
/// ``Kind/multiple`` carries every problem of the payload in ``problems``.
public struct ModelError: Error, CustomStringConvertible, Sendable {
    /// What kind of problem this is.
    ///
    /// Kinds can be added in a minor release, so a `switch` over them needs a `default`; compare
    /// one with `==` (`error.kind == .typeMismatch`). A value, not an enum, as GRDB's
    /// `ResultCode` is, for that reason.
    public struct Kind: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The kind's name, e.g. `typeMismatch`.
        public let rawValue: String

        /// The kind named `rawValue`.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// A required value is missing from the payload.
        public static let missingValue = Kind(rawValue: "missingValue")
        /// A value is `null` where the property cannot hold nil.
        public static let nullValue = Kind(rawValue: "nullValue")
        /// A value has the wrong type.
        public static let typeMismatch = Kind(rawValue: "typeMismatch")
        /// A value has the right type but is not acceptable (a transformer or validator refused it).
        public static let invalidValue = Kind(rawValue: "invalidValue")
        /// An array index in a remote key path is past the end of the array.
        public static let indexOutOfRange = Kind(rawValue: "indexOutOfRange")
        /// A number does not fit the property's type.
        public static let numberOutOfRange = Kind(rawValue: "numberOutOfRange")
        /// A key names no property of the model.
        public static let unknownKey = Kind(rawValue: "unknownKey")
        /// The property cannot be set after initialization.
        public static let readOnlyProperty = Kind(rawValue: "readOnlyProperty")
        /// A value maps but fails a constraint `@Validate` declares (``ModelConstraint``).
        public static let violatedConstraint = Kind(rawValue: "violatedConstraint")
        /// The whole model failed its `validate()`.
        public static let invalidModel = Kind(rawValue: "invalidModel")
        /// A limit (nesting depth, sizes) was exceeded.
        public static let limitExceeded = Kind(rawValue: "limitExceeded")
        /// The input is not well-formed for its format.
        public static let malformedInput = Kind(rawValue: "malformedInput")
        /// Several problems, each in ``ModelError/problems``.
        public static let multiple = Kind(rawValue: "multiple")

        public var description: String { rawValue }
    }

    /// What kind of problem this is.
    public let kind: Kind
    /// The model type being mapped, e.g. `User`.
    public internal(set) var modelName: String?
    /// The property being mapped, e.g. `createdAt`.
    public internal(set) var propertyName: String?
    /// Where in the payload the problem is.
    public internal(set) var path: ModelPath
    /// What was expected, e.g. `a string`, or the validator's requirement.
    public let expected: String?
    /// A shortened picture of the value found, e.g. `42` or `"yesterday"`.
    public let found: String?
    /// The error that caused this one, if any (a transformer's or validator's).
    public let underlying: (any Error)?
    /// With ``Kind/multiple``: every problem, in payload order.
    public let problems: [ModelError]
    /// What reading did instead of failing with this error (an element left out, a default
    /// taken): reported, not thrown; nil for an error that is thrown.
    package internal(set) var recovery: Recovery?

    /// How reading went on past an error it reports instead of throwing.
    package enum Recovery: Sendable {
        /// A lossy collection left the element out.
        case droppedElement
        /// The property took its default (`@Key(onError: .useDefault)`).
        case defaultedValue
    }

    /// An error of `kind`: what was expected and found, where, and what caused it. Readers,
    /// transformers and validators throw these; so may your own.
    ///
    /// ```swift
    /// throw ModelError(.invalidValue, expected: "a rating from 0 to 5", found: "7", property: "rating")
    /// ```
    public init(
        _ kind: Kind,
        expected: String? = nil,
        found: String? = nil,
        model: String? = nil,
        property: String? = nil,
        path: ModelPath = ModelPath(),
        underlying: (any Error)? = nil,
        problems: [ModelError] = []
    ) {
        self.kind = kind
        self.expected = expected
        self.found = found
        self.modelName = model
        self.propertyName = property
        self.path = path
        self.underlying = underlying
        self.problems = problems
    }

    public var description: String {
        if kind == .multiple {
            let subject = modelName.map { " mapping '\($0)'" } ?? ""
            let noun = problems.count == 1 ? "problem" : "problems"
            return "\(problems.count) \(noun)\(subject): "
                + problems.map(\.description).joined(separator: "; ")
        }
        var subject = "cannot map"
        if kind == .readOnlyProperty || (kind == .unknownKey && propertyName != nil) { subject = "cannot set" }
        if kind == .invalidModel || kind == .violatedConstraint { subject = "invalid" }
        var text = subject
        if let modelName {
            text += " '\(modelName)\(propertyName.map { ".\($0)" } ?? "")'"
        } else if let propertyName {
            text += " '\(propertyName)'"
        } else {
            text += " value"
        }
        if !path.isEmpty {
            text += " at '\(path)'"
        }
        return text + ": " + reason
    }

    /// The part of the message after the colon.
    public var reason: String {
        switch kind {
        case .missingValue:
            return "missing key"
        case .readOnlyProperty:
            return "the property is read-only"
        case .unknownKey:
            // A property key given to set (dictionaries, KVC), or a key of a payload (strict mode).
            return propertyName != nil ? "no such property" : "unknown key"
        case .multiple:
            return problems.map(\.reason).joined(separator: "; ")
        default:
            var text = ""
            if let expected { text = "expected \(expected)" }
            if let found { text += text.isEmpty ? "found \(found)" : ", found \(found)" }
            if let underlying, !(underlying is ModelError) {
                // A user's own error: a `LocalizedError`'s description, else how it prints.
                let detail = (underlying as? any LocalizedError)?.errorDescription ?? String(describing: underlying)
                text += text.isEmpty ? detail : " (\(detail))"
            }
            return text.isEmpty ? "invalid value" : text
        }
    }
}

extension ModelError {
    /// Fills in the model and property where they are not known yet (the innermost one wins).
    // Usable from inline: the inlinable reading and writing paths name the model and property in their errors through
    // it (`decodeNamedField`, `validateModel`, `walkObject`, `encodeField`).
    @usableFromInline
    package func naming(model: String, property: String?) -> ModelError {
        var copy = self
        if copy.modelName == nil {
            copy.modelName = model
            if copy.propertyName == nil { copy.propertyName = property }
        }
        if kind == .multiple {
            return ModelError(
                .multiple, model: copy.modelName, path: copy.path,
                problems: problems.map { $0.naming(model: model, property: property) })
        }
        return copy
    }

    /// The same error, marked as one reading went on past (`recovery`): reported, not thrown.
    package func recovered(as recovery: Recovery) -> ModelError {
        var copy = self
        copy.recovery = recovery
        return copy
    }

    /// Puts `outer` in front of this error's path (and of every problem's).
    // Usable from inline: the JSON bytes reader's inlinable `decode(_:from:at:...)` (ModelKitJSON) puts a whole key
    // path in front of an error through it.
    @usableFromInline
    package func prefixed(by outer: [ModelPath.Component]) -> ModelError {
        guard !outer.isEmpty else { return self }
        if kind == .multiple {
            var copy = ModelError(
                .multiple, model: modelName, path: path,
                problems: problems.map { $0.prefixed(by: outer) })
            copy.path.prepend(contentsOf: outer)
            copy.recovery = recovery
            return copy
        }
        var copy = self
        copy.path.prepend(contentsOf: outer)
        return copy
    }

    /// Puts one component in front of this error's path.
    // Usable from inline: the inlinable walks, `withPathComponent` and `prefixingErrors` put a key or an index in front
    // of an error's path through it.
    @usableFromInline
    package func prefixed(by outer: ModelPath.Component) -> ModelError {
        prefixed(by: [outer])
    }

    /// A type mismatch: `expected a string, found 42`.
    // Usable from inline: the tree readers' inlinable `mismatch(_:)` and the JSON bytes reader's inlinable reads build
    // their type mismatches with it.
    @usableFromInline
    package static func mismatch(expected: String, found: String) -> ModelError {
        ModelError(found == "null" ? .nullValue : .typeMismatch, expected: expected, found: found)
    }

    /// All problems flattened: a `multiple` error's problems, or the error itself.
    public var allProblems: [ModelError] {
        kind == .multiple ? problems.flatMap(\.allProblems) : [self]
    }
}

/// Shortens a description of a found value for an error message.
package func shortened(_ text: String, limit: Int = 40) -> String {
    guard text.count > limit else { return text }
    return String(text.prefix(limit - 1)) + "…"
}

extension ModelError {
    /// The error for required properties a payload lacks; generated initializers throw it.
    public static func missingValues(_ fields: [Int], in schema: ModelSchema, mapping: ModelSchema.Mapping) -> ModelError {
        let problems = fields.compactMap { field -> ModelError? in
            guard schema.properties.indices.contains(field) else { return nil }
            let property = schema.properties[field]
            let path =
                mapping == .remote
                ? property.remoteKeyPaths.first?.pathComponents ?? [.key(property.name)] : [.key(property.name)]
            return ModelError(.missingValue, model: schema.modelName, property: property.name, path: ModelPath(path))
        }
        if problems.count == 1 { return problems[0] }
        return ModelError(.multiple, model: schema.modelName, problems: problems)
    }

    /// The error for setting a constant; generated setters throw it.
    public static func readOnly(_ field: Int, in schema: ModelSchema) -> ModelError {
        ModelError(.readOnlyProperty, model: schema.modelName, property: schema.propertyName(at: field))
    }
}

// MARK: Spellings of earlier releases

extension ModelError {
    @available(*, deprecated, renamed: "Kind")
    public typealias Code = Kind

    @available(*, deprecated, renamed: "kind")
    public var code: Kind { kind }
}
