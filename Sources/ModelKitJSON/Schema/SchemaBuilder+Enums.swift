import ModelKitCore

// The JSON Schema of a `@Model` enum: one alternative per case, as its representation writes it,
// the tag a `const`; for tagged representations, OpenAPI's `discriminator` names the tag key.

extension SchemaBuilder {
    /// A reference to an enum's definition, made the first time it is referred to.
    mutating func reference(toEnum schema: ModelEnumSchema) -> JSONValue {
        let reference = JSONValue.object([JSONMember("$ref", .string(referencePrefix + escapePointer(schema.name)))])
        guard named.insert(schema.name).inserted else { return reference }
        let definition = enumSchema(schema)
        definitions.append(JSONMember(schema.name, definition))
        return reference
    }

    /// The enum's alternatives: `oneOf` when a tag tells them apart, `anyOf` untagged.
    mutating func enumSchema(_ schema: ModelEnumSchema) -> JSONValue {
        var alternatives = schema.cases.map { caseSchema($0, of: schema) }
        var members = [JSONMember("title", .string(schema.name))]
        switch schema.representation {
        case .internal(let tag), .adjacent(let tag, _):
            if schema.fallbackCaseName != nil {
                // Any object whose tag is none of the cases' (or that has none): kept as it came.
                let known = JSONValue.object([
                    JSONMember("properties", .object([JSONMember(tag, .object([JSONMember("enum", .array(schema.cases.map(\.tagValue)))]))])),
                    JSONMember("required", .array([.string(tag)])),
                ])
                alternatives.append(.object([JSONMember("type", .string("object")), JSONMember("not", known)]))
            }
            members.append(JSONMember("oneOf", .array(alternatives)))
            members.append(JSONMember("discriminator", .object([JSONMember("propertyName", .string(tag))])))
        case .external:
            if schema.fallbackCaseName != nil { alternatives.append(.object([])) }
            members.append(JSONMember(schema.fallbackCaseName == nil ? "oneOf" : "anyOf", .array(alternatives)))
        case .untagged:
            if schema.fallbackCaseName != nil { alternatives.append(.object([])) }
            members.append(JSONMember("anyOf", .array(alternatives)))
        }
        return .object(members)
    }

    /// One case as its representation writes it.
    private mutating func caseSchema(_ enumCase: ModelEnumSchema.Case, of schema: ModelEnumSchema) -> JSONValue {
        let tag = JSONValue.object([JSONMember("const", enumCase.tagValue)])
        // Not `nil` in a conditional expression: a `JSONValue` is a nil literal too (`null`).
        var payload: JSONValue?
        if enumCase.hasPayload { payload = payloadSchema(enumCase) }
        func object(_ properties: [JSONMember], required: [String], closed: Bool = false) -> JSONValue {
            var members = [
                JSONMember("type", .string("object")), JSONMember("properties", .object(properties)),
                JSONMember("required", .array(required.map { .string($0) })),
            ]
            if closed { members.append(JSONMember("additionalProperties", .bool(false))) }
            return .object(members)
        }
        switch schema.representation {
        case .external:
            guard let payload else { return tag }
            return object([JSONMember(enumCase.tag, payload)], required: [enumCase.tag], closed: true)
        case .internal(let tagKey):
            let tagged = object([JSONMember(tagKey, tag)], required: [tagKey])
            guard let payload else { return tagged }
            // The payload's keys beside the tag: both must hold of the one object.
            return .object([JSONMember("allOf", .array([payload, tagged]))])
        case .adjacent(let tagKey, let contentKey):
            guard let payload else { return object([JSONMember(tagKey, tag)], required: [tagKey]) }
            return object([JSONMember(tagKey, tag), JSONMember(contentKey, payload)], required: [tagKey, contentKey])
        case .untagged:
            return payload ?? .object([JSONMember("type", .string("null"))])
        }
    }

    /// A case's payload: its value's schema, its labelled values' object, or its unlabelled
    /// values' array.
    private mutating func payloadSchema(_ enumCase: ModelEnumSchema.Case) -> JSONValue {
        if !enumCase.tupleTypes.isEmpty {
            let items = enumCase.tupleTypes.map { typeSchema($0) }
            return .object([
                JSONMember("type", .string("array")), JSONMember("prefixItems", .array(items)),
                JSONMember("minItems", .int(Int64(items.count))), JSONMember("maxItems", .int(Int64(items.count))),
            ])
        }
        guard let type = enumCase.payloadType else { return .object([]) }
        // The model `@Model` made of a case's labelled values is described in place: it is no
        // type of the app's.
        if let payloadModel = type as? any Model.Type, payloadModel.modelSchema.modelName.contains(".") {
            return objectSchema(of: payloadModel.modelSchema)
        }
        return typeSchema(type)
    }

    /// The schema of a value of `type`.
    private mutating func typeSchema(_ type: Any.Type) -> JSONValue {
        let kind = (type as? any ModelValue.Type).map { $0.modelValueKind } ?? .other
        return kindSchema(kind.unwrapped, type: containedType(type, if: kind))
    }
}
