import MacroTesting
import Testing

/// `@Model` on enums: the representation its attribute names, a case per tag, the payload model
/// of labelled values; what cannot work is an error that says why.
@Suite(.macros(ModelKitMacros.specs(tracking: false)))
struct EnumMacroTests {
    @Test func anEnumsSchemaAndPayloadModels() {
        let (expanded, diagnostics) = ModelKitMacros.expand(
            """
            @Model(tag: "type")
            enum Block {
                case text(TextBlock)
                case image(url: URL, width: Int?)
                case pair(Int, Int)
                @Key("hr") case divider
                @UnknownCase case other(JSONValue)
            }
            """)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        for expected in [
            #"representation: .internal(tag: "type"),"#,
            #"ModelKitCore.ModelEnumSchema.Case("text", hasPayload: true, payload: (TextBlock).self)"#,
            #"ModelKitCore.ModelEnumSchema.Case("image", hasPayload: true, payload: __ModelKitCase_image.self)"#,
            #"ModelKitCore.ModelEnumSchema.Case("pair", hasPayload: true, tuple: [(Int).self, (Int).self])"#,
            #"ModelKitCore.ModelEnumSchema.Case("divider", tag: "hr", hasPayload: false)"#,
            #"fallback: "other""#,
            #"@ModelKit.Model(name: "Block.image")"#,
            "case .other: nil",
        ] {
            #expect(expanded.contains(expected), "\(expected)\n\(expanded)")
        }
    }

    @Test func integerTagsGoIntoTheSchema() {
        let (expanded, diagnostics) = ModelKitMacros.expand(
            """
            @Model(tag: "code", content: "data")
            enum Reply {
                @Key(200) case ok
                @Key(-1) case failed(reason: String)
                @Key(1_000) case later
            }
            """)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        for expected in [
            #"ModelKitCore.ModelEnumSchema.Case("ok", integerTag: 200, hasPayload: false)"#,
            #"ModelKitCore.ModelEnumSchema.Case("failed", integerTag: -1, hasPayload: true, payload: __ModelKitCase_failed.self)"#,
            #"ModelKitCore.ModelEnumSchema.Case("later", integerTag: 1000, hasPayload: false)"#,
        ] {
            #expect(expanded.contains(expected), "\(expected)\n\(expanded)")
        }
    }

    @Test(arguments: [
        (
            "@Model(tag: \"type\")\nenum E {\n    case a\n    @UnknownCase case b(String)\n}",
            "'@Model' cannot map the enum 'E': '@UnknownCase' keeps a value as it came: declare it 'case b(JSONValue)'"
        ),
        (
            "@Model(.external)\nenum E {\n    case a\n    @Key(\"a\") case b\n}",
            "'@Model' cannot map the enum 'E': two cases have the tag 'a'"
        ),
        (
            "@Model(.untagged)\nenum E {\n    @UnknownCase case other(JSONValue)\n}",
            "'@Model' cannot map the enum 'E': it has no case to map"
        ),
        (
            "@Model(.external)\nenum E {\n    @Key(3) case a\n}",
            "'@Model' cannot map the enum 'E': an integer tag needs a tag key: '@Model(tag: \"type\")' or '@Model(tag:content:)'"
        ),
        (
            "@Model(tag: \"type\")\nenum E {\n    @Key(code) case a\n}",
            "'@Model' cannot map the enum 'E': write a case's tag as a string or an integer literal"
        ),
        (
            "@Model(tag: \"type\")\nenum E {\n    @Key(\"3\") case a\n    @Key(3) case b\n}",
            "'@Model' cannot map the enum 'E': two cases have the tag '3'"
        ),
    ])
    func whatCannotWorkIsAnError(source: String, message: String) {
        let (_, diagnostics) = ModelKitMacros.expand(source)
        #expect(diagnostics.contains(message), "\(diagnostics)")
    }
}
