import Foundation
import ModelKitCore

/// What went wrong reading, writing or decoding preferences: a kind, the file and key involved,
/// and one lowercase sentence.
///
/// Throwing calls throw it; the non-throwing surface (``Preferences/values``, subscripts,
/// automatic saves) records it in ``Preferences/lastError``.
///
/// ```swift
/// do {
///     let volume = try prefs.value(for: .volume)
/// } catch let error as PreferencesError where error.kind == .corruptFile {
///     print(error) // corrupt preferences file '/home/ada/.config/com.example.app/preferences.json': ...
///     print(error.backupPath ?? "") // where the unreadable file was moved
/// }
/// ```
public struct PreferencesError: Error, CustomStringConvertible, Sendable {
    /// The kind of problem.
    public enum Kind: Hashable, Sendable {
        /// The file is not a JSON object. It was moved aside to ``PreferencesError/backupPath``
        /// and is never overwritten with defaults.
        case corruptFile
        /// The file exists but cannot be read (permissions, not a regular file, an I/O error).
        case unreadableFile
        /// The file, its directory or its temporary file cannot be written.
        case unwritableFile
        /// The lock file beside the preferences file cannot be opened or locked.
        case lockFailed
        /// A value cannot be represented in JSON (a NaN, an encoder error).
        case unencodableValue
        /// A stored value cannot be decoded as the type asked for.
        case undecodableValue
        /// The preferences declare their keys and this key is not one of them.
        case undeclaredKey
        /// The preferences name cannot be used as a file name.
        case invalidName
        /// No standard place for preferences: neither `XDG_CONFIG_HOME` nor `HOME` is usable.
        case noStandardLocation
    }

    /// The kind of problem.
    public let kind: Kind
    /// The preferences file (or lock file) involved, if any.
    public let path: String?
    /// The preference key involved, if any.
    public let key: String?
    /// For ``Kind/corruptFile``: where the corrupt file was moved.
    public let backupPath: String?
    /// The detail after the colon, e.g. `permission denied`.
    public let reason: String
    /// The error that caused this one: a `JSONSyntaxError`, a `ModelError`, ...
    public let underlying: (any Error)?

    /// Creates an error; the library makes these, tests and tools may too.
    public init(
        _ kind: Kind, path: String? = nil, key: String? = nil, backupPath: String? = nil, reason: String,
        underlying: (any Error)? = nil
    ) {
        self.kind = kind
        self.path = path
        self.key = key
        self.backupPath = backupPath
        self.reason = reason
        self.underlying = underlying
    }

    public var description: String {
        let file = path.map { " '\($0)'" } ?? ""
        switch kind {
        case .corruptFile:
            let moved = backupPath.map { "; moved it to '\($0)'" } ?? ""
            return "corrupt preferences file\(file): \(reason)\(moved)"
        case .unreadableFile:
            return "cannot read preferences file\(file): \(reason)"
        case .unwritableFile:
            return "cannot write preferences file\(file): \(reason)"
        case .lockFailed:
            return "cannot lock preferences file\(file): \(reason)"
        case .unencodableValue:
            return "cannot encode the value for '\(key ?? "")': \(reason)"
        case .undecodableValue:
            let location = path.map { " in '\($0)'" } ?? ""
            return "cannot decode '\(key ?? "")'\(location): \(reason)"
        case .undeclaredKey:
            return "'\(key ?? "")' is not a declared key: \(reason)"
        case .invalidName:
            return "invalid preferences name: \(reason)"
        case .noStandardLocation:
            return "cannot find a place for preferences: \(reason)"
        }
    }
}

extension PreferencesError {
    /// A lowercase description of a POSIX error number, e.g. `permission denied`.
    static func describe(errno number: Int32) -> String {
        let text = String(cString: strerror(number))
        guard let first = text.first else { return "error \(number)" }
        return first.lowercased() + text.dropFirst()
    }

    /// The reason of an error from another part of ModelKit, as one lowercase clause: a
    /// mapping error's sentence without its leading `cannot map value:` (the preferences error
    /// already says what could not be done).
    static func describe(_ error: any Error) -> String {
        if let error = error as? PreferencesError { return error.reason }
        let text = String(describing: error)
        guard error is ModelError else { return text }
        for prefix in ["cannot map value: ", "cannot map "] where text.hasPrefix(prefix) {
            return String(text.dropFirst(prefix.count))
        }
        return text
    }
}
