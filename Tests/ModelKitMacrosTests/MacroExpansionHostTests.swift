import ModelKitTestSupport
import Testing

/// The tests' stand-in for swiftc: what it finds in a test source, and what it sends the plugin.
@Suite struct MacroExpansionHostTests {
    @Test func aRequestTheHostSendsIsWhatSwiftcSends() throws {
        let outline = try SourceOutline(
            """
            enum Outer {
                @Model(keys: .snakeCase)
                struct Inner: Hashable {
                    @Transient var at: Date // @Identifier
                }
            }
            """)
        let inner = try #require(outline.declarations.first?.members.first)
        #expect(inner.summary == "struct Inner" && inner.inheritedNames == ["Hashable"])
        expectEqual(inner.attributes.map(\.writtenName), ["Model"])
        let attribute = outline.payload(.attribute, tokens: inner.attributes[0].tokens)
        // The attribute's and the declaration's texts start with their leading trivia (the line
        // break and the indentation), and say where that starts: line 1, column 13, offset 12.
        expectEqual(attribute.source, "\n    @Model(keys: .snakeCase)")
        expectEqual(attribute.location, outline.file.location(of: 12))
        #expect(attribute.location.line == 1 && attribute.location.column == 13)
        let declaration = outline.payload(.declaration, tokens: inner.tokens)
        #expect(declaration.source.hasPrefix("\n    @Model(keys: .snakeCase)\n    struct Inner: Hashable {"))
        #expect(declaration.source.hasSuffix("var at: Date // @Identifier\n    }"))
        #expect(outline.lexicalContext(try #require(outline.declarations.first))?.source == "enum Outer {}")
        let property = try #require(inner.members.first)
        #expect(property.summary == "var at" && property.attributes.map(\.writtenName) == ["Transient"])
    }

    @Test func stringsAndCommentsHideWhatLooksLikeAttributes() throws {
        let outline = try SourceOutline(
            """
            @Model struct Odd {
                @Key("a\\"@Identifier(") var a: Int /* @Transient /* nested */ */
                @Key(#"raw "@Archive" \\#("x)".count)"#) var b: Int
                var c = "\\(f("@Key"))"
            }
            """)
        let odd = try #require(outline.declarations.first)
        expectEqual(odd.attributes.map(\.writtenName), ["Model"])
        expectEqual(odd.members.map(\.summary), ["var a", "var b", "var c"])
        expectEqual(odd.members.map { $0.attributes.map(\.writtenName) }, [["Key"], ["Key"], []])
    }

    @Test func anUnterminatedStringIsAnErrorNotAGuess() {
        #expect(throws: SourceSyntaxError.self) { try SourceOutline("@Model struct A {\n    @Key(\"a) var a: Int\n}") }
    }
}
