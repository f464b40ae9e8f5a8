import ModelKitCore

/// The types an unarchiver may create from class names found in an archive, and the names an
/// archiver writes for types: a mapping in both directions.
///
/// Nothing is ever created from a name in a file except through this registry (Foundation's
/// classes are built in). A declared property type needs no registration: decoding a `Person`
/// property creates a `Person`. Register subclasses decoded through a parent's type, types
/// decoded through ``KeyedUnarchiver/decodeObject(forKey:)``, and types archived under another
/// name (Apple archives Swift classes as `Module.Class`):
///
/// ```swift
/// var registry = ArchiveClassRegistry()
/// registry.register(Circle.self)                      // archived as "Circle"
/// registry.register(Person.self, as: "MyApp.Person")  // written and read as "MyApp.Person"
/// let unarchiver = try KeyedUnarchiver(data: data, registry: registry)
/// ```
public struct ArchiveClassRegistry: Sendable {
    /// One registered type.
    struct Entry: Sendable {
        /// The name written for the type and read back as it.
        let name: String
        let type: Any.Type
        /// The schema, for model types.
        let schema: ModelSchema?

        /// Decodes an object of this type at the reader's position (its class already resolved).
        func decode(_ reader: inout KeyedArchiveReader) throws -> Any {
            if let model = type as? any Model.Type { return try reader.decodeResolvedModel(model) }
            if let archivable = type as? any KeyedArchivable.Type { return try reader.decodeResolvedArchivable(archivable) }
            throw KeyedArchiveError(.classNotAllowed(found: name, allowed: []))
        }
    }

    private(set) var entries: [String: Entry] = [:]
    private var namesByType: [ObjectIdentifier: String] = [:]

    /// An empty registry: Foundation's classes and declared types only.
    public init() {}

    /// Registers a model type under `name` (its model name by default), for reading and writing.
    ///
    /// ```swift
    /// registry.register(Square.self)
    /// ```
    public mutating func register<M: Model>(_ type: M.Type, as name: String? = nil) {
        let name = name ?? M.modelSchema.modelName
        add(Entry(name: name, type: M.self, schema: M.modelSchema))
    }

    /// Registers a hand-written ``KeyedArchivable`` type under `name` (its
    /// ``KeyedArchivable/archiveClassName`` by default), for reading and writing.
    public mutating func register<T: KeyedArchivable>(_ type: T.Type, as name: String? = nil) {
        let name = name ?? T.archiveClassName
        add(Entry(name: name, type: T.self, schema: nil))
    }

    /// Makes `name` read as `type`, and `type` write as `name` (Apple's `setClass(_:forClassName:)`
    /// and `setClassName(_:for:)` together), for a model type.
    public mutating func setClassName<M: Model>(_ name: String, for type: M.Type) {
        register(M.self, as: name)
    }

    private mutating func add(_ entry: Entry) {
        entries[entry.name] = entry
        namesByType[ObjectIdentifier(entry.type)] = entry.name
    }

    /// The name `type` is archived as, when it was registered.
    ///
    /// ```swift
    /// registry.archivedName(for: Person.self)   // "MyApp.Person"
    /// ```
    public func archivedName(for type: Any.Type) -> String? {
        namesByType[ObjectIdentifier(type)]
    }

    /// The type registered for an archived class name.
    public func type(forClassName name: String) -> Any.Type? {
        entries[name]?.type
    }

    /// The registered class names, sorted.
    public var classNames: [String] { entries.keys.sorted() }

    func entry(named name: String) -> Entry? {
        entries[name]
    }

    /// The archived name of a model type: its registered name, or its model name.
    func archivedName<M: Model>(ofModel type: M.Type, schema: ModelSchema) -> String {
        namesByType[ObjectIdentifier(type)] ?? schema.modelName
    }

    /// The names that decode as `schema`'s type or one of its registered subtypes.
    func modelNames(acceptedAs schema: ModelSchema) -> [String] {
        var names = [namesByType[ObjectIdentifier(schema.modelType)] ?? schema.modelName]
        if names[0] != schema.modelName { names.append(schema.modelName) }
        for entry in entries.values.sorted(by: { $0.name < $1.name }) where !names.contains(entry.name) {
            var current = entry.schema
            while let candidate = current {
                if candidate === schema {
                    names.append(entry.name)
                    break
                }
                current = candidate.superschema
            }
        }
        return names
    }
}
