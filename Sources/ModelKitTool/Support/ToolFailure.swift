import ArgumentParser
import Foundation

/// A failure a `modelkit` command reports as one sentence on standard error, exiting with
/// status 1: the one place the tool turns errors into user text.
///
/// ```swift
/// try ToolFailure.reporting {
///     throw ToolFailure("cannot read 'x.json': \(ToolFailure.reason(error))")
/// }
/// ```
struct ToolFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }

    /// Runs `body`; on an error, prints its sentence to standard error and exits with status 1.
    @discardableResult
    static func reporting<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            FileHandle.standardError.write(Data("modelkit: \(error)\n".utf8))
            throw ExitCode.failure
        }
    }

    /// A short lowercase reason for a file-system error.
    static func reason(_ error: any Error) -> String {
        let nsError = error as NSError
        if nsError.domain == NSCocoaErrorDomain {
            switch nsError.code {
            case NSFileReadNoSuchFileError, NSFileNoSuchFileError: return "no such file"
            case NSFileReadNoPermissionError, NSFileWriteNoPermissionError: return "permission denied"
            default: break
            }
        }
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code))).lowercased()
        }
        return nsError.localizedDescription.lowercased()
    }
}
