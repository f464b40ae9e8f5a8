import Foundation
import ModelKitCore

/// A column that refers to identified class models of one type: a to-one (the identifier, or
/// `NULL`) or a to-many that keeps its identifiers (a JSON array of them). How a delete of those models reaches the
/// rows that refer to them.
package struct StoreReference: Sendable {
    /// The table holding the column.
    package let table: StoreTable
    /// The column's index in ``table``.
    package let column: Int
    /// The table of the models the column refers to.
    package let target: StoreTable
    /// Whether the column holds an array of identifiers.
    package let isToMany: Bool

    /// The column's property.
    var property: ModelProperty { table.schema.properties[table.columns[column].field] }
    /// The column's name.
    var name: String { table.columns[column].name }
    /// Whether the column may hold `NULL` (an optional to-one); a to-many can always lose an element.
    var canBeNil: Bool { isToMany || table.columns[column].isOptional }
}

extension StoreTable {
    /// The references this table's own columns hold, one per column that refers to identified
    /// class models (whose tables this builds, so a delete here can reach them).
    func outgoingReferences() throws -> [StoreReference] {
        try columns.indices.compactMap { index in
            // A to-many kept in its inverse's column or a join table holds nothing here: the rows
            // of those refer to this one.
            guard let (type, isToMany) = columns[index].kind.referencedIdentifiedClass, !keepsElsewhere(column: index)
            else { return nil }
            return StoreReference(table: self, column: index, target: try StoreTable.of(type), isToMany: isToMany)
        }
    }

    /// The references to this table's models from every table this process has built: the
    /// tables of models it saved, fetched or deleted, and the related models of this model's own
    /// relationships (built here). A table no code of the process has touched is not seen.
    func incomingReferences() throws -> [StoreReference] {
        for property in schema.properties where property.relationship != nil {
            if let (type, _) = property.valueKind.referencedIdentifiedClass { _ = try StoreTable.of(type) }
        }
        return try StoreTable.known.flatMap { table in
            try table.outgoingReferences().filter { $0.target === self }
        }
    }

    /// What deleting a model of this table does to a row that refers to it through `reference`:
    /// the rule of this model's relationship whose inverse is that column; else the column
    /// becomes nil (or loses the element) when it can, and the delete is refused when it cannot.
    func deleteRule(for reference: StoreReference) -> (rule: DeleteRule, isDeclared: Bool) {
        let referrer = ObjectIdentifier(reference.table.schema.modelType)
        for property in schema.properties {
            guard let relationship = property.relationship, relationship.inverse == reference.name,
                let (type, _) = property.valueKind.referencedIdentifiedClass, ObjectIdentifier(type) == referrer
            else { continue }
            return (relationship.deleteRule, true)
        }
        return (reference.canBeNil ? .nullify : .deny, false)
    }

    /// The relationships of this model without an inverse whose rule reaches the related rows
    /// when a model is deleted (`.cascade`, `.deny`); those with an inverse are reached from
    /// the related table's column.
    func rulesWithoutInverse() throws -> [(reference: StoreReference, rule: DeleteRule)] {
        try outgoingReferences().compactMap { reference in
            guard let relationship = reference.property.relationship, relationship.inverse == nil,
                relationship.deleteRule == .cascade || relationship.deleteRule == .deny
            else { return nil }
            return (reference, relationship.deleteRule)
        }
    }

}

extension StoreReference {
    /// The identifiers a stored value of the column holds: none for `NULL`, one for a to-one,
    /// the elements of a to-many's JSON array.
    func identifiers(in value: StoreValue) throws -> [StoreValue] {
        guard value != .null else { return [] }
        guard isToMany else { return [value] }
        guard case .text(let text) = value, case .array(let elements) = try JSONValue(parsing: text) else {
            throw StoreError(
                .undecodableRow, table: table.name,
                reason: "'\(name)' holds \(value.quotedDescription), not a JSON array of identifiers")
        }
        return elements.compactMap(StoreValue.init(identifierIn:))
    }

    /// The column's value without the identifiers in `removed`: `NULL` for a to-one, the array
    /// without them for a to-many.
    func value(_ value: StoreValue, removing removed: Set<StoreValue>) throws -> StoreValue {
        guard isToMany else { return .null }
        let kept = try identifiers(in: value).filter { !removed.contains($0) }.map(\.jsonIdentifier)
        return .text(try JSONValue.array(kept).jsonString())
    }
}

extension StoreValue {
    /// An identifier as a to-many's JSON array holds it (a number or a string), as a column
    /// would; nil for any other JSON value.
    init?(identifierIn element: JSONValue) {
        switch element {
        case .int(let number): self = .integer(number)
        case .string(let text): self = .text(text)
        default: return nil
        }
    }

    /// The identifier as a to-many's JSON array holds it.
    var jsonIdentifier: JSONValue {
        switch self {
        case .integer(let number): return .int(number)
        case .text(let text): return .string(text)
        default: return .null
        }
    }
}
