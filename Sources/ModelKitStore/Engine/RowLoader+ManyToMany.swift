import Foundation
import ModelKitCore

// Many-to-many relationships kept in a join table (``StoreManyToMany``) are filled as the
// to-many ones kept in an inverse's column are (RowLoader+ToMany): once the rows of an
// operation are read, for every owner the loader registered, with one query of the join table
// and one of the related table per relationship and level (per chunk of owners). The related
// models own the inverse, which the next turn of the loop fills for those it registered.

extension RowLoader {
    /// Fills the many-to-many relationships of `owners` (of `table`) through a connection that
    /// reads without suspending, in the caller's mapping run.
    func fillManyToManyNow(
        _ table: StoreTable, owners: [OwnerToFill], context: ModelContext, synchronous: any SynchronousRowReading
    ) throws {
        for manyToMany in table.manyToMany {
            let owners = owners.filter { $0.fills(manyToMany.property.name) }
            guard !owners.isEmpty else { continue }
            let join = try manyToMany.joinTable()
            let related = try manyToMany.relatedTable()
            for owners in owners.chunked(StoreToMany.chunk) {
                let pairs = try synchronous.selectRowsNow(manyToMany.query(join, owners: owners.map(\.identifier)))
                var rows: [StoredRow] = []
                for query in relatedQueries(pairs, of: manyToMany, related: related, context: context) { rows += try synchronous.selectRowsNow(query) }
                if prefetchesReferences(of: related, context: context) { try prefetchReferences(of: rows, table: related) }
                try fill(manyToMany, of: owners, table: table, join: join, pairs: pairs, related: related, rows: rows, context: context)
            }
        }
    }

    /// Fills them through any connection: the rows fetched first, then read in a mapping run of
    /// their own (in rounds, when their references need rows that are not at hand).
    func fillManyToMany(_ table: StoreTable, owners: [OwnerToFill], context: ModelContext, connection: any StoreConnection) async throws {
        for manyToMany in table.manyToMany {
            let owners = owners.filter { $0.fills(manyToMany.property.name) }
            guard !owners.isEmpty else { continue }
            let join = try manyToMany.joinTable()
            let related = try manyToMany.relatedTable()
            var pairs: [StoredRow] = []
            for chunk in owners.chunked(StoreToMany.chunk) {
                pairs += try await connection.selectRows(manyToMany.query(join, owners: chunk.map(\.identifier)))
            }
            var rows: [StoredRow] = []
            for query in relatedQueries(pairs, of: manyToMany, related: related, context: context) { rows += try await connection.selectRows(query) }
            try await inRounds(context, connection: connection) {
                try fill(manyToMany, of: owners, table: table, join: join, pairs: pairs, related: related, rows: rows, context: context)
            }
        }
    }

    /// The queries of the related rows the join rows `pairs` name, each once, per chunk: those
    /// of models `context` does not hold already (the owners' own, when the read began from the
    /// other side).
    private func relatedQueries(
        _ pairs: [StoredRow], of manyToMany: StoreManyToMany, related: StoreTable, context: ModelContext
    ) -> [ResolvedQuery] {
        func isLive<Element: Model>(_: Element.Type, _ identifier: StoreValue) -> Bool {
            Self.liveModel(Element.self, identifier, table: related, context: context) != nil
        }
        var seen = Set<StoreValue>()
        let wanted = pairs.map { $0.values[manyToMany.relatedColumn] }.filter { identifier in
            seen.insert(identifier).inserted && !isLive(manyToMany.related.type, identifier)
        }
        return wanted.chunked(StoreToMany.chunk).map(related.rows(identifiedBy:))
    }

    /// Reads the related rows and sets each owner's relationship to the models its join rows
    /// name, in the join rows' order (by related identifier).
    private func fill(
        _ manyToMany: StoreManyToMany, of owners: [OwnerToFill], table: StoreTable, join: StoreTable, pairs: [StoredRow],
        related: StoreTable, rows: [StoredRow], context: ModelContext
    ) throws {
        guard let ownerType = table.schema.modelType as? any Model.Type else { return }
        func fill<Owner: Model, Element: Model>(_: Owner.Type, _: Element.Type) throws {
            var models: [StoreValue: Element] = [:]
            models.reserveCapacity(rows.count)
            var reader = StoreRowReader(columns: .values([]), table: related, context: context, loader: self)
            let decoder = StoreModelDecoder<Element>()
            let next = Self.stepping(rows, related)
            while let row = try next() {
                reader.start(row)
                models[row[related.identifierColumn]] = try model(
                    Element.self, reading: &reader, version: row.version(after: related.columns.count), table: related,
                    context: context, decoder: decoder)
            }
            var held: [StoreValue: [Element]] = [:]
            held.reserveCapacity(owners.count)
            for pair in pairs {
                let identifier = pair.values[manyToMany.relatedColumn]
                guard let element = models[identifier] ?? Self.liveModel(Element.self, identifier, table: related, context: context) else {
                    let owner = pair.values[manyToMany.ownerColumn]
                    throw StoreError(
                        .missingReference, table: table.name, identifier: owner.quotedDescription,
                        reason: "its '\(manyToMany.property.name)' holds '\(related.name)' \(identifier.quotedDescription) "
                            + "(by a row of '\(join.name)'), and no such row is in the store")
                }
                held[pair.values[manyToMany.ownerColumn], default: []].append(element)
            }
            // An owner without join rows keeps what its row held: nothing, or the JSON array of
            // identifiers a store written before join tables holds, which the owner's next save
            // moves into join rows.
            try setRelationship(manyToMany.property, of: owners, as: Owner.self, table: table, context: context) { entry in
                held[entry.identifier]
            }
        }
        try fill(ownerType, manyToMany.related.type)
    }

    /// The model `context` holds for the stored identifier `identifier` of `table`, if any (for
    /// integer and string identifiers, which key a context without a decode).
    private static func liveModel<Element: Model>(
        _: Element.Type, _ identifier: StoreValue, table: StoreTable, context: ModelContext
    ) -> Element? {
        guard let key = IdentityKey(stored: identifier, identifierType: table.identifierType) else { return nil }
        return context.registeredModel(Element.self, key: key)
    }
}
