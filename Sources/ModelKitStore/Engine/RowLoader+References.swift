import Foundation
import ModelKitCore

// To-one references load with the rows that hold them, in one query per referenced table: a
// read of many rows first gathers the identifiers their references hold, loads those rows at
// once (`WHERE id IN (...)`), then the rows theirs hold, level by level, into the loader's rows
// at hand. Reading a row then finds each reference there instead of asking the store for one
// row at a time: 1,000 comments of 100 authors are two queries, not 101.
//
// A connection that reads in place (SQLite) copies the rows out first only for a table that has
// to-one references; its other reads stay in place. A connection that must suspend
// (PostgreSQL) gets the same effect from the loader's rounds.

extension RowLoader {
    /// Whether a read of `table`'s rows through `context` should load their references first:
    /// a class's rows, with to-one references other than `skipped`, through a synchronous connection.
    func prefetchesReferences(of table: StoreTable, context: ModelContext?, skipping skipped: Int? = nil) -> Bool {
        synchronous != nil && context != nil && table.isClass
            && table.toOneReferences.contains { $0.column != skipped }
    }

    /// Loads the rows the to-one references of `rows` (of `table`) lead to, and the rows theirs
    /// lead to, one query per referenced table and level (per chunk of identifiers); a column
    /// `skipped` is not followed (the inverse of a to-many being filled: its owners are live).
    func prefetchReferences(of rows: [StoredRow], table: StoreTable, skipping skipped: Int? = nil) throws {
        guard let synchronous else { return }
        var frontier: [(table: StoreTable, rows: [StoredRow], skipped: Int?)] = [(table, rows, skipped)]
        while !frontier.isEmpty {
            var wanted: [ObjectIdentifier: (table: StoreTable, identifiers: [StoreValue])] = [:]
            var order: [ObjectIdentifier] = []
            for (table, rows, skipped) in frontier {
                for (column, target) in table.toOneReferences where column != skipped {
                    let targetTable = try StoreTable.of(target.type)
                    let key = ObjectIdentifier(targetTable)
                    if wanted[key] == nil {
                        wanted[key] = (targetTable, [])
                        order.append(key)
                    }
                    for row in rows {
                        let identifier = row.values[column]
                        guard identifier != .null, !isAtHand(targetTable, identifier: identifier) else { continue }
                        // Noted as absent until found: each identifier is asked once.
                        markAbsent(targetTable, identifier: identifier)
                        wanted[key]?.identifiers.append(identifier)
                    }
                }
            }
            frontier = []
            for key in order {
                guard let (target, identifiers) = wanted[key], !identifiers.isEmpty else { continue }
                var found: [StoredRow] = []
                for chunk in identifiers.chunked(StoreToMany.chunk) {
                    found += try synchronous.selectRowsNow(target.rows(identifiedBy: chunk))
                }
                for row in found { keepAtHand(target, row) }
                if !found.isEmpty { frontier.append((target, found, nil)) }
            }
        }
    }
}
