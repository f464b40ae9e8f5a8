import Foundation
import ModelKitCore

// Versions: every row records the version of the model that wrote it (`_version`). Loading a row
// older than the model's `@Model(version:)` hands its values to the model's one migration hook,
// `Model.migrateValues(_:from:)` (PSPDFModel's `decodeAdditionalValues` and `modelVersion`),
// before they are read. Columns are only ever added, never dropped, so the values of properties
// that were renamed or split are still there for the hook.

extension StoreEngine {
    /// The row's values brought up to date by the model's migration hook, by column.
    ///
    /// The hook receives every column of the row by name, older columns included, as plain values
    /// (`Int`, `Double`, `String`, `Data`; `NULL` columns left out; dates as ISO 8601 text, nested
    /// values as JSON text), and the version the row was written with. What it leaves under each
    /// property's name is read as that property; values it sets may be plain values or any
    /// ``ModelValue`` (a `Date`, an array, a model).
    func migratedRow<M: Model>(_ type: M.Type, row: StoredRow, table: StoreTable) throws -> [StoreValue] {
        let identifier = row.values[table.identifierColumn]
        var columns = try selectAllColumns(table, identifier: identifier)
        columns.removeValue(forKey: StoreTable.versionColumn)
        var values = columns.compactMapValues(\.plainValue)
        do {
            try M.migrateValues(&values, from: row.version)
            return try table.columns.map { try StoreValue(plain: values[$0.name]) }
        } catch {
            throw StoreError(
                .migrationFailed, table: table.name, identifier: identifier.quotedDescription,
                reason: "from version \(row.version) to \(table.schema.version): \(error)", underlying: error)
        }
    }
}
