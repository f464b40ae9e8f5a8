import Foundation

extension Model {
    /// Maps a JSON object, as `JSONSerialization` produces it, through the model's remote key
    /// paths, key strategy and transformers.
    ///
    /// ```swift
    /// let object = try JSONSerialization.jsonObject(with: data)
    /// let user = try User(json: object)
    /// ```
    // Inlinable: the entry point of JSON-object mapping; in the caller's module the whole read (`decodeTopLevel`, the
    // walk, the generated decoder) specialises for JSONObjectReader and the model type.
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
    // Inlinable: the entry point of writing a JSON object; in the caller's module the write specialises for
    // JSONObjectWriter and the model type.
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
    // Inlinable: the array form of `init(json:)`, specialised for the element type in the caller's module likewise.
    @inlinable
    public init(json: Any, options: MappingOptions = .default) throws {
        var reader = JSONObjectReader(value: json, mapping: .remote, options: options)
        self = try reader.decodeTopLevel([Element].self)
    }

    /// The models as a JSON array.
    // Inlinable: the array form of `jsonObject(options:)`, specialised for the element type in the caller's module
    // likewise.
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
    // Inlinable: every format's entry point reads its payload through it (JSON objects and bytes, dictionaries, the
    // store, preferences); visible there, the read specialises for the reader and the value type.
    @inlinable
    public mutating func decodeTopLevel<T: ModelValue>(_ type: T.Type) throws -> T {
        guard let context else { return try decodeWholeValue(T.self) }
        return try context.performMapping { try decodeWholeValue(T.self) }
    }

    // Inlinable: the body of `decodeTopLevel`, once per payload; internal, and inlinable so that it can call it.
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
    // Inlinable: the identity-context form of `init(json:)`, specialised in the caller's module likewise.
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
