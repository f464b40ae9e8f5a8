import Foundation
import ModelKitCore

/// Encodes models into rows for a store's save: each model, then the identified class models
/// its rows refer to (each instance once per save), handing every row to `write`.
struct RowEncoder {
    private var writer = StoreRowWriter(columnCount: 0)
    private var saved: Set<ObjectIdentifier> = []
    private var pending: [any Model] = []
    /// Receives each encoded row: the table, the values by column, the version.
    let write: (StoreTable, [StoreValue]) throws -> Void

    init(write: @escaping (StoreTable, [StoreValue]) throws -> Void) {
        self.write = write
        writer.checksInverses = true
    }

    /// Encodes `models` and everything they refer to.
    mutating func encode<S: Sequence>(_ models: S) throws where S.Element: Model {
        let table = try StoreTable.of(S.Element.self)
        for model in models {
            try encode(model, table: table)
            while let next = pending.popLast() { try encodeReference(next) }
        }
    }

    private mutating func encodeReference<M: Model>(_ model: M) throws {
        try encode(model, table: StoreTable.of(M.self))
    }

    private mutating func encode<M: Model>(_ model: M, table: StoreTable) throws {
        if table.isClass, !saved.insert(ObjectIdentifier(model as AnyObject)).inserted { return }
        // A subclass instance saved as its parent (a collection of the parent type, a property of
        // it) would lose its own properties, and read back as the parent: refused.
        let dynamicType = type(of: model)
        if table.isClass, ObjectIdentifier(dynamicType) != ObjectIdentifier(M.self) {
            let identifier = model.modelIdentifier.map(describeIdentifier)
            throw StoreError(
                .unencodableValue, table: table.name, identifier: identifier,
                reason: "it is a '\(dynamicType.modelSchema.modelName)', a subclass the '\(table.name)' table has no "
                    + "columns for: save it as a '\(dynamicType.modelSchema.modelName)', in its own table")
        }
        do {
            // What saves must load back, and loading checks the constraints.
            try model.checkConstraints()
            try writer.writeRow(model, table: table)
        } catch {
            let identifier = model.modelIdentifier.map(describeIdentifier)
            throw StoreError.wrapping(error, as: .unencodableValue, table: table.name, identifier: identifier)
        }
        try write(table, writer.values)
        pending += writer.references
    }
}
