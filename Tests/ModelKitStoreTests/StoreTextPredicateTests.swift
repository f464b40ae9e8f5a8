import Foundation
import ModelKit
import ModelKitStore
import ModelKitTestSupport
import Testing

/// A phrase for the text predicates.
@Model struct Phrase: Sendable {
    @Identifier var id: Int
    var text: String
    var note: String?
}

/// `contains`, `hasPrefix` and `hasSuffix`, byte for byte and ignoring case, on every store: the
/// same rows as Swift's own string functions select.
@Suite struct StoreTextPredicateTests {
    static let phrases = [
        "Swift Concurrency", "swift actors", "SWIFTLY", "Ärger im Büro", "Straße", "naïve café", "", "İstanbul", "x_%y",
    ]

    /// What a predicate asks, as Swift decides it.
    struct Case: CustomTestStringConvertible, Sendable {
        let label: String
        let predicate: @Sendable () -> ModelPredicate<Phrase>
        let swift: @Sendable (String) -> Bool
        var testDescription: String { label }
    }

    static func lower(_ text: String) -> String { text.lowercased() }

    static let cases: [Case] = [
        Case(label: "contains Swift", predicate: { (\Phrase.text).contains("Swift") }, swift: { $0.contains("Swift") }),
        Case(label: "contains swift, ignoring case", predicate: { (\Phrase.text).contains("swift", options: .caseInsensitive) },
             swift: { lower($0).contains("swift") }),
        Case(label: "starts with sw", predicate: { (\Phrase.text).hasPrefix("sw") }, swift: { $0.hasPrefix("sw") }),
        Case(label: "starts with SW, ignoring case", predicate: { (\Phrase.text).hasPrefix("SW", options: .caseInsensitive) },
             swift: { lower($0).hasPrefix("sw") }),
        Case(label: "ends with LY", predicate: { (\Phrase.text).hasSuffix("LY") }, swift: { $0.hasSuffix("LY") }),
        Case(label: "ends with ly, ignoring case", predicate: { (\Phrase.text).hasSuffix("ly", options: .caseInsensitive) },
             swift: { lower($0).hasSuffix("ly") }),
        Case(label: "contains ÄRGER, ignoring case", predicate: { (\Phrase.text).contains("ÄRGER", options: .caseInsensitive) },
             swift: { lower($0).contains("ärger") }),
        Case(label: "ends with CAFÉ, ignoring case", predicate: { (\Phrase.text).hasSuffix("CAFÉ", options: .caseInsensitive) },
             swift: { lower($0).hasSuffix("café") }),
        Case(label: "starts with İST, ignoring case", predicate: { (\Phrase.text).hasPrefix("İST", options: .caseInsensitive) },
             swift: { lower($0).hasPrefix(lower("İST")) }),
        Case(label: "contains a wildcard as text", predicate: { (\Phrase.text).contains("_%") }, swift: { $0.contains("_%") }),
        Case(label: "starts with nothing", predicate: { (\Phrase.text).hasPrefix("") }, swift: { _ in true }),
        Case(label: "ends with nothing", predicate: { (\Phrase.text).hasSuffix("") }, swift: { _ in true }),
        Case(label: "not containing s", predicate: { !(\Phrase.text).contains("s", options: .caseInsensitive) },
             swift: { !lower($0).contains("s") }),
    ]

    @Test(arguments: StoreKind.allCases, cases)
    func aTextPredicateSelectsWhatSwiftSelects(kind: StoreKind, textCase: Case) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        try await store.save(Self.phrases.enumerated().map { Phrase(id: $0.offset, text: $0.element, note: nil) })
        let selected = try await store.fetchAll(ModelQuery(Phrase.self).filter(textCase.predicate()).order(by: \Phrase.id)).map(\.id)
        let expected = Self.phrases.indices.filter { textCase.swift(Self.phrases[$0]) }
        expectEqual(selected, expected)
        try expectEqual(await store.fetchCount(ModelQuery(Phrase.self).filter(textCase.predicate())), expected.count)
    }

    @Test(arguments: StoreKind.allCases)
    func nilMatchesNoTextPredicateNorItsNegation(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        try await store.save([Phrase(id: 1, text: "a", note: "Noted"), Phrase(id: 2, text: "b", note: nil)])
        let noted = ModelQuery(Phrase.self).filter((\Phrase.note).hasPrefix("NOTE", options: .caseInsensitive))
        try expectEqual(await store.fetchAll(noted).map(\.id), [1])
        let not = ModelQuery(Phrase.self).filter(!(\Phrase.note).hasSuffix("x"))
        try expectEqual(await store.fetchAll(not).map(\.id), [1])
    }

    @Test func theSQLShowsTheMatches() throws {
        let query = ModelQuery(Phrase.self).filter(
            (\Phrase.text).hasPrefix("ab", options: .caseInsensitive) && (\Phrase.text).hasSuffix("Z"))
        let statement = try query.selectSQL()
        #expect(
            statement.sql.hasSuffix(
                #"WHERE (substr(modelkit_lower("text"), 1, length(?)) = ?1 AND (length(?) = 0 OR substr("text", -length(?2)) = ?2))"#),
            "\(statement.sql)")
        expectEqual(statement.arguments, [.text("ab"), .text("Z")])
    }
}
