import Testing

/// A diagnostic as a test expects it: its message, where it points in the test's source (line and
/// column from 1, columns in UTF-8 bytes, as the compiler prints them), its severity, its notes
/// and the messages of its fix-its.
struct ExpectedDiagnostic: Sendable, Equatable, CustomStringConvertible {
    /// A note attached to a diagnostic.
    struct Note: Sendable, Equatable, CustomStringConvertible {
        var message: String
        var line: Int
        var column: Int

        var description: String { "note \(line):\(column) \"\(message)\"" }
    }

    var message: String
    var line: Int
    var column: Int
    var severity: PluginDiagnostic.Severity
    var notes: [Note]
    var fixIts: [String]

    init(
        _ message: String, line: Int, column: Int, severity: PluginDiagnostic.Severity = .error, notes: [Note] = [],
        fixIts: [String] = []
    ) {
        self.message = message
        self.line = line
        self.column = column
        self.severity = severity
        self.notes = notes
        self.fixIts = fixIts
    }

    var description: String {
        var text = "\(severity) \(line):\(column) \"\(message)\""
        if !fixIts.isEmpty { text += ", fix-its " + fixIts.map { "\"\($0)\"" }.joined(separator: ", ") }
        if !notes.isEmpty { text += ", " + notes.map(\.description).joined(separator: ", ") }
        return text
    }
}

extension ExpectedDiagnostic {
    /// A diagnostic the plugin reported, in the terms of an expected one. Positions outside the
    /// test source (another file, a bad offset) are recorded as issues and become line 0.
    init(reported diagnostic: PluginDiagnostic, in file: SourceFile, sourceLocation: SourceLocation) {
        func place(_ position: PluginDiagnostic.Position, of what: String) -> (line: Int, column: Int) {
            guard position.fileName == SourceFile.path, let place = file.lineAndColumn(of: position.offset) else {
                Issue.record(
                    "the \(what) \"\(diagnostic.message)\" is at \(file.describe(fileName: position.fileName, offset: position.offset)), not in the test source",
                    sourceLocation: sourceLocation)
                return (0, 0)
            }
            return place
        }
        let position = place(diagnostic.position, of: "diagnostic")
        self.init(
            diagnostic.message, line: position.line, column: position.column, severity: diagnostic.severity,
            notes: diagnostic.notes.map { note in
                let position = place(note.position, of: "note of")
                return Note(message: note.message, line: position.line, column: position.column)
            },
            fixIts: diagnostic.fixIts.map(\.message))
    }
}

/// Records an issue for each difference between the diagnostics the plugin reported and those
/// expected, compared in order: message, line, column, severity, notes and fix-it messages.
func expectDiagnostics(
    _ reported: [PluginDiagnostic], in file: SourceFile, toBe expected: [ExpectedDiagnostic],
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let actual = reported.map { ExpectedDiagnostic(reported: $0, in: file, sourceLocation: sourceLocation) }
    guard actual != expected else { return }
    func list(_ diagnostics: [ExpectedDiagnostic]) -> String {
        diagnostics.isEmpty ? "  (none)" : diagnostics.map { "  \($0)" }.joined(separator: "\n")
    }
    var lines = ["the diagnostics differ from those expected:"]
    for index in 0..<max(actual.count, expected.count) {
        let got = index < actual.count ? actual[index].description : "nothing"
        let wanted = index < expected.count ? expected[index].description : "nothing"
        if got != wanted { lines.append("- diagnostic \(index + 1): expected \(wanted)\n  got      \(got)") }
    }
    lines.append("expected:\n\(list(expected))\ngot:\n\(list(actual))")
    Issue.record(Comment(rawValue: lines.joined(separator: "\n")), sourceLocation: sourceLocation)
}

/// Applies every fix-it of every diagnostic to the test source, as accepting them all in an editor
/// would, and compares the result with `expected`.
func expectFixedSource(
    _ diagnostics: [PluginDiagnostic], in file: SourceFile, toBe expected: String,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let changes = diagnostics.flatMap { $0.fixIts.flatMap(\.changes) }
    switch file.applying(changes) {
    case .success(let fixed):
        expectText(fixed, toBe: expected, what: "the source with every fix-it applied", sourceLocation: sourceLocation)
    case .failure(let conflict):
        Issue.record("the fix-its cannot be applied: \(conflict)", sourceLocation: sourceLocation)
    }
}
