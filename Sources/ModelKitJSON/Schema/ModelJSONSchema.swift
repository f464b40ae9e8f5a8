import Foundation
import ModelKitCore

/// JSON Schema (draft 2020-12) of models, from the schema `@Model` generates: the JSON ModelKit
/// reads and writes, for API documentation, contract tests, and tools that take a schema.
///
/// ```swift
/// let schema = User.jsonSchema                                  // User at the root, its models in $defs
/// let document = ModelJSONSchema.document(for: [User.self, Status.self])
/// let openAPI = ModelJSONSchema.openAPIComponents(for: [User.self, Status.self])
/// ```
///
/// Each model is an object whose properties are its remote keys, nested key paths (`@Key("a.b")`)
/// as nested objects. A property is required unless it is optional, has a default, is a
/// relationship, or is read through fallback keys (then one of them is required). Optionals (and
/// `@Key(null: .useDefault)`) accept `null`; defaults written as JSON literals are given as
/// `default`. Types follow what the JSON readers accept: `Date` an ISO 8601 string
/// (`format: date-time`), `URL` a `uri-reference`, `UUID` a `uuid`, `Data` base64; a transformed
/// property has its transformer's remote type, described by its expectation (`a date like
/// "yyyy-MM-dd"`). Models referred to are `$ref`s to `$defs` named after them; a relationship
/// accepts the nested object or the related model's identifier, as the readers do. A model with
/// `@Model(unknownKeys: .reject)` allows no other keys. Transient properties are left out.
public enum ModelJSONSchema {
    /// The dialect every schema declares in `$schema`.
    public static let dialect = "https://json-schema.org/draft/2020-12/schema"

    /// The schema of `type`: its object at the root, the models it refers to in `$defs`.
    public static func schema(for type: any Model.Type) -> JSONValue {
        var builder = SchemaBuilder(referencePrefix: "#/$defs/", rootName: type.modelSchema.modelName)
        let root = builder.objectSchema(of: type.modelSchema)
        var members = [JSONMember("$schema", .string(dialect))]
        if case .object(let rootMembers) = root { members += rootMembers }
        builder.defineAll()
        if !builder.definitions.isEmpty { members.append(JSONMember("$defs", .object(builder.definitions))) }
        return .object(members)
    }

    /// One document holding each of `types`, and the models they refer to, in `$defs`.
    public static func document(for types: [any Model.Type]) -> JSONValue {
        var builder = SchemaBuilder(referencePrefix: "#/$defs/")
        for type in types { builder.define(type.modelSchema) }
        builder.defineAll()
        return .object([JSONMember("$schema", .string(dialect)), JSONMember("$defs", .object(builder.definitions))])
    }

    /// `types` and the models they refer to as OpenAPI 3.1 components
    /// (`{"components": {"schemas": {...}}}`, references to `#/components/schemas/Name`); OpenAPI
    /// 3.1's schema objects are JSON Schema 2020-12.
    public static func openAPIComponents(for types: [any Model.Type]) -> JSONValue {
        var builder = SchemaBuilder(referencePrefix: "#/components/schemas/")
        for type in types { builder.define(type.modelSchema) }
        builder.defineAll()
        return .object([JSONMember("components", .object([JSONMember("schemas", .object(builder.definitions))]))])
    }
}

extension Model {
    /// The model's JSON Schema (draft 2020-12): see ``ModelJSONSchema``.
    public static var jsonSchema: JSONValue { ModelJSONSchema.schema(for: Self.self) }
}
