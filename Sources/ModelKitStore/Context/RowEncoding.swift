import Foundation
import ModelKitCore

/// A model's row, for a context's unit of work: encoded with the store's row writer, compared
/// column by column, and read back into a live instance with the store's row reader, so the
/// baselines a context keeps are the rows the store holds.
enum RowEncoding {
    /// The table of `model`'s own class.
    static func table(of model: any Model) throws -> StoreTable {
        func table<M: Model>(_ model: M) throws -> StoreTable { try StoreTable.of(M.self) }
        return try table(model)
    }

    /// `model`'s row, and the identified class models it refers to; `saving` when the row goes to
    /// the store (see ``StoreRowWriter/checksInverses``).
    static func row(
        of model: any Model, table: StoreTable, saving: Bool = false
    ) throws -> (values: [StoreValue], references: [any Model]) {
        func encode<M: Model>(_ model: M) throws -> (values: [StoreValue], references: [any Model]) {
            var writer = StoreRowWriter(columnCount: table.columns.count)
            writer.checksInverses = saving
            do {
                try writer.writeRow(model, table: table)
            } catch {
                throw StoreError.wrapping(
                    error, as: .unencodableValue, table: table.name, identifier: model.modelIdentifier.map(describeIdentifier))
            }
            return (writer.values, writer.references)
        }
        return try encode(model)
    }

    /// Sets every stored property of the live instance `model` from `values` (its identifier
    /// too only when `restoringIdentifier`: a rollback), references resolving through `context`
    /// (and loaded through `loader` when not live).
    static func apply(
        _ values: [StoreValue], to model: any Model, table: StoreTable, context: ModelContext?, loader: (any ModelLoading)?,
        restoringIdentifier: Bool = false
    ) throws {
        // A stored row holds NULL where the store keeps a to-many elsewhere: the instance keeps
        // what it holds there.
        var values = values
        let keptElsewhere = table.columns.indices.filter { table.keepsElsewhere(column: $0) && values[$0] == .null }
        if !keptElsewhere.isEmpty {
            let current = try row(of: model, table: table).values
            for column in keptElsewhere { values[column] = current[column] }
        }
        // Set, not read: a relationship the store left for first access stays so (what is set
        // there is the empty value it holds meanwhile).
        let observable = model as? any ObservableModel
        let faults = observable?._modelKitFaults
        observable?._modelKitFaults = nil
        defer { if let faults { observable?._modelKitFaults = faults } }
        func apply<M: Model>(_ model: M) throws {
            guard let identifierIndex = table.schema.identifierIndex else { throw StoreError.notIdentified(table.schema) }
            var reader = StoreRowReader(row: values, table: table, context: context, loader: loader)
            var fields = InPlaceFields(model: model, identifierIndex: restoringIdentifier ? -1 : identifierIndex)
            do {
                try reader.decodeFields(of: table.schema, into: &fields)
            } catch {
                fields.restore()
                throw StoreError.wrapping(error, table: table.name, identifier: values[table.identifierColumn].quotedDescription)
            }
        }
        // The row holds both sides of its relationships already: no inverse to keep.
        try ModelInverses.withoutKeeping { try apply(model) }
    }

    /// The columns where two rows the context encoded differ.
    static func differingColumns(_ row: [StoreValue], _ baseline: [StoreValue]) -> [Int] {
        row.indices.filter { $0 >= baseline.count || row[$0] != baseline[$0] }
    }

    /// The columns where a row read from the store holds other values than a baseline the
    /// context encoded: JSON text compares by value (PostgreSQL's `jsonb` orders keys its own
    /// way), dates to the microsecond (PostgreSQL's `timestamptz` keeps no more).
    ///
    /// A to-many kept in its inverse's column or a join table is not compared (the store's column is `NULL`).
    /// A `NULL` where the property has a default is the default, which is what the baseline holds:
    /// a column a newer version of the model added reads so in every older row.
    static func changedColumns(stored: [StoreValue], baseline: [StoreValue], table: StoreTable) -> [Int] {
        stored.indices.filter { index in
            guard index < baseline.count else { return true }
            // The store keeps it in the related rows: they tell whether it changed.
            if table.keepsElsewhere(column: index) { return false }
            if stored[index] == .null, index < table.columns.count,
                table.schema.properties[table.columns[index].field].hasDefault
            {
                return false
            }
            return !sameValue(stored[index], baseline[index])
        }
    }

    private static func sameValue(_ stored: StoreValue, _ baseline: StoreValue) -> Bool {
        if stored == baseline { return true }
        guard case .text(let storedText) = stored, case .text(let baselineText) = baseline else { return false }
        if let storedDate = StoreDates.parse(storedText), let baselineDate = StoreDates.parse(baselineText) {
            return abs(storedDate.timeIntervalSince(baselineDate)) < 0.000_001
        }
        guard let storedJSON = try? JSONValue(parsing: storedText), storedJSON.isContainer,
            let baselineJSON = try? JSONValue(parsing: baselineText)
        else { return false }
        return storedJSON.normalized == baselineJSON.normalized
    }

    /// The property names of `columns`.
    static func propertyNames(_ columns: [Int], table: StoreTable) -> [String] {
        columns.map { table.columns[$0].name }
    }
}

extension JSONValue {
    /// The value with every object's members in key order, to compare objects by content.
    fileprivate var normalized: JSONValue {
        switch self {
        case .array(let elements): return .array(elements.map(\.normalized))
        case .object(let members):
            return .object(members.map { JSONMember($0.key, $0.value.normalized) }.sorted { $0.key < $1.key })
        default: return self
        }
    }
}
