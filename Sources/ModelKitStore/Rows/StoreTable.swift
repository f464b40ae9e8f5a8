import Foundation
import ModelKitCore

/// How one model type lies in a store: a table named after the model, a column per stored
/// (non-transient) property of its schema in declaration order, and the model version.
///
/// Built once per type from ``ModelSchema/properties`` and shared by every store. The SQL the
/// SQLite store runs for the type is built here once too.
// @usableFromInline: the type of StoreRowReader's `table`, which the reader's inlinable decodeFields(of:into:) and
// readMembers read per row.
@usableFromInline
package final class StoreTable: Sendable {
    /// One column: a stored property.
    package struct Column: Sendable {
        /// The property's name, which is the column's name.
        package let name: String
        /// The property's index in the schema.
        package let field: Int
        /// The SQLite type: `INTEGER`, `REAL`, `TEXT` or `BLOB`.
        package let sqlType: String
        /// The property's value kind, for engines with richer column types than SQLite's.
        package let kind: ModelValueKind
        /// Whether the property is optional (nil is stored as `NULL`).
        package let isOptional: Bool
        /// The property's edge in the schema's property-key reading tree (its position in
        /// `edges`); nil for read-only properties, which are never read back.
        package let readingEdge: Int?
    }

    /// A column as a row reader walks it: plain values, so the walk copies no names.
    // @usableFromInline: the element of `readColumns`, which the reader's inlinable decodeFields and readMembers loop
    // over per row.
    @usableFromInline
    struct ReadColumn: Sendable {
        /// The column's index in ``columns``.
        // @usableFromInline: this and the three fields below are read per column by those inlinable loops (`edge` by
        // readMembers, `leaf` by decodeFields).
        @usableFromInline let index: Int
        /// The property's edge in the schema's property-key reading tree.
        @usableFromInline let edge: Int
        /// Whether the property is optional (a `NULL` column is then nil, not missing).
        @usableFromInline let isOptional: Bool
        /// The property's field in the reading tree (meaningful when ``readsPlainColumns``).
        @usableFromInline let leaf: ModelKeyLeaf
    }

    /// The column holding each row's model version.
    package static let versionColumn = "_version"

    /// The table's name: the model's name.
    package let name: String
    // @usableFromInline: compared by the reader's inlinable decodeFields(of:into:) with the schema it reads.
    @usableFromInline package let schema: ModelSchema
    package let columns: [Column]
    /// The columns a row reader reads, in order: the stored properties that are not read-only.
    // @usableFromInline: looped over per row by the reader's inlinable decodeFields and readMembers.
    @usableFromInline let readColumns: [ReadColumn]
    /// Whether every column read is a plain property (one key, one field, nothing below it), so
    /// a row reader reads the columns as fields directly (the property-key tree of a schema made
    /// by `@Model` always is).
    // @usableFromInline: checked per row by the reader's inlinable decodeFields(of:into:).
    @usableFromInline let readsPlainColumns: Bool
    /// Per column: the identified class model it refers to, when a load may leave it nil (or
    /// empty) for a while and set it once the model it refers to is loaded (an optional or weak,
    /// or an array, settable property of a class), which is how a cycle of references loads; nil
    /// for other columns.
    let deferrableReferences: [AnyModelType?]
    /// The columns holding a to-one reference to an identified class model, and that model's
    /// type: what a read of many rows loads in one query per referenced table (``RowLoader``).
    let toOneReferences: [(column: Int, target: AnyModelType)]
    /// The to-many relationships kept in their inverse's column (``StoreToMany``), which a read
    /// fills after the rows and a save stores as `NULL`.
    package let toManyThroughInverse: [StoreToMany]
    /// The many-to-many relationships kept in a join table (``StoreManyToMany``), which a read
    /// fills after the rows and a save stores as `NULL` in this table and as rows of the join table.
    package let manyToMany: [StoreManyToMany]
    /// The relationships of both kinds (``toManyThroughInverse``, then ``manyToMany``).
    let keptElsewhere: [any StoreToManyKeptElsewhere]
    /// Their names: what a read fills (or leaves for first access).
    let relationshipsKeptElsewhere: Set<String>
    /// For a join table, the model types whose identifiers its columns 1 and 2 hold.
    let joined: (first: AnyModelType, second: AnyModelType)?
    /// The index in ``columns`` of the identifier.
    package let identifierColumn: Int
    /// Whether the model is a class (identity goes through a context).
    package let isClass: Bool
    /// The identifier property's type, which tells how a stored identifier is keyed in a
    /// context (``IdentityKey/init(stored:identifierType:)``).
    let identifierType: Any.Type
    /// Whether the model migrates older rows (``ModelMigrating``).
    let migrates: Bool
    /// The column of each schema property, -1 for transient ones.
    let columnByField: [Int]
    /// Encodes an identifier of the identifier property's own type, without `AnyHashable`; nil
    /// for a value of another type.
    private let identifierEncoder: any IdentifierEncoding

    package let quotedName: String
    /// Each column's definition in a `CREATE TABLE`: its name, type, and key.
    private let columnDefinitions: [String]
    let upsertSQL: String
    let selectSQL: String
    let selectByIdentifierSQL: String
    let selectRowByIdentifierSQL: String
    let deleteByIdentifierSQL: String
    /// The model's indexes (`@Model(indexes:unique:)`), and one on each to-one reference's
    /// column that no declared index starts with.
    package let indexes: [ModelIndex]
    /// `CREATE [UNIQUE] INDEX IF NOT EXISTS` for each of ``indexes``.
    let createIndexSQL: [String]
    /// The model's unique constraints, each with its columns' indexes in ``columns``.
    package let uniqueIndexes: [(index: ModelIndex, columns: [Int])]

    convenience init<M: Model>(_ type: M.Type) throws {
        try self.init(schema: M.modelSchema, isClass: isClassType(M.self), migrates: M.self is any ModelMigrating.Type)
    }

    /// The table of a model whose schema is `schema`, or of a join table (``StoreManyToMany``),
    /// whose schema no Swift type declares and whose two columns hold identifiers of `joined`.
    init(schema: ModelSchema, isClass: Bool, migrates: Bool, joined: (first: AnyModelType, second: AnyModelType)? = nil) throws {
        self.joined = joined
        guard let identifierIndex = schema.identifierIndex else { throw StoreError.notIdentified(schema) }
        let readingKeys = schema.propertyReadingKeys
        var columns: [Column] = []
        var columnByField = Array(repeating: -1, count: schema.properties.count)
        for (field, property) in schema.properties.enumerated() where !property.isTransient {
            columnByField[field] = columns.count
            columns.append(
                Column(
                    name: property.name, field: field, sqlType: property.valueKind.sqliteColumnType,
                    kind: property.valueKind,
                    isOptional: property.isOptional,
                    readingEdge: readingKeys.keys.firstIndex(of: property.name)))
        }
        self.name = schema.storeTableName
        self.schema = schema
        self.columns = columns
        self.readColumns = columns.indices.compactMap { index in
            columns[index].readingEdge.map { edge in
                ReadColumn(
                    index: index, edge: edge, isOptional: columns[index].isOptional,
                    leaf: readingKeys.plainLeaves[edge] ?? ModelKeyLeaf(field: columns[index].field, priority: 0))
            }
        }
        self.readsPlainColumns = columns.allSatisfy { column in
            column.readingEdge.map { readingKeys.plainLeaves[$0] != nil } ?? true
        }
        self.identifierColumn = columnByField[identifierIndex]
        self.isClass = isClass
        self.identifierType = schema.properties[identifierIndex].valueType
        self.deferrableReferences = columns.map { [isClass] column in
            let property = schema.properties[column.field]
            // A to-one can wait as nil when it may be nil; a to-many can always wait as empty.
            guard isClass, property.isMutable, let (type, isToMany) = column.kind.referencedIdentifiedClass,
                isToMany || property.isOptional || property.isWeak
            else { return nil }
            return AnyModelType(type)
        }
        self.toOneReferences = columns.indices.compactMap { index in
            guard let (type, isToMany) = columns[index].kind.referencedIdentifiedClass, !isToMany else { return nil }
            return (index, AnyModelType(type))
        }
        self.toManyThroughInverse = isClass ? columns.indices.compactMap { index in
            StoreToMany(column: index, property: schema.properties[columns[index].field], in: schema)
        } : []
        self.manyToMany = isClass ? columns.indices.compactMap { index in
            StoreManyToMany(column: index, property: schema.properties[columns[index].field], in: schema)
        } : []
        self.keptElsewhere = toManyThroughInverse + manyToMany
        self.relationshipsKeptElsewhere = Set(keptElsewhere.map(\.property.name))
        self.migrates = migrates
        self.columnByField = columnByField
        let identifierType = schema.properties[identifierIndex].valueType
        if let valueType = identifierType as? any ModelValue.Type {
            self.identifierEncoder = Self.encoder(valueType)
        } else {
            self.identifierEncoder = NoIdentifierEncoder()
        }

        let table = quoted(name)
        let identifierColumn = columnByField[identifierIndex]
        let identifier = quoted(columns[identifierColumn].name)
        let names = columns.map { quoted($0.name) } + [quoted(Self.versionColumn)]
        let definitions = columns.enumerated().map { index, column in
            "\(quoted(column.name)) \(column.sqlType)" + (index == identifierColumn ? " PRIMARY KEY NOT NULL" : "")
        }
        self.columnDefinitions = definitions
        let updates = names.filter { $0 != identifier }.map { "\($0) = excluded.\($0)" }
        self.quotedName = table
        self.upsertSQL =
            "INSERT INTO \(table) (\(names.joined(separator: ", "))) VALUES (\(names.map { _ in "?" }.joined(separator: ", ")))"
            + " ON CONFLICT(\(identifier)) DO UPDATE SET \(updates.joined(separator: ", "))"
        self.selectSQL = "SELECT \(names.joined(separator: ", ")) FROM \(table)"
        self.selectByIdentifierSQL = "\(selectSQL) WHERE \(identifier) = ?"
        self.selectRowByIdentifierSQL = "SELECT * FROM \(table) WHERE \(identifier) = ?"
        self.deleteByIdentifierSQL = "DELETE FROM \(table) WHERE \(identifier) = ?"
        // A to-one's column is indexed whether declared or not: the rows that refer to a model
        // are found through it (its to-many, a delete's rules, the database's foreign key).
        let references = toOneReferences.compactMap { reference -> ModelIndex? in
            let name = columns[reference.column].name
            return schema.indexes.contains { $0.properties.first == name } ? nil : ModelIndex([name])
        }
        self.indexes = schema.indexes + references
        self.createIndexSQL = Self.createIndexSQL(indexes, table: name, on: table, quote: quoted)
        self.uniqueIndexes = schema.indexes.filter(\.isUnique).map { index in
            (index, index.properties.compactMap { name in columns.firstIndex { $0.name == name } })
        }
    }

    /// `CREATE TABLE IF NOT EXISTS` for the table (SQLite's types), each column's definition
    /// followed by what `clause` adds to it (a foreign key's `REFERENCES`).
    func createSQL(adding clause: (Column) -> String) -> String {
        let definitions = zip(columns, columnDefinitions).map { column, definition in definition + clause(column) }
        return "CREATE TABLE IF NOT EXISTS \(quotedName) ("
            + (definitions + ["\(quoted(Self.versionColumn)) INTEGER NOT NULL DEFAULT 0"]).joined(separator: ", ") + ")"
    }

    /// `CREATE [UNIQUE] INDEX IF NOT EXISTS` for each index of the model whose table is named
    /// `table`, spelled `tableSQL` in the statement, with names quoted by the engine's `quote`.
    package static func createIndexSQL(
        _ indexes: [ModelIndex], table: String, on tableSQL: String, quote: (String) -> String
    ) -> [String] {
        indexes.map { index in
            "CREATE \(index.isUnique ? "UNIQUE " : "")INDEX IF NOT EXISTS \(quote(index.name(in: table))) "
                + "ON \(tableSQL) (\(index.properties.map(quote).joined(separator: ", ")))"
        }
    }

    /// The table of a model type, built once.
    ///
    /// A table belongs to one model type: a second type of the same name (from another module, or
    /// nested in another type) is refused until one of them names its own table
    /// (`@Model(table:)`), so their rows never mix.
    package static func of<M: Model>(_ type: M.Type) throws -> StoreTable {
        let key = ObjectIdentifier(M.self)
        if let table = cache.withLock({ $0.tables[key] }) { return table }
        let table = try StoreTable(M.self)
        let owner = String(reflecting: M.self)
        return try cache.withLock { cache in
            if let existing = cache.tables[key] { return existing }
            if let other = cache.owners[table.name], other != owner {
                throw StoreError(
                    .tableClash, table: table.name,
                    reason: "the table '\(table.name)' already holds '\(other)', and '\(owner)' has the same name: "
                        + "give one of them a table of its own with '@Model(table:)'")
            }
            cache.owners[table.name] = owner
            cache.tables[key] = table
            return table
        }
    }

    /// Every table built so far in this process, in no particular order.
    package static var known: [StoreTable] {
        cache.withLock { Array($0.tables.values) }
    }

    /// The tables built so far, by model type, and the type each table name belongs to.
    private static let cache = Locked<(tables: [ObjectIdentifier: StoreTable], owners: [String: String])>(([:], [:]))

    /// The rows whose identifier is one of `identifiers` (at most as many as a query binds), in
    /// no particular order.
    func rows(identifiedBy identifiers: [StoreValue]) -> ResolvedQuery {
        ResolvedQuery(
            table: self, condition: .isIn(column: columns[identifierColumn].name, identifiers), orderings: [], limit: nil, offset: 0)
    }

    /// The name of column `index`, for an error's path.
    // @usableFromInline: called by the reader's inlinable decodeFields(of:into:) when a column fails; errors only, so
    // out of line.
    @usableFromInline
    func columnName(_ index: Int) -> String {
        columns[index].name
    }

    /// The column named `name`, for queries.
    package func column(named name: String) -> Int? {
        schema.index(ofProperty: name).map { columnByField[$0] }.flatMap { $0 >= 0 ? $0 : nil }
    }

    private static func encoder<ID: ModelValue>(_ type: ID.Type) -> any IdentifierEncoding {
        TypedIdentifierEncoder<ID>()
    }

    /// The stored form of an identifier, written as the identifier property writes it.
    package func identifierValue<ID: Hashable>(_ identifier: ID) throws -> StoreValue {
        // The usual identifiers without a trip through `Any`: the row writer writes any `Int` as
        // an integer and any `String` as text, whatever the property's type.
        if ID.self == Int.self { return .integer(Int64(Self.reinterpret(identifier, as: Int.self))) }
        if ID.self == String.self { return .text(Self.reinterpret(identifier, as: String.self)) }
        if let value = try? identifierEncoder.encode(identifier) { return value }
        return try identifierValue(AnyHashable(identifier))
    }

    /// `value` as `T`, which is its own type (checked by the caller).
    private static func reinterpret<ID, T>(_ value: ID, as type: T.Type) -> T {
        // Unsafe: `ID` and `T` are the same type (the caller compared them), so the rebinding changes nothing and
        // the value is copied out as it is, with no cast through `Any`.
        withUnsafePointer(to: value) { $0.withMemoryRebound(to: T.self, capacity: 1) { $0.pointee } }
    }

    /// The stored form of a type-erased identifier.
    package func identifierValue(_ identifier: AnyHashable) throws -> StoreValue {
        do {
            if let value = try identifierEncoder.encode(identifier.base) { return value }
            guard let value = try StoreValue(encodingAny: identifier.base) else {
                throw ModelError(.invalidValue, expected: "an identifier the store can hold", found: "\(identifier)")
            }
            return value
        } catch let error as ModelError {
            throw StoreError(.unencodableValue, table: name, identifier: "\(identifier)", reason: error.description)
        }
    }
}

// Hashable by identity: one table per model type (``StoreTable/of(_:)``), which a condition
// through a reference names.
extension StoreTable: Hashable {
    // @usableFromInline: witnesses of a conformance of this @usableFromInline class must be; no inlinable code
    // calls them.
    @usableFromInline package static func == (lhs: StoreTable, rhs: StoreTable) -> Bool { lhs === rhs }
    @usableFromInline package func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

extension IdentityKey {
    /// The key a context gives a stored identifier of a model whose identifier property is of
    /// `identifierType`, made from the stored value: for integers and strings (most
    /// identifiers), with no `AnyHashable` and none of the dynamic casts it costs; nil for
    /// other types, which go through `AnyHashable`.
    init?(stored value: StoreValue, identifierType: Any.Type) {
        switch value {
        case .integer(let number):
            guard identifierType == Int.self || identifierType == Int64.self || identifierType == Int32.self else { return nil }
            self = .integer(number)
        case .text(let text):
            guard identifierType == String.self else { return nil }
            self = .string(text)
        default: return nil
        }
    }
}

/// Encodes identifiers of one type as the store writes them.
protocol IdentifierEncoding: Sendable {
    /// The stored form of `value`, or nil when it is not of the identifier's type.
    func encode(_ value: Any) throws -> StoreValue?
}

/// The encoder for identifiers of type `ID`: a cast to the concrete type, then the row writer.
final class TypedIdentifierEncoder<ID: ModelValue>: IdentifierEncoding {
    func encode(_ value: Any) throws -> StoreValue? {
        guard let identifier = value as? ID else { return nil }
        return try StoreValue(encoding: identifier)
    }
}

/// For identifier types that are not ``ModelValue``s: always the type-erased path.
struct NoIdentifierEncoder: IdentifierEncoding {
    func encode(_ value: Any) throws -> StoreValue? { nil }
}

/// `"name"` with embedded quotes doubled: an SQL identifier.
func quoted(_ name: String) -> String {
    "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
}

extension ModelSchema {
    /// The table stores keep the model in: `@Model(table:)`, or the model's name.
    package var storeTableName: String {
        tableName ?? modelName
    }
}
