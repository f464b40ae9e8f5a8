import Foundation
import ModelKitCore

/// What a migration step runs on: the changes it can make to the store's tables and rows, and
/// ``transaction``, the migration's write transaction, to fetch and save models.
///
/// Every change is part of the one transaction that runs all the steps ``ModelStore/migrate(_:)``
/// has to run: a step that throws leaves the store as it was before the first of them.
///
/// ```swift
/// migrations.append("retype 'age'") { step in
///     try await step.retypeColumn("age", in: Person.self)   // text "36" becomes the integer 36
/// }
/// ```
public final class StoreMigrationStep {
    /// The migration's write transaction: fetch models (older rows go through their read-time
    /// hooks) and save them (at the model's current version).
    public let transaction: StoreTransaction
    let connection: any MigratingConnection

    init(connection: any MigratingConnection, transaction: StoreTransaction) {
        self.connection = connection
        self.transaction = transaction
    }

    // MARK: Columns

    /// Renames a column of the model's table. When the table has a column of the new name
    /// already (the model's new version added it on first use), that column keeps its values
    /// and takes the old column's where it holds `NULL`, and the old column is dropped.
    public func renameColumn<M: Model>(_ name: String, to newName: String, in type: M.Type) async throws {
        try await renameColumn(name, to: newName, inTable: M.modelSchema.storeTableName)
    }

    /// Renames a column of a table named `table` (see ``renameColumn(_:to:in:)``).
    public func renameColumn(_ name: String, to newName: String, inTable table: String) async throws {
        try await requireColumn(name, in: table)
        try await connection.alter(.renameColumn(table: table, from: name, to: newName))
    }

    /// Drops a column of the model's table, and the indexes that cover it.
    public func dropColumn<M: Model>(_ name: String, in type: M.Type) async throws {
        try await dropColumn(name, inTable: M.modelSchema.storeTableName)
    }

    /// Drops a column of a table named `table`, and the indexes that cover it.
    public func dropColumn(_ name: String, inTable table: String) async throws {
        try await requireColumn(name, in: table)
        try await connection.alter(.dropColumn(table: table, column: name))
    }

    /// Gives a column the type of the model's property of the same name, converting every value
    /// that converts without loss (the text `"36"` to the integer 36, the integer 36 to the text
    /// `"36"`, `2.0` to 2); a value that does not (`"thirty-six"` to an integer, `2.5` to an
    /// integer, a number to a date) fails the migration with an error naming the row and the value:
    /// convert such values with ``updateRows(of:_:)`` first. The column loses its indexes, which the
    /// model's declared ones replace on next use.
    public func retypeColumn<M: Model>(_ name: String, in type: M.Type) async throws {
        let table = try StoreTable.of(M.self)
        guard let column = table.columns.first(where: { $0.name == name }) else {
            throw StoreError(.migrationFailed, table: table.name, reason: "the model has no stored property '\(name)' to take the type of")
        }
        guard column.name != table.columns[table.identifierColumn].name else {
            throw StoreError(.migrationFailed, table: table.name, reason: "the identifier column '\(name)' cannot be retyped")
        }
        try await requireColumn(name, in: table.name)
        let identifier = table.columns[table.identifierColumn].name
        let temporary = "_modelkit_retyped_" + name
        try await connection.alter(.addColumn(table: table.name, column: temporary, kind: column.kind))
        for row in try await connection.allRows(ofTable: table.name, identifierColumn: identifier) {
            let value = row[name] ?? .null
            guard value != .null else { continue }
            let key = row[identifier] ?? .null
            let converted: StoreValue
            do {
                converted = try value.converted(to: column.kind)
            } catch {
                throw StoreError(
                    .migrationFailed, table: table.name, identifier: key.quotedDescription,
                    reason: "'\(name)' holds \(value.sqlLiteral), which is not \(error)", underlying: error)
            }
            try await connection.update(table: table.name, identifierColumn: identifier, identifier: key, values: [temporary: converted])
        }
        try await connection.alter(.dropColumn(table: table.name, column: name))
        try await connection.alter(.renameColumn(table: table.name, from: temporary, to: name))
    }

    // MARK: Indexes and tables

    /// Creates an index on the model's table (a unique one refuses rows that clash already, and
    /// fails the migration), named as a declared one is: `@Model(indexes:unique:)` finds it there.
    public func addIndex<M: Model>(on properties: [String], unique: Bool = false, in type: M.Type) async throws {
        let table = try StoreTable.of(M.self)
        try await connection.prepareForMigration(table)
        for property in properties { try await requireColumn(property, in: table.name) }
        try await connection.alter(.addIndex(table: table.name, ModelIndex(properties, unique: unique)))
    }

    /// Drops the index on those properties of the model's table, if there is one. An index the
    /// model still declares is made again on next use.
    public func dropIndex<M: Model>(on properties: [String], in type: M.Type) async throws {
        try await connection.alter(.dropIndex(table: M.modelSchema.storeTableName, ModelIndex(properties)))
    }

    /// Renames a table: `renameTable("Member", to: "Person")` keeps the rows of a model renamed
    /// from `Member` to `Person`. Its indexes keep their names; the model's declared ones are
    /// made on next use.
    public func renameTable(_ name: String, to newName: String) async throws {
        guard try await connection.columnNames(ofTable: name) != nil else {
            throw StoreError(.migrationFailed, table: name, reason: "there is no such table to rename")
        }
        if try await connection.columnNames(ofTable: newName) != nil {
            throw StoreError(.migrationFailed, table: name, reason: "cannot take the name '\(newName)': a table has it")
        }
        try await connection.alter(.renameTable(from: name, to: newName))
    }

    // MARK: Rows

    /// Rewrites the rows of the model's table in Swift: `body` sees each row's every column, old
    /// ones included, and sets the columns it changes. The table is brought up to the model
    /// first (its new columns added), and a row `body` changes is marked as written by the
    /// model's current version, so the read-time hooks leave it alone. Returns how many rows
    /// changed.
    ///
    /// ```swift
    /// try await step.updateRows(of: Person.self) { row in
    ///     guard let name = row["name"].text else { return }
    ///     let parts = name.split(separator: " ", maxSplits: 1).map(String.init)
    ///     row["firstName"] = .text(parts.first ?? "")
    ///     row["lastName"] = .text(parts.dropFirst().first ?? "")
    /// }
    /// ```
    @discardableResult
    public func updateRows<M: Model>(of type: M.Type, _ body: (inout StoreMigrationRow) throws -> Void) async throws -> Int {
        let table = try StoreTable.of(M.self)
        try await connection.prepareForMigration(table)
        let columns = Set(try await connection.columnNames(ofTable: table.name) ?? [])
        let identifier = table.columns[table.identifierColumn].name
        var changed = 0
        for stored in try await connection.allRows(ofTable: table.name, identifierColumn: identifier) {
            let key = stored[identifier] ?? .null
            var row = StoreMigrationRow(columns: stored)
            do {
                try body(&row)
            } catch {
                throw StoreError(
                    .migrationFailed, table: table.name, identifier: key.quotedDescription, reason: "\(error)", underlying: error)
            }
            var values = row.columns.filter { stored[$0.key] ?? .null != $0.value }
            guard !values.isEmpty else { continue }
            if let unknown = values.keys.sorted().first(where: { !columns.contains($0) }) {
                throw StoreError(
                    .migrationFailed, table: table.name, identifier: key.quotedDescription,
                    reason: "there is no column '\(unknown)' to set (the columns: \(columns.sorted().joined(separator: ", ")))")
            }
            guard values[identifier] == nil else {
                throw StoreError(
                    .migrationFailed, table: table.name, identifier: key.quotedDescription,
                    reason: "a step cannot change a row's identifier '\(identifier)'")
            }
            values[StoreTable.versionColumn] = .integer(Int64(table.schema.version))
            try await connection.update(table: table.name, identifierColumn: identifier, identifier: key, values: values)
            changed += 1
        }
        return changed
    }

    /// Throws when the table has no column `name` (or is not there).
    private func requireColumn(_ name: String, in table: String) async throws {
        guard let columns = try await connection.columnNames(ofTable: table) else {
            throw StoreError(.migrationFailed, table: table, reason: "there is no such table")
        }
        guard columns.contains(name) else {
            throw StoreError(
                .migrationFailed, table: table,
                reason: "there is no column '\(name)' (the columns: \(columns.joined(separator: ", ")))")
        }
    }
}

/// One row as ``StoreMigrationStep/updateRows(of:_:)`` hands it over: every column by name,
/// `NULL` for a column it does not have.
public struct StoreMigrationRow: Sendable {
    /// The columns, by name; ``StoreValue/null`` ones may be absent.
    public private(set) var columns: [String: StoreValue]

    init(columns: [String: StoreValue]) {
        self.columns = columns
    }

    /// A column's value (``StoreValue/null`` when absent); setting one writes it.
    public subscript(column: String) -> StoreValue {
        get { columns[column] ?? .null }
        set { columns[column] = newValue }
    }

    /// A column's value read as `T` with the store's rules (a date from its ISO 8601 text, a
    /// `Bool` from 0 or 1), or nil when it is `NULL`.
    public func decode<T: ModelValue>(_ type: T.Type, _ column: String) throws -> T? {
        var values = DictionaryStoredValues(columns.compactMapValues(\.plainValue), modelVersion: 0)
        return try values.decodeIfPresent(T.self, forKey: column)
    }

    /// Sets a column to `value` as the store writes it (nil: `NULL`).
    public mutating func encode<T: ModelValue>(_ value: T?, _ column: String) throws {
        columns[column] = try value.map { try StoreValue(encoding: $0) } ?? .null
    }
}
