/// A context's identity tables, one per model hierarchy (a subclass shares its root class's
/// table), found by the model type after the first time.
struct IdentityTables {
    private var tables: [ObjectIdentifier: IdentityTable] = [:]
    /// The table of each model type met so far.
    private var tablesByType: [ObjectIdentifier: IdentityTable] = [:]
    /// The last type asked for and its table (kept alive by `tables`): runs of lookups are
    /// mostly of one type, and a hit costs no retain.
    private var lastTable: (type: ObjectIdentifier, table: Unmanaged<IdentityTable>)?

    /// The table of `type`'s hierarchy, not retained (``tables`` keeps it): use it only while
    /// this value lives unchanged.
    @inline(__always)
    mutating func table(for type: any Model.Type, creating: Bool) -> Unmanaged<IdentityTable>? {
        let typeKey = ObjectIdentifier(type)
        if let last = lastTable, last.type == typeKey { return last.table }
        let table: IdentityTable
        if let known = tablesByType[typeKey] {
            table = known
        } else {
            let rootKey = Self.rootKey(type)
            guard let found = tables[rootKey] ?? (creating ? IdentityTable() : nil) else { return nil }
            tables[rootKey] = found
            tablesByType[typeKey] = found
            table = found
        }
        lastTable = (typeKey, .passUnretained(table))
        return .passUnretained(table)
    }

    /// How many instances are alive now.
    func liveCount() -> Int {
        tables.values.reduce(0) { $0 + $1.liveCount() }
    }

    /// Forgets every table.
    mutating func removeAll() {
        tables.removeAll()
        tablesByType.removeAll()
        lastTable = nil
    }

    /// Identity is per model hierarchy: a subclass instance answers for its root class.
    private static func rootKey(_ type: any Model.Type) -> ObjectIdentifier {
        var schema = type.modelSchema
        while let parent = schema.superschema { schema = parent }
        return ObjectIdentifier(schema.modelType)
    }
}
