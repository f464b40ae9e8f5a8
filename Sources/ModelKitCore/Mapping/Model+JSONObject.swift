import Foundation

extension Model {
    /// Maps a JSON object, as `JSONSerialization` produces it, through the model's remote key
    /// paths, key strategy and transformers.
    ///
    /// ```swift
    /// let object = try JSONSerialization.jsonObject(with: data)
    /// let user = try User(json: object)
    /// ```
    @inlinable
    public init(json: Any, options: MappingOptions = .default) throws {
        var reader = JSONObjectReader(value: json, mapping: .remote, options: options)
        self = try reader.decodeTopLevel(Self.self)
    }

    /// The model as a JSON object (`[String: Any]`), through remote key paths and transformers,
    /// with options (nil encoding, depth limit).
    ///
    /// ```swift
    /// let object = try user.jsonObject()
    /// ```
    @inlinable
    public func jsonObject(options: MappingOptions = .default) throws -> Any {
        var writer = JSONObjectWriter(mapping: .remote, options: options)
        try writer.encodeModel(self)
        return writer.result ?? [String: Any]()
    }
}

extension Array where Element: Model {
    /// Maps a JSON array of objects into models.
    ///
    /// ```swift
    /// let users = try [User](json: object["users"] as Any)
    /// ```
    @inlinable
    public init(json: Any, options: MappingOptions = .default) throws {
        var reader = JSONObjectReader(value: json, mapping: .remote, options: options)
        self = try reader.decodeTopLevel([Element].self)
    }

    /// The models as a JSON array.
    @inlinable
    public func jsonObject(options: MappingOptions = .default) throws -> Any {
        var writer = JSONObjectWriter(mapping: .remote, options: options)
        try writer.encodeValue(self)
        return writer.result ?? [Any]()
    }
}

extension ModelReader {
    /// Reads a whole payload's value: in collect-all mode every problem found is thrown as one
    /// error at the end.
    ///
    /// Through an identity context (``ModelReader/context``), the whole read is one mapping
    /// run: all or nothing (see ``ModelContext/performMapping(_:)``).
    @inlinable
    public mutating func decodeTopLevel<T: ModelValue>(_ type: T.Type) throws -> T {
        guard let context else { return try decodeWholeValue(T.self) }
        return try context.performMapping { try decodeWholeValue(T.self) }
    }

    @inlinable
    mutating func decodeWholeValue<T: ModelValue>(_ type: T.Type) throws -> T {
        var name: String?
        if case .model(let model) = T.modelValueKind { name = model.schema.modelName }
        do {
            let value = try T.read(from: &self)
            try throwCollectedProblems(model: name)
            return value
        } catch let error as ModelError {
            let named = error.modelName == nil && name != nil ? error.naming(model: name!, property: nil) : error
            if options.collectsAllErrors { record(named) } else { collectedProblems.append(named) }
            try throwCollectedProblems(model: name)
            throw named
        }
    }
}

extension Model {
    /// Maps a JSON object through an identity context: identified models already live in it are
    /// updated in place and returned (see ``ModelContext``).
    ///
    /// ```swift
    /// let status = try Status(json: object, context: context)
    /// ```
    @inlinable
    public init(json: Any, context: ModelContext, options: MappingOptions = .default) throws {
        var reader = JSONObjectReader(value: json, mapping: .remote, options: options, context: context)
        self = try reader.decodeTopLevel(Self.self)
    }
}

// MARK: Spellings of earlier releases

extension Model {
    /// The model as a JSON object; a property that throws reads like a stored value, so it is a
    /// method now.
    @available(*, deprecated, renamed: "jsonObject()")
    public var jsonObject: Any {
        get throws { try jsonObject(options: .default) }
    }
}
