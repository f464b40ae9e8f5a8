/// A test's source, as one file the plugin reads from: its bytes, UTF-8 offsets (the protocol's
/// positions), lines and columns (the compiler's, both counted from 1, columns in UTF-8 bytes).
struct SourceFile: Sendable {
    /// The path the test source is known by in requests and diagnostics.
    static let path = "/ModelKitMacrosTests/MacroTestSource.swift"
    /// `#fileID` of the test source.
    static let fileID = "ModelKitMacrosTests/MacroTestSource.swift"

    let text: String
    let bytes: [UInt8]
    /// The offset each line starts at.
    private let lineStarts: [Int]

    init(_ text: String) {
        self.text = text
        bytes = Array(text.utf8)
        var starts = [0]
        for (offset, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") { starts.append(offset + 1) }
        lineStarts = starts
    }

    /// The text between two UTF-8 offsets.
    func text(in range: Range<Int>) -> String {
        String(decoding: bytes[range], as: UTF8.self)
    }

    /// Line and column of an offset, or nil when the offset is outside the file.
    func lineAndColumn(of offset: Int) -> (line: Int, column: Int)? {
        guard offset >= 0, offset <= bytes.count else { return nil }
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        return (low + 1, offset - lineStarts[low] + 1)
    }

    /// Where a piece of source starting at `offset` is, as a request tells the plugin.
    func location(of offset: Int) -> SourceLocationPayload {
        let position = lineAndColumn(of: offset) ?? (0, 0)
        return SourceLocationPayload(
            fileID: Self.fileID, fileName: Self.path, offset: offset, line: position.line, column: position.column)
    }

    /// `line:column` of a position the plugin reported, or why it cannot be placed in this file.
    func describe(fileName: String, offset: Int) -> String {
        guard fileName == Self.path else { return "\(offset) in another file '\(fileName)'" }
        guard let position = lineAndColumn(of: offset) else { return "\(offset), outside the source" }
        return "\(position.line):\(position.column)"
    }

    /// The text with every change applied, each replacing a range of this file, or why they cannot
    /// be: a change is in another file, outside the text, or overlaps another.
    func applying(_ changes: [PluginDiagnostic.FixIt.Change]) -> Result<String, FixItConflict> {
        let ordered = changes.sorted { $0.range.startOffset > $1.range.startOffset }
        var result = bytes
        var limit = bytes.count
        for change in ordered {
            let range = change.range
            guard range.fileName == Self.path else {
                return .failure(FixItConflict("a change is in another file '\(range.fileName)'"))
            }
            guard 0 <= range.startOffset, range.startOffset <= range.endOffset, range.endOffset <= limit else {
                return .failure(
                    FixItConflict("the change \(range.startOffset)..<\(range.endOffset) is outside the source or overlaps another"))
            }
            result.replaceSubrange(range.startOffset..<range.endOffset, with: Array(change.newText.utf8))
            limit = range.startOffset
        }
        return .success(String(decoding: result, as: UTF8.self))
    }

    /// Fix-it changes that cannot be applied together.
    struct FixItConflict: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
