import FuzzSupport
import Foundation
import ModelKit
import ModelKitPreferences

// Bytes → the preferences file reader. The parser of a preferences file is internal, so the
// harness goes through the public door: it writes the bytes to a file, opens `Preferences` on
// it and reads every value (a corrupt file is moved aside and reported as a typed error).

let directory: URL = {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("modelkit-fuzz-preferences-\(getpid())", isDirectory: true)
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}()
let file = directory.appendingPathComponent("fuzz.json")

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    // A new file (new inode) each time, so the reader never takes it for the one it read last.
    let contents = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    for name in contents { unlink(directory.appendingPathComponent(name).path) }
    do {
        try Data(bytes: start, count: count).write(to: file)
    } catch {
        fatalError("cannot write \(file.path): \(error)")
    }
    guard let preferences = try? Preferences(file: file) else { return 0 }
    if let values = try? preferences.allValues() {
        for key in values.keys { _ = try? preferences.value(forKey: key) }
    }
    return 0
}

// A debug build renames an executable's `main` to `fuzz_preferences_main` (SwiftPM's testable
// executables), which hides libFuzzer's own `main`: start libFuzzer's driver from here instead.
@_cdecl("fuzz_preferences_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runLibFuzzer(argc, argv, fuzz)
}
