import Foundation
import GRDB
import ModelKitCore

extension SQLiteStore {
    /// Whether the table was created or brought up to date by a committed transaction.
    func isPrepared(_ table: StoreTable) -> Bool {
        preparedTables.withLock { $0.prepared.contains(ObjectIdentifier(table)) }
    }

    /// Whether `table` can be read through `reader` as it is: prepared by this store, or found in
    /// the committed state with every column (then it counts as prepared from now on).
    func isReadable(_ table: StoreTable, through reader: DatabaseQueue) throws -> Bool {
        if isPrepared(table) { return true }
        let complete = try reader.unsafeReentrantRead { db -> Bool in
            guard try db.tableExists(table.name) else { return false }
            let existing = Set(try db.columns(in: table.name).map(\.name))
            return existing.contains(StoreTable.versionColumn) && table.columns.allSatisfy { existing.contains($0.name) }
        }
        if complete { preparedTables.withLock { _ = $0.prepared.insert(ObjectIdentifier(table)) } }
        return complete
    }

    /// Creates the model's table, or adds the columns it lacks, once per store.
    ///
    /// Columns are only added, never dropped or retyped: a row keeps the values of properties a
    /// later version renamed or removed, for the migration hook. New columns hold `NULL` in
    /// older rows, which reads as missing, so the property's default applies.
    func prepare(_ table: StoreTable, in db: Database) throws {
        let key = ObjectIdentifier(table)
        if preparedTables.withLock({ $0.prepared.contains(key) || $0.inTransaction.contains(key) }) { return }
        try db.execute(sql: table.createSQL)
        let existing = Set(try db.columns(in: table.name).map(\.name))
        for column in table.columns where !existing.contains(column.name) {
            try db.execute(sql: "ALTER TABLE \(table.quotedName) ADD COLUMN \(quoted(column.name)) \(column.sqlType)")
        }
        if !existing.contains(StoreTable.versionColumn) {
            try db.execute(
                sql: "ALTER TABLE \(table.quotedName) ADD COLUMN \(quoted(StoreTable.versionColumn)) INTEGER NOT NULL DEFAULT 0")
        }
        // Known as prepared once the transaction that created it commits.
        guard db.isInsideTransaction else {
            preparedTables.withLock { _ = $0.prepared.insert(key) }
            return
        }
        preparedTables.withLock { _ = $0.inTransaction.insert(key) }
        let prepared = preparedTables
        db.afterNextTransaction(
            onCommit: { _ in prepared.withLock { $0.prepared.formUnion($0.inTransaction); $0.inTransaction = [] } },
            onRollback: { _ in prepared.withLock { $0.inTransaction = [] } })
    }
}
