import Foundation
import ModelKitCore

/// What a delete did beyond the rows it was asked for, so a context's live instances follow:
/// the rows deleted (those asked for, and those a `.cascade` reached) and the references set to
/// nil or emptied of the deleted models.
package struct StoreDeletion {
    /// How many rows the query selected (and were deleted).
    package var count = 0
    /// Every row deleted, by table.
    package var deleted: [(table: StoreTable, identifiers: [StoreValue])] = []
    /// Every row whose reference lost deleted models: the row, the column, its new value.
    package var nullified: [(reference: StoreReference, identifier: StoreValue, value: StoreValue)] = []
}

extension StoreTransaction {
    /// Deletes the rows `query` selects and applies every delete rule they reach, all in this
    /// transaction: rows of a `.cascade` go too (with their own rules), references that
    /// `.nullify` lose the deleted models, and a `.deny` (or a non-optional reference with no rule
    /// that says otherwise) throws ``StoreError/Kind/deleteDenied`` before anything is changed.
    func deleteFollowingRules(_ query: ResolvedQuery) async throws -> StoreDeletion {
        let table = query.table
        var plan = DeletePlan()
        let incoming = try await storedReferences(to: table, plan: &plan)
        if incoming.isEmpty, table.manyToMany.isEmpty, try table.rulesWithoutInverse().isEmpty {
            return StoreDeletion(count: try await connection.delete(query))
        }
        let rows = try await connection.selectRows(query)
        plan.add(table, rows: rows.map(\.values))
        var next = 0
        while next < plan.waves.count {
            let (waveTable, waveRows) = plan.waves[next]
            next += 1
            try await follow(waveTable, rows: waveRows, into: &plan)
        }
        if let denial = plan.denials.first(where: { !plan.isDeleted($0.referrer, in: $0.reference.table) }) {
            throw denial.error(all: plan.denials.filter { !plan.isDeleted($0.referrer, in: $0.reference.table) })
        }
        return try await apply(plan, count: rows.count)
    }

    /// Finds what deleting `rows` of `table` reaches: rows that refer to them, and the rows this
    /// model's relationships without an inverse, or kept in a join table, refer to.
    private func follow(_ table: StoreTable, rows: [[StoreValue]], into plan: inout DeletePlan) async throws {
        let identifiers = rows.map { $0[table.identifierColumn] }
        let removed = Set(identifiers)
        for reference in try await storedReferences(to: table, plan: &plan) {
            let (rule, isDeclared) = table.deleteRule(for: reference)
            guard rule != .noAction else { continue }
            let referring = try await rowsReferring(to: identifiers, through: reference)
            for row in referring {
                let referrer = row[reference.table.identifierColumn]
                switch rule {
                case .cascade: plan.add(reference.table, rows: [row])
                case .deny:
                    let target = try reference.identifiers(in: row[reference.column]).first { removed.contains($0) }
                    plan.denials.append(
                        Denial(reference: reference, referrer: referrer, target: target ?? .null, isDeclared: isDeclared))
                case .nullify:
                    plan.nullify(reference, row: row, removing: removed)
                case .noAction: break
                }
            }
        }
        for (reference, rule) in try table.rulesWithoutInverse() {
            for row in rows {
                let targets = try reference.identifiers(in: row[reference.column])
                guard !targets.isEmpty else { continue }
                if rule == .deny {
                    plan.ownDenials.append((reference, row[table.identifierColumn], targets))
                    continue
                }
                let stored = try await connection.selectRows(reference.target, identifiers: targets)
                plan.add(reference.target, rows: stored.map(\.values))
            }
        }
        for manyToMany in table.manyToMany {
            let rule = manyToMany.property.relationship?.deleteRule ?? .nullify
            guard rule == .cascade || rule == .deny else { continue }
            let join = try manyToMany.joinTable()
            let related = try manyToMany.relatedTable()
            var pairs: [[StoreValue]] = []
            for chunk in identifiers.chunked(500) {
                pairs += try await connection.selectRows(manyToMany.query(join, owners: chunk)).map(\.values)
            }
            guard rule == .cascade else {
                let reference = StoreReference(table: table, column: manyToMany.column, target: related, isToMany: true)
                let held = Dictionary(grouping: pairs) { $0[manyToMany.ownerColumn] }
                for identifier in identifiers {
                    guard let rows = held[identifier] else { continue }
                    plan.ownDenials.append((reference, identifier, rows.map { $0[manyToMany.relatedColumn] }))
                }
                continue
            }
            var seen = Set<StoreValue>()
            let targets = pairs.map { $0[manyToMany.relatedColumn] }.filter { seen.insert($0).inserted }
            for chunk in targets.chunked(500) {
                plan.add(related, rows: try await connection.selectRows(related, identifiers: chunk).map(\.values))
            }
        }
        if let (reference, identifier, targets) = plan.ownDenials.first {
            throw StoreError(
                .deleteDenied, table: table.name, identifier: identifier.quotedDescription,
                reason: "its '\(reference.name)' refers to '\(reference.target.name)' "
                    + targets.prefix(5).map(\.quotedDescription).joined(separator: ", ")
                    + " and its rule is '.deny': delete or unlink those first")
        }
    }

    /// The references to `table`'s models whose column this store has: a model type the process
    /// knows but never saved here has no rows that could refer to them (and no table is made
    /// for it just to look).
    private func storedReferences(to table: StoreTable, plan: inout DeletePlan) async throws -> [StoreReference] {
        if let known = plan.referencesByTable[ObjectIdentifier(table)] { return known }
        var stored = try table.incomingReferences()
        if !stored.isEmpty, let migrating = connection as? any MigratingConnection {
            var columnsByTable: [String: [String]?] = [:]
            var present: [StoreReference] = []
            for reference in stored {
                let name = reference.table.name
                if columnsByTable[name] == nil { columnsByTable[name] = .some(try await migrating.columnNames(ofTable: name)) }
                if columnsByTable[name]??.contains(reference.name) == true { present.append(reference) }
            }
            stored = present
        }
        plan.referencesByTable[ObjectIdentifier(table)] = stored
        return stored
    }

    /// The rows of `reference`'s table whose column refers to any of `identifiers`.
    private func rowsReferring(to identifiers: [StoreValue], through reference: StoreReference) async throws -> [[StoreValue]] {
        let referring = reference.table
        // In identifier order, so an error names them as a listing would.
        let order = [StoreOrdering(column: referring.columns[referring.identifierColumn].name, order: .ascending)]
        guard reference.isToMany else {
            var rows: [[StoreValue]] = []
            for chunk in identifiers.chunked(500) {
                let query = ResolvedQuery(
                    table: referring, condition: .isIn(column: reference.name, chunk), orderings: order, limit: nil,
                    offset: 0)
                rows += try await connection.selectRows(query).map(\.values)
            }
            return rows
        }
        // A JSON array of identifiers has no portable SQL test for an element: its rows are read and
        // tested here.
        let wanted = Set(identifiers)
        let query = ResolvedQuery(
            table: referring, condition: .compare(column: reference.name, .notEqual, .null), orderings: order,
            limit: nil, offset: 0)
        return try await connection.selectRows(query).map(\.values).filter { row in
            try reference.identifiers(in: row[reference.column]).contains(where: wanted.contains)
        }
    }

    /// Writes the plan: the nullified references of rows that stay, then the deletes.
    private func apply(_ plan: DeletePlan, count: Int) async throws -> StoreDeletion {
        var deletion = StoreDeletion(count: count)
        let updating = connection as? any MigratingConnection
        for nullification in plan.nullifications.values
        where !plan.isDeleted(nullification.identifier, in: nullification.reference.table) {
            let reference = nullification.reference
            let removed = plan.deleted[ObjectIdentifier(reference.target)]?.identifiers ?? []
            let value = try reference.value(nullification.value, removing: removed)
            guard let migrating = updating else {
                throw StoreError(.database, table: reference.table.name, reason: "the store cannot update rows by column")
            }
            try await migrating.update(
                table: reference.table.name, identifierColumn: reference.table.columns[reference.table.identifierColumn].name,
                identifier: nullification.identifier, values: [reference.name: value])
            deletion.nullified.append((reference, nullification.identifier, value))
        }
        // The rows a cascade reached go before the rows they refer to: the database's own
        // `ON DELETE` actions (``StoreForeignKey``) then find nothing to do, and every row
        // deleted is one of ModelKit's deletes, counted for observers.
        for key in plan.deletionOrder.reversed() {
            guard let entry = plan.deleted[key] else { continue }
            for chunk in Array(entry.ordered.reversed()).chunked(500) {
                _ = try await connection.delete(entry.table.rows(identifiedBy: chunk))
                // Their join rows go with them: they said only that these rows held or were held.
                for manyToMany in entry.table.manyToMany {
                    _ = try await connection.delete(manyToMany.query(try manyToMany.joinTable(), owners: chunk, ordered: false))
                }
            }
        }
        deletion.deleted = plan.deletionOrder.compactMap { plan.deleted[$0].map { ($0.table, $0.ordered) } }
        return deletion
    }
}

/// What a delete will do, found before anything is written.
private struct DeletePlan {
    /// Rows to delete, by table: in the order found, and as a set.
    var deleted: [ObjectIdentifier: (table: StoreTable, ordered: [StoreValue], identifiers: Set<StoreValue>)] = [:]
    var deletionOrder: [ObjectIdentifier] = []
    /// Rows newly added to ``deleted``, whose own references are followed in turn.
    var waves: [(StoreTable, [[StoreValue]])] = []
    /// References to set to nil or to empty of deleted models, by table, row and column.
    var nullifications: [String: (reference: StoreReference, identifier: StoreValue, value: StoreValue)] = [:]
    /// Rows that refer to a deleted model under a rule that refuses the delete.
    var denials: [Denial] = []
    /// Deleted rows whose own relationship refuses the delete.
    var ownDenials: [(StoreReference, StoreValue, [StoreValue])] = []
    /// The references to each table's models the store has, found once per table.
    var referencesByTable: [ObjectIdentifier: [StoreReference]] = [:]

    mutating func add(_ table: StoreTable, rows: [[StoreValue]]) {
        let key = ObjectIdentifier(table)
        if deleted[key] == nil {
            deleted[key] = (table, [], [])
            deletionOrder.append(key)
        }
        var fresh: [[StoreValue]] = []
        for row in rows {
            let identifier = row[table.identifierColumn]
            guard deleted[key]!.identifiers.insert(identifier).inserted else { continue }
            deleted[key]!.ordered.append(identifier)
            fresh.append(row)
        }
        if !fresh.isEmpty { waves.append((table, fresh)) }
    }

    mutating func nullify(_ reference: StoreReference, row: [StoreValue], removing: Set<StoreValue>) {
        let identifier = row[reference.table.identifierColumn]
        let key = "\(reference.table.name)\u{0}\(identifier.quotedDescription)\u{0}\(reference.name)"
        nullifications[key] = (reference, identifier, row[reference.column])
    }

    func isDeleted(_ identifier: StoreValue, in table: StoreTable) -> Bool {
        deleted[ObjectIdentifier(table)]?.identifiers.contains(identifier) ?? false
    }
}

/// A row that refers to a model being deleted under a rule that refuses the delete.
private struct Denial {
    let reference: StoreReference
    let referrer: StoreValue
    let target: StoreValue
    /// Whether a relationship declares `.deny`, or the reference cannot be nil.
    let isDeclared: Bool

    /// The error naming the model and the rows that refer to it (up to five, and how many).
    func error(all: [Denial]) -> StoreError {
        let same = all.filter { $0.reference.table === reference.table && $0.reference.column == reference.column }
        let rows = same.prefix(5).map(\.referrer.quotedDescription).joined(separator: ", ")
            + (same.count > 5 ? " and \(same.count - 5) more" : "")
        let referring = "'\(reference.table.name)' \(rows) refer\(same.count == 1 ? "s" : "") to it through '\(reference.name)'"
        let reason =
            isDeclared
            ? "\(referring), and the relationship's rule is '.deny': delete or unlink those first"
            : "\(referring), which cannot be nil: delete or change those first, or declare what a delete does with "
                + "'@Relationship(deleteRule: .cascade, inverse: \\\(reference.table.schema.modelName).\(reference.name))' "
                + "on '\(reference.target.schema.modelName)'"
        return StoreError(.deleteDenied, table: reference.target.name, identifier: target.quotedDescription, reason: reason)
    }
}

extension Array {
    /// The array in consecutive slices of at most `size` elements.
    func chunked(_ size: Int) -> [[Element]] {
        stride(from: 0, to: count, by: size).map { Array(self[$0..<Swift.min($0 + size, count)]) }
    }
}
