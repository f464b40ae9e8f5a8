import Foundation

// Key-value coding without a runtime (Instant Cocoa's ICKeyValueCodable): reads go through the
// schema's key paths, writes through the generated `decodeModelField(_:from:)`, so a value set
// by key is type-checked exactly like a mapped one.

extension Model {
    /// The value of the property named `key`; nil for an unknown key or an empty optional.
    ///
    /// ```swift
    /// user.value(forKey: "screenName") as? String
    /// ```
    public func value(forKey key: String) -> Any? {
        guard let property = dynamicModelSchema[key] else { return nil }
        return propertyValue(property)
    }

    /// The value at a dotted key path through nested models, dictionaries and collections.
    ///
    /// A key applied to an array maps over its elements; `@count` counts a collection.
    ///
    /// ```swift
    /// status.value(forKeyPath: "user.screenName")   // "a"
    /// status.value(forKeyPath: "urls.expanded")     // [URL?]
    /// status.value(forKeyPath: "urls.@count")       // 2
    /// ```
    public func value(forKeyPath keyPath: String) -> Any? {
        keyValue(self, path: keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)[...])
    }

    /// The values of several properties, nil as `NSNull`.
    public func dictionaryWithValues(forKeys keys: [String]) -> [String: Any] {
        var result: [String: Any] = [:]
        for key in keys { result[key] = value(forKey: key) ?? NSNull() }
        return result
    }

    /// Sets the property named `key`, checking the value's type like mapping does.
    ///
    /// `nil` or `NSNull` clears an optional; constants, unknown keys and wrong types throw.
    ///
    /// ```swift
    /// try post.setValue("New title", forKey: "title")
    /// ```
    public mutating func setValue(_ value: Any?, forKey key: String) throws {
        try setModelValue(value, forKey: key)
    }

    /// Sets several properties at once: either all of them are set or, on an error, none.
    public mutating func setValuesForKeys(_ keyedValues: [String: Any]) throws {
        try setModelValues(keyedValues)
    }

    /// Sets the property at a dotted key path through nested models (Instant Cocoa's
    /// `setValue:forKeyPath:`), checking the value's type like mapping does. A nested struct is
    /// changed and set back; a nested class instance is changed in place.
    ///
    /// ```swift
    /// try status.setValue("ada", forKeyPath: "user.screenName")
    /// ```
    public mutating func setValue(_ value: Any?, forKeyPath keyPath: String) throws {
        try setModelValue(value, forKeyPath: keyPath)
    }

    mutating func setModelValue(_ value: Any?, forKeyPath keyPath: String) throws {
        try setModelValue(value, forKeys: keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)[...])
    }

    /// Sets the property at the end of `keys`, each key a property of the model the one before names.
    private mutating func setModelValue(_ value: Any?, forKeys keys: ArraySlice<String>) throws {
        guard let key = keys.first else { return }
        let rest = keys.dropFirst()
        if rest.isEmpty { return try setModelValue(value, forKey: key) }
        let schema = dynamicModelSchema
        guard let property = schema[key] else {
            throw ModelError(.unknownKey, model: schema.modelName, property: key)
        }
        guard var nested = propertyValue(property) as? any Model else {
            let found = propertyValue(property).map { "a '\(type(of: $0))'" } ?? "nil"
            throw ModelError(
                .typeMismatch, expected: "a model to set '\(rest.joined(separator: "."))' on", found: found,
                model: schema.modelName, property: key, path: ModelPath([.key(key)]))
        }
        try prefixingErrors(with: .key(key)) { try nested.setModelValue(value, forKeys: rest) }
        try setModelValue(nested, forKey: key)
    }

    mutating func setModelValue(_ value: Any?, forKey key: String) throws {
        let schema = dynamicModelSchema
        guard let index = schema.index(ofProperty: key) else {
            throw ModelError(.unknownKey, model: schema.modelName, property: key)
        }
        var reader = JSONObjectReader(value: value ?? NSNull(), mapping: .propertyKeys)
        do {
            try decodeModelField(index, from: &reader)
        } catch let error as ModelError where error.kind == .readOnlyProperty {
            throw error.naming(model: schema.modelName, property: key)
        } catch let error as ModelError {
            throw error.naming(model: schema.modelName, property: key).prefixed(by: .key(key))
        }
    }

    mutating func setModelValues(_ keyedValues: [String: Any]) throws {
        var staged = self
        if isClassType(Self.self) { staged = stagedCopy() }
        for key in keyedValues.keys.sorted() { try staged.setModelValue(keyedValues[key], forKey: key) }
        for key in keyedValues.keys.sorted() { try setModelValue(keyedValues[key], forKey: key) }
    }

    /// A copy to try changes on: for a class, a new instance; for a value, the value itself.
    func stagedCopy() -> Self {
        var reader = JSONObjectReader(value: copyableValues(), mapping: .propertyKeys, options: .copying)
        do {
            return try (type(of: self) as Self.Type).init(modelReader: &reader)
        } catch {
            preconditionFailure("copying a valid '\(Self.self)' cannot fail: \(error)")
        }
    }

    /// The readable non-transient property values, for copying.
    func copyableValues() -> [String: Any] {
        var values: [String: Any] = [:]
        for property in dynamicModelSchema.properties where !property.isTransient && !property.isReadOnly {
            values[property.name] = propertyValue(property) ?? NSNull()
        }
        return values
    }
}

extension Model where Self: AnyObject {
    /// A new instance of the same class with the same non-transient property values
    /// (a shallow copy: nested class instances are shared, as in Mantle).
    public func copy() -> Self {
        stagedCopy()
    }

    /// Sets the property named `key` on this instance (see ``Model/setValue(_:forKey:)-4jyw1``).
    public func setValue(_ value: Any?, forKey key: String) throws {
        var instance = self
        try instance.setModelValue(value, forKey: key)
    }

    /// Sets several properties on this instance, all or none (see
    /// ``Model/setValuesForKeys(_:)-7e19c``).
    public func setValuesForKeys(_ keyedValues: [String: Any]) throws {
        var instance = self
        try instance.setModelValues(keyedValues)
    }

    /// Sets the property at a dotted key path on this instance (see
    /// ``Model/setValue(_:forKeyPath:)-95813``).
    public func setValue(_ value: Any?, forKeyPath keyPath: String) throws {
        var instance = self
        try instance.setModelValue(value, forKeyPath: keyPath)
    }
}

extension MappingOptions {
    /// Options for copying: no validation, the values are already the model's.
    static let copying: MappingOptions = {
        var options = MappingOptions()
        options.validates = false
        return options
    }()
}

/// Follows a key path through models, dictionaries and arrays.
private func keyValue(_ value: Any?, path: ArraySlice<String>) -> Any? {
    guard let key = path.first else { return value }
    guard let value else { return nil }
    let rest = path.dropFirst()
    if key == "@count" {
        if let array = value as? [Any] { return array.count }
        if let dictionary = value as? [String: Any] { return dictionary.count }
        return nil
    }
    if let model = value as? any Model {
        return keyValue(model.value(forKey: key), path: rest)
    }
    if let dictionary = value as? [String: Any] {
        return keyValue(dictionary[key].flatMap(unwrappedOptional), path: rest)
    }
    if let array = value as? [Any] {
        return array.map { keyValue(unwrappedOptional($0), path: path) ?? NSNull() }
    }
    return nil
}

extension Model {
    /// Takes `other`'s values for every settable, non-transient property, or only for `keys`
    /// (Mantle's `mergeValuesForKeysFromModel:`).
    ///
    /// ```swift
    /// draft.merge(from: published)                  // everything
    /// draft.merge(from: published, keys: ["title"]) // one property
    /// ```
    public mutating func merge(from other: Self, keys: Set<String>? = nil) {
        let schema = dynamicModelSchema
        for (index, property) in schema.properties.enumerated()
        where property.isMutable && !property.isTransient && (keys?.contains(property.name) ?? true) {
            var reader = JSONObjectReader(
                value: other.propertyValue(property) ?? NSNull(), mapping: .propertyKeys, options: .copying)
            do {
                try decodeModelField(index, from: &reader)
            } catch {
                preconditionFailure("merging a valid '\(schema.modelName)' cannot fail: \(error)")
            }
        }
    }
}

extension Model where Self: AnyObject {
    /// Takes `other`'s values on this instance (see ``Model/merge(from:keys:)-5jhtb``).
    public func merge(from other: Self, keys: Set<String>? = nil) {
        var instance = self
        instance.mergeValues(from: other, keys: keys)
    }
}

extension Model {
    mutating func mergeValues(from other: Self, keys: Set<String>?) {
        merge(from: other, keys: keys)
    }
}
