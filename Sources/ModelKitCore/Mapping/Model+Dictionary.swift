import Foundation

extension Model {
    /// Creates a model from property keys and plain values (PSPDFModel's `initWithDictionary:`).
    ///
    /// Values are checked against the property types, `NSNull` becomes nil, missing keys take
    /// the property's default, unknown keys are an error, read-only properties (a `let` with an
    /// initial value) are skipped, and validation runs.
    ///
    /// ```swift
    /// let user = try User(dictionary: ["id": "1", "screenName": "a", "createdAt": Date()])
    /// ```
    public init(dictionary: [String: Any], options: MappingOptions = .default) throws {
        var reader = JSONObjectReader(value: dictionary, mapping: .propertyKeys, options: options)
        let schema = Self.modelSchema
        for key in dictionary.keys.sorted() where schema[key] == nil {
            let error = ModelError(.unknownKey, model: schema.modelName, property: key)
            guard options.collectsAllErrors else { throw error }
            reader.record(error)
        }
        self = try reader.decodeTopLevel(Self.self)
    }

    /// The property keys and values, nil as `NSNull` (PSPDFModel's `dictionaryValue`).
    ///
    /// Values are the properties' own values: dates stay `Date`, nested models stay models.
    public var dictionaryValue: [String: Any] {
        let schema = dynamicModelSchema
        // `init(minimumCapacity:)`: `reserveCapacity(_:)` also looks generic metadata up per call.
        var dictionary = [String: Any](minimumCapacity: schema.propertyKeys.count)
        for property in schema.properties where !property.isTransient {
            dictionary[property.name] = propertyValue(property) ?? NSNull()
        }
        return dictionary
    }

    /// Whether the property at `index` holds a value (is not an empty optional).
    public func hasValue(forField index: Int) -> Bool {
        let schema = dynamicModelSchema
        guard schema.properties.indices.contains(index) else { return false }
        return propertyValue(schema.properties[index]) != nil
    }

    /// Whether any field whose key path goes through `edge` holds a value.
    public func hasValues(below edge: ModelKeyEdge) -> Bool {
        edge.leaves.contains { hasValue(forField: $0.field) }
            || (edge.node?.edges.contains { hasValues(below: $0) } ?? false)
    }

    /// The value of the property at `index` as `Any` (nil for an empty optional).
    func fieldValue(at index: Int) -> Any? {
        let schema = dynamicModelSchema
        guard schema.properties.indices.contains(index) else { return nil }
        return propertyValue(schema.properties[index])
    }

    /// Sets the property at `index` back to a value ``fieldValue(at:)`` read from it: the
    /// property's own value, which always reads back as its type (by property key, without
    /// transformers or validation), so there is no error to report.
    mutating func restoreField(_ index: Int, to value: Any?) {
        var reader = JSONObjectReader(value: value ?? NSNull(), mapping: .propertyKeys, options: .copying)
        _ = try? decodeModelField(index, from: &reader)
    }

    /// The value of a property through its key path, nil for an empty optional.
    func propertyValue(_ property: ModelProperty) -> Any? {
        guard let value = self[keyPath: property.keyPath] else { return nil }
        return unwrappedOptional(value)
    }
}

/// The value inside an optional held in `Any`, or the value itself.
package func unwrappedOptional(_ value: Any) -> Any? {
    if let optional = value as? any OptionalValue { return optional.wrappedAny }
    return value
}
