import Foundation
import ModelKitCore

/// What went wrong in a store: a kind, the table, identifier and SQL involved, and one lowercase
/// sentence.
///
/// ```swift
/// do {
///     try await store.save(hashtag)
/// } catch let error as StoreError where error.kind == .notIdentified {
///     print(error)   // cannot store 'Hashtag': the model has no '@Identifier' property
/// }
/// ```
public struct StoreError: Error, CustomStringConvertible, Sendable {
    /// The kind of problem.
    ///
    /// Kinds can be added in a minor release, so a `switch` over them needs a `default`;
    /// compare one with `==` (`error.kind == .closed`).
    public struct Kind: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The kind's name, e.g. `notIdentified`.
        public let rawValue: String

        /// The kind named `rawValue`.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// The model type has no `@Identifier` property, so it has no row of its own.
        public static let notIdentified = Kind(rawValue: "notIdentified")
        /// A query names a key path that is not one of the model's stored properties.
        public static let unknownKeyPath = Kind(rawValue: "unknownKeyPath")
        /// A value cannot be written to a column (a NaN, a number too large, an encoder error).
        public static let unencodableValue = Kind(rawValue: "unencodableValue")
        /// A stored row cannot be read back as the model (a type mismatch, a missing value).
        public static let undecodableRow = Kind(rawValue: "undecodableRow")
        /// A stored row refers to an identified model that is not in the store.
        public static let missingReference = Kind(rawValue: "missingReference")
        /// Loading a row needs the row itself first: its references form a cycle.
        public static let cyclicReference = Kind(rawValue: "cyclicReference")
        /// The model's migration hook threw.
        public static let migrationFailed = Kind(rawValue: "migrationFailed")
        /// The database cannot be opened.
        public static let cannotOpen = Kind(rawValue: "cannotOpen")
        /// The database (SQLite, PostgreSQL) reported an error.
        public static let database = Kind(rawValue: "database")
        /// The store was closed (``SQLiteStore/close()``, `PostgresStore.close()`) before the call.
        public static let closed = Kind(rawValue: "closed")
        /// A transaction was used after its closure returned, or a read transaction was asked
        /// to write.
        public static let misusedTransaction = Kind(rawValue: "misusedTransaction")
        /// Two model types claim one table (the same name from two modules or two outer types).
        public static let tableClash = Kind(rawValue: "tableClash")
        /// A context's save met an edited model whose row changed in the store since the context
        /// loaded it, under the `ModelMergePolicy.error` policy: nothing was saved.
        public static let conflict = Kind(rawValue: "conflict")
        /// A model's identifier was changed while a context holds it under the old one.
        public static let identifierChanged = Kind(rawValue: "identifierChanged")
        /// A save would give a second row the values a unique constraint (`@Model(unique:)`)
        /// allows one row to hold; ``StoreError/properties`` names the constraint's properties.
        public static let uniqueViolation = Kind(rawValue: "uniqueViolation")
        /// A context was asked for what it cannot do: save without a store, insert a second
        /// instance for a live identifier, insert a model without an identifier.
        public static let misusedContext = Kind(rawValue: "misusedContext")
        /// The store records a migration step the program does not know: a newer version of the
        /// program migrated it (``ModelStore/migrate(_:)``).
        public static let newerStore = Kind(rawValue: "newerStore")
        /// A delete would leave rows referring to a model that is gone: a relationship's
        /// `.deny` rule, or a non-optional reference with no rule that says otherwise. Nothing
        /// was deleted; the reason names the rows that refer to the model.
        public static let deleteDenied = Kind(rawValue: "deleteDenied")

        public var description: String { rawValue }
    }

    /// The kind of problem.
    public let kind: Kind
    /// The table (the model's name) involved, if any.
    public let table: String?
    /// The identifier involved, as it appears in messages (`"42"` for text, `42` for numbers).
    public let identifier: String?
    /// The SQL statement involved, if any.
    public let sql: String?
    /// The detail after the colon.
    public let reason: String
    /// The error that caused this one: a `ModelError`, a GRDB `DatabaseError`, ...
    public let underlying: (any Error)?
    /// The properties involved: for a ``Kind/conflict``, those changed in the store and in memory.
    public var properties: [String] = []

    /// Creates an error; the library makes these, tests and tools may too.
    public init(
        _ kind: Kind, table: String? = nil, identifier: String? = nil, sql: String? = nil, reason: String,
        underlying: (any Error)? = nil
    ) {
        self.kind = kind
        self.table = table
        self.identifier = identifier
        self.sql = sql
        self.reason = reason
        self.underlying = underlying
    }

    public var description: String {
        var subject: String
        switch kind {
        case .notIdentified, .tableClash: subject = "cannot store"
        case .unknownKeyPath: subject = "cannot query"
        case .unencodableValue, .conflict, .identifierChanged, .uniqueViolation: subject = "cannot save"
        case .misusedContext: subject = "cannot use the context"
        case .deleteDenied: subject = "cannot delete"
        case .undecodableRow, .missingReference, .cyclicReference: subject = "cannot load"
        case .migrationFailed, .newerStore: subject = "cannot migrate"
        case .cannotOpen: subject = "cannot open the store"
        case .database: subject = "database error"
        case .closed: subject = "cannot use the store"
        case .misusedTransaction: subject = "cannot use the transaction"
        default: subject = "store error"
        }
        if let table { subject += kind == .database ? " in '\(table)'" : " '\(table)'" }
        if let identifier { subject += " \(identifier)" }
        if let sql { subject += " (sql: \(sql))" }
        return subject + ": " + reason
    }
}

extension StoreError {
    /// Wraps what a database call threw, keeping a `StoreError` as it is.
    package static func wrapping(
        _ error: any Error, as modelErrorKind: Kind = .undecodableRow, table: String?, identifier: String? = nil,
        sql: String? = nil
    ) -> StoreError {
        if let error = error as? StoreError { return error }
        if let error = error as? ModelError {
            var kind = modelErrorKind
            var cause: (any Error)? = error
            while let next = cause {
                if let inner = next as? StoreError, inner.kind == .missingReference || inner.kind == .cyclicReference {
                    kind = inner.kind
                    break
                }
                cause = (next as? ModelError)?.underlying ?? (next as? StoreError)?.underlying
            }
            return StoreError(
                kind, table: table, identifier: identifier, reason: error.description, underlying: error)
        }
        return StoreError(
            .database, table: table, identifier: identifier, sql: sql, reason: "\(error)".lowercasedFirst,
            underlying: error)
    }

    /// The error for a row that breaks `index`, a unique constraint of `table`: another row
    /// holds `values` (the constraint's properties' values, as stored) already.
    package static func uniqueViolation(
        _ index: ModelIndex, table: StoreTable, identifier: StoreValue?, values: [StoreValue], underlying: (any Error)?
    ) -> StoreError {
        let names = index.properties.map { "'\($0)'" }.joined(separator: ", ")
        let shown = values.count == 1 ? values[0].quotedDescription : "(" + values.map(\.quotedDescription).joined(separator: ", ") + ")"
        var error = StoreError(
            .uniqueViolation, table: table.name, identifier: identifier?.quotedDescription,
            reason: "another '\(table.name)' has \(names) \(shown), which must be unique", underlying: underlying)
        error.properties = index.properties
        return error
    }

    /// The error for a model type without an identifier.
    package static func notIdentified(_ schema: ModelSchema) -> StoreError {
        StoreError(.notIdentified, table: schema.modelName, reason: "the model has no '@Identifier' property")
    }
}

extension String {
    /// The string with its first letter lowercased (SQLite's messages start with a capital now and
    /// then); the remote client's messages use it too.
    package var lowercasedFirst: String {
        guard let first else { return self }
        // An acronym or a name keeps its case: "SQLite error 10", "URLError".
        if let second = dropFirst().first, second.isUppercase { return self }
        return first.lowercased() + dropFirst()
    }
}

/// An identifier as messages show it: text in double quotes, numbers as they are.
func describeIdentifier(_ identifier: AnyHashable) -> String {
    switch identifier.base {
    case let text as String: return "\"\(text)\""
    case let uuid as UUID: return "\"\(uuid.uuidString)\""
    default: return "\(identifier.base)"
    }
}

extension StoreError {
    /// The error for a unique index a migration step cannot make: rows hold the same values of
    /// its properties already.
    package static func rowsClash(_ index: ModelIndex, table: String, underlying: (any Error)?) -> StoreError {
        var error = StoreError(
            .uniqueViolation, table: table,
            reason: "rows hold the same \(index.properties.map { "'\($0)'" }.joined(separator: ", ")) already, which must be unique",
            underlying: underlying)
        error.properties = index.properties
        return error
    }
}
