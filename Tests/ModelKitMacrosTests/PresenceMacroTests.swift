import MacroTesting
import Testing

/// `@Presence`: the fields struct notes each property it reads, and the initializer hands the
/// notes to the marked property, which is transient otherwise; a declaration where it cannot
/// work is an error on the attribute.
@Suite(.macros(ModelKitMacros.specs(tracking: false)))
struct PresenceMacroTests {
    @Test func theFieldsNoteWhatTheyReadAndTheModelKeepsIt() {
        let (expanded, diagnostics) = ModelKitMacros.expand(
            """
            @Model
            struct Profile {
                var name: String
                @Key(onError: .useDefault) var rank: Int = 1
                @Presence var presence = ModelPresence()
            }
            """)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        for expected in [
            "var __presence = ModelKitCore.ModelPresence()",
            #"self.values.0 = try reader.decodeValue((String).self); self.__presence.record("name", slot: self.values.0)"#,
            // Only a value in place is noted: not one taken as the default.
            #"self.values.1 = value; self.__presence.record("rank", slot: self.values.1)"#,
            "self.presence = fields.__presence",
            #"ModelKitCore.ModelProperty("presence", keyPath: \Profile.presence, typeName: "ModelPresence", declaredIn: "Profile", flags: [.transient, .hasDefault, .presence]"#,
        ] {
            #expect(expanded.contains(expected), "\(expected)\n\(expanded)")
        }
    }

    /// A model without `@Presence` notes nothing.
    @Test func aModelWithoutItNotesNothing() {
        let (expanded, _) = ModelKitMacros.expand(
            """
            @Model
            struct Profile {
                var name: String
            }
            """)
        #expect(!expanded.contains("__presence"), "\(expanded)")
    }

    @Test(arguments: [
        ("@Presence var presence: [String] = []", "'@Presence' cannot keep what a payload gave in 'presence': declare it 'var presence = ModelPresence()'"),
        ("@Presence let presence = ModelPresence()", "'@Presence' cannot keep what a payload gave in 'presence': declare it 'var presence = ModelPresence()'"),
        ("@Presence var presence: ModelPresence", "'@Presence' cannot keep what a payload gave in 'presence': declare it 'var presence = ModelPresence()'"),
    ])
    func whereItCannotWorkIsAnError(declaration: String, message: String) {
        let (_, diagnostics) = ModelKitMacros.expand(
            """
            @Model
            struct Row {
                var name: String
                \(declaration)
            }
            """)
        #expect(diagnostics.first == message, "\(diagnostics)")
    }

    @Test func aSecondOneIsAnError() {
        let (_, diagnostics) = ModelKitMacros.expand(
            """
            @Model
            struct Row {
                @Presence var presence = ModelPresence()
                @Presence var again = ModelPresence()
            }
            """)
        #expect(diagnostics == ["'@Presence' cannot keep what a payload gave in 'again': 'presence' keeps it already"], "\(diagnostics)")
    }
}
