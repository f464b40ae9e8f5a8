// Writing an enum's representation over any writer: the tag where the representation puts it,
// the payload written by the case's own generated code.

extension ModelEnum {
    // Inlinable: every enum value a model holds is written through here; specialised in the enum's module for the
    // concrete writer, as its reading is.
    @inlinable
    public func write<W: ModelWriter>(to writer: inout W) throws {
        guard let index = modelCaseIndex else {
            // The fallback case: the value of an unknown tag, written back as it came.
            return try writer.encodeJSONValue(modelFallbackPayload ?? .null)
        }
        let schema = Self.modelEnumSchema
        let enumCase = schema.cases[index]
        switch schema.representation {
        case .external:
            guard enumCase.hasPayload else { return try writer.encodeString(enumCase.tag) }
            try writer.encodeObject { writer in
                try writer.encodeMember(schema.tagKeys.edges[index]) { try encodeModelCasePayload(to: &$0) }
            }
        case .internal:
            let tag = JSONMember(schema.tagAndContentKeys.keys[0], enumCase.tagValue)
            guard enumCase.hasPayload else { return try writer.encodeJSONValue(.object([tag])) }
            // The payload's members go beside the tag: written as a value, then joined.
            var payload = JSONValueWriter(options: writer.options)
            try encodeModelCasePayload(to: &payload)
            guard case .object(let members) = payload.value else {
                throw ModelError(
                    .invalidValue, expected: "an object for the payload of '\(schema.name).\(enumCase.name)' beside its tag",
                    found: ModelError.describe(payload.value))
            }
            try writer.encodeJSONValue(.object([tag] + members.filter { $0.key != tag.key }))
        case .adjacent:
            let keys = schema.tagAndContentKeys.edges
            try writer.encodeObject { writer in
                try writer.encodeMember(keys[0]) { writer in
                    if let number = enumCase.integerTag { try writer.encodeInt64(number) } else { try writer.encodeString(enumCase.tag) }
                }
                if enumCase.hasPayload { try writer.encodeMember(keys[1]) { try encodeModelCasePayload(to: &$0) } }
            }
        case .untagged:
            guard enumCase.hasPayload else { return try writer.encodeNil() }
            try encodeModelCasePayload(to: &writer)
        }
    }
}
