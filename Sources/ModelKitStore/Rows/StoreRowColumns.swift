import Foundation
import ModelKitCore

/// The columns of the row a ``StoreRowReader`` reads: values already in memory, or the row an
/// SQLite statement is on, read in place as the model's decoder asks for each column.
///
/// Both sides answer the same questions the same way (a column's storage class, its integer,
/// real, text or bytes), so a model read from a statement is the model read from its values:
/// reading in place only skips the copy of every row into ``StoreValue``s first.
// @usableFromInline: the type of StoreRowReader's `columns`, whose inlinable accessors below the reader's inlinable
// reads call per column.
@usableFromInline
package enum StoreRowColumns {
    /// Values in column order: memory and PostgreSQL rows, rows a loader fetched for references.
    case values([StoreValue])
    /// The current row of an SQLite statement, valid until the statement steps or resets.
    case sqlite(SQLiteRow)

    /// The value of column `index`, copied out (for messages, JSON text and the slow paths).
    package subscript(index: Int) -> StoreValue {
        switch self {
        case .values(let values): return values[index]
        case .sqlite(let row): return row.value(at: index)
        }
    }

    /// Every column's value, in order.
    package var values: [StoreValue] {
        switch self {
        case .values(let values): return values
        case .sqlite(let row): return (0..<row.count).map(row.value(at:))
        }
    }

    /// The model version a row was written with: the whole number after its `count` model
    /// columns, where a store's select puts it (0 when there is none).
    func version(after count: Int) -> Int {
        if case .values(let values) = self, !values.indices.contains(count) { return 0 }
        if let version = integer(count) { return Int(exactly: version) ?? 0 }
        return real(count).flatMap { Int(exactly: $0) } ?? 0
    }

    /// The row as a loader keeps it: the values of its `count` model columns, and its version.
    func stored(count: Int) -> StoredRow {
        StoredRow(values: (0..<count).map { self[$0] }, version: version(after: count))
    }

    /// The rows `next` steps to, each copied out as ``stored(count:)`` does.
    static func copies(of next: () throws -> StoreRowColumns?, count: Int) throws -> [StoredRow] {
        var rows: [StoredRow] = []
        while let row = try next() { rows.append(row.stored(count: count)) }
        return rows
    }

    /// Whether column `index` holds `NULL`.
    // @inlinable: asked per column by the reader's inlinable decodeFields, readMembers and decodeNil(), in the
    // caller's module; inlined there, a switch and SQLiteRow.type(_:).
    @inlinable
    func isNull(_ index: Int) -> Bool {
        switch self {
        case .values(let values): return values[index] == .null
        case .sqlite(let row): return row.isNull(index)
        }
    }

    /// Whether column `index` holds text.
    // @inlinable: not called by any inlinable body (only the reader's shape(of:), out of line): a candidate for
    // removal.
    @inlinable
    func isText(_ index: Int) -> Bool {
        switch self {
        case .values(let values):
            if case .text = values[index] { return true }
            return false
        case .sqlite(let row): return row.isText(index)
        }
    }

    /// The integer column `index` holds, if it holds one.
    // @inlinable: read per column by the reader's inlinable decodeInt64() and decodeBool(), as isNull(_:).
    @inlinable
    func integer(_ index: Int) -> Int64? {
        switch self {
        case .values(let values):
            if case .integer(let value) = values[index] { return value }
            return nil
        case .sqlite(let row): return row.integer(index)
        }
    }

    /// The floating-point number column `index` holds, if it holds one.
    // @inlinable: read per column by the reader's inlinable decodeDouble(), as isNull(_:).
    @inlinable
    func real(_ index: Int) -> Double? {
        switch self {
        case .values(let values):
            if case .real(let value) = values[index] { return value }
            return nil
        case .sqlite(let row): return row.real(index)
        }
    }

    /// The text column `index` holds, if it holds text.
    // @inlinable: read per column by the reader's inlinable decodeString(), as isNull(_:).
    @inlinable
    func text(_ index: Int) -> String? {
        switch self {
        case .values(let values):
            if case .text(let text) = values[index] { return text }
            return nil
        case .sqlite(let row): return row.text(index)
        }
    }

    /// Runs `body` over the UTF-8 bytes of the text column `index` holds, without making a
    /// `String` where the row allows; nil when the column does not hold text.
    // @inlinable: read per column by the reader's inlinable decodeDate(), as isNull(_:).
    // Unsafe: `body` gets the text's UTF-8 in place (the string's storage, or SQLite's), valid during the call, so a
    // date is parsed with no String made.
    @inlinable
    func withText<T>(_ index: Int, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T? {
        switch self {
        case .values(let values):
            guard case .text(var text) = values[index] else { return nil }
            // Unsafe: the string's UTF-8 in place (made contiguous first if need be), valid during the call.
            return try text.withUTF8 { try body(UnsafeRawBufferPointer($0)) }
        case .sqlite(let row): return try row.withText(index, body)
        }
    }

    /// The bytes column `index` holds, if it holds a blob.
    func blob(_ index: Int) -> Data? {
        switch self {
        case .values(let values):
            if case .blob(let data) = values[index] { return data }
            return nil
        case .sqlite(let row): return row.blob(index)
        }
    }
}
