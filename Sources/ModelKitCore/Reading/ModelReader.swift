import Foundation

/// A format's way of reading values: one conformance per format (JSON objects, JSON bytes,
/// `Decoder`, archives, the store).
///
/// A reader is a cursor positioned at one value. Generated model code asks it for typed
/// values and calls ``decodeFields(of:into:)`` for objects; the reader finds each property's
/// value by the schema's key tree and hands the generated ``ModelFieldDecoder`` the field
/// index. Everything is generic over the reader, so each format's path is specialised.
///
/// ```swift
/// var reader = JSONObjectReader(value: ["id": 1], mapping: .remote)
/// let post = try Post(modelReader: &reader)
/// ```
public protocol ModelReader {
    /// A saved position, to read the same value again (identity reads an identifier ahead).
    associatedtype Mark

    /// Remote key paths through transformers, or property keys and plain values.
    var mapping: ModelSchema.Mapping { get }
    /// The options of this mapping run.
    var options: MappingOptions { get }
    /// The identity map identified class models are mapped through, when set: a live instance
    /// for a payload's identifier is updated in place instead of a new one being created. It
    /// belongs to the domain the reader runs in, like the reader.
    var context: ModelContext? { get }
    /// The options' switches, read per field and per object without copying the options
    /// (readers keep them beside their options; the default derives them each time).
    var flags: MappingFlags { get }
    /// Problems recorded so far in collect-all mode.
    var collectedProblems: [ModelError] { get set }

    /// Consumes a `null` if the current value is one.
    mutating func decodeNil() throws -> Bool
    /// Reads a boolean.
    mutating func decodeBool() throws -> Bool
    /// Reads a string.
    mutating func decodeString() throws -> String
    /// Reads a string and hands its UTF-8 bytes to `body`, without making a `String` where the
    /// format allows (date parsers read the bytes directly).
    // The bytes as a raw buffer, valid only inside `body`: a byte reader (JSON) passes the string where it lies in its
    // input, so a date parser reads it with no String made (`readDate`).
    mutating func decodeStringBytes<T>(_ body: (UnsafeRawBufferPointer) throws -> T) throws -> T
    /// Reads an integer that fits in `Int64`.
    mutating func decodeInt64() throws -> Int64
    /// Reads a non-negative integer that fits in `UInt64`.
    mutating func decodeUInt64() throws -> UInt64
    /// Reads a floating-point number (integers are accepted).
    mutating func decodeDouble() throws -> Double
    /// Reads a decimal number exactly.
    mutating func decodeDecimal() throws -> Decimal
    /// Reads a date in the format's native representation (ISO 8601 text in JSON).
    mutating func decodeDate() throws -> Date
    /// Reads bytes in the format's native representation (base64 text in JSON).
    mutating func decodeData() throws -> Data
    /// Reads a URL (a string in JSON).
    mutating func decodeURL() throws -> URL
    /// Reads a UUID (a string in JSON).
    mutating func decodeUUID() throws -> UUID

    /// Reads an array, calling `element` with the reader at each element.
    mutating func decodeArray<T>(_ element: (inout Self) throws -> T) throws -> [T]
    /// Reads a string-keyed object as a dictionary, calling `value` at each member.
    mutating func decodeDictionary<T>(_ value: (inout Self) throws -> T) throws -> [String: T]
    /// Reads an object: for each key of `schema`'s key tree present in it, calls
    /// `fields.decodeField(_:from:)` with the reader at that value. The default is the walk
    /// every format shares (``decodeFields(of:into:)``, over the three access methods below).
    mutating func decodeFields<F: ModelFieldDecoder>(of schema: ModelSchema, into fields: inout F) throws

    // MARK: Access for the key-tree walk

    /// The shape of the value at the current position, without moving past it.
    mutating func peekShape() throws -> ModelValueShape
    /// Reads the object at the current position: calls `member` once for each member whose key
    /// has an edge in `node`, with the reader at the member's value and the edge's position in
    /// `node.edges`; `member` reads or skips that value. Members `node` does not name are
    /// skipped, after `unknown` is called with their key when `reportingUnknownKeys` is set
    /// (strict mode). A value that is not an object is a type mismatch expecting `expected`.
    mutating func readMembers(
        of node: ModelKeyNode, expected: @autoclosure () -> String, reportingUnknownKeys: Bool,
        _ member: (inout Self, Int) throws -> Void, unknown: (inout Self, String) throws -> Void
    ) throws
    /// Like ``readMembers(of:expected:reportingUnknownKeys:_:unknown:)``, except that `null` at
    /// the current position reads no member (every field below it is missing). The default
    /// checks ``peekShape()`` first; a reader that can tell `null` more cheaply after failing to
    /// open an object does so.
    mutating func readMembersOrNull(
        of node: ModelKeyNode, expected: @autoclosure () -> String, reportingUnknownKeys: Bool,
        _ member: (inout Self, Int) throws -> Void, unknown: (inout Self, String) throws -> Void
    ) throws
    /// Reads the members of the object at the current position up to the one under `key`'s only
    /// edge, an internally tagged enum's tag, and says which of `tags`' edges its string spells.
    /// The reader is left inside the object: the caller goes back to a mark. The default reads
    /// members through ``readMembers(of:expected:reportingUnknownKeys:_:unknown:)``; a reader that
    /// can stop inside an object (JSON bytes) searches on its own.
    mutating func findTag(_ key: ModelKeyNode, among tags: ModelKeyNode, expected: @autoclosure () -> String) throws -> ModelTagMatch
    /// Reads the array at the current position: calls `element` for each element whose index
    /// has an edge in `node` (``ModelKeyNode/edgeByIndex``), with the reader at the element and
    /// the edge's position; skips the others. Returns the number of elements.
    mutating func readIndexedElements(of node: ModelKeyNode, _ element: (inout Self, Int) throws -> Void) throws -> Int
    /// Reads a model. The default runs the model's initializer, hooks and validation.
    mutating func decodeModel<M: Model>(_ type: M.Type) throws -> M
    /// Reads any value as a generic JSON value.
    mutating func decodeJSONValue() throws -> JSONValue
    /// Reads a value through its `Decodable` implementation.
    mutating func decodeCodable<T: Decodable>(_ type: T.Type) throws -> T

    /// The error to throw for `error`, which decoding property `field` of `schema` threw and
    /// which is not a ``ModelError``: the hook through which a format names the model and
    /// property in its own errors. The default wraps it in a ``ModelError`` that names them.
    func fieldError(_ error: any Error, field: Int, of schema: ModelSchema) -> any Error

    /// Runs `body` at the current value; on a mapping error, moves past the value and returns
    /// the error, so reading can go on (collect-all mode, lossy arrays). Errors that are not
    /// mapping errors (malformed input) are thrown.
    mutating func recover<T>(_ body: (inout Self) throws -> T) throws -> Result<T, ModelError>

    /// Reads a model through a generic JSON value (the slow path the hooks need).
    mutating func decodeModelFromJSONValue<M: Model>(_ type: M.Type) throws -> M

    /// The current position.
    func mark() -> Mark
    /// Goes back to a position saved by ``mark()``.
    mutating func reset(to mark: Mark)
    /// Moves past the current value without reading it.
    mutating func skipValue() throws
}

extension ModelReader {
    /// The options' switches, derived from ``options`` (readers on hot paths store them).
    // Inlinable: the default for readers that keep no flags (JSONValueReader, CodableReader), read per field and per
    // object by the key-tree walk; inlined there, the flags are built from the options in place.
    @inlinable
    public var flags: MappingFlags { MappingFlags(options, hasContext: context != nil) }

    /// No context: formats that never map through one (archives, `Decoder`).
    public var context: ModelContext? { nil }

    // Inlinable: the default for every reader but the JSON bytes reader, called per date a date transformer reads
    // (`readDate`); specialised there with the reader's `decodeString`.
    @inlinable
    public mutating func decodeStringBytes<T>(_ body: (UnsafeRawBufferPointer) throws -> T) throws -> T {
        var string = try decodeString()
        // The string's own UTF-8, borrowed for `body` only, so the parser reads it without another copy.
        return try string.withUTF8 { try body(UnsafeRawBufferPointer($0)) }
    }

    // Inlinable: the default for the JSON bytes, JSONValue and Codable readers, called per nested model from
    // `Model.read`; specialised there for the concrete reader and model type.
    @inlinable
    public mutating func decodeModel<M: Model>(_ type: M.Type) throws -> M {
        try decodeModelThroughHooksAndIdentity(M.self)
    }

    /// The default of ``decodeModel(_:)``: the hooks' slow path, identity through the options'
    /// context for identified classes, or the model's initializer; then validation.
    // Inlinable: the body of the default `decodeModel` (and of JSONObjectReader's), per model read; specialised with
    // it, the hook and identity checks fold for the model type.
    @inlinable
    public mutating func decodeModelThroughHooksAndIdentity<M: Model>(_ type: M.Type) throws -> M {
        let schema = M.modelSchema
        if mapping == .remote && !schema.hooks.isDisjoint(with: [.rewritesJSON, .choosesType]) {
            return try decodeModelFromJSONValue(M.self)
        }
        if flags.hasContext, let context, schema.identifierIndex != nil, isClassType(M.self) {
            return try decodeIdentified(M.self, in: context)
        }
        return try decodeUnidentified(M.self)
    }

    public mutating func skipValue() throws {
        _ = try decodeJSONValue()
    }

    /// Runs a model's `validate()`, turning what it throws into an `invalidModel` error.
    // Inlinable: called per model read when validation is on (`decodeUnidentified`, generated `init(from:)`);
    // specialised there, `validate()` is called directly.
    @inlinable
    public func validateModel<M: Model>(_ model: M) throws {
        do {
            try model.validate()
        } catch let error as ModelError where error.propertyName == nil && error.kind != .multiple {
            throw ModelError(
                .invalidModel, expected: error.expected, found: error.found, model: M.modelSchema.modelName,
                path: error.path, underlying: error.underlying)
        } catch let error as ModelError {
            throw error.naming(model: M.modelSchema.modelName, property: nil)
        } catch {
            throw ModelError(.invalidModel, model: M.modelSchema.modelName, underlying: error)
        }
    }

    /// Decodes a model from a generic JSON value: applies ``Model/rewriteJSON(_:)`` and
    /// ``Model/modelType(for:)``, then maps the result with a ``JSONValueReader``.
    public mutating func decodeModelFromJSONValue<M: Model>(_ type: M.Type) throws -> M {
        var json = try decodeJSONValue()
        return try ModelKitCore.decodeModel(
            M.self, fromJSON: &json, options: options, context: context, problems: &collectedProblems)
    }

    public mutating func decodeFloat() throws -> Float {
        let double = try decodeDouble()
        let float = Float(double)
        if float.isInfinite && !double.isInfinite {
            throw ModelError(.numberOutOfRange, expected: "a number that fits 'Float'", found: "\(double)")
        }
        return float
    }

    /// Reads an integer of any width, with a range error when it does not fit.
    // Inlinable: every integer property is read through it (`ModelInteger.read`, per value); specialised for the width,
    // the range check is a pair of constant comparisons.
    @inlinable
    public mutating func decodeInteger<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        // The range by comparison, then a truncating conversion: `T(exactly:)` returns a `T?`,
        // whose type metadata a caller that runs unspecialised (a model's generated decoder,
        // reached through a format's model reader) looks up on every call.
        if T.isSigned {
            let value = try decodeInt64()
            if T.bitWidth < 64 {
                guard value >= Int64(truncatingIfNeeded: T.min), value <= Int64(truncatingIfNeeded: T.max) else {
                    throw integerRange(T.self, "\(value)")
                }
            }
            return T(truncatingIfNeeded: value)
        }
        let value = try decodeUInt64()
        if T.bitWidth < 64 {
            guard value <= UInt64(truncatingIfNeeded: T.max) else { throw integerRange(T.self, "\(value)") }
        }
        return T(truncatingIfNeeded: value)
    }
}

// Usable from inline: the error `decodeInteger` (inlinable) throws for a value out of range, left out of line so the
// inlined check stays small.
@usableFromInline
func integerRange<T>(_ type: T.Type, _ found: String) -> ModelError {
    ModelError(.numberOutOfRange, expected: "a number that fits '\(T.self)'", found: found)
}

/// Runs a model type's ``Model/rewriteJSON(_:)`` on its payload, naming the model in what it throws.
package func rewritePayload(_ json: inout JSONValue, for type: any Model.Type) throws {
    do { try type.rewriteJSON(&json) } catch let error as ModelError {
        throw error.naming(model: type.modelSchema.modelName, property: nil)
    } catch {
        throw ModelError(.invalidValue, model: type.modelSchema.modelName, underlying: error)
    }
}

/// Maps a model from a generic JSON value, applying the type's rewrite and type-choice hooks.
package func decodeModel<M: Model>(
    _ type: M.Type, fromJSON json: inout JSONValue, options: MappingOptions, context: ModelContext?,
    problems: inout [ModelError]
) throws -> M {
    if M.modelSchema.hooks.contains(.rewritesJSON) { try rewritePayload(&json, for: M.self) }
    var reader = JSONValueReader(value: json, mapping: .remote, options: options, context: context)
    reader.collectedProblems = problems
    defer { problems = reader.collectedProblems }
    if M.modelSchema.hooks.contains(.choosesType), let chosen = try M.modelType(for: json), chosen != M.self {
        guard let subtype = chosen as? M.Type else {
            throw ModelError(
                .invalidValue, expected: "a subtype of '\(M.modelSchema.modelName)'",
                found: "'\(chosen.modelSchema.modelName)'", model: M.modelSchema.modelName)
        }
        let model = try subtype.init(modelReader: &reader)
        if reader.flags.validates { try reader.validateModel(model) }
        return model
    }
    let model = try M(modelReader: &reader)
    if reader.flags.validates && M.modelSchema.hooks.contains(.validates) { try reader.validateModel(model) }
    return model
}
