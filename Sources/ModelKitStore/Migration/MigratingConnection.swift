import Foundation
import ModelKitCore

/// A change to the layout of a store's tables, as a recorded migration step makes it.
package enum StoreSchemaChange: Sendable {
    /// Renames a column; when the new name is a column already (a later model version added it
    /// on first use), the old column's values fill its `NULL`s and the old column is dropped.
    case renameColumn(table: String, from: String, to: String)
    /// Drops a column, and first the indexes that cover it.
    case dropColumn(table: String, column: String)
    /// Adds a column of a model property's kind (nil: the store's text type), `NULL` in every row.
    case addColumn(table: String, column: String, kind: ModelValueKind?)
    /// Renames a table.
    case renameTable(from: String, to: String)
    /// Creates an index (unique or not) on a table's columns, named as ``ModelIndex/name(in:)``.
    case addIndex(table: String, ModelIndex)
    /// Drops an index named as ``ModelIndex/name(in:)``, if there is one.
    case dropIndex(table: String, ModelIndex)

    /// The table the change is made to (for a renamed table, its old name).
    package var table: String {
        switch self {
        case .renameColumn(let table, _, _), .dropColumn(let table, _), .addColumn(let table, _, _),
            .renameTable(let table, _), .addIndex(let table, _), .dropIndex(let table, _):
            return table
        }
    }
}

/// What a storage engine's connection does for ``ModelStore/migrate(_:)``, inside a write
/// transaction: read and write the record of the steps that ran, change tables, and read and
/// update rows of any table by column name.
package protocol MigratingConnection: StoreConnection {
    /// The steps recorded, in the order they ran (none when the store has no record yet).
    func migrationRecords() async throws -> [StoreMigrationRecord]
    /// Records a step that ran (creating the record first when there is none).
    func record(_ record: StoreMigrationRecord) async throws
    /// Creates the model's table, or adds the columns it lacks, as a save would.
    func prepareForMigration(_ table: StoreTable) async throws
    /// The names of a table's columns in order, or nil when there is no such table.
    func columnNames(ofTable table: String) async throws -> [String]?
    /// Makes a change to the tables; what the engine remembers of the tables it prepared is
    /// forgotten for the table the change touches.
    func alter(_ change: StoreSchemaChange) async throws
    /// Every row of a table, every column by name (the version column included), in the order
    /// of `identifierColumn`.
    func allRows(ofTable table: String, identifierColumn: String) async throws -> [[String: StoreValue]]
    /// Sets some columns of one row, found by its identifier.
    func update(table: String, identifierColumn: String, identifier: StoreValue, values: [String: StoreValue]) async throws
}

/// A store that runs ``ModelStore/migrate(_:)`` through its engine: what it remembers of the
/// tables it prepared is forgotten once a migration commits.
package protocol MigratingStore: StoreEngine where Connection: MigratingConnection {
    /// Forgets which tables are known to be prepared, so each is checked again on next use.
    func forgetPreparedTables()
}
