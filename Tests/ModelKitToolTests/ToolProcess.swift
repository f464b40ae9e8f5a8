import Foundation
import ModelKitTestSupport

/// Files for the `modelkit` tool to read (the tool itself runs through `ModelKitTool`).
struct ToolProcess {
    /// A file in a new temporary directory holding `contents`.
    static func temporaryFile(_ name: String, _ contents: String) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("modelkit-tool-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent(name)
        try Data(contents.utf8).write(to: url)
        return url
    }
}
