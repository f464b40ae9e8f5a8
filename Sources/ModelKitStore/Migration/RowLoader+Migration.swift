import Foundation
import ModelKitCore

// Versions: every row records the version of the model that wrote it (`_version`). Loading a row
// older than the model's `@Model(version:)` hands its values to the model's migration hooks,
// `ModelMigrating` (PSPDFModel's per-key decode hook and `decodeAdditionalValues`, the same hooks
// keyed archives call), before they are read. Columns are only ever added, never dropped, so the
// values of properties that were renamed or split are still there for the hook.

extension RowLoader {
    /// The row's values brought up to date by the model's migration hook, by column.
    ///
    /// The hooks read every column of the row by name, older columns included, through
    /// ``DictionaryStoredValues`` (`NULL` columns absent; dates as ISO 8601 text, nested values as
    /// JSON text), with the version the row was written with. What they answer for each property
    /// key is read as that property; values may be plain values or any ``ModelValue``.
    func migratedRow<M: Model>(
        _ type: M.Type, columns: [String: StoreValue], version: Int, table: StoreTable
    ) throws -> [StoreValue] {
        var columns = columns
        let identifier = columns[table.columns[table.identifierColumn].name] ?? .null
        columns.removeValue(forKey: StoreTable.versionColumn)
        var values = columns.compactMapValues(\.plainValue)
        do {
            if let migrating = M.self as? any ModelMigrating.Type {
                values = try migrating.migratedValues(DictionaryStoredValues(values, modelVersion: version))
            }
            return try table.columns.map { try StoreValue(plain: values[$0.name]) }
        } catch {
            throw StoreError(
                .migrationFailed, table: table.name, identifier: identifier.quotedDescription,
                reason: "from version \(version) to \(table.schema.version): \(error)", underlying: error)
        }
    }
}
