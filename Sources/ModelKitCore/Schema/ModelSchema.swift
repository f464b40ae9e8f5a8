/// The schema `@Model` generates for a type: its properties in order and how each maps.
///
/// Built once per type (a static constant) and shared by every format: dictionaries, JSON,
/// archives, the store and preferences all read and write models through it. It is public so
/// tools can inspect models (Instant Cocoa's inspectable properties):
///
/// ```swift
/// User.modelSchema.propertyKeys          // ["id", "screenName", "name", ...]
/// User.modelSchema["createdAt"]?.transformerDescription
/// User.modelSchema.identifier?.name      // "id"
/// ```
public final class ModelSchema: Sendable {
    /// How keys in a payload are matched to properties.
    public enum Mapping: Hashable, Sendable {
        /// Remote key paths, through transformers (JSON, Codable).
        case remote
        /// Property keys and property values as they are (dictionaries, archives, the store).
        case propertyKeys
    }

    /// The model type's name, e.g. `User`.
    public let modelName: String
    /// The model type.
    public let modelType: Any.Type
    /// Every property, inherited ones first, transient ones included.
    public let properties: [ModelProperty]
    /// The parent's schema, for a `@Model` subclass of a `@Model` class.
    public let superschema: ModelSchema?
    /// How property names become remote keys.
    public let keyStrategy: KeyStrategy
    /// The model's version (archives and the store record it; migration hooks receive it).
    public let version: Int
    /// The table a store keeps the model in (`@Model(table:)`); nil for the model's name.
    public let tableName: String?
    /// What payload keys no property reads mean (`@Model(unknownKeys:)`; a subclass inherits its
    /// parent's unless it says otherwise).
    public let unknownKeys: UnknownKeyPolicy
    /// The names of the non-transient properties, in order (PSPDFModel's `propertyKeys`).
    public let propertyKeys: [String]
    /// The index of the `@Identifier` property.
    public let identifierIndex: Int?
    /// Model-level hooks the declaration implements.
    public let hooks: Hooks
    /// The indexes and unique constraints a store keeps on the model's table (a superclass's
    /// first): `@Model(indexes:unique:)`.
    public let indexes: [ModelIndex]
    /// The text properties stores index for full-text search (a superclass's first):
    /// `@Model(search:)`.
    public let searchable: [String]

    /// Tree of remote key paths (with fallbacks) for reading.
    public let remoteReadingKeys: ModelKeyNode
    /// Tree of remote key paths (first path only) for writing.
    public let remoteWritingKeys: ModelKeyNode
    /// Tree of property keys for reading.
    public let propertyReadingKeys: ModelKeyNode
    /// Tree of property keys for writing.
    public let propertyWritingKeys: ModelKeyNode
    /// `remoteWritingKeys` with keys sorted at every level.
    public let sortedRemoteWritingKeys: ModelKeyNode
    /// The `@UnknownKeys` property, which keeps the payload keys no other property reads.
    public let unknownKeysIndex: Int?
    /// The properties `@Validate` constrains, in declaration order.
    public let constrainedProperties: [ModelProperty]
    /// The properties that may hold models as values (not relationships), whose own constraints
    /// a check of this model's goes through.
    package let modelHoldingProperties: [ModelProperty]
    /// Whether a check of a model's constraints has anything to check, once known (see
    /// `checksConstraints`).
    let checksConstraintsCache = Locked<Bool?>(nil)
    private let indexByName: [String: Int]

    /// Hooks a model implements, found by `@Model` in its declaration.
    public struct Hooks: OptionSet, Hashable, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// `static func rewriteJSON(_:)` rewrites the raw JSON before mapping.
        public static let rewritesJSON = Hooks(rawValue: 1 << 0)
        /// `static func modelType(for:)` chooses a subtype from the payload.
        public static let choosesType = Hooks(rawValue: 1 << 1)
        /// `func validate() throws` checks the whole model after mapping.
        public static let validates = Hooks(rawValue: 1 << 2)
    }

    /// Creates a schema; `@Model` generates the call.
    public init(
        name: String,
        type: Any.Type,
        inheriting superschema: ModelSchema? = nil,
        keyStrategy: KeyStrategy? = nil,
        nullsUseDefaults: Bool = false,
        unknownKeys: UnknownKeyPolicy? = nil,
        version: Int = 0,
        tableName: String? = nil,
        hooks: Hooks = [],
        indexes: [ModelIndex] = [],
        searchable: [String] = [],
        properties own: [ModelProperty]
    ) {
        let strategy = keyStrategy ?? superschema?.keyStrategy ?? .propertyName
        let resolved = own.map { property -> ModelProperty in
            let paths =
                property.remoteKeyPaths.isEmpty
                ? [RemoteKeyPath(segments: [strategy.key(for: property.name)])] : property.remoteKeyPaths
            let extra: ModelProperty.Flags =
                nullsUseDefaults && property.flags.contains(.hasDefault) && !property.flags.contains(.nullIsError)
                ? .nullUsesDefault : []
            return ModelProperty(property, remoteKeyPaths: paths, extraFlags: extra)
        }
        let all = (superschema?.properties ?? []) + resolved
        self.modelName = name
        self.modelType = type
        self.superschema = superschema
        self.keyStrategy = strategy
        self.version = version
        self.tableName = tableName
        self.unknownKeys = unknownKeys ?? superschema?.unknownKeys ?? .ignore
        self.hooks = hooks.union(superschema?.hooks ?? [])
        self.indexes = (superschema?.indexes ?? []) + indexes
        self.searchable = (superschema?.searchable ?? []) + searchable
        self.properties = all
        self.propertyKeys = all.filter { !$0.isTransient }.map(\.name)
        self.identifierIndex = all.firstIndex(where: \.isIdentifier)
        self.unknownKeysIndex = all.firstIndex { $0.flags.contains(.unknownKeys) }
        self.constrainedProperties = all.filter { $0.constraints != nil && !$0.isTransient }
        self.modelHoldingProperties = all.filter { !$0.isTransient && $0.relationship == nil && $0.valueKind.holdsModels }
        var indexByName: [String: Int] = [:]
        for (index, property) in all.enumerated() where indexByName[property.name] == nil {
            indexByName[property.name] = index
        }
        self.indexByName = indexByName

        var remoteReading: [([String], ModelKeyLeaf)] = []
        var remoteWriting: [([String], ModelKeyLeaf)] = []
        var propertyReading: [([String], ModelKeyLeaf)] = []
        var propertyWriting: [([String], ModelKeyLeaf)] = []
        for (index, property) in all.enumerated() where !property.isTransient {
            let leaf = ModelKeyLeaf(field: index, priority: 0)
            propertyWriting.append(([property.name], leaf))
            // The payload's other keys: no key of its own in payloads (the walk fills and writes
            // it), a property like any other for stores and archives.
            let keepsUnknownKeys = property.flags.contains(.unknownKeys)
            if !keepsUnknownKeys, let path = property.remoteWritingKeyPath { remoteWriting.append((path.segments, leaf)) }
            guard !property.isReadOnly else { continue }
            let nullUsesDefault = property.flags.contains(.nullUsesDefault)
            let required = !property.hasDefault
            propertyReading.append(
                ([property.name], ModelKeyLeaf(field: index, priority: 0, nullUsesDefault: nullUsesDefault)))
            for (priority, path) in property.remoteKeyPaths.enumerated() where !keepsUnknownKeys {
                let leaf = ModelKeyLeaf(
                    field: index, priority: priority, nullUsesDefault: nullUsesDefault,
                    isRequired: required && property.remoteKeyPaths.count == 1)
                remoteReading.append((path.segments, leaf))
            }
        }
        self.remoteReadingKeys = ModelKeyNode.build(remoteReading)
        self.remoteWritingKeys = ModelKeyNode.build(remoteWriting)
        self.propertyReadingKeys = ModelKeyNode.build(propertyReading)
        self.propertyWritingKeys = ModelKeyNode.build(propertyWriting)
        self.sortedRemoteWritingKeys = remoteWritingKeys.sorted()
    }

    /// The property named `name`.
    public subscript(name: String) -> ModelProperty? {
        indexByName[name].map { properties[$0] }
    }

    /// The index of the property named `name`.
    public func index(ofProperty name: String) -> Int? {
        indexByName[name]
    }

    /// The `@Identifier` property.
    public var identifier: ModelProperty? {
        identifierIndex.map { properties[$0] }
    }

    /// The index of the property a key path points to, if it is one of this schema's.
    public func index(of keyPath: AnyKeyPath) -> Int? {
        properties.firstIndex { $0.keyPath == keyPath }
    }

    /// Whether a walk of `mapping` keeps and writes back the keys no property reads: payloads
    /// of a model with an `@UnknownKeys` property.
    // Inlinable: the reading and writing walks ask it once per object of a model; a comparison.
    @inlinable
    public func keepsUnknownKeys(_ mapping: Mapping) -> Bool {
        mapping == .remote && unknownKeysIndex != nil
    }

    /// The key tree readers use for a mapping.
    // Inlinable: the key-tree walk asks it once per object read (`decodeFieldsByKeyTree`); inlined there, a choice
    // between two stored trees.
    @inlinable
    public func readingKeys(_ mapping: Mapping) -> ModelKeyNode {
        mapping == .remote ? remoteReadingKeys : propertyReadingKeys
    }

    /// The key tree writers use for a mapping.
    // Inlinable: the writers' walk asks it once per object written (`encodeModelObject`); inlined there, a choice
    // between stored trees.
    @inlinable
    public func writingKeys(_ mapping: Mapping, sorted: Bool = false) -> ModelKeyNode {
        mapping == .remote ? (sorted ? sortedRemoteWritingKeys : remoteWritingKeys) : propertyWritingKeys
    }

    /// The name used in error messages for the property at `index`.
    // Usable from inline: the inlinable `decodeNamedField` and `encodeField` name the property in their errors through
    // it.
    @usableFromInline
    package func propertyName(at index: Int) -> String? {
        properties.indices.contains(index) ? properties[index].name : nil
    }
}

extension ModelSchema: CustomStringConvertible {
    public var description: String {
        var lines = ["\(modelName) (version \(version), keys \(keyStrategy.name))"]
        lines += properties.map { "  \($0)" }
        return lines.joined(separator: "\n")
    }
}
