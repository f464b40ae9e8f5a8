import FuzzSupport
import Foundation
import ModelKit

// Bytes → the XML property-list reader (and the format detection of `init(parsing:)`). Any
// thrown error is fine.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = [UInt8](UnsafeRawBufferPointer(start: start, count: count))
    _ = PropertyListFormat.detect(bytes)
    _ = try? PropertyListValue(parsing: bytes)
    guard let value = try? PropertyListValue(xml: bytes) else { return 0 }
    _ = value.binaryBytes()
    _ = try? value.xmlBytes()
    return 0
}

// A debug build renames an executable's `main` to `fuzz_plist_xml_main` (SwiftPM's testable
// executables), which hides libFuzzer's own `main`: start libFuzzer's driver from here instead.
@_cdecl("fuzz_plist_xml_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runLibFuzzer(argc, argv, fuzz)
}
