@_exported import ModelKitCore
@_exported import Observation

/// Generates a type's schema and its mapping to every ModelKit format.
///
/// ```swift
/// @Model(keys: .snakeCase)
/// final class User {
///     @Identifier @Key("id_str") var id: String
///     var screenName: String
///     @Transform(.dateFormat("EEE MMM dd HH:mm:ss Z yyyy")) var createdAt: Date
///     @Transient var avatarCache: Data? = nil
/// }
/// ```
///
/// - Parameters:
///   - keys: How property names become remote keys where no `@Key` says otherwise.
///   - version: The model's version, recorded by archives and the store for migrations.
///   - nulls: Whether `null` on a property with a default is an error or takes the default.
///   - unknownKeys: Whether payload keys no property reads are skipped or errors (strict mode).
///   - table: The table stores keep the model in; by default the type's name. Two model types of
///     one name (in two modules, or nested in two types) need one of them named apart.
///   - indexes: Indexes stores keep on the table, each a list of stored properties' names in
///     order (`[["lastName", "firstName"]]`); `@Model` checks each name at compile time.
///   - unique: Properties whose values no two rows may share, each list one constraint
///     (`[["email"]]`, or `[["team", "number"]]` for a pair); a save that breaks one throws.
///   - search: Text properties stores index for full-text search (`["title", "body"]`), which
///     `ModelQuery.search(_:)` matches and ranks; `@Model` checks each name at compile time.
///   - observable: For a class, whether its properties are observable (`ObservableModel`,
///     as `@Observable` makes them); `false` leaves plain stored properties. Structs ignore it.
@attached(member, conformances: Model, ObservableModel, Hashable, CustomStringConvertible, names: arbitrary)
@attached(memberAttribute)
@attached(extension, conformances: Model, ObservableModel, Hashable, CustomStringConvertible, names: arbitrary)
public macro Model(
    keys: KeyStrategy? = nil, version: Int = 0, nulls: NullPolicy = .error, unknownKeys: UnknownKeyPolicy = .ignore,
    table: String? = nil, indexes: [[String]] = [], unique: [[String]] = [], search: [String] = [],
    observable: Bool = true
) =
    #externalMacro(module: "ModelKitMacros", type: "ModelMacro")

/// Maps an enum in one of four representations: `@Model(.external)` (`{"image": {...}}`, or
/// `"divider"` for a case without associated values), `@Model(.internal(tag: "type"))` (the
/// payload's own keys beside the tag: `{"type": "image", "url": ...}`),
/// `@Model(.adjacent(tag: "type", content: "data"))` (`{"type": "image", "data": {...}}`) or
/// `@Model(.untagged)` (the first case whose payload maps). Mark a case `@Key("img")` for another
/// tag, and one `@UnknownCase case unknown(JSONValue)` to keep the value of a tag the enum does
/// not know, and write it back unchanged.
@attached(member, names: arbitrary)
@attached(extension, conformances: ModelEnum, names: arbitrary)
public macro Model(_ representation: ModelEnumSchema.Representation) =
    #externalMacro(module: "ModelKitMacros", type: "ModelMacro")

/// Maps an enum whose payloads carry their case's tag: `@Model(tag: "type")` is
/// `@Model(.internal(tag: "type"))`, `@Model(tag: "type", content: "data")` is
/// `@Model(.adjacent(tag: "type", content: "data"))`.
@attached(member, names: arbitrary)
@attached(extension, conformances: ModelEnum, names: arbitrary)
public macro Model(tag: String, content: String? = nil) = #externalMacro(module: "ModelKitMacros", type: "ModelMacro")

/// A model named `name` in errors, schemas and archives, instead of its type's name: what the
/// payload of an enum's case is made of (`@Model(name: "Block.image")`).
@attached(member, conformances: Model, ObservableModel, Hashable, CustomStringConvertible, names: arbitrary)
@attached(memberAttribute)
@attached(extension, conformances: Model, ObservableModel, Hashable, CustomStringConvertible, names: arbitrary)
public macro Model(name: String) = #externalMacro(module: "ModelKitMacros", type: "ModelMacro")

/// The case of a `@Model` enum that keeps the whole value of a tag the enum does not know, as it
/// came, and writes it back unchanged: `@UnknownCase case unknown(JSONValue)`.
@attached(peer)
public macro UnknownCase() = #externalMacro(module: "ModelKitMacros", type: "PropertyMarkerMacro")

/// Makes a stored property of an observable `@Model` class report reads and writes to its
/// registrar; `@Model` adds it, don't write it yourself.
@attached(accessor, names: named(init), named(get), named(set), named(_modify))
@attached(peer, names: prefixed(_))
public macro _ModelTracked() = #externalMacro(module: "ModelKitMacros", type: "TrackedPropertyMacro")

/// The property's remote key path, and fallbacks tried in order: `@Key("id_str", "id")`.
///
/// Dots nest (`"user.address.city"`), digits index arrays (`"media.0.url"`), `\\.` is a literal dot.
@attached(peer)
public macro Key(_ path: String, _ fallbacks: String...) =
    #externalMacro(module: "ModelKitMacros", type: "PropertyMarkerMacro")

/// An enum case's integer tag, for payloads that tell cases apart by a number:
/// `@Key(3) case maintenance` reads and writes `{"type": 3}` in an enum declared
/// `@Model(tag: "type")` (or `@Model(tag:content:)`). Other cases keep string tags.
@attached(peer)
public macro Key(_ tag: Int) = #externalMacro(module: "ModelKitMacros", type: "PropertyMarkerMacro")

/// The property's remote key paths and what `null` means for it: with `.useDefault`, `null`
/// counts as missing, so the property's default applies (`@Key("volume", null: .useDefault)`).
@attached(peer)
public macro Key(_ path: String, _ fallbacks: String..., null: NullPolicy) =
    #externalMacro(module: "ModelKitMacros", type: "PropertyMarkerMacro")

/// What a value that does not map means for the property, its key given by the model's key
/// strategy: with `.useDefault`, a value of the wrong type (or one its transformer refuses) gives
/// the property's default, and its error goes to `MappingOptions.report`:
/// `@Key(onError: .useDefault) var volume: Double = 0.5`.
@attached(peer)
public macro Key(onError: InvalidValuePolicy) = #externalMacro(module: "ModelKitMacros", type: "PropertyMarkerMacro")

/// The property's remote key paths and what a value that does not map means for it:
/// `@Key("volume", onError: .useDefault) var volume: Double = 0.5`.
@attached(peer)
public macro Key(_ path: String, _ fallbacks: String..., onError: InvalidValuePolicy) =
    #externalMacro(module: "ModelKitMacros", type: "PropertyMarkerMacro")

/// When the property is left out of payloads written, its key given by the model's key
/// strategy: `.ifNil` for an optional, `.ifDefault` for an `Equatable` property with an initial
/// value (`@Key(omit: .ifDefault) var limit: Int = 20`). Stores and archives keep it.
@attached(peer)
public macro Key(omit: OmitPolicy) = #externalMacro(module: "ModelKitMacros", type: "PropertyMarkerMacro")

/// The property's remote key paths, and when it is left out of payloads written:
/// `@Key("next_cursor", omit: .ifNil) var cursor: String?`.
@attached(peer)
public macro Key(_ path: String, _ fallbacks: String..., omit: OmitPolicy) =
    #externalMacro(module: "ModelKitMacros", type: "PropertyMarkerMacro")

/// Separate keys for reading and writing: the property reads the first of `path` and
/// `fallbacks` the payload has, and is written under `encode` (a payload that renamed a key,
/// or an API that takes another spelling than it sends):
/// `@Key(decode: "full_name", "name", encode: "name") var name: String`.
@attached(peer)
public macro Key(decode path: String, _ fallbacks: String..., encode: String) =
    #externalMacro(module: "ModelKitMacros", type: "PropertyMarkerMacro")

/// Separate keys for reading and writing, and what `null` means for the property.
@attached(peer)
public macro Key(decode path: String, _ fallbacks: String..., encode: String, null: NullPolicy) =
    #externalMacro(module: "ModelKitMacros", type: "PropertyMarkerMacro")

/// What `null` means for the property, its key given by the model's key strategy:
/// `@Key(null: .useDefault) var volume: Double = 0.5`; `.error` keeps `null` an error for this
/// property under `@Model(nulls: .useDefault)`.
@attached(peer)
public macro Key(null: NullPolicy) = #externalMacro(module: "ModelKitMacros", type: "PropertyMarkerMacro")

/// The property keeps the payload keys no other property reads, and writing the model puts
/// them back, so a round trip through a model keeps what it does not model:
/// `@UnknownKeys var extra: [String: JSONValue] = [:]`. Only the model's own object's keys (not
/// those inside objects its key paths open); stores and archives keep it as a property.
@attached(peer)
public macro UnknownKeys() = #externalMacro(module: "ModelKitMacros", type: "PropertyMarkerMacro")

/// Constraints the property's value must satisfy after mapping, checked by every reader and by
/// stores before they save: `@Validate(.range(1...5))`, `@Validate(.nonEmpty, .length(...280))`,
/// `@Validate(.pattern(#"^[a-z]+$"#))`, `@Validate(.count(1...10))`, or a `ModelConstraint` of
/// your own. A value that fails one is an error naming the model, the property, the path and the
/// value; the exported JSON Schema describes them.
@attached(peer)
public macro Validate<Value>(_ constraints: ModelConstraint<Value>...) =
    #externalMacro(module: "ModelKitMacros", type: "PropertyMarkerMacro")

/// The property keeps which properties the payload the model was mapped from gave, as a value
/// or as `null`, and which it left out: `@Presence var presence = ModelPresence()`. It is not
/// mapped, compared, stored or archived itself; models without one pay nothing.
@attached(peer)
public macro Presence() = #externalMacro(module: "ModelKitMacros", type: "PropertyMarkerMacro")

/// The property that identifies the model (one live instance per identifier, store key).
@attached(peer)
public macro Identifier() = #externalMacro(module: "ModelKitMacros", type: "PropertyMarkerMacro")

/// The property is not mapped, compared, hashed or archived.
@attached(peer)
public macro Transient() = #externalMacro(module: "ModelKitMacros", type: "PropertyMarkerMacro")

/// Converts the property's value on remote mapping: `@Transform(.iso8601)`.
@attached(peer)
public macro Transform<T: ModelTransformer>(_ transformer: T) =
    #externalMacro(module: "ModelKitMacros", type: "PropertyMarkerMacro")

/// The property refers to other identified class models (`Author?`, `Author` or `[Comment]`), and
/// deleting its model does `deleteRule` to them: `@Relationship(deleteRule: .cascade) var profile:
/// Profile?`. Stores apply the rule in the delete's transaction.
///
/// `representation: .identifiers` writes the related models as their identifiers in JSON (and
/// the other formats that map payloads) instead of nested objects.
@attached(peer)
public macro Relationship(deleteRule: DeleteRule = .nullify, representation: RelationshipRepresentation = .nested) =
    #externalMacro(module: "ModelKitMacros", type: "PropertyMarkerMacro")

/// The property refers to other identified class models, and `inverse` is the property of theirs
/// that refers back: `@Relationship(deleteRule: .cascade, inverse: \Comment.post) var comments:
/// [Comment]`. Stores apply the rule in the delete's transaction; `@Model` checks at compile time
/// that the inverse refers back to this model (and is optional when the rule nullifies).
/// `representation: .identifiers` writes the related models as their identifiers.
@attached(peer)
public macro Relationship<Root, Value>(
    deleteRule: DeleteRule = .nullify, inverse: KeyPath<Root, Value>, representation: RelationshipRepresentation = .nested
) = #externalMacro(module: "ModelKitMacros", type: "PropertyMarkerMacro")

/// How the property is written to keyed archives: `@Archive(.conditional)`.
@attached(peer)
public macro Archive(_ behavior: ModelProperty.ArchiveBehavior) =
    #externalMacro(module: "ModelKitMacros", type: "PropertyMarkerMacro")
@_exported import ModelKitJSON
@_exported import ModelKitPropertyList
@_exported import ModelKitArchive

/// The reader of the formats that reach a model's fields through its type found at run time (an
/// archived object names its class), for which `@Model` compiles a copy of each model's field
/// decoder: generic code reached that way cannot be specialised where it is called, so it would
/// run every value through the reader's witnesses. The generated code names this alias, never a
/// format; which reader it is, this umbrella module decides.
public typealias ModelRuntimeTypeReader = KeyedArchiveReader

/// The writer counterpart of ``ModelRuntimeTypeReader``, for each model's field encoder.
public typealias ModelRuntimeTypeWriter = KeyedArchiveWriter
