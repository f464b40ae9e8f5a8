import Foundation
import ModelKitCore

/// One row as a store returns it: the values of the model's columns in order, and the model
/// version the row was written with.
package struct StoredRow: Sendable {
    package var values: [StoreValue]
    package var version: Int

    package init(values: [StoreValue], version: Int) {
        self.values = values
        self.version = version
    }
}

/// Rows in one transaction of one store: what a storage engine supplies so the shared
/// model-level code (``StoreTransaction``) can save, fetch and delete models through it.
///
/// Values are in the store's neutral form (``StoreValue``, the SQLite storage classes: dates as
/// ISO 8601 text, nested values as JSON text); an engine with richer column types (PostgreSQL)
/// converts at its edge, by each column's ``StoreTable/Column/kind``. A connection is used by one
/// task at a time, inside the transaction its store opened for it.
package protocol StoreConnection: Sendable {
    /// Inserts or replaces rows of one table (values in column order, written at the table's
    /// schema version), creating the table or adding its missing columns first when needed.
    /// A replaced row keeps the columns the model no longer has.
    func upsert(_ table: StoreTable, rows: [[StoreValue]]) async throws
    /// The rows a query selects, in its order.
    func selectRows(_ query: ResolvedQuery) async throws -> [StoredRow]
    /// The rows a query selects, in its order, handed to `body` a batch of at most `size` rows
    /// at a time as the engine reads them (one statement stepped, or a server-side cursor), so
    /// that no more than a batch is in memory; `body` may suspend, and may read through the
    /// connection meanwhile.
    func selectRows(_ query: ResolvedQuery, inBatchesOf size: Int, _ body: ([StoredRow]) async throws -> Void) async throws
    /// The rows stored for some identifiers, in no particular order (missing ones left out).
    func selectRows(_ table: StoreTable, identifiers: [StoreValue]) async throws -> [StoredRow]
    /// Every column of the row stored for an identifier, by name, older columns included
    /// (the version column too); empty when there is no such row.
    func selectAllColumns(_ table: StoreTable, identifier: StoreValue) async throws -> [String: StoreValue]
    /// How many rows a query selects (its limit and offset apply).
    func count(_ query: ResolvedQuery) async throws -> Int
    /// The values a selection computes, one array per result row, in the selection's order.
    func selectValues(_ selection: ResolvedSelection) async throws -> [[StoreValue]]
    /// Deletes the rows a query selects; returns how many.
    func delete(_ query: ResolvedQuery) async throws -> Int
    /// The connection as a reader of rows that does not suspend (``SynchronousRowReading``, when
    /// it reads that way), or nil: a requirement, so a transaction asks no protocol cast.
    var synchronousRows: (any SynchronousRowReading)? { get }
    /// The connection as a reader of rows in place (``InPlaceRowReading``), or nil.
    var inPlaceRows: (any InPlaceRowReading)? { get }
}

extension StoreConnection {
    package var synchronousRows: (any SynchronousRowReading)? { nil }
    package var inPlaceRows: (any InPlaceRowReading)? { nil }
}

extension StoreConnection where Self: SynchronousRowReading {
    package var synchronousRows: (any SynchronousRowReading)? { readsSynchronously ? self : nil }
}

extension StoreConnection where Self: InPlaceRowReading {
    package var inPlaceRows: (any InPlaceRowReading)? { self }
}

/// A connection that can also read a row without suspending (SQLite, memory): references are
/// then loaded while a model is read, instead of in a later round.
package protocol SynchronousRowReading {
    /// The row stored for an identifier, or nil.
    func selectRowNow(_ table: StoreTable, identifier: StoreValue) throws -> StoredRow?
    /// The rows a query selects, in its order.
    func selectRowsNow(_ query: ResolvedQuery) throws -> [StoredRow]
    /// Every column of the row stored for an identifier, by name (see
    /// ``StoreConnection/selectAllColumns(_:identifier:)``).
    func selectAllColumnsNow(_ table: StoreTable, identifier: StoreValue) throws -> [String: StoreValue]
    /// Whether a transaction's reads use these methods (true), or fetch the rows references need
    /// in rounds as an engine that must suspend does (false: how the memory store tests that path).
    var readsSynchronously: Bool { get }
}

extension SynchronousRowReading {
    package var readsSynchronously: Bool { true }
}

/// A connection that reads rows in place (SQLite): each row is handed to a closure while the
/// connection's statement is on it, as ``StoreRowColumns`` the model's decoder reads directly,
/// with no copy of the rows into ``StoreValue``s first. The closure may load the rows references
/// need through the same connection (``SynchronousRowReading``) before it returns.
package protocol InPlaceRowReading {
    /// Runs `body` with a function that steps to the next row a query selects, in its order (the
    /// model's columns, then its version: ``StoreRowColumns/version(after:)``); nil after the
    /// last one. A row is valid until the next step, and the function only inside `body`.
    func withRows<T>(_ query: ResolvedQuery, _ body: (_ next: () throws -> StoreRowColumns?) throws -> T) throws -> T
    /// Calls `body` with the row stored for an identifier (its columns, then its version), if
    /// there is one; returns whether there was.
    func withRow(_ table: StoreTable, identifier: StoreValue, _ body: (StoreRowColumns) throws -> Void) throws -> Bool
    /// A statement over the rows a query selects, stepped a batch at a time (a cursor's rows),
    /// inside the transaction under way.
    func openRows(_ query: ResolvedQuery) throws -> any InPlaceRowCursor
}

/// The rows of a query, read in place a batch at a time (``InPlaceRowReading/openRows(_:)``).
///
/// Used by one task at a time: a cursor's reading task opens and closes it, and the loop's task
/// steps it while the reading task waits.
package protocol InPlaceRowCursor: AnyObject, Sendable {
    /// Runs `body` with a function that steps to the next row, at most `limit` rows, and nil
    /// after them or the last row; returns what `body` returns, and whether the rows are done.
    func withNextRows<T>(limit: Int, _ body: (_ next: () throws -> StoreRowColumns?) throws -> T) throws -> (result: T, isDone: Bool)
    /// Ends the statement's read.
    func close()
}

/// A storage engine: opens transactions and hands their connection to the shared code.
///
/// The engine makes a transaction all or nothing: it commits when `body` returns and rolls back
/// when it throws (the task's cancellation included, which the shared code checks before it
/// returns). It posts the changes a committed write made to its change hub.
package protocol StoreEngine: ModelStore, ChangeTrackingStore, AnyObject {
    associatedtype Connection: StoreConnection
    /// Runs `body` in one transaction: a write (serialized with the store's other writes) or a
    /// read of one consistent snapshot.
    func transaction<T>(_ kind: StoreTransactionKind, _ body: (Connection) async throws -> T) async throws -> T
}

/// What a transaction may do.
package enum StoreTransactionKind: Sendable {
    /// Saves and deletes, and reads that see them.
    case write
    /// Reads only, of one consistent snapshot.
    case read
    /// Reads only, by a body the store may run twice (the store's own fetches): an engine whose
    /// transactions cost round trips (PostgreSQL) or statements of their own (SQLite's `BEGIN`
    /// and `COMMIT`) runs its first statement alone, a snapshot by itself, and runs the body
    /// again in a read transaction if it needs a second one. Other engines treat it as ``read``.
    case readOnce
}
