import Foundation
import ModelKitCore

/// A to-many a store keeps outside its owner's row, in the related rows (``StoreToMany``) or a
/// join table (``StoreManyToMany``): the owner's column holds `NULL`, a read fills the array,
/// and a save checks it against its inverse where the class does not keep inverses.
protocol StoreToManyKeptElsewhere: Sendable {
    /// The owner's column (the to-many property's).
    var column: Int { get }
    /// The owner's property.
    var property: ModelProperty { get }
    /// The related model's table.
    func relatedTable() throws -> StoreTable
    /// Throws when a model of `owner`'s array disagrees with its inverse (see the types).
    func checkInverses<M: Model>(of owner: M) throws
}

/// A to-many relationship a store keeps in its inverse's column: `Post.comments`, whose inverse
/// `Comment.post` is a to-one, is the comments whose `post` column holds the post's identifier.
///
/// The owner's own column holds `NULL` in the store (a context's baselines still hold the
/// identifiers, so a change of the array is a change of the owner and a rollback restores it).
/// A read fills the relationship with one query per relationship for all the owners it
/// registered (``RowLoader``), ordered by the related identifiers: the rows hold no order.
/// Raw SQL sees one fact in one place, a delete or a `.cascade` reaches the related rows through
/// their column, and no array can disagree with its inverse.
package struct StoreToMany: StoreToManyKeptElsewhere {
    /// The owner's column (the to-many property's).
    package let column: Int
    /// The owner's property.
    package let property: ModelProperty
    /// The related model type.
    let related: AnyModelType
    /// The related model's to-one that refers back: its column holds the owner's identifier.
    package let inverse: ModelProperty

    /// The relationship of `property` (at `column` of a table of `schema`), when it is a to-many
    /// of identified class models whose inverse is a stored to-one.
    init?(column: Int, property: ModelProperty, in schema: ModelSchema) {
        guard let (related, inverse) = property.storedToManyInverse(in: schema), !inverse.isToMany else { return nil }
        self.column = column
        self.property = property
        self.related = AnyModelType(related)
        self.inverse = inverse.property
    }

    /// The related model's table.
    package func relatedTable() throws -> StoreTable {
        try StoreTable.of(related.type)
    }

    /// The column of the related table that refers back.
    package func inverseColumn(in related: StoreTable) throws -> Int {
        guard let column = related.column(named: inverse.name) else {
            throw StoreError(
                .unknownKeyPath, table: related.name,
                reason: "'\(inverse.name)', the inverse of '\(property.name)', is not stored")
        }
        return column
    }

    /// The rows of `related` that refer to any of `owners` (at most ``chunk``) through the inverse.
    func query(_ related: StoreTable, owners: [StoreValue]) throws -> ResolvedQuery {
        let name = related.columns[try inverseColumn(in: related)].name
        return ResolvedQuery(table: related, condition: .isIn(column: name, owners), orderings: [], limit: nil, offset: 0)
    }

    /// How many identifiers one query binds: below SQLite's 32,766 variables and PostgreSQL's 65,535.
    static let chunk = 30_000

    /// Checks, before `owner` is saved, that every model of the relationship refers back to it:
    /// the store keeps only that side, so a model whose inverse says otherwise (a class that does
    /// not keep inverses, `@Model(observable: false)`) would leave the array on the next read.
    func checkInverses<M: Model>(of owner: M) throws {
        try checkElements(
            of: owner, property: property,
            expected: "models whose '\(inverse.name)' is this model (the store keeps '\(property.name)' in that column)"
        ) { element in
            func refersBack<E: Model>(_ element: E) -> String? {
                let value = element[keyPath: inverse.keyPath].flatMap(unwrappedOptional)
                guard let other = value.map({ $0 as AnyObject }) else { return "nil" }
                if other === (owner as AnyObject) { return nil }
                return (other as? any Model)?.modelIdentifier.map { "'\($0)'" } ?? "another model"
            }
            return refersBack(element).map { "whose '\(inverse.name)' is \($0): set it, or use an observable model, which keeps inverses" }
        }
    }
}

/// Throws, for the first model of `owner`'s to-many `property` that `disagreement` describes
/// (how it disagrees with its inverse, and what to do), an error expecting `expected`.
func checkElements<M: Model>(
    of owner: M, property: ModelProperty, expected: String, disagreement: (any Model) -> String?
) throws {
    guard let elements = owner[keyPath: property.keyPath] as? [any Model] else { return }
    for element in elements {
        guard let found = disagreement(element) else { continue }
        let identifier = element.modelIdentifier.map { "'\($0)'" } ?? "a model"
        throw ModelError(.invalidValue, expected: expected, found: "\(identifier) \(found)")
    }
}

extension ModelProperty {
    /// The related model type and the inverse of a settable to-many of identified class models
    /// whose inverse is stored: a to-many a store keeps in the inverse's column or a join table.
    func storedToManyInverse(in schema: ModelSchema) -> (related: any Model.Type, inverse: ModelInverse)? {
        guard isMutable, let (related, isToMany) = valueKind.referencedIdentifiedClass, isToMany,
            let inverse = ModelInverses.inverse(of: keyPath, in: schema), !inverse.property.isTransient
        else { return nil }
        return (related, inverse)
    }
}

extension StoreTable {
    /// The to-many kept in its inverse's column whose own column is `index`, if it is one.
    func toManyThroughInverse(atColumn index: Int) -> StoreToMany? {
        toManyThroughInverse.first { $0.column == index }
    }

    /// The values a row of this table is stored with: a to-many kept in its inverse's column or
    /// a join table is `NULL` (the context's row holds its identifiers).
    func storedRow(_ values: [StoreValue]) -> [StoreValue] {
        guard !keptElsewhere.isEmpty else { return values }
        var values = values
        for toMany in keptElsewhere where toMany.column < values.count { values[toMany.column] = .null }
        return values
    }

    /// ``storedRow(_:)`` for each row.
    func storedRows(_ rows: [[StoreValue]]) -> [[StoreValue]] {
        keptElsewhere.isEmpty ? rows : rows.map(storedRow)
    }
}
