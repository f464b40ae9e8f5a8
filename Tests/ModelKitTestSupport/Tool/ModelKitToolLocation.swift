import Foundation

/// Where the built `modelkit` tool is, for tests that run it as another process.
///
/// SwiftPM puts every product of a build next to the test binary, whatever the scratch path
/// (`.build/<triple>/debug`, `.build-x/debug`, ...). The tool is `$MODELKIT_TOOL` if set, else
/// `modelkit` in the directory of the running executable or of any loaded `.xctest` bundle, or
/// in one of their parents.
///
/// ```swift
/// let process = Process()
/// (process.executableURL, process.arguments) = try ModelKitToolLocation.invocation(["demo"])
/// ```
public enum ModelKitToolLocation {
    /// The tool's location, or the places searched.
    public static let location: Result<URL, NotFound> = {
        let environment = ProcessInfo.processInfo.environment
        if let explicit = environment["MODELKIT_TOOL"], !explicit.isEmpty {
            return .success(URL(fileURLWithPath: explicit))
        }
        var starts: [URL] = []
        if let executable = Bundle.main.executableURL { starts.append(executable.deletingLastPathComponent()) }
        starts.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent())
        for bundle in Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" {
            starts.append(bundle.bundleURL.deletingLastPathComponent())
        }
        var searched: [String] = []
        for start in starts {
            var directory = start.standardizedFileURL
            for _ in 0..<4 {
                let candidate = directory.appendingPathComponent("modelkit")
                searched.append(candidate.path)
                if FileManager.default.isExecutableFile(atPath: candidate.path) { return .success(candidate) }
                directory = directory.deletingLastPathComponent()
            }
        }
        return .failure(NotFound(searched: searched))
    }()

    /// The tool was not built, or not where it was looked for.
    public struct NotFound: Error, CustomStringConvertible {
        public let searched: [String]
        public var description: String {
            "the 'modelkit' tool was not found (build it with 'swift build --build-tests'); searched "
                + searched.joined(separator: ", ")
        }
    }

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
