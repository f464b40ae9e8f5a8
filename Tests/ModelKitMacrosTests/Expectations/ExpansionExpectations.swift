import Testing

/// Expands ModelKit's macros in `source` with the built plugin, as swiftc would, and checks
/// everything it produced:
///
/// - the member and extension expansions of the one `@Model` declaration, each compared with the
///   expected text exactly but for trailing whitespace (an empty text: the role adds nothing);
/// - the peer expansion of every property marker (`@Key`, `@Transient`, ...), which is empty;
/// - every diagnostic of every role, in order: message, line, column, severity, notes, fix-its;
/// - with `fixedSource`, the source with every fix-it applied.
///
/// A plugin that is missing, crashes or answers nonsense fails the test with what happened.
func expectModelExpansion(
    of source: String, members: String = "", extensions: String = "", diagnostics: [ExpectedDiagnostic] = [],
    fixedSource: String? = nil, conformancesOfOtherTypes: [String: [String]] = [:],
    sourceLocation: SourceLocation = #_sourceLocation
) {
    guard
        let expansion = expandModelKitMacros(
            in: source, conformancesOfOtherTypes: conformancesOfOtherTypes, sourceLocation: sourceLocation)
    else { return }
    let model = expansion.roles.filter { $0.macro == "Model" && $0.role != .memberAttribute }
    let declarations = Set(model.map(\.declaration))
    guard declarations.count == 1, let declaration = declarations.first else {
        Issue.record("expected one '@Model' declaration, found \(declarations.sorted())", sourceLocation: sourceLocation)
        return
    }
    for (role, expected) in [(MacroRole.member, members), (.extension, extensions)] {
        let expanded = model.filter { $0.role == role }
        guard expanded.count == 1, let roleExpansion = expanded.first else {
            Issue.record("'\(declaration)' had \(expanded.count) \(role) expansions, not one", sourceLocation: sourceLocation)
            continue
        }
        expectExpansion(roleExpansion, toBe: expected, sourceLocation: sourceLocation)
    }
    for marker in expansion.roles where marker.role == .peer {
        expectExpansion(marker, toBe: "", sourceLocation: sourceLocation)
    }
    expectDiagnostics(expansion.diagnostics, in: expansion.outline.file, toBe: diagnostics, sourceLocation: sourceLocation)
    if let fixedSource {
        expectFixedSource(expansion.diagnostics, in: expansion.outline.file, toBe: fixedSource, sourceLocation: sourceLocation)
    }
}

/// Expands every macro attribute of `source` with a plugin of its own, then lets the plugin exit;
/// nil, with the failure recorded, when the plugin or the source cannot be used.
func expandModelKitMacros(
    in source: String, conformancesOfOtherTypes: [String: [String]] = [:], sourceLocation: SourceLocation = #_sourceLocation
) -> SourceExpansion? {
    do {
        let plugin = try MacroPluginClient()
        let expansion = try MacroExpansionHost(conformancesOfOtherTypes: conformancesOfOtherTypes).expand(source, with: plugin)
        try plugin.finish()
        return expansion
    } catch {
        Issue.record("\(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// Compares one role's expansion with the expected text.
func expectExpansion(_ expansion: RoleExpansion, toBe expected: String, sourceLocation: SourceLocation) {
    let what = "the \(expansion.role) expansion of \(expansion.attribute) on '\(expansion.declaration)'"
    guard let expanded = expansion.result.expandedSource else {
        Issue.record("\(what) failed: the macro threw (see its diagnostics)", sourceLocation: sourceLocation)
        return
    }
    expectText(expanded, toBe: expected, what: what, sourceLocation: sourceLocation)
}

/// Compares two texts line by line, ignoring only whitespace at the ends of lines and of the
/// text; a difference is recorded with its first differing line and the whole actual text.
func expectText(_ actual: String, toBe expected: String, what: String, sourceLocation: SourceLocation) {
    let actualLines = trimmedLines(actual)
    let expectedLines = trimmedLines(expected)
    guard actualLines != expectedLines else { return }
    let index =
        zip(actualLines, expectedLines).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        ?? min(actualLines.count, expectedLines.count)
    func line(_ lines: [String]) -> String { index < lines.count ? "\"\(lines[index])\"" : "(end of text)" }
    let numbered = actualLines.enumerated().map { "\(String($0.offset + 1).leftPadded(to: 4)) | \($0.element)" }
    Issue.record(
        Comment(
            rawValue: """
                \(what) differs from the expected text at line \(index + 1):
                  expected: \(line(expectedLines))
                  actual:   \(line(actualLines))
                the actual text (\(actualLines.count) lines, expected \(expectedLines.count)):
                \(numbered.joined(separator: "\n"))
                """), sourceLocation: sourceLocation)
}

/// The lines of a text without trailing whitespace, and without the blank lines that end it.
private func trimmedLines(_ text: String) -> [String] {
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
        var line = line
        while line.last?.isWhitespace == true { line.removeLast() }
        return String(line)
    }
    while lines.last?.isEmpty == true { lines.removeLast() }
    return lines
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: " ", count: max(0, width - count)) + self
    }
}
