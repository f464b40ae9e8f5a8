import Foundation

extension Preferences {
    /// The name of the file inside a preferences directory.
    public static let standardFileName = "preferences.json"

    /// Where preferences named `name` live unless a file is given: a folder named `name`
    /// holding ``standardFileName``.
    ///
    /// - Linux and other Unix systems: `$XDG_CONFIG_HOME/<name>/preferences.json`, or
    ///   `~/.config/<name>/preferences.json` when `XDG_CONFIG_HOME` is unset, empty or relative
    ///   (as the XDG Base Directory specification says).
    /// - Apple platforms: `~/Library/Application Support/<name>/preferences.json` (inside the
    ///   container for sandboxed apps).
    ///
    /// ```swift
    /// try Preferences.standardFileURL(forName: "com.example.app")
    /// // /home/ada/.config/com.example.app/preferences.json
    /// ```
    public static func standardFileURL(forName name: String) throws -> URL {
        try validate(name: name)
        #if canImport(Darwin)
        guard
            let base = try? FileManager.default.url(
                for: .applicationSupportDirectory, in: .userDomainMask, appropriateFor: nil, create: false)
        else {
            throw PreferencesError(
                .noStandardLocation, reason: "no Application Support directory for preferences '\(name)'")
        }
        return base.appendingPathComponent(name, isDirectory: true).appendingPathComponent(standardFileName)
        #else
        var environment = ProcessInfo.processInfo.environment
        if environment["HOME"]?.isEmpty ?? true { environment["HOME"] = NSHomeDirectory() }
        return try standardFileURL(forName: name, environment: environment)
        #endif
    }

    /// The XDG location of preferences named `name` for an explicit environment (reads
    /// `XDG_CONFIG_HOME` and `HOME` only): what ``standardFileURL(forName:)`` returns on Linux.
    ///
    /// ```swift
    /// try Preferences.standardFileURL(forName: "com.example.app", environment: ["HOME": "/home/ada"])
    /// // /home/ada/.config/com.example.app/preferences.json
    /// ```
    public static func standardFileURL(forName name: String, environment: [String: String]) throws -> URL {
        try validate(name: name)
        let base: String
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
            base = config
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            base = (home as NSString).appendingPathComponent(".config")
        } else {
            throw PreferencesError(
                .noStandardLocation,
                reason: "neither 'XDG_CONFIG_HOME' nor 'HOME' is an absolute path, for preferences '\(name)'")
        }
        return URL(fileURLWithPath: base, isDirectory: true)
            .appendingPathComponent(name, isDirectory: true)
            .appendingPathComponent(standardFileName)
    }

    /// Checks that a name can be a folder name: not empty, not `.` or `..`, no `/` or NUL,
    /// at most 255 UTF-8 bytes.
    static func validate(name: String) throws {
        let problem: String?
        if name.isEmpty {
            problem = "the name is empty"
        } else if name == "." || name == ".." {
            problem = "'\(name)' cannot be a folder name"
        } else if name.contains("/") || name.contains("\0") {
            problem = "'\(name)' contains '/' or a NUL character"
        } else if name.utf8.count > 255 {
            problem = "'\(name.prefix(40))...' is longer than 255 bytes"
        } else {
            problem = nil
        }
        if let problem { throw PreferencesError(.invalidName, reason: problem) }
    }
}
