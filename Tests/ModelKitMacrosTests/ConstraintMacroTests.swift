import MacroTesting
import Testing

/// `@Validate`: each property's constraints become one static constant, typed by the property,
/// that the schema keeps and the generated read checks; a declaration where they cannot work is
/// an error on the attribute.
@Suite(.macros(ModelKitMacros.specs(tracking: false)))
struct ConstraintMacroTests {
    @Test func constraintsAreOneConstantTheSchemaAndTheReadUse() {
        let (expanded, diagnostics) = ModelKitMacros.expand(
            """
            @Model
            struct Review {
                @Validate(.range(1...5)) var rating: Int
                @Validate(.nonEmpty, .length(...280)) var text: String?
                var plain: String
            }
            """)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        for expected in [
            "static let __modelKitConstraints_rating = ModelKitCore.modelConstraints(for: (Int).self, .range(1...5))",
            "static let __modelKitConstraints_text = ModelKitCore.modelConstraints(for: (String?).self, .nonEmpty, .length(...280))",
            "constraints: Review.__modelKitConstraints_rating)",
            "try reader.checkConstraints(value, Review.__modelKitConstraints_rating)",
            "try reader.checkConstraints(value, Review.__modelKitConstraints_text)",
        ] {
            #expect(expanded.contains(expected), "\(expected)\n\(expanded)")
        }
        // A property without constraints is read as before: straight into its slot.
        #expect(!expanded.contains("__modelKitConstraints_plain"), "\(expanded)")
    }

    /// With `@Key(onError: .useDefault)`, a value that fails its constraints takes the default.
    @Test func aRecoveringPropertyChecksInsideTheRecovery() {
        let (expanded, diagnostics) = ModelKitMacros.expand(
            """
            @Model
            struct Review {
                @Key(onError: .useDefault) @Validate(.range(1...5)) var rating: Int = 3
            }
            """)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        let expected = "switch try reader.recover({ reader in let value = try reader.decodeValue((Int).self); "
            + "try reader.checkConstraints(value, Review.__modelKitConstraints_rating); return value }) {"
        #expect(expanded.contains(expected), "\(expanded)")
    }

    @Test(arguments: [
        ("@Validate var a: Int", "'@Validate' cannot constrain 'a': name at least one constraint, such as '.range(1...5)' or '.nonEmpty'"),
        ("@Transient @Validate(.nonEmpty) var a: String = \"\"", "'@Validate' cannot constrain 'a': transient properties are not mapped"),
        ("@Validate(.nonEmpty) let a: String = \"x\"", "'@Validate' cannot constrain 'a': a 'let' with an initial value is never read"),
        (
            "@UnknownKeys @Validate(.count(...3)) var a: [String: JSONValue] = [:]",
            "'@Validate' cannot constrain 'a': it keeps the payload's other keys"
        ),
    ])
    func whereConstraintsCannotWorkIsAnError(declaration: String, message: String) {
        let (_, diagnostics) = ModelKitMacros.expand(
            """
            @Model
            struct Row {
                \(declaration)
            }
            """)
        #expect(diagnostics == [message], "\(diagnostics)")
    }
}
