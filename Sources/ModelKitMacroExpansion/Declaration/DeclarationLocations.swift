import SwiftSyntax
import SwiftSyntaxMacros

/// `#sourceLocation(file:line:)` directives for the nodes of one declaration, from a single
/// location the compiler gives for the declaration and the line breaks in its own text.
///
/// Asking the expansion context for each property's location converted a position for every
/// property of every model (a twentieth of the plugin's time in a debug build); counting line
/// breaks in the declaration's text gives the same lines.
///
/// ```swift
/// let locations = DeclarationLocations(of: declaration, in: context)
/// locations.directive(for: Syntax(binding))  // #sourceLocation(file: "/src/User.swift", line: 14)
/// ```
struct DeclarationLocations {
    /// The file, as the string literal the directive takes.
    private let file: String
    /// The line of the declaration's first token.
    private let line: Int
    /// The position of the declaration's first token.
    private let start: Int
    /// The positions (UTF-8 offsets in the declaration's tree) just past each line break after `start`.
    private let lineStarts: [Int]

    /// The locations for `declaration`'s nodes; nil where the compiler gave no location.
    init?(of declaration: some SyntaxProtocol, in context: some MacroExpansionContext) {
        guard let location = context.location(of: declaration, at: .afterLeadingTrivia, filePathMode: .filePath),
            let line = Int(location.line.trimmedDescription)
        else { return nil }
        file = location.file.trimmedDescription
        self.line = line
        start = declaration.positionAfterSkippingLeadingTrivia.utf8Offset
        let origin = declaration.position.utf8Offset
        var starts: [Int] = []
        var previous: UInt8 = 0
        for (offset, byte) in declaration.syntaxTextBytes.enumerated() {
            // "\r\n" is one line break; a lone "\r" is one too.
            let breaksLine = byte == UInt8(ascii: "\n") ? previous != UInt8(ascii: "\r") : byte == UInt8(ascii: "\r")
            if breaksLine, origin + offset >= start { starts.append(origin + offset + 1) }
            previous = byte
        }
        lineStarts = starts
    }

    /// The directive for `node`, a node of the declaration, at its first token.
    func directive(for node: Syntax) -> String {
        let position = node.positionAfterSkippingLeadingTrivia.utf8Offset
        // The number of line breaks between the declaration's start and the node.
        var low = 0
        var high = lineStarts.count
        while low < high {
            let middle = (low + high) / 2
            if lineStarts[middle] <= position { low = middle + 1 } else { high = middle }
        }
        return "#sourceLocation(file: \(file), line: \(line + low))"
    }
}
