import Testing

/// Misuse of `@Model` is a compiler diagnostic, with a fix-it where one is obvious. Erroneous
/// declarations expand to nothing (no members, no extension), so the only errors are these.
@Suite struct ModelMacroDiagnosticsTests {
    @Test(arguments: Misuse.all)
    func misuseIsDiagnosedAndExpandsToNothing(_ misuse: Misuse) {
        expectModelExpansion(of: misuse.source, diagnostics: misuse.diagnostics, fixedSource: misuse.fixedSource)
    }

    @Test(arguments: [
        ("enum", "enum Kind {\n    case a\n}"), ("actor", "actor Cache {\n    var a: Int = 0\n}"),
        ("protocol", "protocol Named {\n    var name: String { get }\n}"),
    ])
    func onlyStructsAndClasses(kind: String, declaration: String) {
        expectModelExpansion(
            of: "@Model\n\(declaration)",
            diagnostics: [
                ExpectedDiagnostic(
                    "'@Model' applies to structs and classes, not to \(kind) declarations", line: 1, column: 1)
            ])
    }

    /// A warning does not stop the expansion: the property stays transient, its transform unused.
    @Test func aTransformOnATransientPropertyIsAWarning() {
        let source = """
            @Model
            struct Visit {
                var place: String
                @Transient @Transform(.iso8601) var seen: Date? = nil
            }
            """
        guard let expansion = expandModelKitMacros(in: source) else { return }
        let file = expansion.outline.file
        expectDiagnostics(
            expansion.diagnostics, in: file,
            toBe: [
                ExpectedDiagnostic(
                    "'@Transform' has no effect on 'seen': transient properties are not mapped", line: 4, column: 16,
                    severity: .warning, fixIts: ["remove '@Transform'"])
            ])
        expectFixedSource(
            expansion.diagnostics, in: file,
            toBe: """
                @Model
                struct Visit {
                    var place: String
                    @Transient var seen: Date? = nil
                }
                """)
        let generated = expansion.roles.filter { $0.macro == "Model" }.compactMap(\.result.expandedSource).joined()
        #expect(generated.contains(#"ModelProperty("seen", keyPath: \Visit.seen, typeName: "Date?", declaredIn: "Visit", flags: [.optional, .transient, .hasDefault]"#))
        // The warning's property is not mapped, so the schema names no transformer for it.
        #expect(!generated.contains("__modelKitTransformer_seen"))
    }

    /// swiftc refuses extension macros on a local type ("local type cannot have attached
    /// extension macro", on the type's name); `@Model` says why and what to do, on the attribute.
    @Test(arguments: [
        ("func makeNote() {", "'makeNote()'"),
        ("func render(_ title: String, into lines: inout [String]) {", "'render(_:into:)'"),
        ("init() {", "an initializer"),
    ])
    func aLocalTypeIsDiagnosed(scope: String, named: String) {
        expectModelExpansion(
            of: """
                struct Screen {
                    \(scope)
                        @Model struct Note {
                            var text: String
                        }
                    }
                }
                """,
            diagnostics: [
                ExpectedDiagnostic(
                    "'@Model' cannot apply to 'Note', a type declared inside \(named): Swift gives local types no extension macros; declare 'Note' at file scope or inside another type",
                    line: 3, column: 9)
            ])
    }

    /// The macro sees hooks only in the type's body, so it gives the type empty ones for the
    /// rest: a hook declared in an extension is then swiftc's "invalid redeclaration" error on
    /// that line (swiftc 6.3 reports `invalid redeclaration of 'rewriteJSON'` at the extension's declaration)
    /// instead of a hook that is never called.
    @Test func hooksNotInTheBodyGetEmptyOnesSoAnExtensionsHookIsAnError() {
        let source = """
            @Model
            struct Checked {
                var value: Int
                func validate() throws {}
            }
            """
        guard let expansion = expandModelKitMacros(in: source) else { return }
        #expect(expansion.diagnostics.isEmpty)
        let generated = expansion.roles.filter { $0.macro == "Model" }.compactMap(\.result.expandedSource).joined()
        #expect(generated.contains("static func rewriteJSON(_ json: inout ModelKitCore.JSONValue) throws {}"))
        #expect(generated.contains("static func modelType(for json: ModelKitCore.JSONValue) throws"))
        #expect(!generated.contains("func validate() throws {}"))
        #expect(generated.contains("hooks: [.validates]"))
    }
}

/// A declaration `@Model` rejects, the diagnostics it gets, and the source once every fix-it is
/// applied (nil where there is no fix-it).
struct Misuse: Sendable, CustomTestStringConvertible {
    let name: String
    let source: String
    let diagnostics: [ExpectedDiagnostic]
    let fixedSource: String?

    var testDescription: String { name }

    static let all: [Misuse] = [
        Misuse(
            name: "two identifiers",
            source: """
                @Model
                struct User {
                    @Identifier var id: Int
                    @Identifier var uuid: String
                }
                """,
            diagnostics: [
                ExpectedDiagnostic(
                    "a model has one '@Identifier': 'uuid' is a second one after 'id'", line: 4, column: 5,
                    fixIts: ["remove '@Identifier'"])
            ],
            fixedSource: """
                @Model
                struct User {
                    @Identifier var id: Int
                    var uuid: String
                }
                """),
        Misuse(
            name: "a key on a computed property",
            source: """
                @Model
                struct User {
                    var name: String
                    @Key("display_name") var displayName: String { name }
                }
                """,
            diagnostics: [
                ExpectedDiagnostic(
                    "'@Key' applies to stored properties; 'displayName' is computed", line: 4, column: 5,
                    fixIts: ["remove '@Key'"])
            ],
            fixedSource: """
                @Model
                struct User {
                    var name: String
                    var displayName: String { name }
                }
                """),
        Misuse(
            name: "a property no initializer can fill",
            source: """
                @Model
                final class Session {
                    var token: String
                    @Transient var cache: Data
                }
                """,
            diagnostics: [
                ExpectedDiagnostic(
                    "'cache' is not mapped, so no generated initializer can set it: give it a default value or make it optional",
                    line: 4, column: 20, fixIts: ["make 'cache' optional"])
            ],
            fixedSource: """
                @Model
                final class Session {
                    var token: String
                    @Transient var cache: Data?
                }
                """),
        Misuse(
            name: "a constant in an identified class",
            source: """
                @Model
                final class Account {
                    @Identifier let id: String
                    let owner: String
                }
                """,
            diagnostics: [
                ExpectedDiagnostic(
                    "'owner' must be a 'var': 'Account' has an '@Identifier', so its live instance is updated in place",
                    line: 4, column: 5, fixIts: ["make 'owner' a 'var'"])
            ],
            fixedSource: """
                @Model
                final class Account {
                    @Identifier let id: String
                    var owner: String
                }
                """),
        Misuse(
            name: "a lazy property",
            source: """
                @Model
                struct Page {
                    lazy var words: [String] = []
                }
                """,
            diagnostics: [
                ExpectedDiagnostic(
                    "lazy property 'words' cannot be mapped; mark it '@Transient'", line: 3, column: 5,
                    fixIts: ["mark 'words' '@Transient'"])
            ],
            fixedSource: """
                @Model
                struct Page {
                    @Transient lazy var words: [String] = []
                }
                """),
        Misuse(
            name: "malformed keys and a missing type",
            source: """
                @Model
                struct Row {
                    @Key("a..b") var a: Int
                    var b = makeB()
                    @Key(name) var c: Int
                }
                """,
            diagnostics: [
                ExpectedDiagnostic("invalid remote key path 'a..b': a segment is empty", line: 3, column: 10),
                ExpectedDiagnostic("'b' needs an explicit type for '@Model' to map it", line: 4, column: 9),
                ExpectedDiagnostic("invalid remote key path 'name': write it as a string literal", line: 5, column: 10),
            ],
            fixedSource: nil),
        Misuse(
            name: "a generic model",
            source: """
                @Model
                struct Page<Item> {
                    var items: [Item]
                }
                """,
            diagnostics: [
                ExpectedDiagnostic(
                    "'@Model' does not support generic types yet: 'Page' has generic parameters", line: 2, column: 8)
            ],
            fixedSource: nil),
    ]
}
