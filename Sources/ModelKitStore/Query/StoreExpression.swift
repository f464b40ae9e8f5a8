import Foundation
import ModelKitCore
import ModelKitJSON

/// A query's condition over columns and stored values: what a ``ModelPredicate`` becomes once
/// its key paths are columns and its values are encoded. SQLite gets it as SQL with bound
/// arguments; the in-memory store evaluates it with SQLite's rules.
package indirect enum StoreExpression: Hashable, Sendable {
    /// A comparison of a column with a value.
    case compare(column: String, StoreComparison, StoreValue)
    /// The column's value is one of the values.
    case isIn(column: String, [StoreValue])
    /// The column's text contains, starts or ends with the text.
    case text(column: String, StoreTextMatch)
    /// The row's searchable columns hold every word of a full-text search.
    case search(StoreSearch)
    /// The column refers to a row of another table (a to-one reference) that matches the
    /// expression: a condition through a relationship, `\Comment.post?.author.name == "Ada"`.
    case related(column: String, StoreTable, StoreExpression)
    /// The number of elements of the column's array (a to-many's identifiers) compares with a
    /// count.
    case count(column: String, StoreComparison, Int64)
    /// The column's array (a to-many's identifiers) holds the identifier.
    case holds(column: String, StoreValue)
    /// The number of rows of another table that refer to the row through one of their columns
    /// (a to-many kept in its inverse's column) and match a condition, compared with a count.
    case referrers(StoreReferrers, StoreComparison, Int64)
    /// The expression is not true: false or unknown (SQL's `IS NOT TRUE`).
    case isNotTrue(StoreExpression)
    case and(StoreExpression, StoreExpression)
    case or(StoreExpression, StoreExpression)
    case not(StoreExpression)

    /// Whether a row matches, by SQLite's rules: text compares by UTF-8 bytes, integers and reals
    /// by value, and a comparison with `NULL` is unknown (nil), which `NOT` keeps unknown and
    /// which never matches. `related` finds the columns of the row of a table with an identifier
    /// (for a condition through a reference).
    package func matches(
        _ value: (String) -> StoreValue, related: (StoreTable, StoreValue) -> [String: StoreValue]? = { _, _ in nil },
        referring: (StoreTable, String, StoreValue) -> [[String: StoreValue]] = { _, _, _ in [] }
    ) -> Bool? {
        switch self {
        case .compare(let column, let comparison, let operand):
            let stored = value(column)
            switch comparison {
            case .equal:
                if operand == .null { return stored == .null }
                return stored == .null ? nil : equal(stored, operand)
            case .notEqual:
                // `IS NOT`: NULL is a value like any other.
                if stored == .null || operand == .null { return stored != operand }
                return !equal(stored, operand)
            default:
                guard stored != .null, operand != .null else { return nil }
                let order = StoreValue.compare(stored, operand)
                switch comparison {
                case .less: return order < 0
                case .lessOrEqual: return order <= 0
                case .greater: return order > 0
                default: return order >= 0
                }
            }
        case .isIn(let column, let values):
            let stored = value(column)
            if values.isEmpty { return false }
            return stored == .null ? nil : values.contains { equal(stored, $0) }
        case .text(let column, let match):
            switch value(column) {
            case .null: return nil
            case .text(let stored): return match.matches(stored)
            default: return false
            }
        case .search(let search):
            return search.score(value) > 0
        case .count(let column, let comparison, let count):
            // `NULL` has no length: unknown, as SQL's array-length functions give.
            guard case .text(let text) = value(column), case .array(let elements)? = try? JSONValue(parsing: text)
            else { return nil }
            return comparison.holds(Int64(elements.count), count)
        case .holds(let column, let identifier):
            guard case .text(let text) = value(column), case .array(let elements)? = try? JSONValue(parsing: text)
            else { return value(column) == .null ? nil : false }
            return elements.contains { StoreValue(identifierIn: $0) == identifier }
        case .related(let column, let table, let inner):
            // `column IN (SELECT id FROM table WHERE inner)`: unknown for NULL, else whether the
            // row it refers to is there and matches.
            let stored = value(column)
            guard stored != .null else { return nil }
            guard let row = related(table, stored) else { return false }
            return inner.matches({ row[$0] ?? .null }, related: related, referring: referring) == true
        case .referrers(let referrers, let comparison, let count):
            let rows = referring(referrers.table, referrers.column, value(referrers.identifier))
            let matching = rows.filter { row in
                referrers.condition.map { $0.matches({ row[$0] ?? .null }, related: related, referring: referring) == true } ?? true
            }
            return comparison.holds(Int64(matching.count), count)
        case .isNotTrue(let inner):
            return inner.matches(value, related: related, referring: referring) != true
        case .and(let lhs, let rhs):
            let left = lhs.matches(value, related: related, referring: referring)
            let right = rhs.matches(value, related: related, referring: referring)
            if left == false || right == false { return false }
            return left == nil || right == nil ? nil : true
        case .or(let lhs, let rhs):
            let left = lhs.matches(value, related: related, referring: referring)
            let right = rhs.matches(value, related: related, referring: referring)
            if left == true || right == true { return true }
            return left == nil || right == nil ? nil : false
        case .not(let inner):
            return inner.matches(value, related: related, referring: referring).map { !$0 }
        }
    }

    private func equal(_ lhs: StoreValue, _ rhs: StoreValue) -> Bool {
        StoreValue.compare(lhs, rhs) == 0
    }
}

/// A text match of a query: contains, starts with or ends with a text, by UTF-8 bytes, or by
/// their lowercase forms (Swift's Unicode `lowercased()`, which the SQLite store runs as a
/// function of its own, and PostgreSQL's `lower` in its ICU collation).
package struct StoreTextMatch: Hashable, Sendable {
    package enum Kind: Hashable, Sendable {
        case contains, prefix, suffix
    }

    package let kind: Kind
    /// The text to find, lowercased already when ``caseInsensitive``.
    package let text: String
    package let caseInsensitive: Bool

    package init(_ kind: Kind, _ text: String, caseInsensitive: Bool) {
        self.kind = kind
        self.text = caseInsensitive ? text.lowercased() : text
        self.caseInsensitive = caseInsensitive
    }

    /// Whether `stored` matches, as the SQL stores decide it.
    func matches(_ stored: String) -> Bool {
        let subject = caseInsensitive ? stored.lowercased() : stored
        switch kind {
        case .contains: return text.isEmpty || subject.utf8.firstRange(of: text.utf8) != nil
        case .prefix: return subject.utf8.starts(with: text.utf8)
        case .suffix: return subject.utf8.reversed().starts(with: text.utf8.reversed())
        }
    }
}

/// A comparison operator of a query.
package enum StoreComparison: Hashable, Sendable {
    case equal, notEqual, less, lessOrEqual, greater, greaterOrEqual

    package var sqlOperator: String {
        switch self {
        case .equal: return "="
        case .notEqual: return "IS NOT"
        case .less: return "<"
        case .lessOrEqual: return "<="
        case .greater: return ">"
        case .greaterOrEqual: return ">="
        }
    }

    /// Whether `lhs` compares so with `rhs` (two counts: never `NULL`).
    func holds(_ lhs: Int64, _ rhs: Int64) -> Bool {
        switch self {
        case .equal: return lhs == rhs
        case .notEqual: return lhs != rhs
        case .less: return lhs < rhs
        case .lessOrEqual: return lhs <= rhs
        case .greater: return lhs > rhs
        case .greaterOrEqual: return lhs >= rhs
        }
    }
}

extension ResolvedQuery {
    /// The tables the query's conditions and orderings through references name, each once.
    package var relatedTables: [StoreTable] {
        var tables = condition?.relatedTables ?? []
        for ordering in orderings {
            if let (table, _) = ordering.through, !tables.contains(where: { $0 === table }) { tables.append(table) }
        }
        return tables
    }
}

extension StoreExpression {
    /// The tables conditions through references name, each once, outermost first.
    package var relatedTables: [StoreTable] {
        var tables: [StoreTable] = []
        func walk(_ expression: StoreExpression) {
            switch expression {
            case .related(_, let table, let inner):
                if !tables.contains(where: { $0 === table }) { tables.append(table) }
                walk(inner)
            case .and(let lhs, let rhs), .or(let lhs, let rhs):
                walk(lhs)
                walk(rhs)
            case .not(let inner), .isNotTrue(let inner): walk(inner)
            case .referrers(let referrers, _, _):
                if !tables.contains(where: { $0 === referrers.table }) { tables.append(referrers.table) }
                if let condition = referrers.condition { walk(condition) }
            case .compare, .isIn, .text, .search, .count, .holds: break
            }
        }
        walk(self)
        return tables
    }
}

/// The rows of a table that refer to another table's row through one of their columns: the
/// models of a to-many kept in its inverse's column (``StoreToMany``).
package struct StoreReferrers: Hashable, Sendable {
    /// The referring table (the related models').
    package let table: StoreTable
    /// Its column holding the identifier of the row they refer to (the inverse).
    package let column: String
    /// The identifier column of the row referred to (the owner's).
    package let identifier: String
    /// The condition the referring rows must meet, if any (in their table's columns).
    package let condition: StoreExpression?
}
