import MacroTesting
import Testing

/// `@Model(indexes:unique:)`: property names, checked at compile time, become the schema's
/// `ModelIndex`es.
@Suite(.macros(ModelKitMacros.specs(tracking: false)))
struct ModelIndexMacroTests {
    @Test func indexesAndUniqueConstraintsBecomeTheSchemasIndexes() {
        let (expanded, diagnostics) = ModelKitMacros.expand(
            """
            @Model(indexes: [["lastName", "firstName"]], unique: [["email"], ["team", "number"]])
            final class Account {
                @Identifier var id: Int
                var firstName: String
                var lastName: String
                var email: String?
                var team: Int
                var number: Int
            }
            """)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        let expected = #"""
            indexes: [ModelKitCore.ModelIndex(["lastName", "firstName"]), ModelKitCore.ModelIndex(["email"], unique: true), ModelKitCore.ModelIndex(["team", "number"], unique: true)]
            """#
        #expect(expanded.contains(expected), "\(expanded)")
    }

    @Test func anIndexOfAnUnknownPropertyOrNotALiteralIsAnError() {
        assertMacro {
            """
            @Model(indexes: [["lastName", "nickname"], []], unique: [[emailKey]])
            struct Account {
                @Identifier var id: Int
                var lastName: String
                @Transient var nickname: String = ""
            }
            """
        } diagnostics: {
            """
            @Model(indexes: [["lastName", "nickname"], []], unique: [[emailKey]])
                                                                      ┬───────
                             │                         │              ╰─ 🛑 '@Model(unique:)' cannot be read: a property name is a string literal
                                                       ┬─
                             │                         ╰─ 🛑 '@Model(indexes:)' cannot be read: each index is a non-empty array of property names
                             ┬────────────────────────
                             ╰─ 🛑 'nickname' is not a stored property of 'Account': an index names stored properties
            struct Account {
                @Identifier var id: Int
                var lastName: String
                @Transient var nickname: String = ""
            }
            """
        }
    }

    @Test func searchablePropertiesBecomeTheSchemasSearchable() {
        let (expanded, diagnostics) = ModelKitMacros.expand(
            """
            @Model(search: ["title", "body"])
            final class Post {
                @Identifier var id: Int
                var title: String
                var body: String?
            }
            """)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        #expect(expanded.contains(#"searchable: ["title", "body"]"#), "\(expanded)")
    }

    @Test func aSearchOfAnUnknownOrNonTextPropertyIsAnError() {
        let (_, diagnostics) = ModelKitMacros.expand(
            """
            @Model(search: ["title", "likes", "nickname", "title", summaryKey])
            struct Post {
                @Identifier var id: Int
                var title: String
                var likes: Int
                @Transient var nickname: String = ""
            }
            """)
        let messages = diagnostics.joined(separator: "\n")
        for expected in [
            "'@Model(search:)' cannot search 'likes' of 'Post': full-text search reads text, and it is 'Int'",
            "'@Model(search:)' cannot search 'nickname' of 'Post': it is not a stored property",
            "'@Model(search:)' cannot be read: a property is named twice",
            "'@Model(search:)' cannot be read: a property name is a string literal",
        ] {
            #expect(messages.contains(expected), "\(messages)")
        }
        #expect(diagnostics.count == 4, "\(messages)")
    }
}
