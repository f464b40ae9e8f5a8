import Foundation
import ModelKitCore
import ModelKitJSON

/// Writes a model as one row of ``StoreValue``s: a column per stored property, property keys and
/// the properties' own values (no transformers).
///
/// Scalars go to their column as they are; nested models, arrays, sets, dictionaries, JSON values
/// and other `Codable` values go to their column as JSON text, written with ModelKitJSON's writer.
/// An identified class model is written as its identifier (in a column or inside JSON) and kept in
/// ``references``, so the store saves it in the same transaction.
struct StoreRowWriter: ModelWriter {
    var mapping: ModelSchema.Mapping { .propertyKeys }
    let options: MappingOptions
    /// The row written so far, by column.
    var values: [StoreValue]
    /// The column the next top-level value goes to.
    var column = 0
    /// How many JSON containers are open; 0 when writing a column.
    var nesting = 0
    /// JSON text of the column being written, while `nesting > 0`: the library's JSON writer, by
    /// property keys.
    var json = JSONBytesWriter(mapping: .propertyKeys)
    /// Identified class models written as identifiers, to save with the row.
    var references: [any Model] = []
    /// Whether a row is to be stored (a save), so that each to-many kept in its inverse's column
    /// or a join table must agree with its inverse; a context's baselines are rows of any moment.
    var checksInverses = false

    init(columnCount: Int, options: MappingOptions = .default) {
        self.values = Array(repeating: .null, count: columnCount)
        self.options = options
    }

    /// Writes every column of `model`'s row.
    ///
    /// The row is the model's object with property keys, which have no paths: its members are
    /// the table's columns, one per stored property, so they are written column by column (as
    /// ``StoreRowReader`` reads them). Values inside a column (nested models, collections) go
    /// through the key-tree walk as JSON text.
    mutating func writeRow<M: Model>(_ model: M, table: StoreTable) throws {
        if values.count != table.columns.count {
            values = Array(repeating: .null, count: table.columns.count)
        }
        references.removeAll(keepingCapacity: true)
        // A save replaces a many-to-many's join rows with the array: one left for first access
        // must be loaded first, or the save would store it empty.
        if checksInverses, !table.manyToMany.isEmpty { try model.loadPendingRelationships() }
        let schema = table.schema
        let writes = try model.classInstance.flatMap { try WritesInProgress.enter($0, schema: schema) }
        defer { writes?.leave() }
        for index in table.columns.indices {
            column = index
            nesting = 0
            do {
                try encodeField(table.columns[index].field, of: model, schema: schema)
            } catch let error as ModelError {
                throw error.prefixed(by: .key(table.columns[index].name))
            }
        }
        // An observable class keeps its inverses itself; reading its arrays here would load the
        // ones its store left for first access.
        guard checksInverses, !table.keptElsewhere.isEmpty, !(model is any ObservableModel) else { return }
        for toMany in table.keptElsewhere {
            do {
                try toMany.checkInverses(of: model)
            } catch let error as ModelError {
                throw error.prefixed(by: .key(toMany.property.name))
            }
        }
    }

    @inline(__always)
    mutating func put(_ value: StoreValue) {
        values[column] = value
    }

    // MARK: Scalars

    mutating func encodeNil() throws {
        if nesting > 0 { try json.encodeNil() } else { put(.null) }
    }

    mutating func encodeBool(_ value: Bool) throws {
        if nesting > 0 { try json.encodeBool(value) } else { put(.integer(value ? 1 : 0)) }
    }

    mutating func encodeString(_ value: String) throws {
        if nesting > 0 { try json.encodeString(value) } else { put(.text(value)) }
    }

    mutating func encodeInt64(_ value: Int64) throws {
        if nesting > 0 { try json.encodeInt64(value) } else { put(.integer(value)) }
    }

    mutating func encodeUInt64(_ value: UInt64) throws {
        if nesting > 0 { return try json.encodeUInt64(value) }
        guard let exact = Int64(exactly: value) else {
            throw ModelError(.numberOutOfRange, expected: "a number that fits a 64-bit signed integer", found: "\(value)")
        }
        put(.integer(exact))
    }

    mutating func encodeDouble(_ value: Double) throws {
        if nesting > 0 { return try json.encodeDouble(value) }
        guard !value.isNaN else { throw ModelError(.invalidValue, expected: "a number", found: "nan") }
        put(.real(value))
    }

    mutating func encodeDecimal(_ value: Decimal) throws {
        if nesting > 0 { try json.encodeDecimal(value) } else { put(.text(value.description)) }
    }

    mutating func encodeDate(_ value: Date) throws {
        if nesting > 0 { try json.encodeDate(value) } else { put(.text(StoreDates.format(value))) }
    }

    mutating func encodeData(_ value: Data) throws {
        if nesting > 0 { try json.encodeData(value) } else { put(.blob(value)) }
    }

    mutating func encodeURL(_ value: URL) throws {
        if nesting > 0 { try json.encodeURL(value) } else { put(.text(value.absoluteString)) }
    }

    mutating func encodeUUID(_ value: UUID) throws {
        if nesting > 0 { try json.encodeUUID(value) } else { put(.text(value.uuidString)) }
    }

    // MARK: JSON text

    /// Starts a JSON value: a new text when at a column.
    mutating func beginJSON() throws {
        try checkNesting(nesting, options.maxDepth)
        if nesting == 0 { json = JSONBytesWriter(mapping: .propertyKeys, options: options, capacity: 128) }
        nesting += 1
    }

    /// Ends a JSON value: the text goes to the column when it was the outermost.
    mutating func endJSON() {
        nesting -= 1
        if nesting == 0 { put(.text(String(decoding: json.writer.bytes, as: UTF8.self))) }
    }

    mutating func encodeArray<C: Collection>(
        _ elements: C, _ element: (inout StoreRowWriter, C.Element) throws -> Void
    ) throws {
        try beginJSON()
        json.writer.beginArray()
        for (index, value) in elements.enumerated() {
            try prefixingErrors(with: .index(index)) { try element(&self, value) }
        }
        json.writer.endArray()
        endJSON()
    }

    mutating func encodeDictionary<V>(
        _ dictionary: [String: V], _ body: (inout StoreRowWriter, V) throws -> Void
    ) throws {
        try beginJSON()
        json.writer.beginObject()
        // Sorted, so the same dictionary is always the same text.
        for key in dictionary.keys.sorted() {
            json.writer.writeKey(key)
            try prefixingErrors(with: .key(key)) { try body(&self, dictionary[key]!) }
        }
        json.writer.endObject()
        endJSON()
    }

    mutating func encodeModel<M: Model>(_ model: M) throws {
        let schema = model.dynamicModelSchema
        if let identifierIndex = schema.identifierIndex, type(of: model) is AnyObject.Type {
            // A reference: the identifier here, the model in its own table.
            references.append(model)
            try encodeField(identifierIndex, of: model, schema: schema)
            return
        }
        try encodeErased(model)
    }

    /// Writes a model through the key-tree walk compiled for this writer: the store's entry
    /// points are generic over the model, which would leave the walk unspecialised.
    mutating func encodeErased<M: Model>(_ model: M) throws {
        try encodeModelObject(ErasedModelFields(model), schema: model.dynamicModelSchema, instance: model.classInstance)
    }

    // MARK: Sink for the key-tree walk

    /// An object inside a column is JSON text.
    mutating func encodeObject(_ members: (inout StoreRowWriter) throws -> Void) throws {
        try beginJSON()
        json.writer.beginObject()
        try members(&self)
        json.writer.endObject()
        endJSON()
    }

    mutating func encodeMember(_ edge: ModelKeyEdge, _ value: (inout StoreRowWriter) throws -> Void) throws {
        json.writer.writeKey(edge.key)
        try value(&self)
    }

    mutating func encodeJSONValue(_ value: JSONValue) throws {
        try beginJSON()
        try json.encodeJSONValue(value)
        endJSON()
    }

    /// `Codable` values are written as the library's own JSON (dates as ISO 8601 text), as JSON
    /// writes them everywhere else.
    mutating func encodeCodable<T: Encodable>(_ value: T) throws {
        try beginJSON()
        try json.encodeCodable(value)
        endJSON()
    }
}

/// The store's text form of dates: ISO 8601 in UTC with nanoseconds, fixed width, so text order
/// is time order and `Date()` reads back exactly (rows written with milliseconds still read).
// @usableFromInline: named by the reader's inlinable decodeDate(), which parses through parse(_:) below.
@usableFromInline
package enum StoreDates {
    package static func format(_ date: Date) -> String {
        DateCoding.formatSortableISO8601(date)
    }

    package static func parse(_ text: String) -> Date? {
        DateCoding.parseISO8601(text)
    }

    /// Parses the UTF-8 bytes of a column's text, without making a `String` first.
    // @usableFromInline: handed by the reader's inlinable decodeDate() to StoreRowColumns.withText(_:_:), per column.
    // Unsafe: the column's text in place, during withText's call, so no String is made.
    @usableFromInline
    package static func parse(_ bytes: UnsafeRawBufferPointer) -> Date? {
        DateCoding.parseISO8601(bytes)
    }
}
