import Foundation
import ModelKitCore
import ModelKitJSON

/// Reads a model from one stored row: a column per stored property, property keys and the
/// properties' own values (no transformers), the mirror of ``StoreRowWriter``.
///
/// A `NULL` column for a property that is not optional counts as missing, so the property's
/// default applies (columns added after a row was written hold `NULL`). A column holding JSON text
/// is parsed once and read by the library's JSON value reader, so nested values follow the same
/// rules as JSON everywhere. An identified class model is read as its identifier and resolved
/// through the context: the live instance, or the stored one, loaded.
struct StoreRowReader: ModelTreeReader {
    /// Where the reader is.
    enum Position {
        /// At the whole row, before the model's fields.
        case row
        /// At a column's value.
        case column(Int)
        /// At a value inside a column's JSON text.
        case json(JSONValue)
    }

    var mapping: ModelSchema.Mapping { .propertyKeys }
    let options: MappingOptions
    /// The options' switches, read per field without copying the options (a model's decoder
    /// runs unspecialized for this reader: each read of `options` would copy them).
    let flags: MappingFlags
    var collectedProblems: [ModelError] = []
    let row: [StoreValue]
    /// The table of the row; nil when reading a lone column's value.
    let table: StoreTable?
    var node = Position.row
    var depth = 0
    /// Where references that are not live are loaded from.
    let loader: (any ModelLoading)?
    /// The context references resolve through: the caller's, or one made for this read.
    var context: ModelContext?

    init(row: [StoreValue], table: StoreTable?, context: ModelContext?, loader: (any ModelLoading)?) {
        self.row = row
        self.table = table
        self.context = context
        self.loader = loader
        var options = MappingOptions()
        options.context = context
        self.options = options
        self.flags = MappingFlags(options)
    }

    /// Reads a value from a lone column, as the store reads a column of a row: JSON text for
    /// nested models, collections and `Codable` values (the error tables run through it).
    package static func decodeColumn<T: ModelValue>(_ type: T.Type, from value: StoreValue) throws -> T {
        var reader = StoreRowReader(row: [value], table: nil, context: nil, loader: nil)
        reader.node = .column(0)
        return try reader.decodeTopLevel(T.self)
    }

    /// The row's identifier, as the model's identifier property reads it.
    mutating func decodeIdentifier<M: Model>(_ type: M.Type) throws -> AnyHashable {
        guard let table else { throw mismatch("a row") }
        node = .column(table.identifierColumn)
        defer { node = .row }
        return try M.decodeModelIdentifier(from: &self)
    }

    // MARK: The tree

    /// The JSON value of a node: a column's JSON text parsed, a number column as a number.
    func json(of node: Position) throws -> JSONValue? {
        switch node {
        case .row: return nil
        case .json(let value): return value
        case .column(let index):
            switch row[index] {
            case .null: return .null
            case .integer(let value): return .int(value)
            case .real(let value): return .double(value)
            case .blob: return nil
            case .text(let text):
                do {
                    return try JSONValue(parsing: text)
                } catch {
                    throw ModelError(.malformedInput, expected: "JSON text", found: ModelError.describe(text), underlying: error)
                }
            }
        }
    }

    func shape(of node: Position) throws -> ModelValueShape {
        switch node {
        case .row: return .object
        case .column(let index):
            switch row[index] {
            case .null: return .null
            case .text: break
            default: return .scalar
            }
        case .json: break
        }
        guard let value = try json(of: node) else { return .scalar }
        return JSONValueReader(value: value).shape(of: value)
    }

    func elements(of node: Position) throws -> [Position]? {
        guard case .array(let elements)? = try json(of: node) else { return nil }
        return elements.map(Position.json)
    }

    func forEachMember(of node: Position, _ body: (String, Position) throws -> Void) throws -> Bool {
        guard case .object(let members)? = try json(of: node) else { return false }
        for member in members { try body(member.key, .json(member.value)) }
        return true
    }

    func describe(_ node: Position) -> String {
        switch node {
        case .row: return "a row"
        case .column(let index):
            // JSON text holding an array or an object is described as what it holds.
            if case .text(let text) = row[index], let value = try? JSONValue(parsing: text), value.isContainer {
                return ModelError.describe(value)
            }
            return row[index].quotedDescription
        case .json(let value): return ModelError.describe(value)
        }
    }

    /// At the row: each column, as the member its property names (a `NULL` column of a property
    /// that cannot hold nil is missing, so its default applies). Inside JSON text: the members
    /// `keys` names.
    mutating func readMembers(
        of keys: ModelKeyNode, expected: @autoclosure () -> String, reportingUnknownKeys: Bool,
        _ member: (inout StoreRowReader, Int) throws -> Void, unknown: (inout StoreRowReader, String) throws -> Void
    ) throws {
        guard case .row = node, let table else {
            return try readTreeMembers(
                of: keys, expected: expected(), reportingUnknownKeys: reportingUnknownKeys, member, unknown: unknown)
        }
        defer { node = .row }
        for (index, column) in table.columns.enumerated() {
            guard let edge = column.readingEdge, column.isOptional || row[index] != .null else { continue }
            node = .column(index)
            try member(&self, edge)
        }
    }

    // MARK: Scalars

    /// A reader of the JSON value at the current node, for values inside a column's JSON text.
    func jsonReader(_ value: JSONValue) -> JSONValueReader {
        JSONValueReader(value: value, mapping: .propertyKeys, options: options)
    }

    func decodeNilAt(_ node: Position) -> Bool {
        switch node {
        case .row: return false
        case .column(let index): return row[index] == .null
        case .json(let value): return value.isNull
        }
    }

    mutating func decodeNil() throws -> Bool { decodeNilAt(node) }

    mutating func decodeBool() throws -> Bool {
        switch node {
        case .column(let index): if case .integer(let value) = row[index] { return value != 0 }
        case .json(let value):
            var reader = jsonReader(value)
            return try reader.decodeBool()
        case .row: break
        }
        throw mismatch("a boolean")
    }

    mutating func decodeString() throws -> String {
        switch node {
        case .column(let index): if case .text(let text) = row[index] { return text }
        case .json(let value):
            var reader = jsonReader(value)
            return try reader.decodeString()
        case .row: break
        }
        throw mismatch("a string")
    }

    mutating func decodeInt64() throws -> Int64 {
        guard case .column(let index) = node else { return try jsonNumber("an integer").int64Value() }
        switch row[index] {
        case .integer(let value): return value
        case .real(let value): return try JSONValue.double(value).int64Value()
        default: throw mismatch("an integer")
        }
    }

    mutating func decodeUInt64() throws -> UInt64 {
        guard case .column(let index) = node else { return try jsonNumber("an integer").uint64Value() }
        switch row[index] {
        case .integer(let value): return try JSONValue.int(value).uint64Value()
        case .real(let value): return try JSONValue.double(value).uint64Value()
        default: throw mismatch("an integer")
        }
    }

    mutating func decodeDouble() throws -> Double {
        guard case .column(let index) = node else { return try jsonNumber().doubleValue() }
        switch row[index] {
        case .real(let value): return value
        case .integer(let value): return Double(value)
        default: throw mismatch("a number")
        }
    }

    mutating func decodeDecimal() throws -> Decimal {
        // Columns hold decimals as text; so did JSON text before ModelKit wrote them as numbers.
        if case .column(let index) = node, case .text(let text) = row[index] {
            guard let decimal = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else {
                throw mismatch("a decimal number")
            }
            return decimal
        }
        if case .json(.string(let text)) = node {
            guard let decimal = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else {
                throw mismatch("a decimal number")
            }
            return decimal
        }
        return try jsonNumber().decimalValue()
    }

    /// The number at the current node: a number column, or a number inside JSON text.
    func jsonNumber(_ expected: String = "a number") throws -> JSONValue {
        guard let value = try json(of: node) else { throw mismatch(expected) }
        return value
    }

    mutating func decodeDate() throws -> Date {
        switch node {
        case .column(let index):
            switch row[index] {
            case .text(let text): if let date = StoreDates.parse(text) { return date }
            case .integer(let seconds): return Date(timeIntervalSince1970: TimeInterval(seconds))
            case .real(let seconds): return Date(timeIntervalSince1970: seconds)
            default: break
            }
        case .json(let value):
            var reader = jsonReader(value)
            return try reader.decodeDate()
        case .row: break
        }
        throw mismatch("an ISO 8601 date")
    }

    mutating func decodeData() throws -> Data {
        switch node {
        case .column(let index): if case .blob(let data) = row[index] { return data }
        case .json(let value):
            var reader = jsonReader(value)
            return try reader.decodeData()
        case .row: break
        }
        throw mismatch("bytes")
    }

    mutating func decodeURL() throws -> URL {
        guard let url = URL(string: try decodeString()) else { throw mismatch("a URL") }
        return url
    }

    mutating func decodeUUID() throws -> UUID {
        guard let uuid = UUID(uuidString: try decodeString()) else { throw mismatch("a UUID") }
        return uuid
    }

    mutating func decodeJSONValue() throws -> JSONValue {
        guard let value = try json(of: node) else { throw mismatch("JSON text") }
        return value
    }

    /// `Codable` values are stored as the library's own JSON, dates as ISO 8601 text.
    mutating func decodeCodable<T: Decodable>(_ type: T.Type) throws -> T {
        var reader = jsonReader(try decodeJSONValue())
        return try reader.decodeCodable(T.self)
    }
}
