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
// @usableFromInline: the reader StoreModelDecoder's inlinable closures run the model's decoder over, in the
// caller's module, and whose inlinable members below read the row column by column.
@usableFromInline
struct StoreRowReader: ModelTreeReader {
    /// Where the reader is.
    // @usableFromInline: the type of `node`, which the inlinable decodeFields, readMembers and scalar reads set and
    // match.
    @usableFromInline
    enum Position {
        /// At the whole row, before the model's fields.
        case row
        /// At a column's value.
        case column(Int)
        /// At a value inside a column's JSON text.
        case json(JSONValue)
    }

    // @usableFromInline: the ModelReader witness ModelKitCore's inlinable decodeFieldsByKeyTree reads per object;
    // specialised for this reader in the caller's module, the call is direct.
    @usableFromInline var mapping: ModelSchema.Mapping { .propertyKeys }
    /// The default options: a store reads plain values, and nothing in a row needs more.
    // @usableFromInline: the ModelReader witness ModelKitCore's inlinable enterNested() reads per nested value,
    // directly once specialised (see `mapping`).
    @usableFromInline var options: MappingOptions { MappingOptions() }
    /// The options' switches, read per field without copying the options.
    // @usableFromInline: read by the inlinable decodeFields(of:into:) per row, and as a witness by ModelKitCore's
    // inlinable decodeLeaf per field.
    @usableFromInline let flags: MappingFlags
    // @usableFromInline: the ModelReader witness ModelKitCore's inlinable decodeLeaf counts per field, directly once
    // specialised (see `mapping`).
    @usableFromInline var collectedProblems: [ModelError] = []
    /// The row's columns: values in memory, or an SQLite statement's current row.
    // @usableFromInline: read per column by the inlinable decodeFields, readMembers and scalar reads.
    @usableFromInline var columns: StoreRowColumns
    /// The table of the row; nil when reading a lone column's value.
    // @usableFromInline: read per row by the inlinable decodeFields(of:into:) and readMembers.
    @usableFromInline let table: StoreTable?
    // @usableFromInline: set and matched per column by the inlinable decodeFields, readMembers and scalar reads.
    @usableFromInline var node = Position.row
    // @usableFromInline: the ModelTreeReader witness ModelKitCore's inlinable enterNested() and mark() read, directly
    // once specialised (see `mapping`).
    @usableFromInline var depth = 0
    /// Where references that are not live are loaded from.
    let loader: (any ModelLoading)?
    /// The context references resolve through: the caller's, or one made for this read.
    // @usableFromInline: no inlinable body on this reader's path reads it (decodeModel(_:), out of line, does; the
    // inlinable default decodeModel of ModelKitCore that reads the witness is replaced here): a candidate for removal.
    @usableFromInline var context: ModelContext?
    /// The context the reader was made with (a row's references made `context` when it was nil).
    let initialContext: ModelContext?
    /// The live instance a reference last resolved to, with its column and stored value, and the
    /// context's identity revision then: rows read together often name the same one (the
    /// comments of a post, filled from one query grouped by post), which is then found again
    /// without the identity map.
    var lastReference: (column: Int, stored: StoreValue, object: AnyObject, revision: Int)?
    /// Whether a reference to a model whose load is under way reads as nil for now, to be set
    /// when that load ends (``RowLoader``'s loads of referenced rows, where cycles close).
    // @usableFromInline: checked by the inlinable decodeNil() per optional column.
    @usableFromInline let defersCyclicReferences: Bool

    init(row: [StoreValue], table: StoreTable?, context: ModelContext?, loader: (any ModelLoading)?) {
        self.init(columns: .values(row), table: table, context: context, loader: loader)
    }

    init(
        columns: StoreRowColumns, table: StoreTable?, context: ModelContext?, loader: (any ModelLoading)?,
        defersCyclicReferences: Bool = false
    ) {
        self.columns = columns
        self.table = table
        self.context = context
        self.initialContext = context
        self.loader = loader
        self.defersCyclicReferences = defersCyclicReferences
        var flags = Self.defaultFlags
        flags.hasContext = context != nil
        self.flags = flags
    }

    /// Moves the reader to another row of its table, as a reader made for that row with the
    /// context it was made with would start.
    // @usableFromInline: called per row by the `decodeRows` closure StoreModelDecoder's inlinable init() makes.
    @usableFromInline
    mutating func start(_ columns: StoreRowColumns) {
        self.columns = columns
        node = .row
        depth = 0
        if context !== initialContext {
            context = initialContext
            lastReference = nil
        }
        if !collectedProblems.isEmpty { collectedProblems = [] }
    }

    /// The error to throw for `error`, which reading the row threw: a ``StoreError`` naming the
    /// table and the row's identifier.
    // @usableFromInline: called by the same closure when a row fails; errors only, so out of line.
    @usableFromInline
    func rowError(_ error: any Error) -> any Error {
        guard let table else { return error }
        return StoreError.wrapping(error, table: table.name, identifier: columns[table.identifierColumn].quotedDescription)
    }

    /// The switches of the default options.
    private static let defaultFlags = MappingFlags(MappingOptions())

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
            switch columns[index] {
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

    // @usableFromInline: the ModelTreeReader witness ModelKitCore's inlinable walk asks of nested values (peekShape()),
    // directly once specialised (see `mapping`).
    @usableFromInline
    func shape(of node: Position) throws -> ModelValueShape {
        switch node {
        case .row: return .object
        case .column(let index):
            if columns.isNull(index) { return .null }
            if !columns.isText(index) { return .scalar }
        case .json: break
        }
        guard let value = try json(of: node) else { return .scalar }
        return JSONValueReader(value: value).shape(of: value)
    }

    // @usableFromInline: the ModelTreeReader witness ModelKitCore's inlinable decodeArray and readIndexedElements call
    // per array, directly once specialised (see `mapping`).
    @usableFromInline
    func elements(of node: Position) throws -> [Position]? {
        guard case .array(let elements)? = try json(of: node) else { return nil }
        if defersCyclicReferences, case .column(let index) = node, defersReferences(in: elements, at: index) { return [] }
        return elements.map(Position.json)
    }

    // @usableFromInline: the ModelTreeReader witness ModelKitCore's inlinable decodeDictionary and readTreeMembers
    // (readMembers' path inside JSON text) call per object, directly once specialised (see `mapping`).
    @usableFromInline
    func forEachMember(of node: Position, _ body: (String, Position) throws -> Void) throws -> Bool {
        guard case .object(let members)? = try json(of: node) else { return false }
        for member in members { try body(member.key, .json(member.value)) }
        return true
    }

    // @usableFromInline: the ModelTreeReader witness ModelKitCore's inlinable mismatch(_:) calls; errors only, so out
    // of line.
    @usableFromInline
    func describe(_ node: Position) -> String {
        switch node {
        case .row: return "a row"
        case .column(let index):
            // JSON text holding an array or an object is described as what it holds.
            let value = columns[index]
            if case .text(let text) = value, let json = try? JSONValue(parsing: text), json.isContainer {
                return ModelError.describe(json)
            }
            return value.quotedDescription
        case .json(let value): return ModelError.describe(value)
        }
    }

    /// Reads the row into `fields`: each column the table reads, as its property's field, through
    /// ``ModelReader/decodeLeaf(_:of:into:priorities:)`` (the null policy, the model and property
    /// named in errors) with the column's name in an error's path, as the key-tree walk reads a
    /// plain property (a `NULL` column of a property that cannot hold nil is missing, so its
    /// default applies). Inside JSON text, or for a schema the table was not made from, the walk.
    ///
    /// Inlinable, and without the walk's closures, so that a model's decoder specialized in the
    /// caller's module reads each column straight into its field.
    @inlinable
    mutating func decodeFields<F: ModelFieldDecoder>(of schema: ModelSchema, into fields: inout F) throws {
        guard case .row = node, let table, table.schema === schema, table.readsPlainColumns, flags.readsPlainFieldsDirectly
        else { return try decodeFieldsByKeyTree(of: schema, into: &fields) }
        var priorities = FieldPriorities(schema: schema, keys: schema.propertyReadingKeys)
        defer { node = .row }
        for column in table.readColumns where column.isOptional || !columns.isNull(column.index) {
            node = .column(column.index)
            do {
                _ = try decodeLeaf(column.leaf, of: schema, into: &fields, priorities: &priorities)
            } catch let error as ModelError {
                throw error.prefixed(by: .key(table.columnName(column.index)))
            }
        }
    }

    /// At the row: each column, as the member its property names (a `NULL` column of a property
    /// that cannot hold nil is missing, so its default applies). Inside JSON text: the members
    /// `keys` names.
    ///
    /// Inlinable, so that the caller's specialization calls the walk's member function directly
    /// for each column instead of through a closure.
    @inlinable
    mutating func readMembers(
        of keys: ModelKeyNode, expected: @autoclosure () -> String, reportingUnknownKeys: Bool,
        _ member: (inout StoreRowReader, Int) throws -> Void, unknown: (inout StoreRowReader, String) throws -> Void
    ) throws {
        guard case .row = node, let table else {
            return try readTreeMembers(
                of: keys, expected: expected(), reportingUnknownKeys: reportingUnknownKeys, member, unknown: unknown)
        }
        defer { node = .row }
        for column in table.readColumns where column.isOptional || !columns.isNull(column.index) {
            node = .column(column.index)
            try member(&self, column.edge)
        }
    }

    // MARK: Scalars

    /// A reader of the JSON value at the current node, for values inside a column's JSON text.
    // @usableFromInline: no inlinable body calls it (only readJSON and decodeCodable, out of line, do): a candidate
    // for removal.
    @usableFromInline
    func jsonReader(_ value: JSONValue) -> JSONValueReader {
        JSONValueReader(value: value, mapping: .propertyKeys, options: options, context: flags.hasContext ? context : nil)
    }

    /// What `read` reads from the JSON value the reader is at (a value inside a column's JSON
    /// text); at a column or the row, the mismatch error for `expected`.
    func readJSON<T>(_ expected: String, _ read: (inout JSONValueReader) throws -> T) throws -> T {
        guard case .json(let value) = node else { throw mismatch(expected) }
        var reader = jsonReader(value)
        return try read(&reader)
    }

    /// `decodeNil()` away from a column, or in a reader that defers references: a reference to a
    /// model whose load is under way reads as nil (``defersReference(at:)``).
    // @usableFromInline: the out-of-line half of the inlinable decodeNil().
    @usableFromInline
    func decodeNilSlowly() -> Bool {
        guard case .column(let index) = node else { return decodeNilAt(node) }
        return columns.isNull(index) || (defersCyclicReferences && defersReference(at: index))
    }

    // @usableFromInline: called by the inlinable decodeNil() away from a column (the row, JSON text).
    @usableFromInline
    func decodeNilAt(_ node: Position) -> Bool {
        switch node {
        case .row: return false
        case .column(let index): return columns.isNull(index)
        case .json(let value): return value.isNull
        }
    }

    // @usableFromInline: the ModelReader witness ModelKitCore's inlinable decodeInteger calls per unsigned value,
    // directly once specialised (see `mapping`); rare in rows (columns hold signed integers), so out of line.
    @usableFromInline
    mutating func decodeUInt64() throws -> UInt64 {
        guard case .column(let index) = node else { return try jsonNumber("an integer").uint64Value() }
        switch columns[index] {
        case .integer(let value): return try JSONValue.int(value).uint64Value()
        case .real(let value): return try JSONValue.double(value).uint64Value()
        default: throw mismatch("an integer")
        }
    }

    // @usableFromInline: the ModelReader witness the inlinable Decimal.read(from:) calls per value, directly once
    // specialised (see `mapping`); parsed from text, so out of line.
    @usableFromInline
    mutating func decodeDecimal() throws -> Decimal {
        // Columns hold decimals as text; so did JSON text before ModelKit wrote them as numbers.
        if case .column(let index) = node, let text = columns.text(index) {
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
    // @usableFromInline: no inlinable body calls it (only the out-of-line number reads do): a candidate for removal.
    @usableFromInline
    func jsonNumber(_ expected: String = "a number") throws -> JSONValue {
        guard let value = try json(of: node) else { throw mismatch(expected) }
        return value
    }

    // @usableFromInline: the ModelReader witness the inlinable Data.read(from:) calls per value, directly once
    // specialised (see `mapping`).
    @usableFromInline
    mutating func decodeData() throws -> Data {
        if case .column(let index) = node, let data = columns.blob(index) { return data }
        return try readJSON("bytes") { try $0.decodeData() }
    }

    // @usableFromInline: the ModelReader witness the inlinable URL.read(from:) calls per value, directly once
    // specialised (see `mapping`).
    @usableFromInline
    mutating func decodeURL() throws -> URL {
        guard let url = URL(string: try decodeString()) else { throw mismatch("a URL") }
        return url
    }

    // @usableFromInline: the ModelReader witness the inlinable UUID.read(from:) calls per value, directly once
    // specialised (see `mapping`).
    @usableFromInline
    mutating func decodeUUID() throws -> UUID {
        guard let uuid = UUID(uuidString: try decodeString()) else { throw mismatch("a UUID") }
        return uuid
    }

    // @usableFromInline: the ModelReader witness the inlinable JSONValue.read(from:) calls per value, directly once
    // specialised (see `mapping`).
    @usableFromInline
    mutating func decodeJSONValue() throws -> JSONValue {
        guard let value = try json(of: node) else { throw mismatch("JSON text") }
        return value
    }

    /// `Codable` values are stored as the library's own JSON, dates as ISO 8601 text.
    // @usableFromInline: the ModelReader witness ModelKitCore's inlinable decodeValue calls per Codable value, directly
    // once specialised (see `mapping`).
    @usableFromInline
    mutating func decodeCodable<T: Decodable>(_ type: T.Type) throws -> T {
        var reader = jsonReader(try decodeJSONValue())
        return try reader.decodeCodable(T.self)
    }
}
