import Foundation
import GRDB

#if canImport(GRDBSQLite)
    import GRDBSQLite
#elseif canImport(SQLite3)
    import SQLite3
#endif

/// The row an SQLite statement is on, read column by column with SQLite's own accessors: the
/// store's columns `0..<count`, then the row's version.
///
/// Valid only while the statement stays on the row (until it steps again or resets). SQLite
/// checks every column index itself (an index past the statement's columns reads as `NULL`), and
/// every text and blob is copied out with the length SQLite gives, so a value is never read past
/// its end, and text holding a NUL byte is kept whole.
@usableFromInline
package struct SQLiteRow {
    @usableFromInline let statement: OpaquePointer
    /// The number of model columns (the version follows them).
    @usableFromInline let count: Int
    /// Each column's storage class once asked for (0 until then), for the row the statement is
    /// on: a reader asks whether a column is `NULL`, then reads it, and each of SQLite's column
    /// calls takes the connection's mutex. Owned by the ``SQLiteRowCursor``, which clears it at
    /// each step.
    @usableFromInline let types: UnsafeMutableBufferPointer<CInt>

    init(statement: OpaquePointer, count: Int, types: UnsafeMutableBufferPointer<CInt>) {
        self.statement = statement
        self.count = count
        self.types = types
    }

    /// SQLite's storage class of column `index` (`SQLITE_INTEGER`, ..., `SQLITE_NULL`).
    @inlinable
    func type(_ index: Int) -> CInt {
        guard index >= 0, index < types.count else { return sqlite3_column_type(statement, CInt(index)) }
        if types[index] == 0 { types[index] = sqlite3_column_type(statement, CInt(index)) }
        return types[index]
    }

    @inlinable
    func isNull(_ index: Int) -> Bool {
        type(index) == SQLITE_NULL
    }

    @inlinable
    func isText(_ index: Int) -> Bool {
        type(index) == SQLITE_TEXT
    }

    @inlinable
    func integer(_ index: Int) -> Int64? {
        type(index) == SQLITE_INTEGER ? sqlite3_column_int64(statement, CInt(index)) : nil
    }

    @inlinable
    func real(_ index: Int) -> Double? {
        type(index) == SQLITE_FLOAT ? sqlite3_column_double(statement, CInt(index)) : nil
    }

    @inlinable
    func text(_ index: Int) -> String? {
        withText(index) { String(decoding: $0, as: UTF8.self) }
    }

    @inlinable
    func withText<T>(_ index: Int, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T? {
        guard type(index) == SQLITE_TEXT else { return nil }
        // `sqlite3_column_bytes` after `sqlite3_column_text`: the length of the UTF-8 text.
        let start = sqlite3_column_text(statement, CInt(index))
        let length = Int(sqlite3_column_bytes(statement, CInt(index)))
        return try body(UnsafeRawBufferPointer(start: start, count: start == nil ? 0 : length))
    }

    func blob(_ index: Int) -> Data? {
        guard type(index) == SQLITE_BLOB else { return nil }
        guard let start = sqlite3_column_blob(statement, CInt(index)) else { return Data() }
        return Data(bytes: start, count: Int(sqlite3_column_bytes(statement, CInt(index))))
    }

    /// The value of column `index`, copied out.
    func value(at index: Int) -> StoreValue {
        switch type(index) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement, CInt(index)))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(statement, CInt(index)))
        case SQLITE_TEXT: return .text(text(index) ?? "")
        case SQLITE_BLOB: return .blob(blob(index) ?? Data())
        default: return .null
        }
    }
}
