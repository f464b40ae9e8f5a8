import MacroTesting
import Testing

/// `@Model` on generic types: what a non-generic model keeps in static constants (its schema,
/// transformers, constraints), a generic one asks ModelKit for, made once per specialisation.
@Suite(.macros(ModelKitMacros.specs(tracking: false)))
struct GenericModelMacroTests {
    @Test func aGenericModelKeepsItsStaticsPerSpecialisation() {
        let (expanded, diagnostics) = ModelKitMacros.expand(
            """
            @Model
            struct Envelope<Payload: ModelValue> {
                var data: Payload
                @Transform(.iso8601) var at: Date?
                @Validate(.nonEmpty) var id: String
            }
            """)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        for expected in [
            "static var modelSchema: ModelKitCore.ModelSchema {",
            #"ModelKitCore.modelStatic(Envelope.self, "modelSchema") {"#,
            "name: String(describing: Envelope.self),",
            #"transformer: ModelKitCore.modelStatic(erasing: Envelope.self, "__modelKitTransformer_at", { ModelKitCore.modelTransformer(for: (Date?).self, .iso8601) })"#,
            #"try reader.checkConstraints(value, ModelKitCore.modelStatic(Envelope.self, "__modelKitConstraints_id", { ModelKitCore.modelConstraints(for: (String).self, .nonEmpty) }))"#,
        ] {
            #expect(expanded.contains(expected), "\(expected)\n\(expanded)")
        }
        // No stored statics (a generic type has none), no specialisation naming one reader.
        #expect(!expanded.contains("static let"), "\(expanded)")
        #expect(!expanded.contains("@_specialize"), "\(expanded)")
    }

    @Test func anIdentifiedGenericModelIsAnError() {
        let (_, diagnostics) = ModelKitMacros.expand(
            """
            @Model
            final class Folder<Item: ModelValue> {
                @Identifier var id: Int
                var items: [Item] = []
            }
            """)
        #expect(
            diagnostics == [
                "'@Identifier' cannot apply in the generic model 'Folder': identity and store tables are kept per type, not per specialisation; identify the models it holds instead"
            ], "\(diagnostics)")
    }
}
