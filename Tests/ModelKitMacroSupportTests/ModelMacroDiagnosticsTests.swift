import ModelKitMacroSupport
import SwiftDiagnostics
import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// Misuse of `@Model` is a compiler diagnostic, with a fix-it where one is obvious. Erroneous
/// declarations expand to nothing, so the only errors are these.
@Suite struct ModelMacroDiagnosticsTests {
    @Test func twoIdentifiers() {
        assertModelExpansion(
            """
            @Model
            struct User {
                @Identifier var id: Int
                @Identifier var uuid: String
            }
            """,
            expandedSource: """
                struct User {
                    var id: Int
                    var uuid: String
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "a model has one '@Identifier': 'uuid' is a second one after 'id'", line: 4, column: 5,
                    fixIts: [FixItSpec(message: "remove '@Identifier'")])
            ],
            fixedSource: """
                @Model
                struct User {
                    @Identifier var id: Int
                    var uuid: String
                }
                """)
    }

    @Test func keyOnAComputedProperty() {
        assertModelExpansion(
            """
            @Model
            struct User {
                var name: String
                @Key("display_name") var displayName: String { name }
            }
            """,
            expandedSource: """
                struct User {
                    var name: String
                    var displayName: String { name }
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "'@Key' applies to stored properties; 'displayName' is computed", line: 4, column: 5,
                    fixIts: [FixItSpec(message: "remove '@Key'")])
            ],
            fixedSource: """
                @Model
                struct User {
                    var name: String
                    var displayName: String { name }
                }
                """)
    }

    @Test func aPropertyNoInitializerCanFill() {
        assertModelExpansion(
            """
            @Model
            final class Session {
                var token: String
                @Transient var cache: Data
            }
            """,
            expandedSource: """
                final class Session {
                    var token: String
                    var cache: Data
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "'cache' is not mapped, so no generated initializer can set it: give it a default value or make it optional",
                    line: 4, column: 20, fixIts: [FixItSpec(message: "make 'cache' optional")])
            ],
            fixedSource: """
                @Model
                final class Session {
                    var token: String
                    @Transient var cache: Data?
                }
                """)
    }

    @Test func aConstantInAnIdentifiedClass() {
        assertModelExpansion(
            """
            @Model
            final class Account {
                @Identifier let id: String
                let owner: String
            }
            """,
            expandedSource: """
                final class Account {
                    let id: String
                    let owner: String
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "'owner' must be a 'var': 'Account' has an '@Identifier', so its live instance is updated in place",
                    line: 4, column: 5, fixIts: [FixItSpec(message: "make 'owner' a 'var'")])
            ],
            fixedSource: """
                @Model
                final class Account {
                    @Identifier let id: String
                    var owner: String
                }
                """)
    }

    @Test func aLazyProperty() {
        assertModelExpansion(
            """
            @Model
            struct Page {
                lazy var words: [String] = []
            }
            """,
            expandedSource: """
                struct Page {
                    lazy var words: [String] = []
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "lazy property 'words' cannot be mapped; mark it '@Transient'", line: 3, column: 5,
                    fixIts: [FixItSpec(message: "mark 'words' '@Transient'")])
            ],
            fixedSource: """
                @Model
                struct Page {
                    @Transient lazy var words: [String] = []
                }
                """)
    }

    @Test(arguments: [
        ("enum", "enum Kind {\n    case a\n}"), ("actor", "actor Cache {\n    var a: Int = 0\n}"),
        ("protocol", "protocol Named {\n    var name: String { get }\n}"),
    ])
    func onlyStructsAndClasses(kind: String, declaration: String) {
        assertModelExpansion(
            "@Model\n\(declaration)",
            expandedSource: declaration,
            diagnostics: [
                DiagnosticSpec(
                    message: "'@Model' applies to structs and classes, not to \(kind) declarations", line: 1, column: 1)
            ])
    }

    @Test func malformedKeysAndMissingTypes() {
        assertModelExpansion(
            """
            @Model
            struct Row {
                @Key("a..b") var a: Int
                var b = makeB()
                @Key(name) var c: Int
            }
            """,
            expandedSource: """
                struct Row {
                    var a: Int
                    var b = makeB()
                    var c: Int
                }
                """,
            diagnostics: [
                DiagnosticSpec(message: "invalid remote key path 'a..b': a segment is empty", line: 3, column: 10),
                DiagnosticSpec(message: "'b' needs an explicit type for '@Model' to map it", line: 4, column: 9),
                DiagnosticSpec(message: "invalid remote key path 'name': write it as a string literal", line: 5, column: 10),
            ])
    }

    @Test func genericModelsAndTransientTransforms() {
        assertModelExpansion(
            """
            @Model
            struct Page<Item> {
                var items: [Item]
            }
            """,
            expandedSource: """
                struct Page<Item> {
                    var items: [Item]
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "'@Model' does not support generic types yet: 'Page' has generic parameters", line: 2,
                    column: 8)
            ])
    }

    @Test func aTransformOnATransientPropertyIsAWarning() {
        let diagnostic = DiagnosticSpec(
            message: "'@Transform' has no effect on 'seen': transient properties are not mapped", line: 3, column: 16,
            severity: .warning, fixIts: [FixItSpec(message: "remove '@Transform'")])
        #expect(diagnostic.severity == .warning)
        #expect(ModelDiagnostic.transformOnTransient(property: "seen").severity == .warning)
        #expect(ModelDiagnostic.duplicateIdentifier(name: "b", first: "a").severity == .error)
        #expect(ModelDiagnostic.lazyProperty(property: "x").diagnosticID == MessageID(domain: "ModelKit", id: "lazyProperty"))
    }
}
