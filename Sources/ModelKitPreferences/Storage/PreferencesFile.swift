import Foundation
import ModelKitCore
import ModelKitJSON

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One version of the preferences file as read from disk.
struct FileContents: Sendable {
    /// The top-level members (the last of duplicate keys wins).
    var members: [String: JSONValue]
    /// The version read; nil when there is no file.
    var fingerprint: FileFingerprint?
    /// The open file, pinning its inode while its fingerprint is remembered.
    var pin: PinnedFile?

    /// No file.
    static let missing = FileContents(members: [:], fingerprint: nil, pin: nil)
}

/// The preferences file on disk: reading, atomic replacement, locking, and moving a corrupt
/// file aside.
///
/// Layout for a file `preferences.json`: the data file itself, `preferences.json.lock` (the
/// `flock` target: the data file is replaced on every save, so it cannot carry the lock),
/// `preferences.json.tmp` (the next version while it is written; only the lock holder writes
/// it, so a writer killed mid-save leaves at most this one stale file, overwritten next time),
/// and `preferences.json.corrupt-<time>` backups.
struct PreferencesFile: Sendable {
    /// The data file.
    let path: String

    /// The directory holding the file.
    var directory: String { (path as NSString).deletingLastPathComponent }
    /// The lock file beside the data file.
    var lockPath: String { path + ".lock" }
    /// The temporary file a save writes before renaming it over the data file.
    var temporaryPath: String { path + ".tmp" }

    /// The current version's fingerprint, without reading it; nil when there is no file.
    func currentFingerprint() throws -> FileFingerprint? {
        do {
            return try SystemCalls.fingerprint(path: path)
        } catch let error as SystemCallError {
            throw PreferencesError(.unreadableFile, path: path, reason: error.description, underlying: error)
        }
    }

    /// Reads and parses the file. A missing or empty file holds no preferences.
    ///
    /// Throws ``PreferencesError/Kind/unreadableFile`` when it cannot be read and
    /// ``PreferencesError/Kind/corruptFile`` (with no backup path yet) when it is not a JSON
    /// object; the caller moves a corrupt file aside under the lock.
    func read() throws -> FileContents {
        let descriptor: Int32
        do {
            descriptor = try SystemCalls.open(path, flags: O_RDONLY, step: "opening '\(path)'")
        } catch let error as SystemCallError {
            if error.code == ENOENT || error.code == ENOTDIR { return .missing }
            throw PreferencesError(.unreadableFile, path: path, reason: error.description, underlying: error)
        }
        let pin = PinnedFile(descriptor: descriptor)
        let fingerprint: FileFingerprint
        let bytes: [UInt8]
        do {
            fingerprint = try SystemCalls.fingerprint(descriptor: descriptor, step: "checking '\(path)'")
            guard fingerprint.isRegularFile else {
                throw PreferencesError(.unreadableFile, path: path, reason: "not a regular file")
            }
            bytes = try SystemCalls.readAll(descriptor, sizeHint: Int(fingerprint.size), step: "reading '\(path)'")
        } catch let error as SystemCallError {
            throw PreferencesError(.unreadableFile, path: path, reason: error.description, underlying: error)
        }
        let members = try Self.parse(bytes, path: path)
        return FileContents(members: members, fingerprint: fingerprint, pin: pin)
    }

    /// The members of a preferences document; whitespace alone counts as no preferences, and
    /// a UTF-8 byte order mark (which some editors add) is skipped.
    static func parse(_ bytes: [UInt8], path: String) throws -> [String: JSONValue] {
        var bytes = bytes[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return [:] }
        let document: JSONValue
        do {
            document = try JSONValue(parsing: bytes)
        } catch {
            throw PreferencesError(.corruptFile, path: path, reason: String(describing: error), underlying: error)
        }
        guard case .object(let list) = document else {
            throw PreferencesError(.corruptFile, path: path, reason: "the top level is not a JSON object")
        }
        var members: [String: JSONValue] = [:]
        for member in list { members[member.key] = member.value.canonicalized }
        return members
    }

    /// The bytes of a document: pretty-printed, keys sorted, ending with a line feed.
    static func encode(_ members: [String: JSONValue], path: String) throws -> [UInt8] {
        var writer = JSONWriter(options: [.prettyPrinted, .sortedKeys])
        do {
            try writer.write(members)
        } catch {
            throw PreferencesError(.unencodableValue, path: path, reason: String(describing: error), underlying: error)
        }
        writer.bytes.append(0x0A)
        return writer.bytes
    }

    /// Replaces the file atomically with `members`: writes the temporary file, syncs it, renames
    /// it over the data file and syncs the directory. Readers see the old or the new version,
    /// whole, at every moment, even if this process is killed. Call while holding the lock.
    func write(_ members: [String: JSONValue], replacing previous: FileFingerprint?) throws -> FileContents {
        let bytes = try Self.encode(members, path: path)
        let temporary = temporaryPath
        do {
            // New files are private to the user, like the platforms' own preferences; a file
            // someone made readable keeps its mode.
            let mode: mode_t = previous == nil ? 0o600 : currentMode() ?? 0o600
            let descriptor = try SystemCalls.open(
                temporary, flags: O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, mode: mode,
                step: "creating '\(temporary)'")
            let pin = PinnedFile(descriptor: descriptor)
            do {
                _ = fchmod(descriptor, mode)
                try SystemCalls.writeAll(descriptor, bytes, step: "writing '\(temporary)'")
                try SystemCalls.synchronize(descriptor, step: "syncing '\(temporary)'")
                try SystemCalls.rename(temporary, to: path)
            } catch {
                SystemCalls.removeFile(temporary)
                throw error
            }
            try SystemCalls.synchronizeDirectory(directory)
            let fingerprint = try SystemCalls.fingerprint(descriptor: descriptor, step: "checking '\(path)'")
            return FileContents(members: members, fingerprint: fingerprint, pin: pin)
        } catch let error as SystemCallError {
            throw PreferencesError(.unwritableFile, path: path, reason: error.description, underlying: error)
        }
    }

    /// The permission bits of the current file, if there is one.
    private func currentMode() -> mode_t? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return info.st_mode & 0o7777
    }

    /// Creates the directory holding the file, and its parents, if missing.
    func createDirectory() throws {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw PreferencesError(
                .unwritableFile, path: path, reason: "cannot create the directory '\(directory)'", underlying: error)
        }
    }

    /// Runs `body` holding an exclusive `flock` on the lock file, which other processes
    /// using ModelKit preferences on the same file respect. The lock is released when `body`
    /// returns, and by the system if the process dies.
    func withLock<Result>(_ body: () throws -> Result) throws -> Result {
        try createDirectory()
        let lock = lockPath
        let descriptor: Int32
        do {
            descriptor = try SystemCalls.open(lock, flags: O_RDWR | O_CREAT, mode: 0o600, step: "opening '\(lock)'")
            do {
                try SystemCalls.lockExclusively(descriptor, step: "locking '\(lock)'")
            } catch {
                SystemCalls.close(descriptor)
                throw error
            }
        } catch let error as SystemCallError {
            throw PreferencesError(.lockFailed, path: lock, reason: error.description, underlying: error)
        }
        defer {
            SystemCalls.unlock(descriptor)
            SystemCalls.close(descriptor)
        }
        return try body()
    }

    /// Moves a corrupt file to `<file>.corrupt-<UTC time>` (with `-2`, `-3`, ... if taken) and
    /// returns the error to report, naming the backup. Call while holding the lock.
    func moveAside(_ problem: PreferencesError) -> PreferencesError {
        let stamp = SystemCalls.compactTimestamp(secondsSince1970: Int(Date().timeIntervalSince1970))
        var backup = "\(path).corrupt-\(stamp)"
        var attempt = 2
        while (try? SystemCalls.fingerprint(path: backup)) != nil {
            backup = "\(path).corrupt-\(stamp)-\(attempt)"
            attempt += 1
        }
        do {
            try SystemCalls.rename(path, to: backup)
            try? SystemCalls.synchronizeDirectory(directory)
        } catch {
            return PreferencesError(
                .corruptFile, path: path,
                reason: "\(problem.reason); it could not be moved aside: \(error)", underlying: problem.underlying)
        }
        return PreferencesError(
            .corruptFile, path: path, backupPath: backup, reason: problem.reason, underlying: problem.underlying)
    }
}
