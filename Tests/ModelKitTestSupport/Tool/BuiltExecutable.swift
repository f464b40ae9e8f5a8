import Foundation

/// An executable of the same build as the running tests, for tests that run it as another process.
///
/// SwiftPM puts every product of a build next to the test binary, whatever the scratch path
/// (`.build/<triple>/debug`, `.build-x/debug`, ...): the `modelkit` tool, and the compiler plugin
/// `ModelKitMacros-tool` it builds for the macros. An executable is the path in its environment
/// variable if that is set, else `name` in the directory of the running executable or of any
/// loaded `.xctest` bundle, or in one of their parents.
///
/// ```swift
/// let plugin = BuiltExecutable(name: "ModelKitMacros-tool", environmentVariable: "MODELKIT_MACROS_PLUGIN")
/// let url = try plugin.location.get()
/// ```
public struct BuiltExecutable: Sendable {
    /// The file name SwiftPM gives the product (`modelkit`, `ModelKitMacros-tool`).
    public let name: String
    /// The environment variable that, when set and not empty, names the executable instead.
    public let environmentVariable: String

    public init(name: String, environmentVariable: String) {
        self.name = name
        self.environmentVariable = environmentVariable
    }

    /// The executable's location, or the places searched.
    public var location: Result<URL, NotFound> {
        if let explicit = ProcessInfo.processInfo.environment[environmentVariable], !explicit.isEmpty {
            return .success(URL(fileURLWithPath: explicit))
        }
        var searched: [String] = []
        for start in Self.searchStarts {
            var directory = start
            for _ in 0..<4 {
                let candidate = directory.appendingPathComponent(name)
                searched.append(candidate.path)
                if FileManager.default.isExecutableFile(atPath: candidate.path) { return .success(candidate) }
                directory = directory.deletingLastPathComponent()
            }
        }
        return .failure(NotFound(name: name, environmentVariable: environmentVariable, searched: searched))
    }

    /// The directories the search walks up from: the running executable's, and each loaded
    /// `.xctest` bundle's (on macOS the tests run inside `xctest` or `swiftpm-testing-helper`).
    private static let searchStarts: [URL] = {
        var starts: [URL] = []
        if let executable = Bundle.main.executableURL { starts.append(executable.deletingLastPathComponent()) }
        if let argument = CommandLine.arguments.first {
            starts.append(URL(fileURLWithPath: argument).deletingLastPathComponent())
        }
        for bundle in Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" {
            starts.append(bundle.bundleURL.deletingLastPathComponent())
        }
        return starts.map(\.standardizedFileURL)
    }()

    /// The executable was not built, or not where it was looked for.
    public struct NotFound: Error, CustomStringConvertible {
        public let name: String
        public let environmentVariable: String
        public let searched: [String]

        public var description: String {
            "'\(name)' was not found next to the tests (build it with 'swift build --build-tests', or set "
                + "\(environmentVariable) to its path); searched " + searched.joined(separator: ", ")
        }
    }
}
