import Foundation
import ModelKitCore

extension MemoryStore: MigratingStore {
    /// Nothing to forget: the memory store prepares no table ahead.
    package func forgetPreparedTables() {}
}

extension MemoryConnection: MigratingConnection {
    private static let records = StoreMigrationRecord.tableName

    package func migrationRecords() async throws -> [StoreMigrationRecord] {
        state.withLock { state in
            (state.tables[Self.records]?.rows.values ?? [:].values).map { row in
                StoreMigrationRecord(
                    name: row.columns["name"]?.text ?? "", position: Int(row.columns["position"]?.integer ?? 0),
                    appliedAt: (row.columns["appliedAt"]?.text).flatMap(StoreMigrationRecord.parse) ?? .distantPast)
            }
            .sorted { $0.position < $1.position }
        }
    }

    package func record(_ record: StoreMigrationRecord) async throws {
        state.withLock { state in
            var table = state.tables[Self.records] ?? Table(columns: ["name", "position", "appliedAt"])
            let columns: [String: StoreValue] = [
                "name": .text(record.name), "position": .integer(Int64(record.position)),
                "appliedAt": .text(StoreMigrationRecord.format(record.appliedAt)),
            ]
            table.rows[.text(record.name)] = Row(columns: columns, version: 0, sequence: table.nextSequence)
            table.nextSequence += 1
            state.tables[Self.records] = table
        }
    }

    package func prepareForMigration(_ table: StoreTable) async throws {
        state.withLock { state in
            var stored = state.tables[table.name] ?? Table()
            Self.addColumns(of: table, to: &stored)
            state.tables[table.name] = stored
        }
    }

    package func columnNames(ofTable table: String) async throws -> [String]? {
        state.withLock { state in state.tables[table].map { $0.columns + [StoreTable.versionColumn] } }
    }

    package func alter(_ change: StoreSchemaChange) async throws {
        try state.withLock { state in
            guard var table = state.tables[change.table] else {
                throw StoreError(.migrationFailed, table: change.table, reason: "there is no such table")
            }
            switch change {
            case .renameColumn(_, let from, let to):
                let merges = table.columns.contains(to)
                for (key, var row) in table.rows {
                    let old = row.columns.removeValue(forKey: from) ?? .null
                    if !merges || (row.columns[to] ?? .null) == .null { row.columns[to] = old }
                    table.rows[key] = row
                }
                table.columns = merges ? table.columns.filter { $0 != from } : table.columns.map { $0 == from ? to : $0 }
            case .dropColumn(_, let column):
                for (key, var row) in table.rows {
                    row.columns.removeValue(forKey: column)
                    table.rows[key] = row
                }
                table.columns.removeAll { $0 == column }
            case .addColumn(_, let column, _):
                if !table.columns.contains(column) { table.columns.append(column) }
            case .renameTable(_, let newName):
                state.tables[change.table] = nil
                state.tables[newName] = table
                return
            case .addIndex(_, let index):
                // No index to make: uniqueness is checked as rows are saved, from the model's
                // declaration. A unique index is still refused when rows clash already.
                guard index.isUnique else { break }
                var seen: Set<[StoreValue]> = []
                for row in table.rows.values {
                    let values = index.properties.map { row.columns[$0] ?? .null }
                    if !values.contains(.null), !seen.insert(values).inserted {
                        throw StoreError.rowsClash(index, table: change.table, underlying: nil)
                    }
                }
            case .dropIndex:
                break
            }
            state.tables[change.table] = table
        }
    }

    package func allRows(ofTable table: String, identifierColumn: String) async throws -> [[String: StoreValue]] {
        state.withLock { state in
            guard let stored = state.tables[table] else { return [] }
            return stored.rows.values
                .map { row in row.columns.merging([StoreTable.versionColumn: .integer(Int64(row.version))]) { $1 } }
                .sorted { StoreValue.compare($0[identifierColumn] ?? .null, $1[identifierColumn] ?? .null) < 0 }
        }
    }

    package func update(
        table: String, identifierColumn: String, identifier: StoreValue, values: [String: StoreValue]
    ) async throws {
        state.withLock { state in
            guard var row = state.tables[table]?.rows[identifier] else { return }
            for (column, value) in values {
                if column == StoreTable.versionColumn {
                    row.version = Int(value.integer ?? 0)
                } else {
                    row.columns[column] = value
                }
            }
            state.tables[table]?.rows[identifier] = row
            state.changes[table, default: StoreChange(modelName: table)].saved += 1
        }
    }
}
