import Foundation
import ModelKitCore

/// Named migration steps for a store, run once each, in order, and recorded in the store.
///
/// A model's read-time hooks (`ModelMigrating`) bring an old row up to date each time it is
/// loaded, which is all an archive or a cache needs; but a query filters and orders by what the
/// columns hold, so it misses rows whose values still sit in a renamed or split column. Recorded
/// steps change what the store holds, once: rename, drop or retype a column, add or drop an
/// index, rename a table, and rewrite rows in Swift. ``ModelStore/migrate(_:)`` runs the steps
/// the store has not recorded yet, all in one transaction, and records them in it.
///
/// ```swift
/// var migrations = StoreMigrations()
/// migrations.append("merge 'nick' into 'nickname'") { step in
///     try await step.renameColumn("nick", to: "nickname", in: Person.self)
/// }
/// migrations.append("split 'name'") { step in
///     try await step.updateRows(of: Person.self) { row in
///         guard let name = row["name"].text else { return }
///         let parts = name.split(separator: " ", maxSplits: 1).map(String.init)
///         row["firstName"] = .text(parts.first ?? "")
///         row["lastName"] = .text(parts.dropFirst().first ?? "")
///     }
///     try await step.dropColumn("name", in: Person.self)
/// }
/// let ran = try await store.migrate(migrations)   // the names of the steps run now
/// ```
///
/// Steps are identified by name: never rename or remove one that has shipped, and append new
/// ones at the end. A store whose records name a step the list does not have was migrated by a
/// newer program, and ``ModelStore/migrate(_:)`` refuses it (``StoreError/Kind-swift.struct/newerStore``).
public struct StoreMigrations: Sendable {
    /// One named step.
    struct Step: Sendable {
        let name: String
        let body: @Sendable (StoreMigrationStep) async throws -> Void
    }

    private(set) var steps: [Step] = []

    /// An empty list.
    public init() {}

    /// The steps' names, in order.
    public var names: [String] { steps.map(\.name) }

    /// Appends a step named `name`, which the store records once it has run. Names must be unique.
    ///
    /// ```swift
    /// migrations.append("index accounts by email") { step in
    ///     try await step.addIndex(on: ["email"], unique: true, in: Account.self)
    /// }
    /// ```
    public mutating func append(_ name: String, _ body: @escaping @Sendable (StoreMigrationStep) async throws -> Void) {
        steps.append(Step(name: name, body: body))
    }

    /// A step named twice, if any: a list that names one twice cannot tell which ran.
    var repeatedName: String? {
        var seen: Set<String> = []
        return steps.first { !seen.insert($0.name).inserted }?.name
    }
}

/// A migration step recorded in a store: its name, its position in the order steps ran, and
/// when it ran.
public struct StoreMigrationRecord: Hashable, Sendable, CustomStringConvertible {
    /// The step's name.
    public let name: String
    /// Its position among the recorded steps: 1 for the first that ran.
    public let position: Int
    /// When it ran (milliseconds kept).
    public let appliedAt: Date

    package init(name: String, position: Int, appliedAt: Date) {
        self.name = name
        self.position = position
        self.appliedAt = appliedAt
    }

    /// `3  split 'name'  2026-12-06T08:00:00.000Z`.
    public var description: String {
        "\(position)  \(name)  \(StoreMigrationRecord.format(appliedAt))"
    }

    /// The name of the table that holds the records in an SQL store.
    package static let tableName = "_modelkit_migrations"

    /// A date as the records hold it: ISO 8601 in UTC, milliseconds.
    package static func format(_ date: Date) -> String {
        DateCoding.formatISO8601(date, fractionalSeconds: true)
    }

    /// A date the records hold, back.
    package static func parse(_ text: String) -> Date? {
        DateCoding.parseISO8601(text)
    }
}
