import Foundation

/// Where the built `modelkit` tool is, for tests that run it as another process: `$MODELKIT_TOOL`
/// if set, else found next to the tests like any ``BuiltExecutable``.
///
/// ```swift
/// let process = Process()
/// (process.executableURL, process.arguments) = try ModelKitToolLocation.invocation(["demo"])
/// ```
public enum ModelKitToolLocation {
    /// The tool, as the build names it.
    public static let tool = BuiltExecutable(name: "modelkit", environmentVariable: "MODELKIT_TOOL")

    /// The tool's location, or the places searched.
    public static let location: Result<URL, NotFound> = tool.location

    /// The tool was not built, or not where it was looked for.
    public typealias NotFound = BuiltExecutable.NotFound

    /// The tool's URL; throws (failing the test) when it was not built.
    public static func executable() throws -> URL {
        try location.get()
    }

    /// The executable and arguments that run the tool with `arguments`. With `fileSizeLimit`,
    /// through the shell's `ulimit -f` (blocks of 512 bytes) with SIGXFSZ ignored, so that a
    /// write past the limit fails with EFBIG, as on a full disk, instead of killing the process.
    public static func invocation(_ arguments: [String], fileSizeLimit: Int? = nil) throws -> (URL, [String]) {
        let tool = try executable()
        guard let fileSizeLimit else { return (tool, arguments) }
        let script = "trap '' XFSZ; ulimit -f \(fileSizeLimit) && exec \"$0\" \"$@\""
        return (URL(fileURLWithPath: "/bin/sh"), ["-c", script, tool.path] + arguments)
    }
}
