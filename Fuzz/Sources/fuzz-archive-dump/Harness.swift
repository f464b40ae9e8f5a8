import FuzzSupport
import Foundation
import ModelKit

// Bytes → the generic keyed-archive dump behind `modelkit archive dump` (the document check,
// then both renderers), and the generic decode of every root key and of every object (the
// first 1,024: each decode may walk the graph below it, and the 1 s timeout is per input), in
// one unarchiver, as a tool inspecting a file would. Any thrown error is fine.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    guard let document = try? KeyedArchiveDocument(data: data) else { return 0 }
    _ = try? ArchiveDump.text(document)
    _ = try? ArchiveDump.json(document)
    let unarchiver = KeyedUnarchiver(document: document)
    for key in document.topKeys {
        _ = try? unarchiver.decodeObject(forKey: key)
    }
    for objectID in 0..<min(document.objectCount, 1024) {
        _ = try? unarchiver.decodeObject(withID: objectID)
    }
    return 0
}

// A debug build renames an executable's `main` to `fuzz_archive_dump_main` (SwiftPM's testable
// executables), which hides libFuzzer's own `main`: start libFuzzer's driver from here instead.
@_cdecl("fuzz_archive_dump_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runLibFuzzer(argc, argv, fuzz)
}
