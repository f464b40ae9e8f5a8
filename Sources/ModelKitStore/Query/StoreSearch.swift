import Foundation
import ModelKitCore

/// A full-text search of a query: the words to find, each in any of the model's searchable
/// properties (`@Model(search:)`), all of them in a row that matches.
///
/// Words are what the stores' tokenizers make of text: runs of letters and digits, lowercased
/// (SQLite FTS5's `unicode61` tokenizer, PostgreSQL's `simple` configuration, the memory store
/// in Swift). Diacritics count: "café" does not find "cafe".
package struct StoreSearch: Hashable, Sendable {
    /// The words to find, lowercased.
    package let words: [String]
    /// The searchable columns.
    package let columns: [String]

    /// The words of `text`.
    package static func words(of text: String) -> [String] {
        text.lowercased().split { !($0.isLetter || $0.isNumber) }.map(String.init)
    }

    /// The words as an FTS5 query: each a quoted string, all required.
    package var fts5Query: String {
        words.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }.joined(separator: " ")
    }

    /// How often the words occur in a row's searchable columns (0 unless every word does):
    /// the memory store's relevance.
    func score(_ value: (String) -> StoreValue) -> Int {
        var counts: [String: Int] = [:]
        for column in columns {
            guard case .text(let text) = value(column) else { continue }
            for word in Self.words(of: text) where words.contains(word) { counts[word, default: 0] += 1 }
        }
        return counts.count == Set(words).count ? counts.values.reduce(0, +) : 0
    }
}

extension ModelQuery {
    /// The query keeping the rows whose searchable properties (`@Model(search:)`) hold every word
    /// of `text`, best matches first (then the orderings given): SQLite's FTS5 with its `bm25`
    /// rank, PostgreSQL's `tsvector` with `ts_rank`, word counts in memory. Text without words
    /// keeps every row.
    ///
    /// ```swift
    /// let hits = try await store.fetchAll(ModelQuery(Post.self).search("swift actors").limit(20))
    /// ```
    public func search(_ text: String) -> ModelQuery {
        var query = self
        query.searchText = text
        return query
    }
}

extension StoreTable {
    /// The name of the table (SQLite's FTS5 virtual table) or index (PostgreSQL's GIN index)
    /// that holds the searchable words of this table's rows.
    package var searchIndexName: String { name + "_search" }

    /// The FTS5 table over the searchable columns, kept in step with the table by triggers, as
    /// SQL statements run once each (`IF NOT EXISTS`).
    var createSearchSQL: [String] {
        guard !schema.searchable.isEmpty else { return [] }
        let index = quoted(searchIndexName)
        let columns = schema.searchable.map(quoted)
        let names = columns.joined(separator: ", ")
        let new = columns.map { "new.\($0)" }.joined(separator: ", ")
        let old = columns.map { "old.\($0)" }.joined(separator: ", ")
        let insert = "INSERT INTO \(index)(rowid, \(names)) VALUES (new.rowid, \(new));"
        let delete = "INSERT INTO \(index)(\(index), rowid, \(names)) VALUES ('delete', old.rowid, \(old));"
        return [
            "CREATE VIRTUAL TABLE IF NOT EXISTS \(index) USING fts5(\(names), content=\(quotedName), "
                + "tokenize='unicode61 remove_diacritics 0')",
            "CREATE TRIGGER IF NOT EXISTS \(quoted(searchIndexName + "_insert")) AFTER INSERT ON \(quotedName) BEGIN \(insert) END",
            "CREATE TRIGGER IF NOT EXISTS \(quoted(searchIndexName + "_delete")) AFTER DELETE ON \(quotedName) BEGIN \(delete) END",
            "CREATE TRIGGER IF NOT EXISTS \(quoted(searchIndexName + "_update")) AFTER UPDATE ON \(quotedName) BEGIN \(delete) \(insert) END",
        ]
    }
}
