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
// @usableFromInline: the payload of StoreRowColumns.sqlite, whose inlinable accessors call the inlinable
// accessors below per column.
@usableFromInline
package struct SQLiteRow {
    // @usableFromInline: passed to SQLite's column calls by the inlinable accessors below.
    // Unsafe: GRDB's statement handle, on this row while the row is used (see above); only SQLite dereferences it.
    @usableFromInline let statement: OpaquePointer
    /// The number of model columns (the version follows them).
    // @usableFromInline: no inlinable body reads it (only StoreRowColumns.values and the cursor, out of line): a
    // candidate for removal.
    @usableFromInline let count: Int
    /// Each column's storage class once asked for (0 until then), for the row the statement is
    /// on: a reader asks whether a column is `NULL`, then reads it, and each of SQLite's column
    /// calls takes the connection's mutex. Owned by the ``SQLiteRowCursor``, which clears it at
    /// each step.
    // @usableFromInline: read and filled by the inlinable type(_:).
    // Unsafe: the select's temporary allocation, a slot per column and one for the version, alive while its rows are
    // (only inside the select's body); a buffer, so that the non-mutating type(_:) fills it through any copy of the
    // row. type(_:) checks each index against its count.
    @usableFromInline let types: UnsafeMutableBufferPointer<CInt>

    // Unsafe: keeps the cursor's statement and the select's buffer as they are, no copy (see `types`).
    init(statement: OpaquePointer, count: Int, types: UnsafeMutableBufferPointer<CInt>) {
        self.statement = statement
        self.count = count
        self.types = types
    }

    /// SQLite's storage class of column `index` (`SQLITE_INTEGER`, ..., `SQLITE_NULL`).
    // @inlinable: asked before every column read (isNull(_:), integer(_:), ...), per column in the caller's module;
    // inlined, a load from `types` and, once per column, SQLite's call.
    @inlinable
    func type(_ index: Int) -> CInt {
        guard index >= 0, index < types.count else { return sqlite3_column_type(statement, CInt(index)) }
        if types[index] == 0 { types[index] = sqlite3_column_type(statement, CInt(index)) }
        return types[index]
    }

    // @inlinable: called per column by the inlinable StoreRowColumns.isNull(_:), in the caller's module.
    @inlinable
    func isNull(_ index: Int) -> Bool {
        type(index) == SQLITE_NULL
    }

    // @inlinable: called only by the inlinable StoreRowColumns.isText(_:), which no inlinable body calls: a candidate
    // for removal with it (usable from inline is enough while that one is inlinable).
    @inlinable
    func isText(_ index: Int) -> Bool {
        type(index) == SQLITE_TEXT
    }

    // @inlinable: called per column by the inlinable StoreRowColumns.integer(_:), in the caller's module.
    @inlinable
    func integer(_ index: Int) -> Int64? {
        type(index) == SQLITE_INTEGER ? sqlite3_column_int64(statement, CInt(index)) : nil
    }

    // @inlinable: called per column by the inlinable StoreRowColumns.real(_:), in the caller's module.
    @inlinable
    func real(_ index: Int) -> Double? {
        type(index) == SQLITE_FLOAT ? sqlite3_column_double(statement, CInt(index)) : nil
    }

    // @inlinable: called per column by the inlinable StoreRowColumns.text(_:), in the caller's module.
    @inlinable
    func text(_ index: Int) -> String? {
        withText(index) { String(decoding: $0, as: UTF8.self) }
    }

    // @inlinable: called per column by the inlinable StoreRowColumns.withText(_:_:), in the caller's module.
    // Unsafe: `body` gets the column's text where SQLite holds it, valid during the call: a date is parsed from it
    // with no String made.
    @inlinable
    func withText<T>(_ index: Int, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T? {
        guard type(index) == SQLITE_TEXT else { return nil }
        // `sqlite3_column_bytes` after `sqlite3_column_text`: the length of the UTF-8 text.
        let start = sqlite3_column_text(statement, CInt(index))
        let length = Int(sqlite3_column_bytes(statement, CInt(index)))
        // Unsafe: SQLite's text and its length in bytes, valid until the statement steps or resets or the column is
        // converted; the bodies given here (a String made, a date parsed) do none of these.
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
