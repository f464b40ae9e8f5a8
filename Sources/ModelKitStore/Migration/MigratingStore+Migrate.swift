import Foundation
import ModelKitCore

extension MigratingStore {
    @discardableResult
    public func migrate(_ migrations: StoreMigrations) async throws -> [String] {
        if let name = migrations.repeatedName {
            throw StoreError(.migrationFailed, reason: "the step '\(name)' is named twice: a store could not tell which one ran")
        }
        try refuseNesting()
        // What the store knows of prepared tables is about to change: checked again from here on.
        forgetPreparedTables()
        defer { forgetPreparedTables() }
        return try await transaction(.write) { connection in
            let records = try await connection.migrationRecords()
            let known = Set(migrations.names)
            if let unknown = records.first(where: { !known.contains($0.name) }) {
                throw StoreError(
                    .newerStore,
                    reason: "the store records the step '\(unknown.name)' (\(unknown.position) of \(records.count), run "
                        + "\(StoreMigrationRecord.format(unknown.appliedAt))), which this program does not have: "
                        + "a newer version of the program migrated the store")
            }
            let done = Set(records.map(\.name))
            var position = records.map(\.position).max() ?? 0
            var ran: [String] = []
            let transaction = StoreTransaction(connection: connection, kind: .write)
            defer { transaction.finish() }
            try await OpenTransaction.during(self, connection) {
                for step in migrations.steps where !done.contains(step.name) {
                    do {
                        try await step.body(StoreMigrationStep(connection: connection, transaction: transaction))
                    } catch let error as CancellationError {
                        throw error
                    } catch {
                        throw StoreError(
                            .migrationFailed, table: (error as? StoreError)?.table,
                            reason: "the step '\(step.name)' failed, and the store is as it was before: "
                                + ((error as? StoreError).map(Self.reasonAndSubject) ?? "\(error)"),
                            underlying: error)
                    }
                    position += 1
                    try await connection.record(StoreMigrationRecord(name: step.name, position: position, appliedAt: Date()))
                    ran.append(step.name)
                }
            }
            try Task.checkCancellation()
            return ran
        }
    }

    public func migrationRecords() async throws -> [StoreMigrationRecord] {
        try refuseNesting()
        return try await transaction(.read) { connection in try await connection.migrationRecords() }
    }

    /// A step's store error as the migration's reason: its identifier and reason (the table is
    /// the migration error's own).
    private static func reasonAndSubject(_ error: StoreError) -> String {
        (error.identifier.map { "\($0): " } ?? "") + error.reason
    }
}
