import Foundation
import ModelKitCore
import ModelKitJSON

/// A many-to-many relationship a store keeps in a join table: `Post.tags`, whose inverse
/// `Tag.posts` is a to-many too, is the rows of `Post_tags`, one per post and tag.
///
/// Both sides share one join table, named after the side whose `Model.property` sorts first
/// (`Post_tags`). Besides its identifier, it has a column per side, each named after the
/// property whose models it holds: `"posts"` holds the posts (of some tag's `posts`), `"tags"`
/// the tags. Raw SQL joins through it as through any join table:
///
/// ```sql
/// SELECT "Tag".* FROM "Tag" JOIN "Post_tags" ON "Post_tags"."tags" = "Tag"."id" WHERE "Post_tags"."posts" = 1
/// ```
///
/// The owners' own columns hold `NULL` (a context's baselines still hold the identifiers, so a
/// change of the array is a change of the owner). Saving an owner replaces its join rows;
/// deleting one removes them (and applies its side's delete rule to the related models); a read
/// fills the arrays with one query of the join table and one of the related table per
/// relationship and level, ordered by the related identifiers.
package struct StoreManyToMany: StoreToManyKeptElsewhere {
    /// The owner's column (the to-many property's).
    package let column: Int
    /// The owner's property.
    package let property: ModelProperty
    /// The related model type.
    let related: AnyModelType
    /// The related model's to-many that refers back.
    package let inverse: ModelProperty
    /// The join table's name.
    let joinName: String
    /// Whether this side is the one the join table is named after (its owners' column comes first).
    let isFirstSide: Bool
    /// The model types of the side the join table is named after, then of the other side.
    private let sides: (first: AnyModelType, second: AnyModelType)
    /// The properties of those sides, in the same order.
    private let properties: (first: ModelProperty, second: ModelProperty)

    /// The relationship of `property` (at `column` of a table of `schema`), when it is a to-many
    /// of identified class models whose inverse is a stored to-many.
    init?(column: Int, property: ModelProperty, in schema: ModelSchema) {
        guard let (related, inverse) = property.storedToManyInverse(in: schema), inverse.isToMany,
            let owner = schema.modelType as? any Model.Type
        else { return nil }
        self.column = column
        self.property = property
        self.related = AnyModelType(related)
        self.inverse = inverse.property
        let relatedSchema = related.modelSchema
        let own = "\(schema.modelName).\(property.name)"
        let other = "\(relatedSchema.modelName).\(inverse.property.name)"
        isFirstSide = own <= other
        sides = isFirstSide ? (AnyModelType(owner), AnyModelType(related)) : (AnyModelType(related), AnyModelType(owner))
        properties = isFirstSide ? (property, inverse.property) : (inverse.property, property)
        joinName = "\(sides.first.schema.storeTableName)_\(properties.first.name)"
    }

    /// The related model's table.
    package func relatedTable() throws -> StoreTable {
        try StoreTable.of(related.type)
    }

    /// The join table's column holding the owners' identifiers (1 or 2; 0 is its identifier).
    package var ownerColumn: Int { isFirstSide ? 1 : 2 }
    /// The join table's column holding the related models' identifiers.
    package var relatedColumn: Int { isFirstSide ? 2 : 1 }

    /// The join table, built once per process and shared by both sides.
    package func joinTable() throws -> StoreTable {
        if let table = Self.joinTables.withLock({ $0[joinName] }) { return table }
        // The first side's owners' column holds what the second side's property holds, and is
        // named after it: `"posts"` holds posts.
        let (first, second) = (sides.first.schema, sides.second.schema)
        guard let firstIdentifier = first.identifier, let secondIdentifier = second.identifier else {
            throw StoreError.notIdentified(first.identifier == nil ? first : second)
        }
        let ownersName = properties.second.name == properties.first.name ? properties.second.name + "_inverse" : properties.second.name
        func column(_ name: String, keyPath: KeyPath<StoreJoinRow, StoreValue>, like identifier: ModelProperty) -> ModelProperty {
            ModelProperty(
                name, keyPath: keyPath, type: identifier.valueType, kind: identifier.valueKind, typeName: identifier.typeName,
                declaredIn: joinName)
        }
        let schema = ModelSchema(
            name: joinName, type: StoreJoinRow.self, tableName: joinName,
            indexes: [ModelIndex([ownersName]), ModelIndex([properties.first.name])],
            properties: [
                ModelProperty("id", keyPath: \StoreJoinRow.id, declaredIn: joinName, flags: .identifier),
                column(ownersName, keyPath: \.first, like: firstIdentifier),
                column(properties.first.name, keyPath: \.second, like: secondIdentifier),
            ])
        let table = try StoreTable(schema: schema, isClass: false, migrates: false, joined: sides)
        return Self.joinTables.withLock { tables in
            if let existing = tables[joinName] { return existing }
            tables[joinName] = table
            return table
        }
    }

    private static let joinTables = Locked<[String: StoreTable]>([:])

    /// The join rows of `owners` (at most ``StoreToMany/chunk``), by related identifier when
    /// `ordered` (a read; a delete needs no order).
    func query(_ join: StoreTable, owners: [StoreValue], ordered: Bool = true) -> ResolvedQuery {
        let order = ordered ? [StoreOrdering(column: join.columns[relatedColumn].name, order: .ascending)] : []
        return ResolvedQuery(
            table: join, condition: .isIn(column: join.columns[ownerColumn].name, owners), orderings: order, limit: nil, offset: 0)
    }

    /// The join row saying that `owner` holds `related`: its identifier is the JSON array of
    /// both, the first side's first, so both sides write the same row.
    func joinRow(owner: StoreValue, related: StoreValue) throws -> [StoreValue] {
        let (first, second) = isFirstSide ? (owner, related) : (related, owner)
        let identifier = try JSONValue.array([first.jsonIdentifier, second.jsonIdentifier]).jsonString()
        return [.text(identifier), first, second]
    }

    /// Replaces the join rows of the owners in `rows` (rows of `table` as a context or a save
    /// encoded them, the column holding the related identifiers) with those their arrays hold.
    func replaceJoinRows(of rows: [[StoreValue]], table: StoreTable, connection: any StoreConnection) async throws {
        let join = try joinTable()
        let reference = StoreReference(table: table, column: column, target: try relatedTable(), isToMany: true)
        var joinRows: [[StoreValue]] = []
        for row in rows {
            for related in try reference.identifiers(in: row[column]) {
                joinRows.append(try joinRow(owner: row[table.identifierColumn], related: related))
            }
        }
        let owners = rows.map { $0[table.identifierColumn] }
        for chunk in owners.chunked(StoreToMany.chunk) {
            _ = try await connection.delete(query(join, owners: chunk, ordered: false))
        }
        if !joinRows.isEmpty { try await connection.upsert(join, rows: joinRows) }
    }

    /// Checks, before `owner` is saved, that every model of the relationship holds it in its
    /// inverse: both sides write the one join table, so a pair of arrays that disagree (a class
    /// that does not keep inverses, `@Model(observable: false)`) would store whichever was saved last.
    func checkInverses<M: Model>(of owner: M) throws {
        try checkElements(
            of: owner, property: property,
            expected: "models whose '\(inverse.name)' holds this model (the store keeps both in one join table)"
        ) { element in
            func holdsOwner<E: Model>(_ element: E) -> Bool {
                guard let back = element[keyPath: inverse.keyPath] as? [any Model] else { return false }
                return back.contains { ($0 as AnyObject) === (owner as AnyObject) }
            }
            return holdsOwner(element) ? nil : "whose '\(inverse.name)' does not: add it, or use an observable model, which keeps inverses"
        }
    }
}

/// The key paths a join table's schema names: no Swift value is ever read from or written to a
/// join row through them (the store reads join rows as values).
struct StoreJoinRow {
    var id: String
    var first: StoreValue
    var second: StoreValue
}

extension StoreTable {
    /// The many-to-many kept in a join table whose own column is `index`, if it is one.
    func manyToMany(atColumn index: Int) -> StoreManyToMany? {
        manyToMany.first { $0.column == index }
    }

    /// Whether the store keeps column `index` elsewhere (in the related rows or a join table),
    /// holding `NULL` in this table.
    func keepsElsewhere(column index: Int) -> Bool {
        keptElsewhere.contains { $0.column == index }
    }
}

extension StoreConnection {
    /// Upserts rows of `table` as the store keeps them (``StoreTable/storedRows(_:)``) and
    /// replaces the join rows of its many-to-many relationships.
    func store(_ table: StoreTable, rows: [[StoreValue]]) async throws {
        try await upsert(table, rows: table.storedRows(rows))
        for manyToMany in table.manyToMany { try await manyToMany.replaceJoinRows(of: rows, table: table, connection: self) }
    }
}
