import Foundation
import ModelKitCore

// To-many relationships kept in their inverse's column (``StoreToMany``) or a join table
// (``StoreManyToMany``, RowLoader+ManyToMany) are filled once the rows of an operation are
// read: every owner the loader registered waits in a list, and then one query per relationship
// (per chunk of owners) reads every related row at once, and each owner's array is set from them. Never a query per owner: 10,000 posts with their comments
// are two queries. The related models may own to-many relationships of their own, which the
// next turn of the loop fills, one query per relationship and level.

/// An owner registered by a read, whose to-many relationships kept in an inverse's column or
/// a join table are still to fill.
struct OwnerToFill {
    let table: StoreTable
    let owner: any Model
    let identifier: StoreValue
    /// The relationships to fill, by name; nil for all.
    var only: Set<String>? = nil

    /// Whether the relationship named `name` is to fill.
    func fills(_ name: String) -> Bool {
        only?.contains(name) ?? true
    }
}

/// The relationships of a table a read fills now, and the ones it leaves for first access.
struct RelationshipSplit {
    let now: Set<String>
    let later: Set<String>
}

/// What a read leaves for first access: every to-many kept elsewhere of an observable class,
/// but the ones a query prefetches.
struct LazyRelationships {
    /// The store the relationships load from.
    let loader: any ModelRelationshipLoading
    /// The relationships to fill now, by table and property.
    let prefetched: Set<StorePrefetch>
    /// How to make their related models' decoders, specialized (`ModelQuery.relatedDecoders`).
    var decoders: [StorePrefetch: @Sendable () -> Any] = [:]

    /// The decoder of the related models of `table`'s relationship `property`: the one the query
    /// built where their type is concrete, or else one built here (unspecialized).
    func decoder<Element: Model>(of table: StoreTable, _ property: String, _: Element.Type) -> StoreModelDecoder<Element> {
        decoders[StorePrefetch(table: table.name, property: property)]?() as? StoreModelDecoder<Element> ?? StoreModelDecoder()
    }

    /// The relationships of `table` to fill now.
    func prefetched(of table: StoreTable) -> Set<String> {
        guard !prefetched.isEmpty else { return [] }
        return table.relationshipsKeptElsewhere.filter { prefetched.contains(StorePrefetch(table: table.name, property: $0)) }
    }
}

extension RowLoader {
    /// Notes an owner the read registered, when its table has such relationships: to fill now,
    /// or (through a store that reads without suspending, for an observable class) to load on
    /// first access, as its ``ModelFaults``.
    func noteOwner(_ owner: any Model, table: StoreTable, identifier: StoreValue, context: ModelContext) {
        guard let lazy, synchronous != nil else {
            ownersToFill.append(OwnerToFill(table: table, owner: owner, identifier: identifier))
            return
        }
        let split = split(table, lazy)
        if !split.later.isEmpty {
            // A class that is not observable has no faults: it fills every relationship now.
            guard let observable = owner as? any ObservableModel else {
                ownersToFill.append(OwnerToFill(table: table, owner: owner, identifier: identifier))
                return
            }
            observable._modelKitFaults = ModelFaults(loader: lazy.loader, context: context, pending: split.later)
        }
        if !split.now.isEmpty {
            ownersToFill.append(OwnerToFill(table: table, owner: owner, identifier: identifier, only: split.now))
        }
    }

    /// The relationships of `table` a read fills now and the ones it leaves for first access,
    /// worked out once per table and operation (every owner a read registers asks).
    private func split(_ table: StoreTable, _ lazy: LazyRelationships) -> RelationshipSplit {
        if let known = relationshipSplits[ObjectIdentifier(table)] { return known }
        let now = lazy.prefetched(of: table)
        let split = RelationshipSplit(now: now, later: table.relationshipsKeptElsewhere.subtracting(now))
        relationshipSplits[ObjectIdentifier(table)] = split
        return split
    }

    /// Fills the relationships `names` of `owner`, a live instance of `context`, through a
    /// connection that reads without suspending: a first access of what a read left for later.
    func fillNow(_ names: Set<String>, of owner: any ObservableModel, into context: ModelContext) throws {
        func table<Owner: Model>(of _: Owner) throws -> StoreTable { try StoreTable.of(Owner.self) }
        let table = try table(of: owner)
        guard let identifier = owner.modelIdentifier else { throw StoreError.notIdentified(table.schema) }
        let stored = try table.identifierValue(identifier)
        try context.performMapping {
            ownersToFill.append(OwnerToFill(table: table, owner: owner, identifier: stored, only: names))
            try fillToManyNow(in: context)
        }
    }

    /// ``loadModel(_:id:into:)`` as a whole operation (a context mapping a payload loads a model
    /// it does not hold): the load, then the relationships of what it registered.
    func loadModelAndRelationships<M: Model>(_ type: M.Type, id identifier: AnyHashable, into context: ModelContext) throws -> M? {
        try context.performMapping {
            let model = try loadModel(M.self, id: identifier, into: context)
            try fillToManyNow(in: context)
            return model
        }
    }

    /// Fills the noted owners' relationships through a connection that reads without
    /// suspending, in the caller's mapping run (all or nothing with the read).
    func fillToManyNow(in context: ModelContext?) throws {
        guard let context, !ownersToFill.isEmpty else { return }
        guard let synchronous else {
            throw StoreError(.misusedTransaction, reason: "a relationship was to be filled without suspending by a store that cannot")
        }
        while let (table, allOwners) = takeOwners() {
            for toMany in table.toManyThroughInverse {
                let owners = allOwners.filter { $0.fills(toMany.property.name) }
                guard !owners.isEmpty else { continue }
                let related = try toMany.relatedTable()
                let inverse = try toMany.inverseColumn(in: related)
                // The related rows' other to-one references load first, in one query each.
                let prefetches = prefetchesReferences(of: related, context: context, skipping: inverse)
                // A query per chunk of owners, each chunk's arrays set from its own query's rows.
                for owners in owners.chunked(StoreToMany.chunk) {
                    let query = try toMany.query(related, owners: owners.map(\.identifier))
                    if !prefetches, let inPlace = synchronous as? any InPlaceRowReading {
                        try inPlace.withRows(query) { next in
                            try fill(toMany, of: owners, table: table, related: related, rows: next, context: context)
                        }
                    } else {
                        let rows = try synchronous.selectRowsNow(query)
                        if prefetches { try prefetchReferences(of: rows, table: related, skipping: inverse) }
                        try fill(toMany, of: owners, table: table, related: related, rows: Self.stepping(rows, related), context: context)
                    }
                }
            }
            try fillManyToManyNow(table, owners: allOwners, context: context, synchronous: synchronous)
        }
    }

    /// Fills the noted owners' relationships through any connection: each query's rows fetched,
    /// then read in a mapping run of their own (in rounds, when their references need rows
    /// that are not at hand).
    func fillToMany(in context: ModelContext?, connection: any StoreConnection) async throws {
        guard let context else { return }
        while let (table, allOwners) = takeOwners() {
            for toMany in table.toManyThroughInverse {
                let owners = allOwners.filter { $0.fills(toMany.property.name) }
                guard !owners.isEmpty else { continue }
                let related = try toMany.relatedTable()
                var rows: [StoredRow] = []
                for chunk in owners.chunked(StoreToMany.chunk) {
                    rows += try await connection.selectRows(try toMany.query(related, owners: chunk.map(\.identifier)))
                }
                let inverse = try toMany.inverseColumn(in: related)
                if prefetchesReferences(of: related, context: context, skipping: inverse) {
                    try prefetchReferences(of: rows, table: related, skipping: inverse)
                }
                try await inRounds(context, connection: connection) {
                    try fill(toMany, of: owners, table: table, related: related, rows: Self.stepping(rows, related), context: context)
                }
            }
            try await fillManyToMany(table, owners: allOwners, context: context, connection: connection)
        }
    }

    /// Runs `read` in a mapping run of `context`, again after each round that fetched the rows
    /// it lacked, until it needs none (a failed run registered nothing).
    func inRounds(_ context: ModelContext, connection: any StoreConnection, _ read: () throws -> Void) async throws {
        while true {
            let mark = ownersToFill.count
            do {
                try context.performMapping(read)
                return
            } catch {
                forgetOwners(since: mark)
                forgetCycles()
                guard hasMissing else { throw error }
                try await fetchMissing(from: connection)
            }
        }
    }

    /// Drops the owners a failed read noted (it registered nothing).
    func forgetOwners(since mark: Int) {
        if ownersToFill.count > mark { ownersToFill.removeSubrange(mark...) }
    }

    /// The noted owners of one table, taken off the list.
    private func takeOwners() -> (StoreTable, [OwnerToFill])? {
        guard let table = ownersToFill.first?.table else { return nil }
        var taken: [OwnerToFill] = []
        ownersToFill.removeAll { entry in
            guard entry.table === table else { return false }
            taken.append(entry)
            return true
        }
        return (table, taken)
    }

    /// A function stepping through rows copied out of an engine, each with its version after
    /// the columns (as a row read in place has it).
    static func stepping(_ rows: [StoredRow], _ table: StoreTable) -> () throws -> StoreRowColumns? {
        var iterator = rows.makeIterator()
        return {
            guard let row = iterator.next() else { return nil }
            return .values(row.values + [.integer(Int64(row.version))])
        }
    }

    /// Reads the related rows `next` steps to and sets each owner's relationship to those
    /// that refer to it, ordered by identifier.
    private func fill(
        _ toMany: StoreToMany, of owners: [OwnerToFill], table: StoreTable, related: StoreTable,
        rows next: () throws -> StoreRowColumns?, context: ModelContext
    ) throws {
        guard let ownerType = table.schema.modelType as? any Model.Type else { return }
        let inverseColumn = try toMany.inverseColumn(in: related)
        func fill<Owner: Model, Element: Model>(_: Owner.Type, _: Element.Type) throws {
            // The models as references (a to-many's elements are identified class instances), in
            // arrays of concrete types: an array of a generic element, in this unspecialized code,
            // copies each element through its metadata. Three arrays rather than one of tuples, for
            // the same reason.
            guard isClassType(Element.self) else {
                throw StoreError(.unknownKeyPath, table: table.name, reason: "'\(toMany.property.name)' holds no class instances")
            }
            var ownerOf: [StoreValue] = []
            var identifiers: [StoreValue] = []
            var objects: [AnyObject] = []
            var reader = StoreRowReader(columns: .values([]), table: related, context: context, loader: self)
            let decoder = lazy?.decoder(of: table, toMany.property.name, Element.self) ?? StoreModelDecoder()
            while let row = try next() {
                reader.start(row)
                ownerOf.append(row[inverseColumn])
                identifiers.append(row[related.identifierColumn])
                let model = try model(
                    Element.self, reading: &reader, version: row.version(after: related.columns.count), table: related,
                    context: context, decoder: decoder)
                // Unsafe: `Element` is a class (checked above), so `model` is one reference, which
                // this reinterprets without `as AnyObject`'s dynamic cast.
                objects.append(unsafeBitCast(model, to: AnyObject.self))
            }
            // Through an index on the inverse (SQLite's `IN` walks it), the rows come grouped by
            // owner and in identifier order already: then each owner's models are one run.
            func precedes(_ a: Int, _ b: Int) -> Bool {
                let byOwner = StoreValue.compare(ownerOf[a], ownerOf[b])
                return byOwner != 0 ? byOwner < 0 : StoreValue.compare(identifiers[a], identifiers[b]) < 0
            }
            if objects.indices.dropFirst().contains(where: { precedes($0, $0 - 1) }) {
                let order = objects.indices.sorted(by: precedes)
                ownerOf = order.map { ownerOf[$0] }
                objects = order.map { objects[$0] }
            }
            var runs: [StoreValue: Range<Int>] = [:]
            runs.reserveCapacity(owners.count)
            var start = 0
            while start < objects.count {
                var end = start + 1
                while end < objects.count, ownerOf[end] == ownerOf[start] { end += 1 }
                runs[ownerOf[start]] = start..<end
                start = end
            }
            try setRelationship(toMany.property, of: owners, as: Owner.self, Element.self, table: table, context: context) { entry in
                runs[entry.identifier].map { Array(objects[$0]) } ?? []
            }
        }
        try fill(ownerType, toMany.related.type)
    }

    /// Sets the relationship `property` of each owner to the models `objects` gives it, each an
    /// `Element` (nil leaves it as it is), as ``setRelationship(_:of:as:table:context:_:)`` does:
    /// through the owner's generated writer where it has one, which takes references as they
    /// are; through the property's key path otherwise.
    func setRelationship<Owner: Model, Element: Model>(
        _ property: ModelProperty, of owners: [OwnerToFill], as _: Owner.Type, _: Element.Type, table: StoreTable,
        context: ModelContext, _ objects: (OwnerToFill) -> [AnyObject]?
    ) throws {
        guard let index = table.schema.index(ofProperty: property.name), isClassType(Element.self) else {
            throw StoreError(.unknownKeyPath, table: table.name, reason: "'\(property.name)' cannot be set to the related models")
        }
        var throughKeyPath: [OwnerToFill] = []
        let tracker = context.tracker as? ContextTracker
        try ModelInverses.withoutKeeping {
            for entry in owners {
                guard let related = objects(entry) else { continue }
                let owner = entry.owner
                let written: Bool
                if let tracker {
                    written = try tracker.applying(owner, table: table) { owner._modelKitSetRelationship(index, to: related) }
                } else {
                    written = owner._modelKitSetRelationship(index, to: related)
                }
                if !written { throughKeyPath.append(entry) }
            }
        }
        guard !throughKeyPath.isEmpty else { return }
        try setRelationship(property, of: throughKeyPath, as: Owner.self, table: table, context: context) { entry in
            // Unsafe: each object is an `Element` (a class, checked above), read as one.
            objects(entry)?.map { unsafeBitCast($0, to: Element.self) }
        }
    }

    /// Sets the relationship `property` of each owner to the models `elements` gives it (nil
    /// leaves it as it is), keeping no inverse (the rows hold both sides), and in a tracking
    /// context as no edit.
    func setRelationship<Owner: Model, Element: Model>(
        _ property: ModelProperty, of owners: [OwnerToFill], as _: Owner.Type, table: StoreTable, context: ModelContext,
        _ elements: (OwnerToFill) -> [Element]?
    ) throws {
        guard let keyPath = property.keyPath as? ReferenceWritableKeyPath<Owner, [Element]> else {
            throw StoreError(.unknownKeyPath, table: table.name, reason: "'\(property.name)' cannot be set to the related models")
        }
        let tracker = context.tracker as? ContextTracker
        try ModelInverses.withoutKeeping {
            for entry in owners {
                guard let owner = entry.owner as? Owner, let elements = elements(entry) else { continue }
                if let tracker {
                    try tracker.applying(owner, table: table) { owner[keyPath: keyPath] = elements }
                } else {
                    owner[keyPath: keyPath] = elements
                }
            }
        }
    }
}
