import ArgumentParser
import Foundation
import ModelKit

/// What the archive commands share: reading an archive, and failing with one sentence.
enum ArchiveTool {
    /// A failure the tool reports as it is.
    struct Failure: Error, CustomStringConvertible {
        let description: String

        init(_ description: String) {
            self.description = description
        }
    }

    /// Reads and checks the archive at `path`.
    static func readDocument(at path: String) throws -> KeyedArchiveDocument {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw Failure("cannot read '\(path)': \(reason(error))")
        }
        return try KeyedArchiveDocument(data: data)
    }

    /// Runs `body`; on an error, prints its sentence to standard error and exits with status 1.
    static func reportingFailure(_ body: () throws -> Void) throws {
        do {
            try body()
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
