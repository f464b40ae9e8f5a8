import ModelKitCore

/// Facts about a model type that archiving or unarchiving computes once per schema.
protocol SchemaInfo: AnyObject {
    /// The schema the facts are about.
    var schema: ModelSchema { get }
}

/// Facts computed once per model schema, found by the schema's identity; the last few found are
/// compared before hashing, since a model and the models it refers to alternate.
///
/// Computing an info may look up others (a model's fields refer to other models), so lookup
/// and insertion are separate calls, not one that runs the computation inside an access.
struct SchemaInfoCache<Info: SchemaInfo> {
    private var infos: [ObjectIdentifier: Info] = [:]
    private var recent: [Info] = []

    /// The info of `schema`, if computed already.
    mutating func info(for schema: ModelSchema) -> Info? {
        for info in recent where info.schema === schema { return info }
        guard let info = infos[ObjectIdentifier(schema)] else { return nil }
        remember(info)
        return info
    }

    /// Keeps a newly computed info.
    mutating func insert(_ info: Info) {
        infos[ObjectIdentifier(info.schema)] = info
        remember(info)
    }

    /// Forgets every info (after a class name changes).
    mutating func removeAll() {
        infos.removeAll()
        recent.removeAll()
    }

    private mutating func remember(_ info: Info) {
        if recent.count == 4 { recent.removeLast() }
        recent.insert(info, at: 0)
    }
}
