import Foundation
import GRDB

#if canImport(GRDBSQLite)
    import GRDBSQLite
#elseif canImport(SQLite3)
    import SQLite3
#endif

// The store's hot statements bind their values straight to SQLite: a row of stored values is
// already in SQLite's storage classes, so it needs neither `StatementArguments` nor
// `DatabaseValueConvertible` boxing on the way (GRDB's own per-value path builds both).

extension Statement {
    /// Prepares a cached statement for ``bindAndExecute(_:version:)``: GRDB validates the
    /// argument count once, and from then on only resets the statement before each execution.
    func prepareForBinding(count: Int) {
        setUncheckedArguments(StatementArguments(Array(repeating: DatabaseValue.null, count: count)))
    }

    /// Binds a row's values, then the version, to `?1...?n+1` and runs the statement.
    func bindAndExecute(_ values: [StoreValue], version: Int) throws {
        let statement = sqliteStatement
        sqlite3_reset(statement)
        for (index, value) in values.enumerated() {
            value.bind(to: statement, at: CInt(index + 1))
        }
        sqlite3_bind_int64(statement, CInt(values.count + 1), Int64(version))
        try execute()
    }
}

/// SQLite copies text and blobs bound with this destructor.
// Unsafe: SQLite's `SQLITE_TRANSIENT`, the C macro `((sqlite3_destructor_type)-1)`, which Swift does not import:
// a pointer-sized -1 that SQLite compares against and never calls.
private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

extension StoreValue {
    /// Binds the value to a placeholder of a statement that was reset.
    // Unsafe: `statement` is GRDB's handle of a statement the caller holds; only SQLite dereferences it.
    func bind(to statement: OpaquePointer, at index: CInt) {
        switch self {
        case .null:
            sqlite3_bind_null(statement, index)
        case .integer(let number):
            sqlite3_bind_int64(statement, index, number)
        case .real(let number):
            sqlite3_bind_double(statement, index, number)
        case .text(var text):
            // Unsafe: the string's UTF-8 in place with its length (no C string made, a NUL byte kept), valid during
            // the call: `transient` makes SQLite copy it before returning.
            text.withUTF8 { bytes in
                // A NULL pointer would bind SQL NULL: an empty string is bound as empty text.
                guard let start = bytes.baseAddress else { return _ = sqlite3_bind_text(statement, index, "", 0, transient) }
                _ = sqlite3_bind_text(statement, index, start, CInt(bytes.count), transient)
            }
        case .blob(let data):
            // Unsafe: the data's bytes in place with their count, valid during the call: `transient` makes SQLite
            // copy them before returning.
            data.withUnsafeBytes { bytes in
                // A NULL pointer would bind SQL NULL (empty data may have none): empty data is bound
                // as an empty blob.
                guard let start = bytes.baseAddress else { return _ = sqlite3_bind_zeroblob(statement, index, 0) }
                _ = sqlite3_bind_blob(statement, index, start, CInt(bytes.count), transient)
            }
        }
    }
}
