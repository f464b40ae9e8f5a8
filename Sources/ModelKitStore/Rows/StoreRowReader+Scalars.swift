import Foundation
import ModelKitCore
import ModelKitJSON

// The scalars a model's columns hold most: a column of the value's own storage class is read in
// place (inlinable, so the model's decoder, specialized in the caller's module, reads SQLite's
// column directly); anything else (a number of the other kind, a value inside JSON text, a
// mismatch and its error) goes through the out-of-line half, as before.

extension StoreRowReader {
    // @inlinable: the ModelReader witness for every optional value (Optional.read(from:) in ModelKitCore), per
    // column; specialised in the caller's module, SQLite's storage class is asked for there (see above).
    // A reader that defers references (a row loaded for one) takes the out-of-line path, so this body stays as small
    // as it was: the model's decodeLeaf, which inlines it, is inlined into the row loop only while it is.
    @inlinable
    mutating func decodeNil() throws -> Bool {
        if !defersCyclicReferences, case .column(let index) = node { return columns.isNull(index) }
        return decodeNilSlowly()
    }

    // @inlinable: the ModelReader witness for every Bool, per column, as decodeNil().
    @inlinable
    mutating func decodeBool() throws -> Bool {
        if case .column(let index) = node, let value = columns.integer(index) { return value != 0 }
        return try decodeBoolSlowly()
    }

    // @usableFromInline: the out-of-line half of the inlinable decodeBool().
    @usableFromInline
    mutating func decodeBoolSlowly() throws -> Bool {
        try readJSON("a boolean") { try $0.decodeBool() }
    }

    // @inlinable: the ModelReader witness for every String, per column, as decodeNil().
    @inlinable
    mutating func decodeString() throws -> String {
        if case .column(let index) = node, let text = columns.text(index) { return text }
        return try decodeStringSlowly()
    }

    // @usableFromInline: the out-of-line half of the inlinable decodeString().
    @usableFromInline
    mutating func decodeStringSlowly() throws -> String {
        try readJSON("a string") { try $0.decodeString() }
    }

    // @inlinable: the ModelReader witness for every integer (through ModelKitCore's decodeInteger), per column, as
    // decodeNil().
    @inlinable
    mutating func decodeInt64() throws -> Int64 {
        if case .column(let index) = node, let value = columns.integer(index) { return value }
        return try decodeInt64Slowly()
    }

    // @usableFromInline: the out-of-line half of the inlinable decodeInt64().
    @usableFromInline
    mutating func decodeInt64Slowly() throws -> Int64 {
        guard case .column(let index) = node else { return try jsonNumber("an integer").int64Value() }
        switch columns[index] {
        case .integer(let value): return value
        case .real(let value): return try JSONValue.double(value).int64Value()
        default: throw mismatch("an integer")
        }
    }

    // @inlinable: the ModelReader witness for every Double (and Float), per column, as decodeNil().
    @inlinable
    mutating func decodeDouble() throws -> Double {
        if case .column(let index) = node, let value = columns.real(index) { return value }
        return try decodeDoubleSlowly()
    }

    // @usableFromInline: the out-of-line half of the inlinable decodeDouble().
    @usableFromInline
    mutating func decodeDoubleSlowly() throws -> Double {
        guard case .column(let index) = node else { return try jsonNumber().doubleValue() }
        switch columns[index] {
        case .real(let value): return value
        case .integer(let value): return Double(value)
        default: throw mismatch("a number")
        }
    }

    /// ISO 8601 text, parsed from the column's bytes; or seconds since 1970.
    // @inlinable: the ModelReader witness for every Date, per column, as decodeNil(): the column's text is parsed
    // where SQLite holds it (StoreRowColumns.withText).
    @inlinable
    mutating func decodeDate() throws -> Date {
        if case .column(let index) = node, let date = columns.withText(index, StoreDates.parse), let date { return date }
        return try decodeDateSlowly()
    }

    // @usableFromInline: the out-of-line half of the inlinable decodeDate().
    @usableFromInline
    mutating func decodeDateSlowly() throws -> Date {
        if case .column(let index) = node {
            if let seconds = columns.integer(index) { return Date(timeIntervalSince1970: TimeInterval(seconds)) }
            if let seconds = columns.real(index) { return Date(timeIntervalSince1970: seconds) }
        }
        return try readJSON("an ISO 8601 date") { try $0.decodeDate() }
    }
}
