import Foundation
import Testing

/// The concurrency model of contexts, enforced by the compiler in Swift 6 mode: a context is
/// `Sendable` (its identity map and unit of work are locked), its models are not, so a model stays
/// in the isolation domain that loaded it (a task, an actor, the main actor) and sending it to
/// another is a compile error; what crosses domains is the context, or identifiers.
@Suite struct ContextConcurrencyTypeCheckTests {
    @Test func sendingAModelToAnotherIsolationDomainIsACompileError() throws {
        let output = try TypeCheckDiagnosticsTests.typeCheck(
            """
            import ModelKit
            import ModelKitStore

            @Model final class Note {
                @Identifier var id: Int
                var text: String
            }

            @MainActor func show(_ note: Note) {}

            func edit(_ context: ModelContext) async throws {
                guard let note = try context.model(Note.self, for: 1) else { return }
                note.text = "here"
                Task.detached { note.text = "elsewhere" }
                await show(note)
                Task.detached { try await context.save() }
                let id = note.id
                Task.detached { _ = try context.model(Note.self, for: id) }
            }
            """, mode: "-emit-sil", arguments: ["-swift-version", "6", "-o", "/dev/null"])
        let errors = TypeCheckDiagnosticsTests.errors(in: output)
        // Lines 14 and 15 send the model away; the context (16) and an identifier (18) may go.
        #expect(Set(errors.map { $0.prefix { $0 != " " } }) == ["place.swift:14:", "place.swift:15:"], "\(output)")
        #expect(errors.allSatisfy { $0.contains("data race") || $0.contains("Sendable") }, "\(output)")
    }
}
