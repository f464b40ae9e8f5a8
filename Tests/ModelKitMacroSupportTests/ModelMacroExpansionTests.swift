import ModelKitMacroSupport
import SwiftSyntaxMacroExpansion
import Testing

@Suite struct ModelMacroExpansionTests {
    @Test func aStructGetsItsSchemaAndFunctionsInAnExtension() {
        assertModelExpansion(
            """
            @Model(keys: .snakeCase)
            struct Tag {
                @Identifier var id: Int
                @Key("meta.label", "label") var label: String
                @Transform(.iso8601) var createdAt: Date?
                var count: Int = 0
                @Transient var cache: String? = nil
            }
            """,
            expandedSource: "")
    }

    @Test func aClassGetsRequiredInitializersInItsBody() {
        assertModelExpansion(
            """
            @Model
            class Shape {
                var name: String
                weak var parent: Shape?
            }
            """,
            expandedSource: "")
    }
}
