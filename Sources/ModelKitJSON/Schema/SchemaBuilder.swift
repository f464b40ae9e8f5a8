import Foundation
import ModelKitCore

/// Builds the JSON Schemas of models (``ModelJSONSchema``): each model's object once, the models
/// it refers to queued and defined in turn, so cycles end at a `$ref`.
struct SchemaBuilder {
    /// What a reference to a model's definition starts with (`#/$defs/`).
    let referencePrefix: String
    /// The model at the document's root, referred to as `#`.
    var rootName: String?
    /// The definitions made, by model name, in the order they were made.
    var definitions: [JSONMember] = []
    /// Model names defined or queued.
    var named: Set<String> = []
    /// Models referred to and not defined yet.
    private var queue: [ModelSchema] = []

    init(referencePrefix: String, rootName: String? = nil) {
        self.referencePrefix = referencePrefix
        self.rootName = rootName
    }

    /// Adds the definition of `schema`, once.
    mutating func define(_ schema: ModelSchema) {
        guard !definitions.contains(where: { $0.key == schema.modelName }) else { return }
        named.insert(schema.modelName)
        let object = objectSchema(of: schema)
        definitions.append(JSONMember(schema.modelName, object))
    }

    /// Defines every model referred to so far, and those they refer to.
    mutating func defineAll() {
        while let next = queue.first {
            queue.removeFirst()
            define(next)
        }
    }

    /// A reference to `schema`'s definition, queuing it.
    mutating func reference(to schema: ModelSchema) -> JSONValue {
        if schema.modelName == rootName { return .object([JSONMember("$ref", .string("#"))]) }
        if named.insert(schema.modelName).inserted { queue.append(schema) }
        return .object([JSONMember("$ref", .string(referencePrefix + escapePointer(schema.modelName)))])
    }

    /// The object a model maps to and from: its remote keys, nested key paths as nested objects.
    mutating func objectSchema(of schema: ModelSchema) -> JSONValue {
        var root = ObjectNode()
        // An `@UnknownKeys` property has no key of its own: it is the object's other keys.
        for property in schema.properties where !property.isTransient && !property.flags.contains(.unknownKeys) {
            guard let first = property.remoteKeyPaths.first, !first.segments.isEmpty else { continue }
            let value = propertySchema(property)
            let alternatives = property.remoteKeyPaths
            let mustBeGiven = isRequired(property)
            for path in alternatives {
                // Through an array index (`media.0.url`): the array is left open, as any JSON.
                if let index = path.segments.firstIndex(where: { arrayIndex(of: $0) != nil }) {
                    if index > 0 { root.insert(.object([]), at: path.segments[..<index], required: false, replacing: false) }
                    continue
                }
                root.insert(value, at: path.segments[...], required: mustBeGiven && alternatives.count == 1)
            }
            if mustBeGiven && alternatives.count > 1 && alternatives.allSatisfy({ $0.segments.count == 1 }) {
                root.oneOfRequired.append(alternatives.map(\.segments[0]))
            }
        }
        let strict = schema.unknownKeys == .reject
        return root.schema(title: schema.modelName, closed: strict, topClosed: strict && schema.unknownKeysIndex == nil)
    }

    /// Whether a payload must give `property`.
    func isRequired(_ property: ModelProperty) -> Bool {
        !property.hasDefault && property.relationship == nil && !property.valueKind.isOptional
    }

    /// The schema of one property's value: its kind, or its transformer's remote type; `null`
    /// allowed when the property is optional or reads `null` as its default; its default.
    mutating func propertySchema(_ property: ModelProperty) -> JSONValue {
        var value: JSONValue
        if let transformer = property.transformer as? any ModelTransformer {
            value = transformedSchema(transformer)
        } else if property.relationship != nil, let related = property.valueKind.unwrapped.relatedModel {
            value = relationshipSchema(related, many: property.valueKind.unwrapped.isCollection)
        } else {
            value = kindSchema(property.valueKind.unwrapped, type: containedType(property.valueType, if: property.valueKind))
        }
        if property.valueKind.isOptional || property.flags.contains(.nullUsesDefault) || property.relationship != nil {
            value = nullable(value)
        }
        if let expression = property.defaultExpression, let literal = try? JSONValue(parsing: expression),
            case .object(var members) = value
        {
            members.append(JSONMember("default", literal))
            value = .object(members)
        }
        // A transformer's constraints apply to the value it makes, not to the payload's.
        if property.transformer == nil, case .object(var members) = value {
            members += property.requirements.flatMap { constraintKeywords($0, of: property.valueKind.unwrapped) }
            value = .object(members)
        }
        return value
    }

    /// The keywords that say what `requirement` requires of a value of `kind`; beside an
    /// `anyOf` with `null`, they apply to the value when it is not `null` (each keyword applies
    /// to one type of value only). A requirement JSON Schema cannot say exactly gives none: a
    /// range of values that are not numbers, a count of a string's characters, a rule of the
    /// app's own.
    private func constraintKeywords(_ requirement: ModelRequirement, of kind: ModelValueKind) -> [JSONMember] {
        func number(_ value: ModelRequirement.Number) -> JSONValue {
            switch value {
            case .integer(let value): .int(value)
            case .unsignedInteger(let value): .uint(value)
            case .floatingPoint(let value): .double(value)
            }
        }
        func bounds(_ min: Int?, _ max: Int?, _ minName: String, _ maxName: String) -> [JSONMember] {
            (min.map { [JSONMember(minName, .int(Int64($0)))] } ?? []) + (max.map { [JSONMember(maxName, .int(Int64($0)))] } ?? [])
        }
        switch requirement {
        case .range(let lower, let upper):
            var members: [JSONMember] = []
            if let lower, let value = lower.number {
                members.append(JSONMember(lower.isInclusive ? "minimum" : "exclusiveMinimum", number(value)))
            }
            if let upper, let value = upper.number {
                members.append(JSONMember(upper.isInclusive ? "maximum" : "exclusiveMaximum", number(value)))
            }
            return members
        case .length(let min, let max):
            return bounds(min, max, "minLength", "maxLength")
        case .count(let min, let max):
            switch kind {
            case .array, .set: return bounds(min, max, "minItems", "maxItems")
            case .dictionary: return bounds(min, max, "minProperties", "maxProperties")
            default: return []
            }
        case .nonEmpty:
            switch kind {
            case .string: return [JSONMember("minLength", .int(1))]
            case .array, .set: return [JSONMember("minItems", .int(1))]
            case .dictionary: return [JSONMember("minProperties", .int(1))]
            default: return []
            }
        case .pattern(let pattern):
            return [JSONMember("pattern", .string(pattern))]
        case .custom:
            return []
        }
    }

    /// A relationship's value: the nested model or its identifier, one or an array of them.
    mutating func relationshipSchema(_ related: ModelSchema, many: Bool) -> JSONValue {
        var forms = [reference(to: related)]
        if let identifier = related.identifier { forms.append(kindSchema(identifier.valueKind.unwrapped)) }
        let one = JSONValue.object([JSONMember("anyOf", .array(forms))])
        return many ? .object([JSONMember("type", .string("array")), JSONMember("items", one)]) : one
    }

    /// The schema of a transformer's remote type, described by its expectation.
    mutating func transformedSchema(_ transformer: any ModelTransformer) -> JSONValue {
        func encodedKind<T: ModelTransformer>(_ transformer: T) -> ModelValueKind { T.Encoded.modelValueKind }
        guard case .object(var members) = kindSchema(encodedKind(transformer).unwrapped) else { return .object([]) }
        members.removeAll { $0.key == "format" }
        if transformer is ISO8601Transformer { members.append(JSONMember("format", .string("date-time"))) }
        members.append(JSONMember("description", .string(transformer.expectation)))
        return .object(members)
    }

    /// The schema of a value of `kind`, as the JSON readers accept it; `type`, the value's type
    /// when known, describes what the kind cannot (an enum's cases).
    mutating func kindSchema(_ kind: ModelValueKind, type valueType: Any.Type? = nil) -> JSONValue {
        func type(_ name: String, _ more: JSONMember...) -> JSONValue { .object([JSONMember("type", .string(name))] + more) }
        switch kind {
        case .bool: return type("boolean")
        case .integer: return type("integer")
        case .float, .decimal: return type("number")
        case .string: return type("string")
        case .date: return type("string", JSONMember("format", .string("date-time")))
        case .data: return type("string", JSONMember("contentEncoding", .string("base64")))
        case .url: return type("string", JSONMember("format", .string("uri-reference")))
        case .uuid: return type("string", JSONMember("format", .string("uuid")))
        case .json: return .object([])
        case .other:
            guard let enumType = valueType as? any ModelEnum.Type else { return .object([]) }
            return reference(toEnum: enumType.modelEnumSchema)
        case .optional(let wrapped): return nullable(kindSchema(wrapped, type: contained(valueType)))
        case .array(let element), .set(let element):
            return type("array", JSONMember("items", kindSchema(element, type: contained(valueType))))
        case .dictionary(let element):
            return type("object", JSONMember("additionalProperties", kindSchema(element, type: contained(valueType))))
        case .model(let model): return reference(to: model.schema)
        }
    }

    /// The type `type` holds, if it is a container (`T?`, `[T]`, `Set<T>`, `[String: T]`).
    func contained(_ type: Any.Type?) -> Any.Type? {
        (type as? any ModelValueContainer.Type)?.containedType
    }

    /// A property's declared type, unwrapped once when its kind says it is optional (the kinds
    /// the schema starts from are unwrapped).
    func containedType(_ type: Any.Type, if kind: ModelValueKind) -> Any.Type? {
        if case .optional = kind { return contained(type) }
        return type
    }

    /// `schema` or `null`.
    func nullable(_ schema: JSONValue) -> JSONValue {
        .object([JSONMember("anyOf", .array([schema, .object([JSONMember("type", .string("null"))])]))])
    }

    /// A JSON Pointer segment for `name` (RFC 6901).
    func escapePointer(_ name: String) -> String {
        name.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }
}

/// An object of a model's schema, or one a nested key path opens inside it.
private struct ObjectNode {
    var properties: [(key: String, value: Node)] = []
    var required: [String] = []
    /// Groups of fallback keys of which one must be present.
    var oneOfRequired: [[String]] = []

    enum Node {
        case value(JSONValue)
        case object(ObjectNode)
    }

    /// Puts `value` at `path`, opening nested objects; a nested object is required when
    /// something required is inside it.
    mutating func insert(_ value: JSONValue, at path: ArraySlice<String>, required isRequired: Bool, replacing: Bool = true) {
        guard let key = path.first else { return }
        let index = properties.firstIndex { $0.key == key }
        if path.count == 1 {
            if let index {
                if replacing { properties[index].value = .value(value) }
            } else {
                properties.append((key, .value(value)))
            }
        } else {
            var nested = ObjectNode()
            if let index, case .object(let existing) = properties[index].value { nested = existing }
            nested.insert(value, at: path.dropFirst(), required: isRequired, replacing: replacing)
            if let index { properties[index].value = .object(nested) } else { properties.append((key, .object(nested))) }
        }
        if isRequired && !required.contains(key) { required.append(key) }
    }

    /// The object's schema; `closed` leaves out keys no property names, in this object
    /// (unless `topClosed` says otherwise: a model that keeps its other keys) and those nested.
    func schema(title: String?, closed: Bool, topClosed: Bool? = nil) -> JSONValue {
        var members: [JSONMember] = []
        if let title { members.append(JSONMember("title", .string(title))) }
        members.append(JSONMember("type", .string("object")))
        members.append(JSONMember("properties", .object(properties.map { key, node in
            switch node {
            case .value(let value): JSONMember(key, value)
            case .object(let object): JSONMember(key, object.schema(title: nil, closed: closed))
            }
        })))
        if !required.isEmpty { members.append(JSONMember("required", .array(required.map { .string($0) }))) }
        if !oneOfRequired.isEmpty {
            let groups = oneOfRequired.map { keys in
                JSONValue.object([JSONMember("anyOf", .array(keys.map { .object([JSONMember("required", .array([.string($0)]))]) }))])
            }
            members.append(JSONMember("allOf", .array(groups)))
        }
        if topClosed ?? closed { members.append(JSONMember("additionalProperties", .bool(false))) }
        return .object(members)
    }
}

extension ModelValueKind {
    /// The related model of a relationship's kind: the model, or an array's or set's element.
    fileprivate var relatedModel: ModelSchema? {
        switch self {
        case .model(let model): model.schema
        case .array(let element), .set(let element): element.unwrapped.relatedModel
        default: nil
        }
    }

    /// Whether the kind is an array or a set.
    fileprivate var isCollection: Bool {
        switch self {
        case .array, .set: true
        default: false
        }
    }
}
