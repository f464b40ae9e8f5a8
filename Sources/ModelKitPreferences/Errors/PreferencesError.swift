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
    ///
    /// Kinds can be added in a minor release, so a `switch` over them needs a `default`;
    /// compare one with `==` (`error.kind == .corruptFile`).
    public struct Kind: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The kind's name, e.g. `corruptFile`.
        public let rawValue: String

        /// The kind named `rawValue`.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// The file is not a JSON object. It was moved aside to ``PreferencesError/backupPath``
        /// and is never overwritten with defaults.
        public static let corruptFile = Kind(rawValue: "corruptFile")
        /// The file exists but cannot be read (permissions, not a regular file, an I/O error).
        public static let unreadableFile = Kind(rawValue: "unreadableFile")
        /// The file, its directory or its temporary file cannot be written.
        public static let unwritableFile = Kind(rawValue: "unwritableFile")
        /// The lock file beside the preferences file cannot be opened or locked.
        public static let lockFailed = Kind(rawValue: "lockFailed")
        /// A value cannot be represented in JSON (a NaN, an encoder error).
        public static let unencodableValue = Kind(rawValue: "unencodableValue")
        /// A stored value cannot be decoded as the type asked for.
        public static let undecodableValue = Kind(rawValue: "undecodableValue")
        /// The preferences declare their keys and this key is not one of them.
        public static let undeclaredKey = Kind(rawValue: "undeclaredKey")
        /// The preferences name cannot be used as a file name.
        public static let invalidName = Kind(rawValue: "invalidName")
        /// No standard place for preferences: neither `XDG_CONFIG_HOME` nor `HOME` is usable.
        public static let noStandardLocation = Kind(rawValue: "noStandardLocation")

        public var description: String { rawValue }
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
        default:
            return "preferences error\(file): \(reason)"
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
