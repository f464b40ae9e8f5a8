import Foundation
import ModelKit

/// What the archive commands share: reading an archive.
enum ArchiveTool {
    /// Reads and checks the archive at `path`.
    static func readDocument(at path: String) throws -> KeyedArchiveDocument {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ToolFailure("cannot read '\(path)': \(ToolFailure.reason(error))")
        }
        return try KeyedArchiveDocument(data: data)
    }
}
