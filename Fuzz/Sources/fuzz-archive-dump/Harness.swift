import FuzzSupport
import Foundation
import ModelKit

// Bytes → the generic keyed-archive dump behind `modelkit archive dump` (the document check,
// then both renderers), and the generic decode of the root object. Any thrown error is fine.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    guard let document = try? KeyedArchiveDocument(data: data) else { return 0 }
    _ = try? ArchiveDump.text(document)
    _ = try? ArchiveDump.json(document)
    let unarchiver = KeyedUnarchiver(document: document)
    _ = try? unarchiver.decodeObject(forKey: "root")
    return 0
}

// A debug build renames an executable's `main` to `fuzz_archive_dump_main` (SwiftPM's testable
// executables), which hides libFuzzer's own `main`: start libFuzzer's driver from here instead.
@_cdecl("fuzz_archive_dump_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runLibFuzzer(argc, argv, fuzz)
}
