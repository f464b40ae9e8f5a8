import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The process's peak resident memory, and a way to start measuring it afresh.
///
/// On Linux the peak is `VmHWM` from `/proc/self/status`; writing `5` to `/proc/self/clear_refs`
/// resets it to the current resident size, so each measurement sees only its own work:
///
///     PeakMemory.reset()
///     let models = try decode()
///     let bytes = PeakMemory.growth()   // peak over what was resident at reset
///
/// Elsewhere (macOS) there is no reset: `getrusage`'s peak only grows, so growth is measured
/// against it and reads 0 when an earlier step peaked higher.
enum PeakMemory {
    nonisolated(unsafe) private static var baseline = 0

    /// Starts a measurement: the peak becomes the current resident size.
    static func reset() {
        #if os(Linux)
        if let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") {
            handle.write(Data("5".utf8))
            try? handle.close()
        }
        baseline = resident()
        #else
        baseline = peak()
        #endif
    }

    /// The peak resident memory `body` adds, in bytes, after giving freed memory back to the
    /// system (so neither side runs in pages the other freed).
    static func measure(_ body: () throws -> Void) throws -> Int {
        trimHeap()
        reset()
        try body()
        return growth()
    }

    /// How far the peak rose above the resident size at ``reset()``, in bytes.
    static func growth() -> Int { max(0, peak() - baseline) }

    /// The peak resident size since the last reset (or since the start), in bytes.
    static func peak() -> Int {
        #if os(Linux)
        return statusField("VmHWM:")
        #else
        var usage = rusage()
        getrusage(RUSAGE_SELF, &usage)
        return Int(usage.ru_maxrss)  // bytes on macOS
        #endif
    }

    /// The current resident size, in bytes (Linux; the peak elsewhere).
    static func resident() -> Int {
        #if os(Linux)
        return statusField("VmRSS:")
        #else
        return peak()
        #endif
    }

    /// Gives the heap's free memory back to the system (glibc's `malloc_trim`, looked up at run
    /// time: Swift's Glibc module does not export `malloc.h`).
    private static func trimHeap() {
        #if canImport(Glibc)
        typealias Trim = @convention(c) (Int) -> Int32
        if let symbol = dlsym(nil, "malloc_trim") {
            _ = unsafeBitCast(symbol, to: Trim.self)(0)
        }
        #endif
    }

    #if os(Linux)
    /// A `kB` field of `/proc/self/status`, in bytes.
    private static func statusField(_ name: String) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix(name) {
            let digits = line.dropFirst(name.count).filter(\.isNumber)
            return (Int(digits) ?? 0) * 1024
        }
        return 0
    }
    #endif
}

/// Formats a byte count as MB (10^6 bytes).
func megabytes(_ bytes: Int) -> String { "\(format(Double(bytes) / 1e6)) MB" }
