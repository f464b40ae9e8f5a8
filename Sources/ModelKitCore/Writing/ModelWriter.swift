import Foundation

/// A format's way of writing values: one conformance per format (JSON objects, JSON bytes,
/// `Encoder`, archives, the store).
///
/// Generated model code writes each property through ``Model/encodeModelField(_:to:)``;
/// ``encodeModel(_:)`` walks the schema's key tree and builds the format's nested objects.
///
/// ```swift
/// var writer = JSONObjectWriter(mapping: .remote)
/// try writer.encodeModel(post)
/// writer.result // ["id": 1, "title": "Hi", ...]
/// ```
public protocol ModelWriter {
    /// Remote key paths through transformers, or property keys and plain values.
    var mapping: ModelSchema.Mapping { get }
    /// The options of this mapping run.
    var options: MappingOptions { get }

    /// Writes nil (`null`, or nothing when nils are omitted).
    mutating func encodeNil() throws
    /// Writes a boolean.
    mutating func encodeBool(_ value: Bool) throws
    /// Writes a string.
    mutating func encodeString(_ value: String) throws
    /// Writes a signed integer.
    mutating func encodeInt64(_ value: Int64) throws
    /// Writes an unsigned integer.
    mutating func encodeUInt64(_ value: UInt64) throws
    /// Writes a floating-point number; throws for NaN and infinity where the format has none.
    mutating func encodeDouble(_ value: Double) throws
    /// Writes a decimal number.
    mutating func encodeDecimal(_ value: Decimal) throws
    /// Writes a date in the format's native representation.
    mutating func encodeDate(_ value: Date) throws
    /// Writes bytes in the format's native representation.
    mutating func encodeData(_ value: Data) throws
    /// Writes a URL.
    mutating func encodeURL(_ value: URL) throws
    /// Writes a UUID.
    mutating func encodeUUID(_ value: UUID) throws

    /// Writes an array, calling `element` for each element.
    mutating func encodeArray<C: Collection>(_ elements: C, _ element: (inout Self, C.Element) throws -> Void) throws
    /// Writes a string-keyed dictionary as an object.
    mutating func encodeDictionary<V>(_ dictionary: [String: V], _ value: (inout Self, V) throws -> Void) throws
    /// Writes a model. The default writes it as an object through the key-tree walk every
    /// format shares (``encodeModelObject(_:)``, over the two methods below).
    mutating func encodeModel<M: Model>(_ model: M) throws

    // MARK: Sink for the key-tree walk

    /// Writes an object whose members `members` writes, each through ``encodeMember(_:_:)``.
    mutating func encodeObject(_ members: (inout Self) throws -> Void) throws
    /// Writes one member of the object being written: the key of `edge`, then the value `value`
    /// writes. When nils are omitted and `value` writes nil, the member is left out.
    mutating func encodeMember(_ edge: ModelKeyEdge, _ value: (inout Self) throws -> Void) throws
    /// Writes one member of an object whose members are all plain fields: what
    /// ``encodeMember(_:_:)`` writes, from a member that holds its edge unretained and its key's
    /// JSON form. The default calls ``encodeMember(_:_:)`` with the edge.
    mutating func encodePlainMember(_ member: ModelPlainMember, _ value: (inout Self) throws -> Void) throws
    /// Writes a generic JSON value.
    mutating func encodeJSONValue(_ value: JSONValue) throws
    /// Writes a value through its `Encodable` implementation.
    mutating func encodeCodable<T: Encodable>(_ value: T) throws

    /// The error to throw for `error`, which writing property `field` of `schema` threw and
    /// which is not a ``ModelError``: the hook through which a format names the model and
    /// property in its own errors. The default wraps it in a ``ModelError`` that names them.
    func fieldError(_ error: any Error, field: Int, of schema: ModelSchema) -> any Error
}

extension ModelWriter {
    // Inlinable: the key-tree walk writes every member of a plain object through it; for writers
    // without a member sink of their own, compiled into the walk as a call with the edge.
    @inlinable
    public mutating func encodePlainMember(_ member: ModelPlainMember, _ value: (inout Self) throws -> Void) throws {
        try encodeMember(member.edge.takeUnretainedValue(), value)
    }

    public mutating func encodeFloat(_ value: Float) throws {
        try encodeDouble(Double(value))
    }

    /// Writes an integer of any width.
    // Inlinable: every integer property is written through it (`ModelInteger.write`), per value; specialised for the
    // width, the signedness test folds to a constant.
    @inlinable
    public mutating func encodeInteger<T: FixedWidthInteger>(_ value: T) throws {
        if T.isSigned {
            try encodeInt64(Int64(truncatingIfNeeded: value))
        } else {
            try encodeUInt64(UInt64(truncatingIfNeeded: value))
        }
    }

    /// Writes property `field` of `model`, naming the model and property in errors (through
    /// ``fieldError(_:field:of:)`` for errors that are not ``ModelError``s): the one place
    /// writers name a field's errors.
    // Inlinable: the key-tree walk and the archive and store writers write every field through
    // it, per field; specialised with its caller for the concrete writer and model, the generated
    // `encodeModelField` is a direct call.
    @inlinable
    public mutating func encodeField<M: ModelFieldEncoder>(_ field: Int, of model: M, schema: ModelSchema) throws {
        do {
            try model.encodeModelField(field, to: &self)
        } catch let error as ModelError {
            throw error.naming(model: schema.modelName, property: schema.propertyName(at: field))
        } catch {
            throw fieldError(error, field: field, of: schema)
        }
    }

    /// The default of ``fieldError(_:field:of:)``: a ``ModelError`` naming the model and property.
    public func fieldError(_ error: any Error, field: Int, of schema: ModelSchema) -> any Error {
        ModelError(.invalidValue, model: schema.modelName, property: schema.propertyName(at: field), underlying: error)
    }
}
