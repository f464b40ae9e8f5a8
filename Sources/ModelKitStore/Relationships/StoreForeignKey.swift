import Foundation
import ModelKitCore

/// A foreign key a store declares for a column that refers to another model's row, so that raw
/// SQL and other programs see the integrity ModelKit keeps: a to-one's column, and both columns
/// of a join table.
///
/// Its `ON DELETE` action is the relationship's rule (the rule of the related model's
/// relationship whose inverse is the column: `.cascade` deletes the row, `.nullify` sets the
/// column to `NULL`, `.deny` refuses the delete; a to-one with no rule nullifies when it can be
/// nil and refuses otherwise). A `.noAction` reference, which may be left dangling, has none.
/// The check is deferred to the commit, so a save may write rows in any order, and ModelKit's own
/// deletes apply the rules themselves first (the related rows before the rows they refer to), so
/// the database's actions find nothing left to do and the change counts stay ModelKit's.
package struct StoreForeignKey: Sendable {
    /// The column, by name.
    package let column: String
    /// The table whose identifier it holds.
    package let target: StoreTable
    /// `CASCADE`, `SET NULL` or `NO ACTION`.
    package let onDelete: String

    /// `REFERENCES "Post" ("id") ON DELETE ... DEFERRABLE INITIALLY DEFERRED`, with the target
    /// table named as the engine spells it.
    package func referencesClause(targetSQL: String, quote: (String) -> String) -> String {
        "REFERENCES \(targetSQL) (\(quote(target.columns[target.identifierColumn].name))) ON DELETE \(onDelete) "
            + "DEFERRABLE INITIALLY DEFERRED"
    }
}

extension StoreTable {
    /// The foreign keys of this table's columns (building the tables they refer to).
    package func foreignKeys() throws -> [StoreForeignKey] {
        if let joined {
            return [
                StoreForeignKey(column: columns[1].name, target: try StoreTable.of(joined.first.type), onDelete: "CASCADE"),
                StoreForeignKey(column: columns[2].name, target: try StoreTable.of(joined.second.type), onDelete: "CASCADE"),
            ]
        }
        return try outgoingReferences().compactMap { reference in
            guard !reference.isToMany else { return nil }
            let action: String
            switch reference.target.deleteRule(for: reference).rule {
            case .noAction: return nil
            case .cascade: action = "CASCADE"
            case .nullify: action = reference.canBeNil ? "SET NULL" : "NO ACTION"
            case .deny: action = "NO ACTION"
            }
            return StoreForeignKey(column: reference.name, target: reference.target, onDelete: action)
        }
    }
}
