import SwiftSyntax

/// A stored property of a `@Model` declaration, as the macro reads it.
struct StoredProperty {
    /// The property's name.
    var name: String
    /// The declared type, written so it can stand in generic arguments (`T!` becomes `T?`), or
    /// the type of a plain literal initial value; nil when neither says.
    var typeText: String?
    /// Declared optional.
    var isOptional: Bool
    /// A `let`.
    var isLet: Bool
    /// The initial value expression, if any.
    var initializer: String?
    /// Declared `weak`.
    var isWeak: Bool
    /// Marked `@Transient` (or `lazy` with `@Transient`).
    var isTransient: Bool
    /// Marked `@Identifier`.
    var isIdentifier: Bool
    /// The remote key paths from `@Key`, split into segments.
    var remoteKeyPaths: [[String]]?
    /// The key path `@Key(decode:..., encode:)` writes under, split into segments; nil to write
    /// under the first of ``remoteKeyPaths``.
    var encodeKeyPath: [String]?
    /// The transformer expression from `@Transform`.
    var transformer: String?
    /// `@Key(..., null:)`: what `null` means for this property, over the model's `nulls:` policy.
    var nullPolicy: NullArgument?
    /// `@Key(onError: .useDefault)`: a value that does not map gives the default.
    var invalidUsesDefault = false
    /// `@Key(omit:)`: when the property is left out of payloads written.
    var omitPolicy: OmitArgument?
    /// `@UnknownKeys`: keeps the payload keys no other property reads.
    var keepsUnknownKeys = false
    /// `@Presence`: holds which properties a payload gave (transient otherwise).
    var tracksPresence = false
    /// `@Validate`'s constraint expressions, as written.
    var constraints: [String] = []

    /// The cases of `OmitPolicy` as written in `@Key(omit:)`.
    enum OmitArgument {
        case ifNil, ifDefault
    }

    /// The cases of `NullPolicy` as written in `@Key(null:)`.
    enum NullArgument {
        /// `.useDefault`: `null` counts as missing, so the default applies.
        case useDefault
        /// `.error`: `null` is an error, whatever the model's policy says.
        case error
    }

    /// The transformer the generated code uses: none for a transient property, which is not
    /// mapped (its `@Transform` only gets a warning).
    var mappedTransformer: String? { isTransient ? nil : transformer }
    /// What `@Relationship` declares, if it is on the property.
    var relationship: RelationshipDeclaration?

    /// A `@Relationship` as the macro reads it.
    struct RelationshipDeclaration {
        /// The rule's case name: `nullify`, `cascade`, `deny` or `noAction`.
        var deleteRule: String
        /// The inverse key path as written (`\Comment.post`) and the property it names, if any.
        var inverse: (expression: String, name: String)?
        /// Whether payload formats write the related models' identifiers (`representation: .identifiers`).
        var writesIdentifiers = false
    }

    /// The archive behaviour expression from `@Archive`, if any.
    var archiveBehavior: String?
    /// Whether the type declares `static func validate<Name>(_:)`.
    var hasValidationMethod = false
    /// The declaration, for diagnostics.
    var declaration: VariableDeclSyntax
    /// `#sourceLocation(file: ..., line: ...)` of the declaration: generated code that uses the
    /// property's type is attributed to the user's line, so a type error shows there.
    var sourceLocation: String?

    /// A `let` with an initial value: it cannot be set by any initializer, so it is only written.
    var isReadOnly: Bool { isLet && initializer != nil }

    /// A value exists without the payload: an initial value, or an optional `var`.
    var hasDefault: Bool { initializer != nil || (isOptional && !isLet) || isOptional }

    /// Whether mapping reads it.
    var isMappedIn: Bool { !isTransient && !isReadOnly }

    /// The capitalised name used in validation method names: `screenName` -> `ScreenName`.
    var capitalizedName: String { name.prefix(1).uppercased() + name.dropFirst() }

    /// The `ModelProperty.Flags` literal for the schema.
    var flagsLiteral: String {
        var flags: [String] = []
        if isOptional { flags.append(".optional") }
        if isWeak { flags.append(".weak") }
        if isTransient { flags.append(".transient") }
        if isIdentifier { flags.append(".identifier") }
        if isReadOnly { flags.append(".readOnly") }
        if isLet && !isReadOnly { flags.append(".constant") }
        if initializer != nil { flags.append(".hasDefault") }
        switch nullPolicy {
        case .useDefault?: flags.append(".nullUsesDefault")
        case .error?: flags.append(".nullIsError")
        case nil: break
        }
        if invalidUsesDefault { flags.append(".invalidUsesDefault") }
        if keepsUnknownKeys { flags.append(".unknownKeys") }
        if tracksPresence { flags.append(".presence") }
        switch omitPolicy {
        case .ifNil?: flags.append(".omitsNil")
        case .ifDefault?: flags.append(".omitsDefault")
        case nil: break
        }
        return "[" + flags.joined(separator: ", ") + "]"
    }
}

/// The properties' attributes ModelKit reads.
enum PropertyAttribute: String, CaseIterable {
    case key = "Key"
    case identifier = "Identifier"
    case transient = "Transient"
    case transform = "Transform"
    case archive = "Archive"
    case relationship = "Relationship"
    case unknownKeys = "UnknownKeys"
    case validate = "Validate"
    case presence = "Presence"

    /// The attribute of this kind on a declaration, if any (`@Key` or `@ModelKit.Key`).
    func find(in attributes: AttributeListSyntax) -> AttributeSyntax? {
        for element in attributes {
            guard let attribute = element.as(AttributeSyntax.self) else { continue }
            let name = attribute.attributeName.trimmedDescription
            if name == rawValue || name.hasSuffix("." + rawValue) { return attribute }
        }
        return nil
    }
}
