#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A failed system call: what was being done, and `errno`.
struct SystemCallError: Error, CustomStringConvertible {
    /// What was being done, e.g. `writing '/p/preferences.json.tmp'`.
    let step: String
    /// The `errno` value.
    let code: Int32

    /// `no space left on device (writing '/p/preferences.json.tmp')`.
    var description: String {
        "\(PreferencesError.describe(errno: code)) (\(step))"
    }
}

/// Identifies one version of a file cheaply, from `stat`: device, inode, size and change times.
///
/// Every save replaces the file by renaming a new one over it, so each version has a new
/// inode. The storage keeps the version it read open (``PinnedFile``), so its inode cannot be
/// reused by a later version while the fingerprint is remembered; size and times catch files
/// edited in place by people.
struct FileFingerprint: Hashable, Sendable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var modifiedSeconds: Int64
    var modifiedNanoseconds: Int64
    var changedSeconds: Int64
    var changedNanoseconds: Int64
    var isRegularFile: Bool

    init(_ info: stat) {
        device = UInt64(truncatingIfNeeded: info.st_dev)
        inode = UInt64(truncatingIfNeeded: info.st_ino)
        size = Int64(info.st_size)
        isRegularFile = (info.st_mode & S_IFMT) == S_IFREG
        #if canImport(Darwin)
        modifiedSeconds = Int64(info.st_mtimespec.tv_sec)
        modifiedNanoseconds = Int64(info.st_mtimespec.tv_nsec)
        changedSeconds = Int64(info.st_ctimespec.tv_sec)
        changedNanoseconds = Int64(info.st_ctimespec.tv_nsec)
        #else
        modifiedSeconds = Int64(info.st_mtim.tv_sec)
        modifiedNanoseconds = Int64(info.st_mtim.tv_nsec)
        changedSeconds = Int64(info.st_ctim.tv_sec)
        changedNanoseconds = Int64(info.st_ctim.tv_nsec)
        #endif
    }
}

/// An open file descriptor, closed when the last reference goes away.
///
/// The storage holds the file version it last read or wrote this way, which pins the inode
/// (see ``FileFingerprint``).
final class PinnedFile: Sendable {
    let descriptor: Int32

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit {
        _ = close(descriptor)
    }
}

/// Thin wrappers over the POSIX calls the storage needs, retrying on `EINTR`.
enum SystemCalls {
    /// `open(2)`; returns the descriptor or throws with `errno`.
    static func open(_ path: String, flags: Int32, mode: mode_t = 0, step: String) throws -> Int32 {
        while true {
            #if canImport(Darwin)
            let descriptor = Darwin.open(path, flags | O_CLOEXEC, mode)
            #elseif canImport(Glibc)
            let descriptor = Glibc.open(path, flags | O_CLOEXEC, mode)
            #else
            let descriptor = Musl.open(path, flags | O_CLOEXEC, mode)
            #endif
            if descriptor >= 0 { return descriptor }
            if errno != EINTR { throw SystemCallError(step: step, code: errno) }
        }
    }

    /// `stat(2)` of a path; nil when nothing is there.
    static func fingerprint(path: String) throws -> FileFingerprint? {
        var info = stat()
        if stat(path, &info) == 0 { return FileFingerprint(info) }
        if errno == ENOENT || errno == ENOTDIR { return nil }
        throw SystemCallError(step: "checking '\(path)'", code: errno)
    }

    /// `fstat(2)` of an open file.
    static func fingerprint(descriptor: Int32, step: String) throws -> FileFingerprint {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw SystemCallError(step: step, code: errno) }
        return FileFingerprint(info)
    }

    /// Reads from `descriptor` until the end of the file.
    static func readAll(_ descriptor: Int32, sizeHint: Int, step: String) throws -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(max(sizeHint, 0) + 1)
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                bytes.append(contentsOf: chunk[0..<count])
            } else if count == 0 {
                return bytes
            } else if errno != EINTR {
                throw SystemCallError(step: step, code: errno)
            }
        }
    }

    /// Writes all of `bytes` to `descriptor`.
    static func writeAll(_ descriptor: Int32, _ bytes: [UInt8], step: String) throws {
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { buffer in
                write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            }
            if count > 0 {
                offset += count
            } else if count < 0 && errno != EINTR {
                throw SystemCallError(step: step, code: errno)
            }
        }
    }

    /// Flushes a file's data to stable storage: `F_FULLFSYNC` on Apple platforms (plain
    /// `fsync` there only reaches the drive's cache), `fsync` elsewhere.
    static func synchronize(_ descriptor: Int32, step: String) throws {
        #if canImport(Darwin)
        if fcntl(descriptor, F_FULLFSYNC) == 0 { return }
        #endif
        while fsync(descriptor) != 0 {
            if errno == EINTR { continue }
            throw SystemCallError(step: step, code: errno)
        }
    }

    /// Flushes a directory's entries (a rename into it) to stable storage. File systems that
    /// cannot sync directories are tolerated: there the rename is as durable as they allow.
    static func synchronizeDirectory(_ path: String) throws {
        let descriptor = try open(path, flags: O_RDONLY, step: "opening the directory '\(path)'")
        defer { close(descriptor) }
        while fsync(descriptor) != 0 {
            if errno == EINTR { continue }
            if errno == EINVAL || errno == ENOTSUP || errno == EBADF { return }
            throw SystemCallError(step: "syncing the directory '\(path)'", code: errno)
        }
    }

    /// `rename(2)`.
    static func rename(_ source: String, to destination: String) throws {
        #if canImport(Darwin)
        let result = Darwin.rename(source, destination)
        #elseif canImport(Glibc)
        let result = Glibc.rename(source, destination)
        #else
        let result = Musl.rename(source, destination)
        #endif
        guard result == 0 else {
            throw SystemCallError(step: "renaming '\(source)' to '\(destination)'", code: errno)
        }
    }

    /// `unlink(2)`, ignoring a missing file.
    static func removeFile(_ path: String) {
        _ = unlink(path)
    }

    /// Takes an exclusive `flock(2)` on `descriptor`, waiting for other holders.
    static func lockExclusively(_ descriptor: Int32, step: String) throws {
        while flock(descriptor, LOCK_EX) != 0 {
            if errno == EINTR { continue }
            throw SystemCallError(step: step, code: errno)
        }
    }

    /// Releases a `flock(2)`.
    static func unlock(_ descriptor: Int32) {
        _ = flock(descriptor, LOCK_UN)
    }

    /// Closes a descriptor.
    static func close(_ descriptor: Int32) {
        #if canImport(Darwin)
        _ = Darwin.close(descriptor)
        #elseif canImport(Glibc)
        _ = Glibc.close(descriptor)
        #else
        _ = Musl.close(descriptor)
        #endif
    }

    /// `YYYYMMDDTHHMMSSZ` for a moment, for backup file names (no colons: they are awkward in
    /// file names on Apple platforms).
    static func compactTimestamp(secondsSince1970 seconds: Int) -> String {
        var time = time_t(seconds)
        var parts = tm()
        guard gmtime_r(&time, &parts) != nil else { return String(seconds) }
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)\(two(parts.tm_mon + 1))\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour))\(two(parts.tm_min))\(two(parts.tm_sec))Z"
    }
}
