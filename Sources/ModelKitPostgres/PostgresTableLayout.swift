#if PostgreSQL
    import Foundation
    import ModelKitCore
    import ModelKitStore
    import PostgresNIO

    /// How a model type's table lies in one PostgreSQL schema: the ``StoreTable`` every store
    /// shares, with PostgreSQL's column types and the SQL built once from them.
    final class PostgresTableLayout: Sendable {
        let table: StoreTable
        let schema: String
        /// `"schema"."Model"`.
        let qualifiedName: String
        /// Each column's type, in the table's column order.
        let types: [PostgresColumnType]
        let typeByColumn: [String: PostgresColumnType]
        let identifierType: PostgresColumnType
        let quotedIdentifier: String
        /// `SELECT <columns and version> FROM <table>`.
        let selectSQL: String
        let createSQL: String
        /// `CREATE [UNIQUE] INDEX IF NOT EXISTS` for each of the model's indexes.
        let createIndexSQL: [String]
        /// The columns' names, quoted, and `_version`, in order: what an `INSERT` names.
        private let insertColumns: String
        private let conflictUpdates: String

        init(_ table: StoreTable, schema: String) {
            self.table = table
            self.schema = schema
            let qualifiedName = postgresQuoted(schema) + "." + postgresQuoted(table.name)
            self.qualifiedName = qualifiedName
            let types = table.columns.map { PostgresColumnType($0.kind) }
            self.types = types
            self.typeByColumn = Dictionary(
                zip(table.columns.map(\.name), types), uniquingKeysWith: { first, _ in first })
            self.identifierType = types[table.identifierColumn]
            let names = table.columns.map { postgresQuoted($0.name) }
            let version = postgresQuoted(StoreTable.versionColumn)
            self.quotedIdentifier = names[table.identifierColumn]
            let selected = zip(names, types).map { name, type in type.selectExpression(name) } + [version]
            self.selectSQL = "SELECT \(selected.joined(separator: ", ")) FROM \(qualifiedName)"
            let definitions = zip(names, types).enumerated().map { index, column in
                "\(column.0) \(column.1.definition)" + (index == table.identifierColumn ? " PRIMARY KEY" : "")
            }
            self.createSQL =
                "CREATE TABLE IF NOT EXISTS \(qualifiedName) ("
                + (definitions + ["\(version) bigint NOT NULL DEFAULT 0"]).joined(separator: ", ") + ")"
            self.createIndexSQL = StoreTable.createIndexSQL(
                table.indexes, table: table.name, on: qualifiedName, quote: postgresQuoted)
                + Self.createSearchSQL(table, on: qualifiedName)
            self.insertColumns = (names + [version]).joined(separator: ", ")
            self.conflictUpdates = (names + [version]).filter { $0 != names[table.identifierColumn] }
                .map { "\($0) = EXCLUDED.\($0)" }.joined(separator: ", ")
        }

        /// The column of a table's searchable words: a `tsvector` PostgreSQL computes from the
        /// searchable columns (`simple` configuration: lowercased words, no stemming), and its
        /// GIN index.
        static let searchColumn = "_search"

        static func createSearchSQL(_ table: StoreTable, on qualifiedName: String) -> [String] {
            guard !table.schema.searchable.isEmpty else { return [] }
            let text = table.schema.searchable.map { "coalesce(\(postgresQuoted($0))::text, '')" }.joined(separator: " || ' ' || ")
            return [
                "ALTER TABLE \(qualifiedName) ADD COLUMN IF NOT EXISTS \(postgresQuoted(searchColumn)) tsvector "
                    + "GENERATED ALWAYS AS (to_tsvector('simple', \(text))) STORED",
                "CREATE INDEX IF NOT EXISTS \(postgresQuoted(table.searchIndexName)) ON \(qualifiedName) USING GIN (\(postgresQuoted(searchColumn)))",
            ]
        }

        /// `ALTER TABLE` statements adding the columns a table made by an earlier version lacks.
        func addColumnsSQL() -> [String] {
            zip(table.columns, types).map { column, type in
                "ALTER TABLE \(qualifiedName) ADD COLUMN IF NOT EXISTS \(postgresQuoted(column.name)) \(type.definition)"
            } + [
                "ALTER TABLE \(qualifiedName) ADD COLUMN IF NOT EXISTS \(postgresQuoted(StoreTable.versionColumn)) "
                    + "bigint NOT NULL DEFAULT 0"
            ]
        }

        /// An upsert of `rows` (values in column order) at the model's version, in one statement
        /// whatever their number: each column one array parameter,
        /// `INSERT ... SELECT u.*, $version FROM UNNEST($1, $2, ...) AS u ON CONFLICT DO UPDATE`.
        func upsert(_ rows: ArraySlice<[StoreValue]>) throws -> PostgresQuery {
            var bindings = PostgresBindings(capacity: types.count + 1)
            var arrays: [String] = []
            for (index, type) in types.enumerated() {
                do {
                    try bindings.append(PostgresColumnArray(type, column: index, of: rows))
                } catch let error as PostgresColumnArray.ElementError {
                    throw StoreError(
                        .unencodableValue, table: table.name, identifier: error.row[table.identifierColumn].quotedDescription,
                        reason: "'\(table.columns[index].name)': \(error.underlying)", underlying: error.underlying)
                }
                arrays.append(type.arrayPlaceholder(index + 1))
            }
            bindings.append(Int64(table.schema.version))
            let sql = "INSERT INTO \(qualifiedName) (\(insertColumns)) SELECT u.*, $\(types.count + 1)::bigint "
                + "FROM UNNEST(\(arrays.joined(separator: ", "))) AS u ON CONFLICT (\(quotedIdentifier)) DO "
                + (conflictUpdates.isEmpty ? "NOTHING" : "UPDATE SET " + conflictUpdates)
            return PostgresQuery(unsafeSQL: sql, binds: bindings)
        }

        /// The error PostgreSQL's unique violation (`23505`) of one of the model's constraints
        /// becomes: the constraint's properties, and the values its detail shows (`Key (email)=(…)`).
        func uniqueViolation(_ error: StoreError) -> StoreError? {
            guard let server = (error.underlying as? PSQLError)?.serverInfo, server[.sqlState] == "23505",
                let name = server[.constraintName],
                // PostgreSQL cuts names to 63 bytes.
                let unique = table.uniqueIndexes.first(where: { String(decoding: $0.index.name(in: table.name).utf8.prefix(63), as: UTF8.self) == name })
            else { return nil }
            let detail = server[.detail] ?? ""
            let shown = detail.range(of: ")=(").flatMap { start in
                detail[start.upperBound...].range(of: ") ").map { String(detail[start.upperBound..<$0.lowerBound]) }
            }
            return StoreError.uniqueViolation(
                unique.index, table: table, identifier: nil, values: [.text(shown ?? detail)], underlying: error.underlying)
        }

        /// The rows stored for some identifiers.
        func select(identifiers: ArraySlice<StoreValue>) throws -> PostgresQuery {
            var bindings = PostgresBindings(capacity: identifiers.count)
            var placeholders: [String] = []
            placeholders.reserveCapacity(identifiers.count)
            for identifier in identifiers {
                try identifierType.bind(identifier, to: &bindings)
                placeholders.append(identifierType.placeholder(placeholders.count + 1))
            }
            let condition = placeholders.count == 1
                ? "\(quotedIdentifier) = \(placeholders[0])" : "\(quotedIdentifier) IN (\(placeholders.joined(separator: ", ")))"
            return PostgresQuery(unsafeSQL: "\(selectSQL) WHERE \(condition)", binds: bindings)
        }

        /// The row a cursor is on: the model's columns, then the version.
        func storedRow(_ row: PostgresRow) throws -> StoredRow {
            var values: [StoreValue] = []
            values.reserveCapacity(types.count)
            var version = 0
            for (index, cell) in row.enumerated() {
                if index < types.count {
                    values.append(try types[index].value(of: cell))
                } else {
                    version = Int(try cell.decode(Int64.self))
                }
            }
            return StoredRow(values: values, version: version)
        }
    }

    /// The SQL a ``ResolvedQuery`` becomes on PostgreSQL: `$n` placeholders bound with each
    /// column's type, `IS DISTINCT FROM`, `strpos`, and `NULL`s ordered as SQLite orders them.
    struct PostgresDialect: SQLDialect {
        let layout: PostgresTableLayout
        private(set) var bindings = PostgresBindings()

        init(_ layout: PostgresTableLayout) {
            self.layout = layout
        }

        /// The layout's table, or another of the same schema (a condition through a reference).
        func tableSQL(_ table: StoreTable) -> String {
            table === layout.table ? layout.qualifiedName : postgresQuoted(layout.schema) + "." + postgresQuoted(table.name)
        }
        func selectSQL(_ table: StoreTable) -> String { layout.selectSQL }

        mutating func bind(_ value: StoreValue, column: StoreTable.Column?) throws -> String {
            // A value for no column: a count (LIMIT, OFFSET), or a full-text search's text.
            // By the column's own kind: it may be a column of another table than the layout's.
            let type = column.map { PostgresColumnType($0.kind) } ?? (value.text != nil ? .text : .bigint)
            do {
                try type.bind(value, to: &bindings)
            } catch {
                throw StoreError(
                    .unencodableValue, table: layout.table.name,
                    reason: "the query's value for '\(column?.name ?? "limit")': \(error)", underlying: error)
            }
            return type.placeholder(bindings.count)
        }

        var isDistinctFrom: String { "IS DISTINCT FROM" }
        func textMatch(_ match: StoreTextMatch, column: String, placeholder: String) -> String {
            // Columns are in the "C" collation, whose lower() is ASCII only: ICU's root locale folds all of Unicode.
            let subject = match.caseInsensitive ? "lower(\(column) COLLATE \"und-x-icu\")" : column
            switch match.kind {
            case .contains: return "strpos(\(subject), \(placeholder)) > 0"
            case .prefix: return "starts_with(\(subject), \(placeholder))"
            case .suffix: return "right(\(subject), length(\(placeholder))) = \(placeholder)"
            }
        }
        var never: String { "FALSE" }
        var noLimit: String? { "ALL" }

        func orderTerm(column: String, _ order: StoreOrder) -> String {
            column + (order == .descending ? " DESC NULLS LAST" : " ASC NULLS FIRST")
        }

        func searchCondition(_ search: StoreSearch, table: StoreTable, placeholder: String) -> String {
            "\(postgresQuoted(PostgresTableLayout.searchColumn)) @@ plainto_tsquery('simple', \(placeholder))"
        }

        func searchRank(_ search: StoreSearch, table: StoreTable, placeholder: String) -> String {
            "ts_rank(\(postgresQuoted(PostgresTableLayout.searchColumn)), plainto_tsquery('simple', \(placeholder))) DESC"
        }

        func searchText(_ search: StoreSearch) -> String { search.words.joined(separator: " ") }

        func arrayLength(_ column: String) -> String { "jsonb_array_length(\(column))" }
        func arrayHolds(_ column: String, placeholder: String) -> String {
            "\(column) @> jsonb_build_array(\(placeholder))"
        }

        func valueSQL(_ column: StoreTable.Column) -> String {
            type(of: column).selectExpression(postgresQuoted(column.name))
        }

        func aggregateSQL(_ function: StoreAggregateFunction, column: StoreTable.Column?) -> String {
            let name = column.map { postgresQuoted($0.name) } ?? "*"
            switch function {
            case .count: return "COUNT(*)"
            case .countDistinct: return "COUNT(DISTINCT \(name))"
            // PostgreSQL sums bigints as numeric: back to bigint, an error past 64 bits as in SQLite.
            case .sumOfIntegers: return "SUM(\(name))::bigint"
            case .sumOfReals: return "SUM(\(name))::double precision"
            case .average: return "AVG(\(name))::double precision"
            case .min, .max:
                let call = function == .min ? "MIN" : "MAX"
                // PostgreSQL has no MIN or MAX of booleans: of their 0 and 1.
                guard let column, type(of: column) != .boolean else { return "\(call)(\(name)::int)::bigint" }
                return type(of: column).selectExpression("\(call)(\(name))")
            }
        }

        /// The type a selection's output is read as.
        func resultType(_ output: ResolvedSelection.Output) -> PostgresColumnType {
            switch output {
            case .column(let name): return layout.typeByColumn[name] ?? .text
            case .aggregate(let function, let name):
                switch function {
                case .count, .countDistinct, .sumOfIntegers: return .bigint
                case .sumOfReals, .average: return .doublePrecision
                case .min, .max:
                    let type = name.flatMap { layout.typeByColumn[$0] } ?? .text
                    return type == .boolean ? .bigint : type
                }
            }
        }

        /// A column's type in the layout.
        private func type(of column: StoreTable.Column) -> PostgresColumnType {
            layout.typeByColumn[column.name] ?? .text
        }

        /// The query and its bindings.
        func query(_ sql: String) -> PostgresQuery {
            PostgresQuery(unsafeSQL: sql, binds: bindings)
        }
    }

    /// `"name"` with embedded quotes doubled: an SQL identifier.
    func postgresQuoted(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
#endif
