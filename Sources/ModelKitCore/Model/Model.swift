import Foundation

/// A type whose schema `@Model` generated: mappable from and to every ModelKit format.
///
/// Don't conform by hand: write `@Model` on a struct or class and the macro generates the
/// schema and the specialised functions below. Every format (dictionaries, JSON, archives,
/// the store, preferences) reads and writes a model only through these requirements.
///
/// ```swift
/// @Model(keys: .snakeCase)
/// struct Post {
///     @Identifier var id: Int
///     var title: String
///     @Transform(.iso8601) var publishedAt: Date
/// }
/// let post = try Post(json: ["id": 1, "title": "Hi", "published_at": "2024-03-01T12:00:00Z"])
/// ```
public protocol Model: ModelValue, ModelFieldEncoder {
    /// The type's schema, built once.
    static var modelSchema: ModelSchema { get }

    /// Creates a model from the object at a reader's current position.
    init<R: ModelReader>(modelReader reader: inout R) throws

    /// Writes the property at `index` of ``modelSchema`` to a writer.
    func encodeModelField<W: ModelWriter>(_ index: Int, to writer: inout W) throws

    /// Sets the property at `index` of ``modelSchema`` from a reader's current value.
    ///
    /// Throws ``ModelError/Kind/readOnlyProperty`` for constants.
    mutating func decodeModelField<R: ModelReader>(_ index: Int, from reader: inout R) throws

    /// Checks the whole model after mapping; throw to reject it. The default accepts everything.
    func validate() throws

    /// Loads every relationship the model's store left to load on first access (see
    /// ``ModelFaults``), as writing the model does first; nothing for a model that has none.
    func loadPendingRelationships() throws

    /// Reads the value of the `@Identifier` property at a reader's current value, as a hashable
    /// identity key; `@Model` generates it for identified models.
    static func decodeModelIdentifier<R: ModelReader>(from reader: inout R) throws -> AnyHashable

    /// Rewrites a payload before it is mapped (Instant Cocoa's
    /// `transformJSONRepresentationBeforeMapping`). The default leaves it alone.
    ///
    /// A type that implements this maps through the generic ``JSONValue`` instead of the
    /// specialised path, so it maps more slowly.
    static func rewriteJSON(_ json: inout JSONValue) throws

    /// Chooses the type to create for a payload, for class hierarchies (Mantle's
    /// `classForParsingJSONDictionary`). Return nil to keep the type asked for. The default returns nil.
    ///
    /// Like ``rewriteJSON(_:)``, a type that implements this maps through ``JSONValue``.
    static func modelType(for json: JSONValue) throws -> (any Model.Type)?

    /// Makes the relationship at `index` of ``modelSchema`` refer to `object` too (`adding`), or
    /// no more; false when the property at `index` is not one this can write, and the caller
    /// writes it through its key path. `@Model` generates it for an observable class whose
    /// properties may be relationships: the other side of an inverse writes them through it.
    func _modelKitEditRelationship(_ index: Int, adding: Bool, _ object: AnyObject) -> Bool

    /// Sets the to-many relationship at `index` of ``modelSchema`` to `objects`, each a model of
    /// its element type; false when the property at `index` is not one this can write (or an
    /// object is not such a model), and the caller writes it through its key path. `@Model`
    /// generates it beside ``_modelKitEditRelationship(_:adding:_:)``: a store filling a
    /// to-many sets it through it.
    func _modelKitSetRelationship(_ index: Int, to objects: [AnyObject]) -> Bool
}

extension Model {
    public func validate() throws {}

    public func _modelKitEditRelationship(_ index: Int, adding: Bool, _ object: AnyObject) -> Bool { false }

    public func _modelKitSetRelationship(_ index: Int, to objects: [AnyObject]) -> Bool { false }

    public func loadPendingRelationships() throws {}

    public static func decodeModelIdentifier<R: ModelReader>(from reader: inout R) throws -> AnyHashable {
        throw ModelError(.invalidModel, expected: "an '@Identifier' property", model: modelSchema.modelName)
    }

    /// The value of the `@Identifier` property, as an identity key.
    public var modelIdentifier: AnyHashable? {
        guard let property = dynamicModelSchema.identifier else { return nil }
        return propertyValue(property).flatMap { $0 as? AnyHashable }
    }

    public static func rewriteJSON(_ json: inout JSONValue) throws {}

    /// A `@Model` type is a model (see ``ModelValueKind/model(_:)``).
    public static var modelValueKind: ModelValueKind { .model(AnyModelType(Self.self)) }

    public static func modelType(for json: JSONValue) throws -> (any Model.Type)? { nil }

    /// The names of the non-transient properties, in declaration order.
    public static var propertyKeys: [String] { modelSchema.propertyKeys }

    /// Reads a model through its reader's ``ModelReader/decodeModel(_:)``.
    // Inlinable: every nested model value (a property, an element) is read through this from generic code
    // (`decodeValue`, the collections' `read`); visible there, it specialises to the concrete reader's `decodeModel`
    // for the model type.
    @inlinable
    public static func read<R: ModelReader>(from reader: inout R) throws -> Self {
        try reader.decodeModel(Self.self)
    }

    /// Writes a model through its writer's ``ModelWriter/encodeModel(_:)``.
    // Inlinable: every nested model value is written through this from generic code (`encodeValue`, the collections'
    // `write`); visible there, it specialises to the concrete writer's `encodeModel`.
    @inlinable
    public func write<W: ModelWriter>(to writer: inout W) throws {
        try writer.encodeModel(self)
    }

    /// The schema of this value's dynamic type (a subclass's for a subclass instance).
    public var dynamicModelSchema: ModelSchema {
        (type(of: self) as any Model.Type).modelSchema
    }
}

/// Receives the fields of one object as a reader finds them; `@Model` generates the conformance.
///
/// A reader calls ``decodeField(_:from:)`` with a property index and itself positioned at
/// that property's value; the generated code decodes the value with the property's type and
/// transformer, so no value passes through `Any`.
public protocol ModelFieldDecoder {
    /// Decodes the property at `index` from the reader's current value.
    mutating func decodeField<R: ModelReader>(_ index: Int, from reader: inout R) throws
    /// Keeps the value of a payload key no property reads, at the reader's current value (the
    /// `@UnknownKeys` property's); the walk moves past the value afterwards.
    mutating func decodeUnknownKey<R: ModelReader>(_ key: String, from reader: inout R) throws
}

extension ModelFieldDecoder {
    /// Keeps nothing: what models without `@UnknownKeys` do.
    // Inlinable: the walk calls it per unknown key only for models that keep them; a no-op here.
    @inlinable
    public mutating func decodeUnknownKey<R: ModelReader>(_ key: String, from reader: inout R) throws {}
}

/// What the key-tree walk writes a model's fields from: the model itself (every ``Model`` is
/// one), or a model behind one concrete type (``ErasedModelFields``) so that the walk is
/// compiled for a writer whose callers know the model only generically.
public protocol ModelFieldEncoder {
    /// Writes the property at `index` of the model's schema to a writer.
    func encodeModelField<W: ModelWriter>(_ index: Int, to writer: inout W) throws
    /// Whether any field whose key path goes through `edge` holds a value.
    func hasValues(below edge: ModelKeyEdge) -> Bool
    /// Whether the property at `index` is left out of payloads now (`@Key(omit:)`).
    func omitsModelField(_ index: Int) -> Bool
    /// Writes the payload keys the model keeps but does not model (`@UnknownKeys`), as members
    /// of the object being written.
    func encodeUnknownMembers<W: ModelWriter>(to writer: inout W) throws
}

extension ModelFieldEncoder {
    /// No property is left out: what models without `@Key(omit:)` do.
    // Inlinable: the key-tree walk asks it per field written; inlined, a constant.
    @inlinable
    public func omitsModelField(_ index: Int) -> Bool { false }

    /// Nothing to write: what models without `@UnknownKeys` do.
    // Inlinable: the walk calls it once per object written; inlined, nothing.
    @inlinable
    public func encodeUnknownMembers<W: ModelWriter>(to writer: inout W) throws {}
}

/// A model of any type behind one concrete type: writers whose entry points are generic (a
/// store's `save`) walk it with a key-tree walk specialised for themselves.
///
/// ```swift
/// try writer.encodeModelObject(ErasedModelFields(model), schema: model.dynamicModelSchema, instance: nil)
/// ```
public struct ErasedModelFields: ModelFieldEncoder {
    public let model: any Model

    // Inlinable: the store's row writer wraps each model it writes (`StoreRowWriter.encodeErased`); a one-field
    // wrapper, built in place rather than through a call into this module.
    @inlinable
    public init(_ model: any Model) {
        self.model = model
    }

    // Inlinable: called per field by the key-tree walk, which the store's module specialises for its row writer;
    // inlined there, only the existential call into the model is left.
    @inlinable
    public func encodeModelField<W: ModelWriter>(_ index: Int, to writer: inout W) throws {
        try model.encodeModelField(index, to: &writer)
    }

    // Inlinable: called by that same specialised walk for each nested key path when nils are omitted; a forwarding
    // call, inlined into it.
    @inlinable
    public func hasValues(below edge: ModelKeyEdge) -> Bool {
        model.hasValues(below: edge)
    }

    // Inlinable: as `hasValues(below:)`, per field of the specialised walk.
    @inlinable
    public func omitsModelField(_ index: Int) -> Bool {
        model.omitsModelField(index)
    }

    // Inlinable: as `hasValues(below:)`, once per object of the specialised walk.
    @inlinable
    public func encodeUnknownMembers<W: ModelWriter>(to writer: inout W) throws {
        try model.encodeUnknownMembers(to: &writer)
    }
}

extension Model {
    /// The model as an object when it is a class instance (the identity a cycle check tracks);
    /// nil for a value type.
    // Inlinable: the store's row writer asks it of every model it writes (`StoreRowWriter.writeRow`, `encodeErased`);
    // where the model type is known, the class check folds to a constant.
    @inlinable
    package var classInstance: AnyObject? {
        isClassType(Self.self) ? self as AnyObject : nil
    }
}

/// Whether `type` is a class: decided while compiling where the type is known not to be one
/// (a struct, an enum, an array), at run time otherwise.
///
/// `type is AnyObject.Type` alone is a call into the runtime (`swift_isClassType`) for some
/// types even where they are known, such as an array of arrays, once per value written; the
/// compiler's own test of whether a type can be a class folds to a constant for those.
// Inlinable: the writers' walks ask it once per array and model written; specialised, it is a constant for value
// types and the runtime's test for the others.
@inlinable @inline(__always)
package func isClassType<T>(_ type: T.Type) -> Bool {
    // `_canBeClass` is 0 for a type known not to be a class, 1 for a class, 2 where it cannot tell.
    _canBeClass(type) != 0 && type is AnyObject.Type
}
