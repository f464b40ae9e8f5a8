import Foundation
import Testing

/// The concurrency model of contexts, enforced by the compiler in Swift 6 mode: a context and the
/// models it holds stay in the isolation domain that made them (a task, an actor, the main actor),
/// so sending either to another is a compile error; what crosses domains is a store, identifiers
/// and plain values, and each domain makes its own context.
@Suite struct ContextConcurrencyTypeCheckTests {
    static let declarations = """
        import ModelKit
        import ModelKitStore

        @Model final class Note {
            @Identifier var id: Int
            var text: String
        }

        @MainActor func show(_ note: Note) {}
        @MainActor func show(_ context: ModelContext) {}

        """

    /// Each line that would share a live instance or a context across domains, numbered as the
    /// compiler reports it (the declarations above take lines 1-10; `edit` opens on line 11).
    static let rejected: [(line: Int, code: String)] = [
        (14, "Task.detached { note.text = \"elsewhere\" }"),
        (15, "await show(note)"),
        (16, "Task.detached { try await context.save() }"),
        (17, "Task.detached { _ = try context.model(Note.self, id: id) }"),
        (18, "await show(context)"),
        (19, "Task.detached { _ = context.registeredCount }"),
        (20, "let stolen = ModelContext(store: store); Task.detached { _ = stolen.hasChanges }; _ = try stolen.model(Note.self, id: id)"),
    ]

    /// Lines that send what may cross: the store, identifiers, values, and a context made in the
    /// task that uses it.
    static let accepted: [String] = [
        "Task.detached { _ = try await store.fetchCount(Note.self) }",
        "Task.detached { let mine = ModelContext(store: store); _ = try mine.model(Note.self, id: id) }",
        "let text = note.text; Task.detached { print(text, id) }",
        "Task.detached { let mine = ModelContext(store: store); mine.register(Note(id: id, text: \"new\")); try await mine.save() }",
    ]

    @Test func sharingAContextOrAModelAcrossDomainsIsACompileError() throws {
        let body = (Self.rejected.map(\.code) + Self.accepted).map { "    " + $0 }.joined(separator: "\n")
        let output = try TypeCheckDiagnosticsTests.typeCheck(
            Self.declarations + """
                func edit(_ context: ModelContext, store: SQLiteStore) async throws {
                    guard let note = try context.model(Note.self, id: 1) else { return }
                    let id = note.id
                \(body)
                }
                """, mode: "-emit-sil", arguments: ["-swift-version", "6", "-o", "/dev/null"])
        let errors = TypeCheckDiagnosticsTests.errors(in: output)
        let lines = Set(errors.compactMap { error in Int(error.split(separator: ":")[1]) })
        // Every sharing line is refused, and nothing else is.
        #expect(lines == Set(Self.rejected.map(\.line)), "\(output)")
        #expect(errors.allSatisfy { $0.contains("data race") || $0.contains("Sendable") }, "\(output)")
    }
}
