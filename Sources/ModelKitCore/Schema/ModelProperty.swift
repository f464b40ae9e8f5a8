/// One property of a model as its `@Model` declaration describes it.
///
/// The schema of a type lists its properties in declaration order (a subclass's after its
/// parent's). Every format reads and writes models through this list:
///
/// ```swift
/// for property in User.modelSchema.properties where !property.isTransient {
///     print(property.name, property.remoteKeyPaths, property.typeName)
/// }
/// ```
public final class ModelProperty: @unchecked Sendable {
    // @unchecked: every stored property is a constant; `keyPath` is an immutable key path object.

    /// Traits of a property, read from its declaration.
    public struct Flags: OptionSet, Hashable, Sendable {
        public let rawValue: UInt16
        public init(rawValue: UInt16) { self.rawValue = rawValue }

        /// Declared optional (`T?`); missing and null map to nil.
        public static let optional = Flags(rawValue: 1 << 0)
        /// Declared `weak`: compared by identity, archived conditionally.
        public static let weak = Flags(rawValue: 1 << 1)
        /// `@Transient`: not mapped, compared, hashed or archived.
        public static let transient = Flags(rawValue: 1 << 2)
        /// `@Identifier`: the model's identity.
        public static let identifier = Flags(rawValue: 1 << 3)
        /// A `let` with an initial value: written out, never read in.
        public static let readOnly = Flags(rawValue: 1 << 4)
        /// A `let` without an initial value: set once, at initialization.
        public static let constant = Flags(rawValue: 1 << 5)
        /// Has an initial value, used when the payload has none.
        public static let hasDefault = Flags(rawValue: 1 << 6)
        /// `null` in a payload counts as missing, so the default applies (`@Key(..., null: .useDefault)`
        /// or the model's null policy).
        public static let nullUsesDefault = Flags(rawValue: 1 << 7)
        /// `null` in a payload is an error even when the model's policy is `.useDefault`
        /// (`@Key(..., null: .error)`).
        public static let nullIsError = Flags(rawValue: 1 << 8)
        /// `@Key(onError: .useDefault)`: a value that does not map gives the default instead,
        /// reported in ``MappingOptions/report``.
        public static let invalidUsesDefault = Flags(rawValue: 1 << 9)
        /// `@Key(omit: .ifNil)`: left out of payloads written while nil.
        public static let omitsNil = Flags(rawValue: 1 << 10)
        /// `@Key(omit: .ifDefault)`: left out of payloads written while equal to its default.
        public static let omitsDefault = Flags(rawValue: 1 << 11)
        /// `@UnknownKeys`: holds the payload's keys no property reads, and writes them back; it
        /// has no key of its own.
        public static let unknownKeys = Flags(rawValue: 1 << 12)
        /// `@Presence`: holds which properties the payload the model was mapped from gave
        /// (``ModelPresence``); transient otherwise.
        public static let presence = Flags(rawValue: 1 << 13)
    }

    /// How a property is written to a keyed archive (PSPDFModel's encoding behaviours).
    public enum ArchiveBehavior: Hashable, Sendable {
        /// Not written.
        case excluded
        /// Always written.
        case unconditional
        /// Written only if something else writes the same object unconditionally.
        case conditional
    }

    /// The property's name in Swift, also its property key.
    public let name: String
    /// Where the property's value sits in a remote payload, tried in order when reading; the
    /// first is the one written unless `@Key(decode:..., encode:)` names another
    /// (``remoteWritingKeyPath``).
    public let remoteKeyPaths: [RemoteKeyPath]
    /// The key path `@Key(decode:..., encode:)` declared for writing, if it differs from reading.
    private let declaredWritingKeyPath: RemoteKeyPath?
    /// The key path the property is written under in payloads: `@Key(decode:..., encode:)`'s
    /// `encode`, or else the first of ``remoteKeyPaths``.
    public var remoteWritingKeyPath: RemoteKeyPath? { declaredWritingKeyPath ?? remoteKeyPaths.first }
    /// The declared type.
    public let valueType: Any.Type
    /// The declared type as written in the source, e.g. `[URLEntity]`.
    public let typeName: String
    /// What kind of value the declared type is, for formats that keep each kind their own way.
    public let valueKind: ModelValueKind
    /// The declaration's traits.
    public let flags: Flags
    /// The initial value as written in the source, e.g. `[]`, when there is one.
    public let defaultExpression: String?
    /// A description of the transformer applied on remote mapping, e.g. `dateFormat("yyyy")`.
    public let transformerDescription: String?
    /// The transformer itself, for introspection.
    public let transformer: (any Sendable)?
    /// How the property is archived.
    public let archiveBehavior: ArchiveBehavior
    /// A key path to the property on the model type.
    public let keyPath: AnyKeyPath
    /// The type that declares the property (a superclass for inherited ones).
    public let declaringTypeName: String
    /// What `@Relationship` declares about the models the property refers to: its delete rule
    /// and inverse; nil for a property without one (a reference then nullifies when optional).
    public let relationship: ModelRelationship?
    /// The constraints `@Validate` declares, checked after each read; nil without any.
    public let constraints: (any AnyModelPropertyConstraints)?
    /// What the property's constraints require, in declaration order (empty without any).
    public var requirements: [ModelRequirement] { constraints?.requirements ?? [] }

    /// Creates a property description; `@Model` generates these.
    public init(
        _ name: String,
        keyPath: AnyKeyPath,
        type: Any.Type,
        kind: ModelValueKind = .other,
        typeName: String,
        declaredIn declaringTypeName: String,
        remote: [[String]]? = nil,
        encode: [String]? = nil,
        flags: Flags = [],
        defaultExpression: String? = nil,
        transformer: (any Sendable)? = nil,
        transformerDescription: String? = nil,
        archive: ArchiveBehavior? = nil,
        relationship: ModelRelationship? = nil,
        constraints: (any AnyModelPropertyConstraints)? = nil
    ) {
        self.relationship = relationship
        self.constraints = constraints
        self.name = name
        self.keyPath = keyPath
        self.valueType = type
        self.valueKind = kind
        self.typeName = typeName
        self.declaringTypeName = declaringTypeName
        self.flags = flags
        self.remoteKeyPaths = remote?.map(RemoteKeyPath.init(segments:)) ?? []
        self.declaredWritingKeyPath = encode.map(RemoteKeyPath.init(segments:))
        self.defaultExpression = defaultExpression
        self.transformer = transformer
        self.transformerDescription = transformerDescription
        self.archiveBehavior =
            archive ?? (flags.contains(.transient) ? .excluded : flags.contains(.weak) ? .conditional : .unconditional)
    }

    /// Creates a property description, taking its type from its key path; `@Model` generates these.
    public convenience init<Root, Value>(
        _ name: String,
        keyPath: KeyPath<Root, Value>,
        typeName: String? = nil,
        declaredIn declaringTypeName: String,
        remote: [[String]]? = nil,
        encode: [String]? = nil,
        flags: Flags = [],
        defaultExpression: String? = nil,
        transformer: (any Sendable)? = nil,
        transformerDescription: String? = nil,
        archive: ArchiveBehavior? = nil,
        relationship: ModelRelationship? = nil,
        constraints: (any AnyModelPropertyConstraints)? = nil
    ) {
        self.init(
            name, keyPath: keyPath, type: Value.self, kind: .other, typeName: typeName ?? String(describing: Value.self),
            declaredIn: declaringTypeName, remote: remote, encode: encode, flags: flags, defaultExpression: defaultExpression,
            transformer: transformer, transformerDescription: transformerDescription, archive: archive,
            relationship: relationship, constraints: constraints)
    }

    /// Creates a description of a property whose type is a ``ModelValue``, taking its type and
    /// kind from its key path; `@Model` generates these.
    public convenience init<Root, Value: ModelValue>(
        _ name: String,
        keyPath: KeyPath<Root, Value>,
        typeName: String? = nil,
        declaredIn declaringTypeName: String,
        remote: [[String]]? = nil,
        encode: [String]? = nil,
        flags: Flags = [],
        defaultExpression: String? = nil,
        transformer: (any Sendable)? = nil,
        transformerDescription: String? = nil,
        archive: ArchiveBehavior? = nil,
        relationship: ModelRelationship? = nil,
        constraints: (any AnyModelPropertyConstraints)? = nil
    ) {
        self.init(
            name, keyPath: keyPath, type: Value.self, kind: Value.modelValueKind,
            typeName: typeName ?? String(describing: Value.self), declaredIn: declaringTypeName, remote: remote,
            encode: encode, flags: flags, defaultExpression: defaultExpression, transformer: transformer,
            transformerDescription: transformerDescription, archive: archive, relationship: relationship,
            constraints: constraints)
    }

    /// A copy with remote key paths filled in by a key strategy where none were declared.
    package init(_ other: ModelProperty, remoteKeyPaths: [RemoteKeyPath], extraFlags: Flags) {
        self.name = other.name
        self.keyPath = other.keyPath
        self.valueType = other.valueType
        self.valueKind = other.valueKind
        self.typeName = other.typeName
        self.declaringTypeName = other.declaringTypeName
        self.flags = other.flags.union(extraFlags)
        self.remoteKeyPaths = remoteKeyPaths
        self.declaredWritingKeyPath = other.declaredWritingKeyPath
        self.defaultExpression = other.defaultExpression
        self.transformer = other.transformer
        self.transformerDescription = other.transformerDescription
        self.archiveBehavior = other.archiveBehavior
        self.relationship = other.relationship
        self.constraints = other.constraints
    }

    /// Declared optional.
    public var isOptional: Bool { flags.contains(.optional) }
    /// Declared `weak`.
    public var isWeak: Bool { flags.contains(.weak) }
    /// Marked `@Transient`.
    public var isTransient: Bool { flags.contains(.transient) }
    /// Marked `@Identifier`.
    public var isIdentifier: Bool { flags.contains(.identifier) }
    /// A `let` with an initial value: mapped out, never in.
    public var isReadOnly: Bool { flags.contains(.readOnly) }
    /// Settable after initialization (a `var`).
    public var isMutable: Bool { !flags.contains(.readOnly) && !flags.contains(.constant) }
    /// Has an initial value or is optional, so a missing value is not an error.
    public var hasDefault: Bool { flags.contains(.hasDefault) || flags.contains(.optional) }
}

extension ModelProperty: CustomStringConvertible {
    public var description: String {
        var traits: [String] = []
        if isIdentifier { traits.append("identifier") }
        if isTransient { traits.append("transient") }
        if isWeak { traits.append("weak") }
        if isReadOnly { traits.append("read-only") }
        if let defaultExpression { traits.append("default \(defaultExpression)") }
        if let transformerDescription { traits.append("transformer \(transformerDescription)") }
        if let relationship { traits.append("relationship \(relationship)") }
        if constraints != nil { traits.append("constrained") }
        let remote = remoteKeyPaths.map { "'\($0)'" }.joined(separator: " or ")
        let written = declaredWritingKeyPath.map { " -> '\($0)'" } ?? ""
        return "\(name): \(typeName)" + (remote.isEmpty ? "" : " <- \(remote)") + written
            + (traits.isEmpty ? "" : " (\(traits.joined(separator: ", ")))")
    }
}
