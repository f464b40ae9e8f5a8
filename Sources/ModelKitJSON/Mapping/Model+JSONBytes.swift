import Foundation
import ModelKitCore

extension Model {
    /// Maps JSON bytes straight into a model, through its remote key paths and transformers.
    ///
    /// The whole document is checked (RFC 8259); malformed JSON is a `ModelError` of code
    /// `.malformedInput` whose message gives the line, column and byte offset.
    ///
    /// ```swift
    /// let user = try User(jsonData: data)
    /// ```
    // @inlinable: generic over the model (`Self`): compiled in the caller's module, where the model
    // is known, so that the decode it starts is specialised for the model and JSONBytesReader
    // instead of running through witness tables.
    @inlinable
    public init(jsonData data: Data, options: MappingOptions = .default) throws {
        self = try ModelJSON.decode(Self.self, from: data, atPath: nil, options: options)
    }

    /// Maps JSON bytes into a model.
    // @inlinable: like init(jsonData:options:), so that the decode is specialised for the model in
    // the caller's module.
    @inlinable
    public init(jsonBytes bytes: [UInt8], options: MappingOptions = .default) throws {
        // Unsafe: the array's storage is scanned where it lies during the decode; no copy.
        self = try bytes.withUnsafeBytes { try ModelJSON.decode(Self.self, from: $0, at: nil, options: options) }
    }

    /// Maps the JSON in memory the caller keeps alive into a model.
    // @inlinable: like init(jsonData:options:), so that the decode is specialised for the model in
    // the caller's module.
    // Unsafe: for JSON in memory the caller owns (a mapped file, a network buffer), decoded where
    // it lies; the caller keeps it alive during the call.
    @inlinable
    public init(jsonBytes bytes: UnsafeRawBufferPointer, options: MappingOptions = .default) throws {
        self = try ModelJSON.decode(Self.self, from: bytes, at: nil, options: options)
    }

    /// Maps JSON text into a model.
    // @inlinable: like init(jsonData:options:), so that the decode is specialised for the model in
    // the caller's module.
    @inlinable
    public init(jsonString string: String, options: MappingOptions = .default) throws {
        var string = string
        // Unsafe: the string's UTF-8 storage (made contiguous by withUTF8) is scanned where it
        // lies; no copy.
        self = try string.withUTF8 {
            try ModelJSON.decode(Self.self, from: UnsafeRawBufferPointer($0), at: nil, options: options)
        }
    }

    /// The model as JSON bytes, through its remote key paths and transformers.
    ///
    /// ```swift
    /// let data = try user.jsonData(formatting: [.prettyPrinted, .sortedKeys])
    /// ```
    // @inlinable: generic over the model: compiled in the caller's module, so that the encode is
    // specialised for the model and JSONBytesWriter.
    @inlinable
    public func jsonData(formatting: JSONWriter.Options = [], options: MappingOptions = .default) throws -> Data {
        Data(try jsonBytes(formatting: formatting, options: options))
    }

    /// The model as JSON bytes.
    // @inlinable: like jsonData(formatting:options:), so that the encode is specialised for the
    // model in the caller's module.
    @inlinable
    public func jsonBytes(formatting: JSONWriter.Options = [], options: MappingOptions = .default) throws -> [UInt8] {
        var writer = JSONBytesWriter(formatting: formatting, options: options)
        try writer.encodeValue(self)
        return writer.writer.bytes
    }

    /// The model as JSON text.
    // @inlinable: like jsonData(formatting:options:), so that the encode is specialised for the
    // model in the caller's module.
    @inlinable
    public func jsonString(formatting: JSONWriter.Options = [], options: MappingOptions = .default) throws -> String {
        String(decoding: try jsonBytes(formatting: formatting, options: options), as: UTF8.self)
    }
}

extension Array where Element: Model {
    /// Maps a JSON array of objects, or the array at `keyPath` inside the document.
    ///
    /// ```swift
    /// let statuses = try [Status](jsonData: data, at: "statuses")
    /// ```
    // @inlinable: generic over the element model: compiled in the caller's module, so that the
    // decode of every element is specialised for it.
    @inlinable
    public init(jsonData data: Data, at keyPath: String? = nil, options: MappingOptions = .default) throws {
        self = try ModelJSON.decode([Element].self, from: data, atPath: keyPath.map(RemoteKeyPath.init), options: options)
    }

    /// Maps a JSON array of objects from bytes, or the array at `keyPath`.
    // @inlinable: like init(jsonData:at:options:) above, specialised for the element model in the
    // caller's module.
    @inlinable
    public init(jsonBytes bytes: [UInt8], at keyPath: String? = nil, options: MappingOptions = .default) throws {
        // Unsafe: the array's storage is scanned where it lies during the decode; no copy.
        self = try bytes.withUnsafeBytes {
            try ModelJSON.decode([Element].self, from: $0, at: keyPath.map(RemoteKeyPath.init), options: options)
        }
    }

    /// The models as a JSON array.
    // @inlinable: generic over the element model: compiled in the caller's module, so that the
    // encode of every element is specialised for it.
    @inlinable
    public func jsonData(formatting: JSONWriter.Options = [], options: MappingOptions = .default) throws -> Data {
        var writer = JSONBytesWriter(formatting: formatting, options: options)
        try writer.encodeValue(self)
        return Data(writer.writer.bytes)
    }
}

extension Model {
    /// Maps the model at `keyPath` inside a JSON document (`"data.user"`, `"items.0"`).
    // @inlinable: like init(jsonData:options:), so that the decode is specialised for the model in
    // the caller's module.
    @inlinable
    public init(jsonData data: Data, at keyPath: String, options: MappingOptions = .default) throws {
        self = try ModelJSON.decode(Self.self, from: data, atPath: RemoteKeyPath(keyPath), options: options)
    }
}

/// Maps any value (models, arrays and dictionaries of them, plain values) from and to JSON bytes.
///
/// ```swift
/// let count = try ModelJSON.decode(Int.self, from: data, at: "search_metadata.count")
/// let grid = try ModelJSON.decode([[Int]].self, from: data)
/// let bytes = try ModelJSON.encode(["a": [1, 2]])
/// ```
public enum ModelJSON {
    /// Decodes a value from `data`, at the remote key path `keyPath` inside it when given,
    /// mapping identified class models through `context` when given.
    // @inlinable: generic over the value type: compiled in the caller's module, so that the decode
    // is specialised for `T` and JSONBytesReader.
    @inlinable
    public static func decode<T: ModelValue>(
        _ type: T.Type, from data: Data, at keyPath: String? = nil, options: MappingOptions = .default,
        context: ModelContext? = nil
    ) throws -> T {
        try decode(T.self, from: data, atPath: keyPath.map(RemoteKeyPath.init), options: options, context: context)
    }

    /// Encodes a value as JSON bytes.
    // @inlinable: generic over the value type: compiled in the caller's module, so that the encode
    // is specialised for `T` and JSONBytesWriter.
    @inlinable
    public static func encode<T: ModelValue>(
        _ value: T, formatting: JSONWriter.Options = [], options: MappingOptions = .default
    ) throws -> [UInt8] {
        var writer = JSONBytesWriter(formatting: formatting, options: options)
        try writer.encodeValue(value)
        return writer.writer.bytes
    }

    /// Decodes a value from `data`, at `keyPath` inside it when given.
    // @inlinable: generic over the value type; the path every `Data` entry point takes, compiled
    // with them where `T` is known.
    @inlinable
    public static func decode<T: ModelValue>(
        _ type: T.Type, from data: Data, atPath keyPath: RemoteKeyPath?, options: MappingOptions,
        context: ModelContext? = nil
    ) throws -> T {
        // Unsafe: Data's storage is scanned where it lies during the decode; no copy.
        try data.withUnsafeBytes { try decode(T.self, from: $0, at: keyPath, options: options, context: context) }
    }

    /// Decodes a value from bytes the caller keeps alive, at `keyPath` inside them when given.
    // @inlinable: the body every entry point above reaches, compiled with them where `T` is known,
    // so that JSONBytesReader's witnesses and the generated decoder are specialised for `T`.
    // Unsafe: decodes the bytes the entry points above lend (Data's, an array's or a String's
    // storage, or the caller's own) without a copy; they stay alive during the call.
    @inlinable
    public static func decode<T: ModelValue>(
        _ type: T.Type, from bytes: UnsafeRawBufferPointer, at keyPath: RemoteKeyPath?, options: MappingOptions,
        context: ModelContext? = nil
    ) throws -> T {
        var reader = JSONBytesReader(bytes: bytes, options: options, context: context)
        do {
            let opened = try keyPath.map { try reader.descend(to: $0) } ?? []
            let value: T
            do {
                value = try reader.decodeTopLevel(T.self)
            } catch let error as ModelError {
                // Errors name the full path in the document: `data.items[3].id`, not `[3].id`.
                guard let keyPath else { throw error }
                throw error.prefixed(by: JSONBytesReader.pathComponents(keyPath, opened: opened))
            }
            try reader.ascend(opened)
            try reader.scanner.finish()
            return value
        } catch let error as JSONSyntaxError {
            throw malformed(error, T.self)
        }
    }

    // @usableFromInline: called by the inlinable decode(_:from:at:options:context:) when the JSON
    // is malformed; errors only, so out of line.
    @usableFromInline
    static func malformed<T>(_ error: JSONSyntaxError, _ type: T.Type) -> ModelError {
        ModelError(
            .malformedInput, model: (T.self as? any Model.Type)?.modelSchema.modelName, underlying: error)
    }
}

extension JSONBytesReader {
    /// Moves to the value at `keyPath`, skipping everything before it; returns the containers
    /// it opened on the way, outermost first.
    // @usableFromInline: called by the inlinable decode(_:from:at:options:context:) for a key path;
    // a loop over the segments, so out of line.
    @usableFromInline
    mutating func descend(to keyPath: RemoteKeyPath) throws -> [JSONValueKind] {
        var opened: [JSONValueKind] = []
        var path: [ModelPath.Component] = []
        for segment in keyPath.segments {
            let kind = try scanner.peek()
            if kind == .array, let index = Int(segment) {
                try scanner.beginArray()
                opened.append(.array)
                var current = 0
                var found = false
                while try scanner.nextElement() {
                    if current == index {
                        found = true
                        break
                    }
                    try scanner.skipValue()
                    current += 1
                }
                path.append(.index(index))
                guard found else {
                    throw ModelError(
                        .indexOutOfRange, expected: "an element at index \(index)",
                        found: "an array of \(current) element\(current == 1 ? "" : "s")", path: ModelPath(path))
                }
            } else if kind == .object {
                try scanner.beginObject()
                opened.append(.object)
                var found = false
                while let matches = try scanner.nextKey({ $0.elementsEqual(segment.utf8) }) {
                    if matches {
                        found = true
                        break
                    }
                    try scanner.skipValue()
                }
                path.append(.key(segment))
                guard found else { throw ModelError(.missingValue, path: ModelPath(path)) }
            } else {
                throw ModelError.mismatch(expected: "an object or an array", found: describeValue(at: scanner.checkpoint()))
                    .prefixed(by: path)
            }
        }
        return opened
    }

    /// The error-path components of a key path ``descend(to:)`` followed: array indexes where
    /// it opened arrays, keys elsewhere.
    // @usableFromInline: called by the inlinable decode(_:from:at:options:context:) for an error
    // inside a key path; errors only, so out of line.
    @usableFromInline
    static func pathComponents(_ keyPath: RemoteKeyPath, opened: [JSONValueKind]) -> [ModelPath.Component] {
        zip(keyPath.segments, opened).map { segment, kind in
            kind == .array ? Int(segment).map { .index($0) } ?? .key(segment) : .key(segment)
        }
    }

    /// Skips the rest of the containers ``descend(to:)`` opened, innermost first.
    // @usableFromInline: called by the inlinable decode(_:from:at:options:context:) after the value
    // at a key path; out of line, being a loop.
    @usableFromInline
    mutating func ascend(_ opened: [JSONValueKind]) throws {
        for kind in opened.reversed() {
            if kind == .object { try scanner.skipRemainingMembers() } else { try scanner.skipRemainingElements() }
        }
    }
}

extension Model {
    /// Maps JSON bytes through an identity context: identified models already live in it are
    /// updated in place and returned (see `ModelContext`).
    ///
    /// ```swift
    /// let context = ModelContext()
    /// let timeline = try Timeline(jsonData: data, context: context)
    /// ```
    // @inlinable: like init(jsonData:options:), so that the decode through the context is
    // specialised for the model in the caller's module.
    @inlinable
    public init(jsonData data: Data, context: ModelContext, options: MappingOptions = .default) throws {
        self = try ModelJSON.decode(Self.self, from: data, atPath: nil, options: options, context: context)
    }

    /// Maps the model at `keyPath` inside a JSON document through an identity context.
    ///
    /// ```swift
    /// let user = try User(jsonData: data, at: "data.user", context: context)
    /// ```
    // @inlinable: like init(jsonData:options:), so that the decode through the context is
    // specialised for the model in the caller's module.
    @inlinable
    public init(jsonData data: Data, at keyPath: String, context: ModelContext, options: MappingOptions = .default)
        throws
    {
        self = try ModelJSON.decode(Self.self, from: data, atPath: RemoteKeyPath(keyPath), options: options, context: context)
    }
}

extension Array where Element: Model {
    /// Maps a JSON array (or the array at `keyPath`) through an identity context.
    // @inlinable: generic over the element model: compiled in the caller's module, so that the
    // decode of every element through the context is specialised for it.
    @inlinable
    public init(jsonData data: Data, at keyPath: String? = nil, context: ModelContext, options: MappingOptions = .default)
        throws
    {
        self = try ModelJSON.decode(
            Self.self, from: data, atPath: keyPath.map(RemoteKeyPath.init), options: options, context: context)
    }
}
