import ModelKitCore

extension ModelValueKind {
    /// The SQLite column type the store's row writer writes values of this kind as: `INTEGER`,
    /// `REAL`, `BLOB`, or `TEXT` (strings, dates, decimals, and nested values as JSON text).
    /// An identified class model is a reference: its identifier's type.
    var sqliteColumnType: String {
        switch self {
        case .bool, .integer: return "INTEGER"
        case .float: return "REAL"
        case .data: return "BLOB"
        case .optional(let wrapped): return wrapped.sqliteColumnType
        case .model: return referenceIdentifierKind?.sqliteColumnType ?? "TEXT"
        case .decimal, .string, .date, .url, .uuid, .json, .array, .set, .dictionary, .other: return "TEXT"
        }
    }
}
